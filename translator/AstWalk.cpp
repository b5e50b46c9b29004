#include "AstWalk.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace polycuda::translator {
namespace {

/// The front end's one RecursiveASTVisitor: it forwards to an AstWalker.
class Forwarder : public clang::RecursiveASTVisitor<Forwarder> {
public:
  explicit Forwarder(AstWalker &walker) : walker(walker) {}
  bool VisitStmt(clang::Stmt *s) {
    walker.stmt(s);
    return true;
  }
  bool VisitDecl(clang::Decl *d) {
    walker.decl(d);
    return true;
  }
  bool TraverseForStmt(clang::ForStmt *loop) {
    walker.enterFor(loop);
    bool result = RecursiveASTVisitor::TraverseForStmt(loop);
    walker.leaveFor(loop);
    return result;
  }

private:
  AstWalker &walker;
};

} // namespace

void walk(clang::Stmt *s, AstWalker &walker) {
  Forwarder(walker).TraverseStmt(s);
}

void walk(clang::Decl *d, AstWalker &walker) {
  Forwarder(walker).TraverseDecl(d);
}

} // namespace polycuda::translator
