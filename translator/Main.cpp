//===- Main.cpp - polycuda entry point ------------------------------------===//
#include "Driver.h"

int main(int argc, const char **argv) {
  return polycuda::translator::runDriver(argc, argv);
}
