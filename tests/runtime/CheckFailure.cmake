#===- tests/runtime/CheckFailure.cmake - Check a runtime failure ----------===#
#
# Runs PROGRAM with POLYCUDA_FAIL_ALLOC=1 and checks that it exits with
# status 1 and prints "<WHERE>: error: ..." mentioning EXPECTED on stderr.
# Usage: cmake -DPROGRAM=... -DWHERE=... -DEXPECTED=... -P CheckFailure.cmake
#
#===----------------------------------------------------------------------===#
foreach(var PROGRAM WHERE EXPECTED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckFailure.cmake: ${var} is not set")
  endif()
endforeach()

set(ENV{POLYCUDA_FAIL_ALLOC} 1)
execute_process(COMMAND ${PROGRAM}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE errors)

if(NOT status STREQUAL "1")
  message(FATAL_ERROR
    "expected exit status 1, got '${status}'\nstderr:\n${errors}")
endif()
string(FIND "${errors}" "${WHERE}: error: " wherePos)
if(wherePos EQUAL -1)
  message(FATAL_ERROR
    "stderr does not contain '${WHERE}: error: '\nstderr:\n${errors}")
endif()
string(FIND "${errors}" "${EXPECTED}" expectedPos)
if(expectedPos EQUAL -1)
  message(FATAL_ERROR
    "stderr does not mention '${EXPECTED}'\nstderr:\n${errors}")
endif()
message(STATUS "failed as expected: ${errors}")
