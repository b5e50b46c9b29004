// One traversal of Clang's AST for the whole front end.
//
// A RecursiveASTVisitor is a template over its subclass: each one
// instantiates a Traverse function for every kind of node, which costs
// about 15 s of compile time per visitor (more with the sanitizers). The
// front end's walks share the single instantiation in AstWalk.cpp and say
// what they do at a node through the hooks below.
#pragma once

namespace clang {
class Decl;
class ForStmt;
class Stmt;
} // namespace clang

namespace polycuda::translator {

/// What a walk does at each node. The walk visits what a default
/// RecursiveASTVisitor visits (types' size expressions and declarations'
/// initializers included), in its order: a node before its children.
class AstWalker {
public:
  virtual ~AstWalker() = default;
  /// Every statement and expression.
  virtual void stmt(clang::Stmt *) {}
  /// Every declaration.
  virtual void decl(clang::Decl *) {}
  /// Around a `for` loop's traversal (its own `stmt` call comes after
  /// `enterFor`).
  virtual void enterFor(clang::ForStmt *) {}
  virtual void leaveFor(clang::ForStmt *) {}
};

/// Walks `s` (null: nothing) and everything below it.
void walk(clang::Stmt *s, AstWalker &walker);
/// Walks `d` (null: nothing) and everything below it.
void walk(clang::Decl *d, AstWalker &walker);

} // namespace polycuda::translator
