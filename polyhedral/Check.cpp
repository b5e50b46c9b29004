//===- Check.cpp - Internal invariant checks ------------------------------===//
#include "Check.h"

#include <cstdio>
#include <cstdlib>

namespace polycuda {

CheckFailure::CheckFailure(const char *file, int line, const char *cond) {
  stream << file << ":" << line << ": internal compiler error: check '"
         << cond << "' failed: ";
}

CheckFailure::~CheckFailure() {
  std::fprintf(stderr, "%s\n", stream.str().c_str());
  std::fflush(stderr);
  std::abort();
}

} // namespace polycuda
