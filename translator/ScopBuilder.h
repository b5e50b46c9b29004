//===- ScopBuilder.h - Clang AST -> polyhedral Scop -------------*- C++ -*-===//
//
// Front end: finds every `#pragma scop` ... `#pragma endscop` region of a C
// file with Clang LibTooling and builds its Scop (domains, tagged accesses,
// bodies). Everything it cannot model is reported as a located diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_SCOPBUILDER_H
#define POLYCUDA_TRANSLATOR_SCOPBUILDER_H

#include "Scop.h"

#include <memory>
#include <string>
#include <vector>

namespace polycuda::translator {

/// One scop region of the input and where it sits in the source text.
struct ScopRegion {
  std::unique_ptr<polyhedral::Scop> scop;
  /// Byte offsets in the main file: the start of the `#pragma scop` line and
  /// the end of the `#pragma endscop` line (one past its newline).
  unsigned beginOffset = 0;
  unsigned endOffset = 0;
  /// Byte offset where the enclosing function's declaration starts; kernels
  /// are printed there.
  unsigned functionOffset = 0;
  /// Identifiers in scope in the enclosing function, to avoid clashes.
  std::vector<std::string> usedNames;
};

/// The parsed input file.
struct ParsedInput {
  std::string fileName;
  std::string source;
  std::vector<ScopRegion> regions;
};

struct FrontendOptions {
  std::vector<std::string> clangArgs; ///< -I, -D, -std, ...
  bool verify = false;                ///< Check `expected-error` comments.
};

/// Parses `fileName` and builds the Scop of every region. Returns false if
/// an error was reported (or, with `verify`, if the expectations failed).
bool parseInput(const std::string &fileName, const FrontendOptions &options,
                isl::ctx ctx, ParsedInput &result);

/// Same for source text given in memory (tests).
bool parseCode(const std::string &code, const std::string &fileName,
               const FrontendOptions &options, isl::ctx ctx,
               ParsedInput &result);

} // namespace polycuda::translator

#endif
