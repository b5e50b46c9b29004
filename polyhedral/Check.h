//===- Check.h - Internal invariant checks ---------------------*- C++ -*-===//
//
// POLYCUDA_CHECK(cond) << "context": always on; on failure prints file:line,
// the condition and "internal compiler error", then aborts. Never used to
// validate user input.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_CHECK_H
#define POLYCUDA_POLYHEDRAL_CHECK_H

#include <sstream>

namespace polycuda {

/// Collects the message of a failed check and aborts when destroyed.
class CheckFailure {
public:
  CheckFailure(const char *file, int line, const char *cond);
  [[noreturn]] ~CheckFailure();
  template <typename T> CheckFailure &operator<<(const T &value) {
    stream << value;
    return *this;
  }

private:
  std::ostringstream stream;
};

} // namespace polycuda

#define POLYCUDA_CHECK(cond)                                                   \
  if (cond) {                                                                  \
  } else                                                                       \
    ::polycuda::CheckFailure(__FILE__, __LINE__, #cond)

#endif
