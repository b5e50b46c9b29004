//===- Driver.h - The polycuda command line ---------------------*- C++ -*-===//
#ifndef POLYCUDA_TRANSLATOR_DRIVER_H
#define POLYCUDA_TRANSLATOR_DRIVER_H

namespace polycuda::translator {

/// Runs `polycuda [options] input.c [-o out]` or `polycuda run ...`; returns
/// the process exit code.
int runDriver(int argc, const char **argv);

} // namespace polycuda::translator

#endif
