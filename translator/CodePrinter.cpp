//===- CodePrinter.cpp - isl ASTs and statement bodies as C-like code -----===//
#include "CodePrinter.h"

#include "Check.h"
#include "IslExtras.h"

#include <cctype>
#include <climits>
#include <set>

#include <isl/ast.h>
#include <isl/ast_build.h>

namespace polycuda::translator {

using polyhedral::Expr;

std::string helperDefinitions(const std::string &q) {
  std::ostringstream os;
  const std::string t = kIndexType;
  os << q << " " << t << " " << kFloorDiv << "(" << t << " n, " << t
     << " d) {\n"
     << "  return n >= 0 ? n / d : -((-n + d - 1) / d);\n}\n"
     << q << " " << t << " " << kMin << "(" << t << " a, " << t
     << " b) { return a < b ? a : b; }\n"
     << q << " " << t << " " << kMax << "(" << t << " a, " << t
     << " b) { return a > b ? a : b; }\n";
  return os.str();
}

std::string guardedHelperDefinitions(const std::string &qualifiers) {
  return "#ifndef POLYCUDA_HELPERS\n#define POLYCUDA_HELPERS\n" +
         helperDefinitions(qualifiers) + "#endif\n";
}

namespace {

const char *binaryOp(isl_ast_expr_op_type type) {
  switch (type) {
  case isl_ast_expr_op_and: return "&&";
  case isl_ast_expr_op_and_then: return "&&";
  case isl_ast_expr_op_or: return "||";
  case isl_ast_expr_op_or_else: return "||";
  case isl_ast_expr_op_add: return "+";
  case isl_ast_expr_op_sub: return "-";
  case isl_ast_expr_op_mul: return "*";
  case isl_ast_expr_op_div: return "/";
  case isl_ast_expr_op_pdiv_q: return "/";
  case isl_ast_expr_op_pdiv_r: return "%";
  case isl_ast_expr_op_zdiv_r: return "%";
  case isl_ast_expr_op_eq: return "==";
  case isl_ast_expr_op_le: return "<=";
  case isl_ast_expr_op_lt: return "<";
  case isl_ast_expr_op_ge: return ">=";
  case isl_ast_expr_op_gt: return ">";
  default: return nullptr;
  }
}

std::string printRaw(isl_ast_expr *expr) {
  switch (isl_ast_expr_get_type(expr)) {
  case isl_ast_expr_id: {
    isl_id *id = isl_ast_expr_get_id(expr);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    return name;
  }
  case isl_ast_expr_int: {
    isl_val *v = isl_ast_expr_get_val(expr);
    char *s = isl_val_to_str(v);
    std::string text = s;
    free(s);
    isl_val_free(v);
    return text;
  }
  case isl_ast_expr_op:
    break;
  default:
    POLYCUDA_CHECK(false) << "unexpected isl AST expression";
  }
  isl_ast_expr_op_type type = isl_ast_expr_op_get_type(expr);
  int n = isl_ast_expr_op_get_n_arg(expr);
  std::vector<std::string> args;
  for (int i = 0; i < n; ++i) {
    isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);
    args.push_back(printRaw(arg));
    isl_ast_expr_free(arg);
  }
  if (const char *op = binaryOp(type)) {
    std::string text = "(" + args[0];
    for (int i = 1; i < n; ++i)
      text += " " + std::string(op) + " " + args[i];
    return text + ")";
  }
  switch (type) {
  case isl_ast_expr_op_minus:
    return "(-" + args[0] + ")";
  case isl_ast_expr_op_max:
  case isl_ast_expr_op_min: {
    const char *fn = type == isl_ast_expr_op_max ? kMax : kMin;
    std::string text = args[0];
    for (int i = 1; i < n; ++i)
      text = std::string(fn) + "(" + text + ", " + args[i] + ")";
    return text;
  }
  case isl_ast_expr_op_fdiv_q:
    return std::string(kFloorDiv) + "(" + args[0] + ", " + args[1] + ")";
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return "(" + args[0] + " ? " + args[1] + " : " + args[2] + ")";
  case isl_ast_expr_op_call: {
    std::string text = args[0] + "(";
    for (int i = 1; i < n; ++i)
      text += (i > 1 ? ", " : "") + args[i];
    return text + ")";
  }
  default:
    POLYCUDA_CHECK(false) << "unsupported isl AST operation " << type;
  }
  return "";
}

} // namespace

std::string printExpr(const isl::ast_expr &expr) {
  return printRaw(expr.get());
}

/// `expr` without one pair of parentheses around the whole of it (OpenMP
/// wants `i < n`, not `(i < n)`, as a loop test).
static std::string printBare(const isl::ast_expr &expr) {
  std::string text = printExpr(expr);
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return text;
  int depth = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0)
      return text;
  }
  return text.substr(1, text.size() - 2);
}

std::string callName(const isl::ast_expr &call) {
  isl_ast_expr *fn = isl_ast_expr_op_get_arg(call.get(), 0);
  isl_id *id = isl_ast_expr_get_id(fn);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  isl_ast_expr_free(fn);
  return name;
}

std::vector<isl::ast_expr> callArgs(const isl::ast_expr &call) {
  std::vector<isl::ast_expr> args;
  int n = isl_ast_expr_op_get_n_arg(call.get());
  for (int i = 1; i < n; ++i)
    args.push_back(isl::manage(isl_ast_expr_op_get_arg(call.get(), i)));
  return args;
}

std::string printParamExpr(const isl::set &context, const isl::pw_aff &pa) {
  isl_space *params = isl_space_align_params(isl_set_get_space(context.get()),
                                             isl_pw_aff_get_space(pa.get()));
  isl_ast_build *build = isl_ast_build_from_context(
      isl_set_align_params(context.copy(), isl_space_copy(params)));
  isl_ast_expr *expr = isl_ast_build_expr_from_pw_aff(
      build, isl_pw_aff_align_params(pa.copy(), params));
  isl_ast_build_free(build);
  return printExpr(isl::manage(expr));
}

/// `text` as one operand: in brackets unless it is a name, a number or one
/// bracketed group already (a subscript such as `0 > j - 1 ? 0 : j - 1`
/// must not bind to the `+` of a linearized index).
static std::string asOperand(const std::string &text) {
  bool atom = !text.empty();
  for (char c : text)
    atom &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  if (atom)
    return text;
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    int depth = 0;
    size_t i = 0;
    for (; i + 1 < text.size(); ++i) {
      depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
      if (depth == 0)
        break;
    }
    if (i + 1 == text.size())
      return text;
  }
  return "(" + text + ")";
}

std::string linearIndex(const polyhedral::Scop &scop,
                        const polyhedral::Array &array,
                        const std::vector<std::string> &subscripts) {
  if (subscripts.empty())
    return "0";
  // 64-bit arithmetic unless the array provably has at most INT_MAX
  // elements (every extent a known constant).
  long elements = 1;
  bool narrow = array.firstExtentKnown;
  for (const isl::pw_aff &extent : array.extents) {
    std::optional<long> value = polyhedral::constantValue(extent);
    narrow &= value && *value > 0 && elements <= INT_MAX / *value;
    if (narrow)
      elements *= *value;
  }
  std::string index =
      narrow ? asOperand(subscripts[0]) : "(long)(" + subscripts[0] + ")";
  for (size_t d = 1; d < subscripts.size(); ++d)
    index = "(" + index + ") * (" +
            printParamExpr(scop.context, array.extents[d]) + ") + " +
            asOperand(subscripts[d]);
  return index;
}

namespace {

int precedence(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Binary: {
    static const std::map<std::string, int> prec = {
        {"*", 13}, {"/", 13}, {"%", 13}, {"+", 12}, {"-", 12},
        {"<<", 11}, {">>", 11}, {"<", 10}, {"<=", 10}, {">", 10},
        {">=", 10}, {"==", 9}, {"!=", 9}, {"&", 8}, {"^", 7},
        {"|", 6}, {"&&", 5}, {"||", 4}};
    auto it = prec.find(e.op);
    return it == prec.end() ? 0 : it->second;
  }
  case Expr::Kind::Ternary:
    return 3;
  case Expr::Kind::Unary:
  case Expr::Kind::Cast:
    return 14;
  default:
    return 16;
  }
}

bool isFloating(polyhedral::ElemType type) {
  return type == polyhedral::ElemType::Float ||
         type == polyhedral::ElemType::Double;
}

/// The type of `a op b` under C's usual arithmetic conversions (integer
/// types are not told apart: only floating point matters here).
polyhedral::ElemType common(polyhedral::ElemType a, polyhedral::ElemType b) {
  using polyhedral::ElemType;
  if (a == ElemType::Double || b == ElemType::Double)
    return ElemType::Double;
  if (a == ElemType::Float || b == ElemType::Float)
    return ElemType::Float;
  return ElemType::Long;
}

struct BodyPrinter {
  const polyhedral::Scop &scop;
  const polyhedral::Statement &stmt;
  const std::map<std::string, std::string> &iterators;
  const ArrayRefPrinter &arrayRef;
  const std::function<std::string(const std::string &)> &mathName;
  const ProductPrinter &product;

  std::string operand(const Expr &e, int parentPrec, bool right) {
    std::string text = print(e);
    int p = precedence(e);
    if (p < parentPrec || (right && p == parentPrec))
      return "(" + text + ")";
    return text;
  }

  std::string print(const Expr &e) {
    switch (e.kind) {
    case Expr::Kind::IntLit:
    case Expr::Kind::FloatLit:
      return e.literal;
    case Expr::Kind::Iterator: {
      auto it = iterators.find(e.name);
      POLYCUDA_CHECK(it != iterators.end()) << "unbound iterator " << e.name;
      return "(" + it->second + ")";
    }
    case Expr::Kind::Param:
      return e.name;
    case Expr::Kind::ArrayRef: {
      const polyhedral::Access &access = stmt.accesses[e.access];
      std::vector<std::string> subscripts;
      for (size_t d = 0; d < e.args.size(); ++d) {
        // A non-affine subscript may be any integer expression (`a & 7`,
        // `c ? i : j`); a linearized index adds it: bracket it below `+`.
        bool nonAffine = d < access.nonAffineSubscripts.size() &&
                         !access.nonAffineSubscripts[d].empty();
        subscripts.push_back(nonAffine ? operand(*e.args[d], 12, false)
                                       : print(*e.args[d]));
      }
      return arrayRef(scop.arrays[access.array], subscripts);
    }
    case Expr::Kind::Unary:
      return e.op + operand(*e.args[0], 14, false);
    case Expr::Kind::Cast:
      return std::string("(") + polyhedral::spell(e.castType) + ")" +
             operand(*e.args[0], 14, false);
    case Expr::Kind::Binary: {
      if (e.op == "*" && product) {
        polyhedral::ElemType type = typeOf(scop, stmt, e);
        std::string fn = isFloating(type) ? product(type) : "";
        if (!fn.empty())
          return fn + "(" + print(*e.args[0]) + ", " + print(*e.args[1]) + ")";
      }
      int p = precedence(e);
      return operand(*e.args[0], p, false) + " " + e.op + " " +
             operand(*e.args[1], p, true);
    }
    case Expr::Kind::Ternary:
      return operand(*e.args[0], 4, false) + " ? " + operand(*e.args[1], 3, false) +
             " : " + operand(*e.args[2], 3, false);
    case Expr::Kind::Call: {
      std::string text = mathName(e.name) + "(";
      for (size_t i = 0; i < e.args.size(); ++i)
        text += (i ? ", " : "") + print(*e.args[i]);
      return text + ")";
    }
    }
    return "";
  }
};

} // namespace

polyhedral::ElemType typeOf(const polyhedral::Scop &scop,
                            const polyhedral::Statement &stmt,
                            const Expr &e) {
  using polyhedral::ElemType;
  switch (e.kind) {
  case Expr::Kind::IntLit:
  case Expr::Kind::Iterator:
  case Expr::Kind::Param:
    return ElemType::Long;
  case Expr::Kind::FloatLit: {
    char last = e.literal.empty() ? ' ' : e.literal.back();
    return last == 'f' || last == 'F' ? ElemType::Float : ElemType::Double;
  }
  case Expr::Kind::ArrayRef:
    return scop.arrays[stmt.accesses[e.access].array].type;
  case Expr::Kind::Cast:
    return e.castType;
  case Expr::Kind::Unary:
    return e.op == "!" ? ElemType::Int : typeOf(scop, stmt, *e.args[0]);
  case Expr::Kind::Binary: {
    static const std::set<std::string> arithmetic = {"+", "-", "*", "/"};
    if (!arithmetic.count(e.op))
      return ElemType::Int;
    return common(typeOf(scop, stmt, *e.args[0]),
                  typeOf(scop, stmt, *e.args[1]));
  }
  case Expr::Kind::Ternary:
    return common(typeOf(scop, stmt, *e.args[1]),
                  typeOf(scop, stmt, *e.args[2]));
  case Expr::Kind::Call: {
    static const std::set<std::string> integral = {"abs", "labs", "llabs"};
    if (integral.count(e.name))
      return ElemType::Long;
    char last = e.name.empty() ? ' ' : e.name.back();
    return last == 'f' && e.name != "modf" && e.name != "erf"
               ? ElemType::Float
                                            : ElemType::Double;
  }
  }
  return ElemType::Double;
}

std::string printStatement(
    const polyhedral::Scop &scop, const polyhedral::Statement &stmt,
    const std::map<std::string, std::string> &iterators,
    const ArrayRefPrinter &arrayRef,
    const std::function<std::string(const std::string &)> &mathName,
    const ProductPrinter &product) {
  BodyPrinter printer{scop, stmt, iterators, arrayRef, mathName, product};
  return printer.print(*stmt.lhs) + " " + stmt.op + " " +
         printer.print(*stmt.rhs) + ";";
}

void printUserStatement(
    const polyhedral::Scop &scop, const isl::ast_expr &call,
    const ArrayRefPrinter &arrayRef,
    const std::function<std::string(const std::string &)> &mathName,
    int indent, std::ostream &os, const ProductPrinter &product) {
  std::string name = callName(call);
  const polyhedral::Statement *stmt = scop.findStatement(name);
  POLYCUDA_CHECK(stmt) << "unknown statement " << name;
  std::vector<isl::ast_expr> args = callArgs(call);
  std::map<std::string, std::string> iterators;
  for (size_t i = 0; i < args.size(); ++i)
    iterators[stmt->iterators[i]] = printExpr(args[i]);
  os << indentBy(indent)
     << printStatement(scop, *stmt, iterators, arrayRef, mathName, product)
     << "\n";
}

void AstPrinter::printFor(const isl::ast_node &node, int indent,
                          std::ostream &os) const {
  isl_ast_node *raw = node.get();
  isl_ast_expr *it = isl_ast_node_for_get_iterator(raw);
  std::string name = printRaw(it);
  isl_ast_expr_free(it);
  isl::ast_expr init = isl::manage(isl_ast_node_for_get_init(raw));
  isl::ast_node body = isl::manage(isl_ast_node_for_get_body(raw));
  if (isl_ast_node_for_is_degenerate(raw) == isl_bool_true) {
    os << indentBy(indent) << "{\n"
       << indentBy(indent + 1) << "const " << kIndexType << " " << name
       << " = "
       << printExpr(init) << ";\n";
    print(body, indent + 1, os);
    os << indentBy(indent) << "}\n";
    return;
  }
  isl::ast_expr cond = isl::manage(isl_ast_node_for_get_cond(raw));
  isl::ast_expr inc = isl::manage(isl_ast_node_for_get_inc(raw));
  os << indentBy(indent) << "for (" << kIndexType << " " << name << " = "
     << printExpr(init)
     << "; " << printBare(cond) << "; " << name << " += " << printExpr(inc)
     << ") {\n";
  print(body, indent + 1, os);
  os << indentBy(indent) << "}\n";
}

void AstPrinter::print(const isl::ast_node &node, int indent,
                       std::ostream &os) const {
  isl_ast_node *raw = node.get();
  switch (isl_ast_node_get_type(raw)) {
  case isl_ast_node_for:
    printFor(node, indent, os);
    return;
  case isl_ast_node_if: {
    isl::ast_expr cond = isl::manage(isl_ast_node_if_get_cond(raw));
    isl::ast_node then = isl::manage(isl_ast_node_if_get_then_node(raw));
    os << indentBy(indent) << "if (" << printBare(cond) << ") {\n";
    print(then, indent + 1, os);
    if (isl_ast_node_if_has_else_node(raw) == isl_bool_true) {
      isl::ast_node other = isl::manage(isl_ast_node_if_get_else_node(raw));
      os << indentBy(indent) << "} else {\n";
      print(other, indent + 1, os);
    }
    os << indentBy(indent) << "}\n";
    return;
  }
  case isl_ast_node_block: {
    isl_ast_node_list *list = isl_ast_node_block_get_children(raw);
    int n = isl_ast_node_list_n_ast_node(list);
    for (int i = 0; i < n; ++i)
      print(isl::manage(isl_ast_node_list_get_ast_node(list, i)), indent, os);
    isl_ast_node_list_free(list);
    return;
  }
  case isl_ast_node_user:
    user(isl::manage(isl_ast_node_user_get_expr(raw)), indent, os);
    return;
  case isl_ast_node_mark: {
    isl_id *id = isl_ast_node_mark_get_id(raw);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    isl::ast_node child = isl::manage(isl_ast_node_mark_get_node(raw));
    if (!mark || !mark(name, child, indent, os))
      print(child, indent, os);
    return;
  }
  default:
    POLYCUDA_CHECK(false) << "unexpected isl AST node";
  }
}

} // namespace polycuda::translator
