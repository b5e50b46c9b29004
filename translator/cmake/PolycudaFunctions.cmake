#===- PolycudaFunctions.cmake - polycuda_add_executable() -----------------===#
#
#   polycuda_add_executable(<name>
#     SCOP_SOURCES <file.c>...      translated by polycuda at build time
#     [SOURCES <file>...]           compiled as they are (main.c, helpers)
#     TARGET cuda|opencl|c          output language
#     [SIZES "kernel0=32,8;all=16"] block sizes, polycuda --sizes
#     [DEFINES NAME[=VALUE]...]     -D for polycuda and for every source
#     [INCLUDES <dir>...]           -I for polycuda and for every source
#     [OPTIONS <flag>...])          more polycuda flags (--original-schedule)
#
# Every SCOP_SOURCES file is translated, whether or not it holds a scop (a
# file without one comes out unchanged, with a warning), into
# ${CMAKE_CURRENT_BINARY_DIR}/polycuda/<name>/<stem>.cu and <stem>.host.c
# (cuda: the kernels, and the file itself still in C) or <stem>.c
# (opencl, c). The translation reruns when the source, polycuda, the flags,
# or (with a Makefile generator) a header the source includes changes. The
# executable is built from the translated files and SOURCES, and links
#   cuda    polycuda::runtime_cuda (shared cudart, as the runtime does); the
#           project must have enabled CUDA and C. The user's code stays C
#           (<stem>.host.c), so it links with C SOURCES as the original did.
#   opencl  polycuda::runtime_opencl and OpenCL
#   c       OpenMP::OpenMP_C
# and libm. The directories of the SCOP_SOURCES are added to the include path,
# so translated files still find the headers next to their originals.
#
# Works with an installed package (find_package(polycuda)) and inside the
# polycuda build tree, where polycuda::* are aliases of the built targets.
# DEFINES and INCLUDES given here reach polycuda; definitions added later with
# target_compile_definitions() reach only the compiler.
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)

# Makes the libraries of TARGET linkable from the calling directory, or stops
# with what the project must change.
function(_polycuda_require_target_support name target)
  if(target STREQUAL "cuda")
    # Per directory: the global ENABLED_LANGUAGES would also count a
    # sibling directory that enabled CUDA, where this one cannot compile it.
    if(NOT CMAKE_CUDA_COMPILER_LOADED)
      message(FATAL_ERROR "polycuda_add_executable(${name} TARGET cuda): "
        "call enable_language(CUDA) (or list CUDA in project()) first")
    endif()
    if(NOT CMAKE_C_COMPILER_LOADED)
      message(FATAL_ERROR "polycuda_add_executable(${name} TARGET cuda): "
        "the translated host file is C; call enable_language(C) first")
    endif()
    if(NOT TARGET polycuda::runtime_cuda)
      message(FATAL_ERROR "polycuda_add_executable(${name} TARGET cuda): "
        "this polycuda has no CUDA runtime (polycuda::runtime_cuda)")
    endif()
    if(NOT TARGET CUDA::cudart)
      find_package(CUDAToolkit REQUIRED)
    endif()
  elseif(target STREQUAL "opencl")
    if(NOT TARGET polycuda::runtime_opencl)
      message(FATAL_ERROR "polycuda_add_executable(${name} TARGET opencl): "
        "this polycuda has no OpenCL runtime (polycuda::runtime_opencl)")
    endif()
    if(NOT TARGET OpenCL::OpenCL)
      find_package(OpenCL REQUIRED)
    endif()
  elseif(target STREQUAL "c")
    if(NOT TARGET OpenMP::OpenMP_C)
      find_package(OpenMP COMPONENTS C)
    endif()
    if(NOT TARGET OpenMP::OpenMP_C)
      message(FATAL_ERROR "polycuda_add_executable(${name} TARGET c): "
        "OpenMP for C was not found")
    endif()
  else()
    message(FATAL_ERROR "polycuda_add_executable(${name}): TARGET must be "
      "cuda, opencl or c, not '${target}'")
  endif()
endfunction()

function(polycuda_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "TARGET;SIZES" "SOURCES;SCOP_SOURCES;DEFINES;INCLUDES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "polycuda_add_executable(${name}): unexpected "
      "arguments '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT arg_SCOP_SOURCES)
    message(FATAL_ERROR "polycuda_add_executable(${name}): no SCOP_SOURCES")
  endif()
  if(NOT TARGET polycuda::polycuda)
    message(FATAL_ERROR "polycuda_add_executable(${name}): no "
      "polycuda::polycuda target; call find_package(polycuda) first")
  endif()
  _polycuda_require_target_support(${name} "${arg_TARGET}")

  # Flags shared by polycuda and the compiler.
  set(defines "")
  foreach(define IN LISTS arg_DEFINES)
    string(REGEX REPLACE "^-D" "" define "${define}")
    list(APPEND defines "${define}")
  endforeach()
  set(includes "")
  foreach(dir IN LISTS arg_INCLUDES)
    get_filename_component(dir "${dir}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND includes "${dir}")
  endforeach()

  set(flags "--target=${arg_TARGET}")
  foreach(dir IN LISTS includes)
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(define IN LISTS defines)
    list(APPEND flags "-D${define}")
  endforeach()
  if(arg_SIZES)
    # One argument: polycuda separates kernels with ';', CMake lists too.
    string(REPLACE ";" "$<SEMICOLON>" sizes "${arg_SIZES}")
    list(APPEND flags "--sizes=${sizes}")
  endif()
  list(APPEND flags ${arg_OPTIONS})

  if(arg_TARGET STREQUAL "cuda")
    set(extension cu)
  else()
    set(extension c)
  endif()
  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/polycuda/${name}")
  # Makefile generators do not rerun a custom command whose command line
  # changed (new DEFINES, say); a file that changes with the flags does it.
  # file(CONFIGURE) leaves the file alone when its content is the same.
  set(flags_file "${outdir}/flags.txt")
  string(REPLACE ";" "\n" flags_text "${flags}")
  file(CONFIGURE OUTPUT "${flags_file}" CONTENT "${flags_text}\n" @ONLY)
  set(outputs "")
  set(stems "")
  set(source_dirs "")
  foreach(source IN LISTS arg_SCOP_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${source}" NAME_WLE)
    get_filename_component(file "${source}" NAME)
    get_filename_component(source_dir "${source}" DIRECTORY)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "polycuda_add_executable(${name}): two "
        "SCOP_SOURCES named '${stem}'; their outputs would collide")
    endif()
    list(APPEND stems "${stem}")
    list(APPEND source_dirs "${source_dir}")
    set(output "${outdir}/${stem}.${extension}")
    set(generated "${output}")
    if(arg_TARGET STREQUAL "cuda")
      list(APPEND generated "${outdir}/${stem}.host.c")
    endif()
    set(scan "")
    if(CMAKE_GENERATOR MATCHES "Makefiles")
      set(scan IMPLICIT_DEPENDS C "${source}")
    endif()
    add_custom_command(OUTPUT ${generated}
      COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
      COMMAND polycuda::polycuda ${flags} "${source}" -o "${output}"
      DEPENDS "${source}" "${flags_file}" polycuda::polycuda
      ${scan}
      COMMENT "polycuda --target=${arg_TARGET} ${file} -> ${output}"
      VERBATIM)
    list(APPEND outputs ${generated})
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  add_executable(${name} ${outputs} ${arg_SOURCES})
  target_include_directories(${name} PRIVATE ${source_dirs} ${includes})
  target_compile_definitions(${name} PRIVATE ${defines})
  if(arg_TARGET STREQUAL "cuda")
    # The runtime library calls the shared cudart; one copy per process.
    set_target_properties(${name} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
    target_link_libraries(${name} PRIVATE polycuda::runtime_cuda)
  elseif(arg_TARGET STREQUAL "opencl")
    target_link_libraries(${name} PRIVATE polycuda::runtime_opencl)
  else()
    target_link_libraries(${name} PRIVATE OpenMP::OpenMP_C)
  endif()
  if(UNIX)
    target_link_libraries(${name} PRIVATE m)
  endif()
  set_target_properties(${name} PROPERTIES
    POLYCUDA_TARGET "${arg_TARGET}"
    POLYCUDA_TRANSLATED_SOURCES "${outputs}")
endfunction()
