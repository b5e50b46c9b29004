//===- CodePrinter.cpp - isl ASTs and statement bodies as C-like code -----===//
#include "CodePrinter.h"

#include "Check.h"
#include "GpuProgram.h"
#include "IslExtras.h"

#include <cctype>
#include <climits>
#include <set>
#include <sstream>
#include <utility>

namespace polycuda::translator {

using polyhedral::callId;
using polyhedral::Expr;
using polyhedral::forEachAstNode;

std::string helperDefinitions(const std::string &q) {
  std::ostringstream os;
  const std::string t = kIndexType;
  os << q << " " << t << " " << kFloorDiv << "(" << t << " n, " << t
     << " d) {\n"
     << "  return n >= 0 ? n / d : -((-n + d - 1) / d);\n}\n"
     << q << " " << t << " " << kMin << "(" << t << " a, " << t
     << " b) { return a < b ? a : b; }\n"
     << q << " " << t << " " << kMax << "(" << t << " a, " << t
     << " b) { return a > b ? a : b; }\n"
     << q << " " << t << " " << kMinArith << "(" << t << " a, " << t
     << " b) {\n  " << t << " d = a - b;\n"
     << "  return b + (d & (d >> (8 * sizeof(d) - 1)));\n}\n"
     << q << " " << t << " " << kMaxArith << "(" << t << " a, " << t
     << " b) {\n  " << t << " d = a - b;\n"
     << "  return a - (d & (d >> (8 * sizeof(d) - 1)));\n}\n";
  return os.str();
}

std::string sourceReference(const polyhedral::Array &array,
                            const std::vector<std::string> &subscripts) {
  std::string text = array.source.empty() ? array.name : array.source;
  size_t dims = subscripts.size() - (array.fields.empty() ? 0 : 1);
  for (size_t d = 0; d < dims; ++d)
    text += "[" + subscripts[d] + "]";
  if (!array.fields.empty())
    text += "." + array.fields.at(std::stoul(subscripts.back()));
  return text;
}

std::string guardedHelperDefinitions(const std::string &qualifiers) {
  return "#ifndef POLYCUDA_HELPERS\n#define POLYCUDA_HELPERS\n" +
         helperDefinitions(qualifiers) + "#endif\n";
}

namespace {

/// Whether `op` is the isl operation `T`.
template <typename T> bool isOp(const isl::ast_expr_op &op) {
  return op.isa<T>();
}

using OpTest = bool (*)(const isl::ast_expr_op &);

/// The isl operations printed as `(a op b op ...)`, with their C operator.
const std::pair<OpTest, const char *> kInfixOps[] = {
    {isOp<isl::ast_expr_op_and>, "&&"},
    {isOp<isl::ast_expr_op_and_then>, "&&"},
    {isOp<isl::ast_expr_op_or>, "||"},
    {isOp<isl::ast_expr_op_or_else>, "||"},
    {isOp<isl::ast_expr_op_add>, "+"},
    {isOp<isl::ast_expr_op_sub>, "-"},
    {isOp<isl::ast_expr_op_mul>, "*"},
    {isOp<isl::ast_expr_op_div>, "/"},
    {isOp<isl::ast_expr_op_pdiv_q>, "/"},
    {isOp<isl::ast_expr_op_pdiv_r>, "%"},
    {isOp<isl::ast_expr_op_zdiv_r>, "%"},
    {isOp<isl::ast_expr_op_eq>, "=="},
    {isOp<isl::ast_expr_op_le>, "<="},
    {isOp<isl::ast_expr_op_lt>, "<"},
    {isOp<isl::ast_expr_op_ge>, ">="},
    {isOp<isl::ast_expr_op_gt>, ">"}};

const char *binaryOp(const isl::ast_expr_op &op) {
  for (const auto &[matches, text] : kInfixOps)
    if (matches(op))
      return text;
  return nullptr;
}

std::string printOp(const isl::ast_expr_op &op) {
  int n = op.n_arg();
  std::vector<std::string> args;
  for (int i = 0; i < n; ++i)
    args.push_back(printExpr(op.arg(i)));
  if (const char *infix = binaryOp(op)) {
    std::string text = "(" + args[0];
    for (int i = 1; i < n; ++i)
      text += " " + std::string(infix) + " " + args[i];
    return text + ")";
  }
  if (op.isa<isl::ast_expr_op_minus>())
    return "(-" + args[0] + ")";
  if (op.isa<isl::ast_expr_op_max>() || op.isa<isl::ast_expr_op_min>()) {
    // LLVM-based compilers (nvcc's cicc in CUDA 13, PoCL 5, NVIDIA's
    // OpenCL) hang optimizing some loop nests whose lower bound is a max of
    // three terms, one of them an outer iterator, with the inner bounds
    // depending on it: max(max(-m + 2, -n + 2), -k0 - 1) nested to the
    // left (random programs 8000143, 8003309) and max(-m - 1, max(-n + 1,
    // -k0 - 2)) nested to the right (603311, 603939). Three terms or more
    // are computed without a comparison, which they optimize in a second;
    // two keep the comparison (tile bounds, which the compilers handle).
    bool max = op.isa<isl::ast_expr_op_max>();
    const char *fn =
        n >= 3 ? (max ? kMaxArith : kMinArith) : (max ? kMax : kMin);
    std::string text = args[n - 1];
    for (int i = n - 2; i >= 0; --i)
      text = std::string(fn) + "(" + args[i] + ", " + text + ")";
    return text;
  }
  if (op.isa<isl::ast_expr_op_fdiv_q>())
    return std::string(kFloorDiv) + "(" + args[0] + ", " + args[1] + ")";
  if (op.isa<isl::ast_expr_op_cond>() || op.isa<isl::ast_expr_op_select>())
    return "(" + args[0] + " ? " + args[1] + " : " + args[2] + ")";
  if (op.isa<isl::ast_expr_op_call>()) {
    std::string text = args[0] + "(";
    for (int i = 1; i < n; ++i)
      text += (i > 1 ? ", " : "") + args[i];
    return text + ")";
  }
  POLYCUDA_CHECK(false) << "unsupported isl AST operation " << op.to_C_str();
  return "";
}

} // namespace

std::string printExpr(const isl::ast_expr &expr) {
  if (expr.isa<isl::ast_expr_id>())
    return expr.as<isl::ast_expr_id>().id().name();
  if (expr.isa<isl::ast_expr_int>())
    return polyhedral::toString(expr.as<isl::ast_expr_int>().val());
  if (expr.isa<isl::ast_expr_op>())
    return printOp(expr.as<isl::ast_expr_op>());
  POLYCUDA_CHECK(false) << "unexpected isl AST expression";
  return "";
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

std::string callName(const isl::ast_expr &call) { return callId(call).name(); }

std::vector<isl::ast_expr> callArgs(const isl::ast_expr &call) {
  isl::ast_expr_op op = call.as<isl::ast_expr_op>();
  std::vector<isl::ast_expr> args;
  int n = op.n_arg();
  for (int i = 1; i < n; ++i)
    args.push_back(op.arg(i));
  return args;
}

std::string printParamExpr(const isl::set &context, const isl::pw_aff &pa) {
  return printExpr(polyhedral::buildExprFromParams(context, pa));
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
  const ReferenceOverride &reference;
  const ScaledReference &scaled;

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
      if (reference) {
        std::string text = reference(stmt, e.access, subscripts);
        if (!text.empty())
          return text;
      }
      return arrayRef(scop.arrays[access.array], subscripts);
    }
    case Expr::Kind::Unary: {
      // `-(-x)` and `-(-5)`, not `--x`.
      std::string inner = operand(*e.args[0], 14, false);
      if ((e.op == "-" || e.op == "+") && !inner.empty() && inner[0] == e.op[0])
        inner = "(" + inner + ")";
      return e.op + inner;
    }
    case Expr::Kind::Cast:
      return std::string("(") + polyhedral::spell(e.castType) + ")" +
             operand(*e.args[0], 14, false);
    case Expr::Kind::Binary: {
      if (e.op == "*" && scaled)
        for (int side = 0; side < 2; ++side) {
          const Expr &ref = *e.args[side], &other = *e.args[1 - side];
          if (ref.kind == Expr::Kind::ArrayRef &&
              other.kind == Expr::Kind::Param &&
              scaled(stmt, ref.access, other.name))
            return print(ref);
        }
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
    const ProductPrinter &product, const ReferenceOverride &reference,
    const ScaledReference &scaled) {
  BodyPrinter printer{scop,    stmt,      iterators, arrayRef, mathName,
                      product, reference, scaled};
  std::string lhs = printer.print(*stmt.lhs), rhs = printer.print(*stmt.rhs);
  std::string guard =
      stmt.guard ? "if (" + printer.print(*stmt.guard) + ") " : "";
  // `x *= v` multiplies in the type of `x * v` like a product in an
  // expression: where products are printed as calls that are never fused
  // into an FMA (--fp-contract=off), so is this one, else nvcc would fuse
  // it with an addition of a later statement.
  if (stmt.op == "*=" && product) {
    polyhedral::ElemType type = common(typeOf(scop, stmt, *stmt.lhs),
                                       typeOf(scop, stmt, *stmt.rhs));
    std::string fn = isFloating(type) ? product(type) : "";
    if (!fn.empty())
      return guard + lhs + " = " + fn + "(" + lhs + ", " + rhs + ");";
  }
  return guard + lhs + " " + stmt.op + " " + rhs + ";";
}

void printUserStatement(
    const polyhedral::Scop &scop, const isl::ast_expr &call,
    const ArrayRefPrinter &arrayRef,
    const std::function<std::string(const std::string &)> &mathName,
    int indent, std::ostream &os, const ProductPrinter &product,
    const ReferenceOverride &reference, const ScaledReference &scaled) {
  std::string name = callName(call);
  const polyhedral::Statement *stmt = scop.findStatement(name);
  POLYCUDA_CHECK(stmt) << "unknown statement " << name;
  std::vector<isl::ast_expr> args = callArgs(call);
  std::map<std::string, std::string> iterators;
  for (size_t i = 0; i < args.size(); ++i)
    iterators[stmt->iterators[i]] = printExpr(args[i]);
  os << indentBy(indent)
     << printStatement(scop, *stmt, iterators, arrayRef, mathName, product,
                       reference, scaled)
     << "\n";
}

std::optional<std::vector<long>> unrollMarkExtents(const isl::id &mark) {
  std::optional<polyhedral::GpuMark> payload = polyhedral::gpuMarkOf(mark);
  if (!payload || payload->kind != polyhedral::MarkKind::Unroll)
    return std::nullopt;
  return payload->extents;
}

void AstPrinter::printUnrolled(const isl::ast_node &node,
                               const std::vector<long> &extents, int indent,
                               std::ostream &os, FullSplit *hoisted) const {
  std::vector<long> outer = unrollExtents;
  unrollExtents = extents;
  std::vector<std::pair<std::string, long>> around = unrolled;
  unrolled.clear();
  // Where every value of every unrolled loop runs (a full tile), the
  // copies need no guards: the compiler can then share what they compute
  // alike (a value loaded once for several points). That version first,
  // under the condition that the loops' bounds admit all their values;
  // the guarded copies otherwise.
  std::ostringstream full;
  unrollFull = true;
  fullPossible = true;
  fullConditions.clear();
  // (Hoisted out of the loop around, both versions are that loop's body.)
  print(node, hoisted ? indent : indent + 1, full);
  unrollFull = false;
  unrolled.clear();
  if (fullPossible && !fullConditions.empty()) {
    std::string all;
    for (const std::string &c : fullConditions)
      all += (all.empty() ? "" : " && ") + c;
    if (hoisted) {
      std::ostringstream partial;
      print(node, indent, partial);
      *hoisted = {true, all, full.str(), partial.str()};
      unrollExtents = outer;
      unrolled = around;
      return;
    }
    os << indentBy(indent) << "if (" << all << ") {\n"
       << full.str() << indentBy(indent) << "} else {\n";
    print(node, indent + 1, os);
    os << indentBy(indent) << "}\n";
  } else {
    print(node, indent, os);
  }
  unrollExtents = outer;
  unrolled = around;
}

namespace {

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Where the identifier `name` occurs in `text` as a whole word, from
/// `from` on; std::string::npos where it does not.
size_t findWord(const std::string &text, const std::string &name,
                size_t from) {
  for (size_t at = text.find(name, from); at != std::string::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isWordChar(text[at - 1])) &&
        (end == text.size() || !isWordChar(text[end])))
      return at;
  }
  return std::string::npos;
}

/// `text` with the identifier `name` replaced by `value`.
std::string substituted(const std::string &text, const std::string &name,
                        const std::string &value) {
  std::string result;
  size_t done = 0;
  for (size_t at = findWord(text, name, 0); at != std::string::npos;
       at = findWord(text, name, done)) {
    result += text.substr(done, at - done) + value;
    done = at + name.size();
  }
  return result + text.substr(done);
}

/// Whether `text` mentions the identifier `name`.
bool mentions(const std::string &text, const std::string &name) {
  return findWord(text, name, 0) != std::string::npos;
}

/// The value of an integer literal of the AST.
std::optional<long> literal(const isl::ast_expr &expr) {
  if (!expr.isa<isl::ast_expr_int>())
    return std::nullopt;
  isl::val v = expr.as<isl::ast_expr_int>().val();
  if (!v.is_int())
    return std::nullopt;
  return v.get_num_si();
}

/// The iterations of a loop `for (i = a; i <= b; i += 1)` (or `i < b`)
/// with literals a and b.
std::optional<long> constantTrip(const isl::ast_node_for &loop) {
  std::optional<long> lower = literal(loop.init());
  std::optional<long> inc = literal(loop.inc());
  isl::ast_expr cond = loop.cond();
  if (!lower || !inc || *inc != 1 || !cond.isa<isl::ast_expr_op>() ||
      cond.as<isl::ast_expr_op>().n_arg() != 2)
    return std::nullopt;
  isl::ast_expr_op op = cond.as<isl::ast_expr_op>();
  std::optional<long> upper = literal(op.arg(1));
  if (!upper || !op.arg(0).isa<isl::ast_expr_id>() ||
      op.arg(0).as<isl::ast_expr_id>().id().name() !=
          loop.iterator().as<isl::ast_expr_id>().id().name())
    return std::nullopt;
  if (op.isa<isl::ast_expr_op_lt>())
    --*upper;
  else if (!op.isa<isl::ast_expr_op_le>())
    return std::nullopt;
  return *upper >= *lower ? *upper - *lower + 1 : 0;
}

} // namespace

std::optional<long> unrolledBodies(const isl::ast_node &node) {
  if (node.isa<isl::ast_node_for>()) {
    // The trip first: most loops' bounds are not literals, and their
    // bodies need no walk.
    isl::ast_node_for loop = node.as<isl::ast_node_for>();
    std::optional<long> trip = constantTrip(loop);
    if (!trip || *trip > kUnrollTrip)
      return std::nullopt;
    std::optional<long> inner = unrolledBodies(loop.body());
    if (!inner)
      return std::nullopt;
    return *trip * *inner;
  }
  if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    std::optional<long> most = unrolledBodies(branch.then_node());
    if (most && branch.has_else_node()) {
      std::optional<long> other = unrolledBodies(branch.else_node());
      most = other ? std::max(*most, *other) : other;
    }
    return most;
  }
  if (node.isa<isl::ast_node_block>()) {
    long total = 0;
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < children.size(); ++i) {
      std::optional<long> child = unrolledBodies(children.at(i));
      if (!child)
        return std::nullopt;
      total += *child;
    }
    return total;
  }
  if (node.isa<isl::ast_node_mark>())
    return unrolledBodies(node.as<isl::ast_node_mark>().node());
  return 1;
}

/// Prints `loop` (iterator `name`) unrolled: one copy per value it may
/// take below an unroll mark, with its iterator a constant.
void AstPrinter::printUnrolledLoop(const isl::ast_node_for &loop,
                                   const std::string &name, int indent,
                                   std::ostream &os) const {
  isl::ast_expr init = loop.init();
  isl::ast_node body = loop.body();
  long extent = unrollExtents[unrolled.size()];
  std::string lower = printExpr(init);
  std::string inc = printExpr(loop.inc());
  std::string cond = loop.is_degenerate() ? "" : printBare(loop.cond());
  // The copy's guard: where the loop's bounds admit its value. A full
  // tile's copies have none: there the loop runs 0, ..., extent - 1,
  // which its bounds (with no other unrolled iterator in them) say where
  // `init <= 0` and its condition holds at extent - 1.
  std::string runs;
  if (unrollFull) {
    bool independent = true;
    for (const auto &[outer, e] : unrolled)
      independent &= !mentions(lower, outer) && !mentions(cond, outer);
    if (loop.is_degenerate() || inc != "1" || !independent)
      fullPossible = false;
    else
      fullConditions.insert("(" + lower + " <= 0) && (" +
                            substituted(cond, name,
                                        std::to_string(extent - 1)) +
                            ")");
  } else if (loop.is_degenerate()) {
    runs = "(" + name + " == " + lower + ")";
  } else {
    runs = "(" + name + " >= " + lower + ") && (" + cond + ")";
    if (inc != "1")
      runs += " && ((" + name + " - " + lower + ") % " + inc + " == 0)";
  }
  unrolled.push_back({name, extent});
  for (long value = 0; value < extent; ++value) {
    os << indentBy(indent) << "{\n"
       << indentBy(indent + 1) << "const " << kIndexType << " " << name
       << " = " << value << ";\n";
    if (runs.empty()) {
      print(body, indent + 1, os);
    } else {
      os << indentBy(indent + 1) << "if (" << runs << ") {\n";
      print(body, indent + 2, os);
      os << indentBy(indent + 1) << "}\n";
    }
    os << indentBy(indent) << "}\n";
  }
  unrolled.pop_back();
}

void AstPrinter::printFor(const isl::ast_node &node, int indent,
                          std::ostream &os) const {
  isl::ast_node_for loop = node.as<isl::ast_node_for>();
  std::string name = printExpr(loop.iterator());
  isl::ast_expr init = loop.init();
  isl::ast_node body = loop.body();
  if (unrolled.size() < unrollExtents.size()) {
    printUnrolledLoop(loop, name, indent, os);
    return;
  }
  if (loop.is_degenerate()) {
    os << indentBy(indent) << "{\n"
       << indentBy(indent + 1) << "const " << kIndexType << " " << name
       << " = "
       << printExpr(init) << ";\n";
    print(body, indent + 1, os);
    os << indentBy(indent) << "}\n";
    return;
  }
  isl::ast_expr cond = loop.cond();
  isl::ast_expr inc = loop.inc();
  std::string head = "for (" + std::string(kIndexType) + " " + name + " = " +
                     printExpr(init) + "; " + printBare(cond) + "; " + name +
                     " += " + printExpr(inc) + ") {\n";
  std::optional<std::vector<long>> points =
      body.isa<isl::ast_node_mark>()
          ? unrollMarkExtents(body.as<isl::ast_node_mark>().id())
          : std::nullopt;
  if (points) {
    // A register tile's points as the whole body (a jammed loop, such as
    // gemm's k): the test of a full tile does not change along the loop,
    // so it goes around it, and the full tile's loop, free of guards, is
    // partly unrolled (each step's loads then overlap the last's
    // arithmetic).
    FullSplit hoisted;
    std::ostringstream unsplit; // (printed where there is no full tile)
    printUnrolled(body.as<isl::ast_node_mark>().node(), *points, indent + 2,
                  unsplit, &hoisted);
    if (hoisted.taken && !mentions(hoisted.condition, name)) {
      os << indentBy(indent) << "if (" << hoisted.condition << ") {\n";
      if (!unrollPragma.empty())
        os << unrollPragma << " " << kHoistedUnroll << "\n";
      os << indentBy(indent + 1) << head << hoisted.full
         << indentBy(indent + 1) << "}\n"
         << indentBy(indent) << "} else {\n"
         << indentBy(indent + 1) << head << hoisted.partial
         << indentBy(indent + 1) << "}\n"
         << indentBy(indent) << "}\n";
      return;
    }
  }
  if (!unrollPragma.empty()) {
    std::optional<long> bodies = unrolledBodies(node);
    if (bodies && *bodies <= kUnrollBodies)
      os << unrollPragma << "\n";
  }
  os << indentBy(indent) << head;
  print(body, indent + 1, os);
  os << indentBy(indent) << "}\n";
}

void AstPrinter::printIf(const isl::ast_node_if &node, int indent,
                         std::ostream &os) const {
  os << indentBy(indent) << "if (" << printBare(node.cond()) << ") {\n";
  print(node.then_node(), indent + 1, os);
  if (node.has_else_node()) {
    os << indentBy(indent) << "} else {\n";
    print(node.else_node(), indent + 1, os);
  }
  os << indentBy(indent) << "}\n";
}

void AstPrinter::print(const isl::ast_node &node, int indent,
                       std::ostream &os) const {
  if (node.isa<isl::ast_node_for>()) {
    printFor(node, indent, os);
  } else if (node.isa<isl::ast_node_if>()) {
    printIf(node.as<isl::ast_node_if>(), indent, os);
  } else if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < children.size(); ++i)
      print(children.at(i), indent, os);
  } else if (node.isa<isl::ast_node_user>()) {
    user(node.as<isl::ast_node_user>().expr(), indent, os);
  } else if (node.isa<isl::ast_node_mark>()) {
    isl::ast_node_mark markNode = node.as<isl::ast_node_mark>();
    isl::ast_node child = markNode.node();
    if (std::optional<std::vector<long>> points =
            unrollMarkExtents(markNode.id()))
      printUnrolled(child, *points, indent, os);
    else if (!mark || !mark(markNode.id(), child, indent, os))
      print(child, indent, os);
  } else {
    POLYCUDA_CHECK(false) << "unexpected isl AST node";
  }
}

} // namespace polycuda::translator
