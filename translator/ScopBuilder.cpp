//===- ScopBuilder.cpp - Clang AST -> polyhedral Scop ---------------------===//
//
// Front end (see ScopBuilder.h). Pragmas are recorded by a preprocessor
// handler; after parsing, the statements of each function that lie between a
// `#pragma scop` and its `#pragma endscop` are collected and the scop of each
// region is built from them (scopbuilder/: affine parts such as bounds,
// conditions and subscripts are turned into isl syntax and parsed by isl; the
// statement bodies become polyhedral::Expr trees).
//
//===----------------------------------------------------------------------===//
#include "ScopBuilder.h"

#include "AstWalk.h"
#include "Diagnostics.h"
#include "scopbuilder/ScopBuilderInternal.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

using namespace clang;

namespace polycuda::translator {

namespace {

struct PragmaLocs {
  std::vector<std::pair<SourceLocation, bool>> marks; // (loc, isBegin)
};

class ScopPragmaHandler : public PragmaHandler {
public:
  ScopPragmaHandler(const char *name, bool isBegin, PragmaLocs &locs)
      : PragmaHandler(name), isBegin(isBegin), locs(locs) {}
  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &token) override {
    locs.marks.push_back({introducer.Loc, isBegin});
    // Skip the rest of the line.
    while (token.isNot(tok::eod))
      pp.Lex(token);
  }

private:
  bool isBegin;
  PragmaLocs &locs;
};

/// Finds the scop regions and builds them after parsing.
class ScopConsumer : public ASTConsumer {
public:
  ScopConsumer(PragmaLocs &locs, isl::ctx ctx,
               ParsedInput &result)
      : locs(locs), ctx(ctx), result(result) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    SourceManager &sm = ast.getSourceManager();
    DiagnosticsEngine &diags = ast.getDiagnostics();
    if (diags.hasErrorOccurred())
      return;
    FileID main = sm.getMainFileID();
    result.source = sm.getBufferData(main).str();
    std::vector<std::pair<SourceLocation, SourceLocation>> regions =
        pairPragmas(sm, diags);
    if (diags.hasErrorOccurred())
      return;
    if (regions.empty())
      report(diags, sm.getLocForStartOfFile(main), Diag::NoScop);
    for (auto &[begin, end] : regions)
      buildRegion(ast, begin, end);
  }

private:
  PragmaLocs &locs;
  isl::ctx ctx;
  ParsedInput &result;

  /// The `#pragma scop` and `#pragma endscop` of the main file, paired up;
  /// reports those without a partner.
  std::vector<std::pair<SourceLocation, SourceLocation>>
  pairPragmas(SourceManager &sm, DiagnosticsEngine &diags) {
    FileID main = sm.getMainFileID();
    std::vector<std::pair<SourceLocation, SourceLocation>> regions;
    SourceLocation open;
    for (auto &[loc, isBegin] : locs.marks) {
      if (sm.getFileID(sm.getExpansionLoc(loc)) != main)
        continue;
      if (isBegin) {
        if (open.isValid()) {
          report(diags, loc, Diag::NestedScop);
          continue;
        }
        open = loc;
      } else {
        if (open.isInvalid()) {
          report(diags, loc, Diag::EndScopWithoutScop);
          continue;
        }
        regions.push_back({open, loc});
        open = SourceLocation();
      }
    }
    if (open.isValid())
      report(diags, open, Diag::MissingEndScop);
    return regions;
  }

  /// Builds the scop between the pragmas at `begin` and `end` and adds it
  /// to the result, unless a diagnostic was reported.
  void buildRegion(ASTContext &ast, SourceLocation begin, SourceLocation end) {
    SourceManager &sm = ast.getSourceManager();
    DiagnosticsEngine &diags = ast.getDiagnostics();
    // Pragmas written as _Pragma in a macro: where the macro is used.
    begin = sm.getExpansionLoc(begin);
    end = sm.getExpansionLoc(end);
    unsigned b = sm.getFileOffset(begin), e = sm.getFileOffset(end);
    std::vector<Stmt *> stmts;
    FunctionDecl *function = enclosingFunction(ast, b, e, stmts);
    if (!function) {
      report(diags, begin, Diag::ScopNotInFunction);
      return;
    }
    ScopRegion region;
    region.beginOffset = lineStart(b);
    region.endOffset = lineEnd(e);
    region.functionOffset = lineStart(
        sm.getFileOffset(sm.getExpansionLoc(function->getBeginLoc())));
    region.scop = std::make_unique<polyhedral::Scop>(ctx);
    region.scop->functionName = function->getName().str();
    PresumedLoc p = sm.getPresumedLoc(begin);
    region.scop->loc = {p.getFilename(), p.getLine(), p.getColumn()};
    collectNames(function, region.usedNames);
    if (stmts.empty()) {
      report(diags, begin, Diag::EmptyScop);
      return;
    }
    try {
      scopbuilder::buildScop(ast, *region.scop, stmts, function, e,
                             region.usedNames);
    } catch (const scopbuilder::Abandon &) {
      return;
    } catch (const isl::exception &ex) {
      llvm::errs() << region.scop->loc.str()
                   << ": internal compiler error: isl: " << ex.what() << "\n";
      diags.Report(begin, diags.getCustomDiagID(DiagnosticsEngine::Error,
                                                "internal compiler error "
                                                "while building the scop"));
      return;
    }
    result.regions.push_back(std::move(region));
  }

  /// The function of the main file whose body holds the byte offsets `b`
  /// to `e`, or null; adds the statements between them to `stmts`.
  FunctionDecl *enclosingFunction(ASTContext &ast, unsigned b, unsigned e,
                                  std::vector<Stmt *> &stmts) {
    SourceManager &sm = ast.getSourceManager();
    FunctionDecl *function = nullptr;
    for (Decl *decl : ast.getTranslationUnitDecl()->decls()) {
      auto *fn = dyn_cast<FunctionDecl>(decl);
      if (!fn || !fn->hasBody() || !sm.isInMainFile(fn->getBeginLoc()))
        continue;
      unsigned fb = sm.getFileOffset(sm.getExpansionLoc(fn->getBeginLoc()));
      unsigned fe = sm.getFileOffset(sm.getExpansionLoc(fn->getEndLoc()));
      if (fb < b && e < fe) {
        function = fn;
        collect(fn->getBody(), b, e, sm, stmts);
      }
    }
    return function;
  }

  unsigned lineStart(unsigned offset) {
    while (offset > 0 && result.source[offset - 1] != '\n')
      --offset;
    return offset;
  }
  unsigned lineEnd(unsigned offset) {
    while (offset < result.source.size() && result.source[offset] != '\n')
      ++offset;
    return offset < result.source.size() ? offset + 1 : offset;
  }

  /// The statements of the outermost compound statement that has children
  /// between the two pragmas.
  void collect(Stmt *s, unsigned b, unsigned e, SourceManager &sm,
               std::vector<Stmt *> &out) {
    auto *compound = dyn_cast_or_null<CompoundStmt>(s);
    if (compound) {
      bool found = false;
      for (Stmt *child : compound->body()) {
        unsigned cb = sm.getFileOffset(sm.getExpansionLoc(child->getBeginLoc()));
        if (cb > b && cb < e) {
          out.push_back(child);
          found = true;
        }
      }
      if (found)
        return;
    }
    if (!s)
      return;
    for (Stmt *child : s->children()) {
      if (!child)
        continue;
      unsigned cb = sm.getFileOffset(sm.getExpansionLoc(child->getBeginLoc()));
      unsigned ce = sm.getFileOffset(sm.getExpansionLoc(child->getEndLoc()));
      if (cb < b && e < ce)
        collect(child, b, e, sm, out);
    }
  }

  void collectNames(FunctionDecl *fn, std::vector<std::string> &names) {
    struct Names : AstWalker {
      std::vector<std::string> &names;
      explicit Names(std::vector<std::string> &n) : names(n) {}
      void decl(Decl *d) override {
        if (auto *named = dyn_cast<NamedDecl>(d))
          names.push_back(named->getNameAsString());
      }
      void stmt(Stmt *s) override {
        if (auto *r = dyn_cast<DeclRefExpr>(s))
          names.push_back(r->getDecl()->getNameAsString());
      }
    } visitor(names);
    walk(fn, visitor);
  }
};

class ScopAction : public ASTFrontendAction {
public:
  ScopAction(isl::ctx ctx, ParsedInput &result) : ctx(ctx), result(result) {}

  bool BeginSourceFileAction(CompilerInstance &ci) override {
    Preprocessor &pp = ci.getPreprocessor();
    pp.AddPragmaHandler(new ScopPragmaHandler("scop", true, locs));
    pp.AddPragmaHandler(new ScopPragmaHandler("endscop", false, locs));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ScopConsumer>(locs, ctx, result);
  }

private:
  isl::ctx ctx;
  ParsedInput &result;
  PragmaLocs locs;
};

class ScopActionFactory : public tooling::FrontendActionFactory {
public:
  ScopActionFactory(isl::ctx ctx, ParsedInput &result)
      : ctx(ctx), result(result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ScopAction>(ctx, result);
  }

private:
  isl::ctx ctx;
  ParsedInput &result;
};

std::vector<std::string> clangArguments(const FrontendOptions &options) {
  // Clang's own headers (stddef.h, ...): the build's Clang, unless
  // POLYCUDA_CLANG_RESOURCE_DIR names another copy (a relocated install).
  const char *resourceDir = std::getenv("POLYCUDA_CLANG_RESOURCE_DIR");
  std::string resource = std::string("-resource-dir=") +
                         (resourceDir && *resourceDir
                              ? resourceDir
                              : POLYCUDA_CLANG_RESOURCE_DIR);
  std::vector<std::string> args = {"-fsyntax-only", "-std=gnu99", resource,
                                   "-Wno-unknown-pragmas",
                                   "-fno-color-diagnostics"};
  for (const std::string &arg : options.clangArgs)
    args.push_back(arg);
  if (options.verify) {
    args.push_back("-Xclang");
    args.push_back("-verify");
  }
  return args;
}

/// Clang's parser and Sema recurse once per level of an expression: a sum
/// of 100,000 terms overflows the 8 MiB main stack inside clang (clang-14
/// itself crashes on it) before polycuda sees the AST and can refuse it with
/// ExpressionTooDeep. The front end runs on a thread with this much stack
/// (address space; only the pages used are committed).
constexpr unsigned kFrontendStackSize = 512u << 20;

bool runOnLargeStack(llvm::function_ref<bool()> parse) {
  bool ok = false;
  // Crash recovery is not enabled: this only runs `parse` on the thread.
  llvm::CrashRecoveryContext().RunSafelyOnThread([&] { ok = parse(); },
                                                 kFrontendStackSize);
  return ok;
}

} // namespace

bool parseCode(const std::string &code, const std::string &fileName,
               const FrontendOptions &options, isl::ctx ctx,
               ParsedInput &result) {
  result.fileName = fileName;
  return runOnLargeStack([&] {
    return tooling::runToolOnCodeWithArgs(
        std::make_unique<ScopAction>(ctx, result), code,
        clangArguments(options), fileName);
  });
}

bool parseInput(const std::string &fileName, const FrontendOptions &options,
                isl::ctx ctx, ParsedInput &result) {
  result.fileName = fileName;
  std::vector<std::string> args = clangArguments(options);
  args.insert(args.begin(), "clang");
  args.push_back(fileName);
  llvm::IntrusiveRefCntPtr<FileManager> files(
      new FileManager(FileSystemOptions()));
  auto factory = std::make_unique<ScopActionFactory>(ctx, result);
  tooling::ToolInvocation invocation(args, factory->create(), files.get());
  return runOnLargeStack([&] { return invocation.run(); });
}

} // namespace polycuda::translator
