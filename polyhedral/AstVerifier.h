//===- AstVerifier.h - What a generated AST executes, checked --*- C++ -*-===//
//
// isl 0.25's AST generator has bugs that no option avoids everywhere: in its
// atomic mode it can place a statement at the wrong iteration of an outer
// loop (random programs 3937 and 5001953: `S1` at `c1 == c0` where the
// schedule says `c0 + 1`), in its separating mode it can drop a stride
// guard and run an instance twice (random program 1013). The printed code
// then computes something else than the schedule, with nothing reported.
//
// The verifier reads a generated AST back into isl: every loop, guard and
// block becomes constraints on an execution time, a vector of block
// positions and loop iterator values in nesting order, and every leaf a
// map from that time to the statement instances it runs. It then checks
// what code generation must preserve: each instance runs exactly once, and
// every dependence goes forward in time. AST generation tries isl's loop
// modes in turn and keeps the first AST that passes.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_ASTVERIFIER_H
#define POLYCUDA_POLYHEDRAL_ASTVERIFIER_H

#include <isl/cpp.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace polycuda::polyhedral {

/// An AST the verifier cannot read back (a construct it does not know).
struct UnreadableAst : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a leaf's arguments mean, read by the verifier: an argument as a
/// piecewise affine function of the execution time, or as a condition on
/// it.
class LeafReader {
public:
  virtual ~LeafReader() = default;
  virtual isl::pw_aff value(const isl::ast_expr &expr) const = 0;
  virtual isl::set condition(const isl::ast_expr &expr) const = 0;
  /// The space of execution times.
  virtual isl::space timeSpace() const = 0;
};

/// The instances a leaf of the AST runs, `{ time -> S[i] }`, given its call
/// expression (`S(args)`). Null for a leaf that runs no statement instance.
using LeafInstancesFn = std::function<isl::union_map(
    const isl::ast_expr_op &call, const LeafReader &reader)>;

/// The leaves of an AST: the instances each runs, and which statements'
/// leaves can run any.
struct LeafInstances {
  LeafInstancesFn instances;
  /// Whether a leaf that calls `name` can run instances; null: every leaf.
  /// The reader skips the loops and conditions whose leaves all run none
  /// (the statements that promotion and reductions add: a register tile's
  /// loads have long loops).
  std::function<bool(const std::string &name)> runs;
  LeafInstances(LeafInstancesFn instances,
                std::function<bool(const std::string &)> runs = nullptr)
      : instances(std::move(instances)), runs(std::move(runs)) {}
};

/// `{ time -> name[args] }` for the arguments `args` of a leaf, read by
/// `reader`.
isl::map instanceMap(const LeafReader &reader, const std::string &name,
                     const std::vector<isl::ast_expr> &args);

/// A leaf `S(a0, ..., ak)` runs the instance `S[a0, ..., ak]`: the leaves of
/// an AST generated directly from the statements' schedule. Leaves named
/// by no statement of `domain` (the copies memory promotion adds) run none.
LeafInstances statementLeaves(const isl::union_set &domain);

/// What an AST executes: `{ S[i] -> time }` for every instance it runs (a
/// relation, not a function, when the AST runs an instance more than once).
/// `context` bounds the parameters.
isl::union_map executionTimes(const isl::ast_node &ast, const isl::set &context,
                              const LeafInstances &leaves);

/// A loop whose condition may fail and hold again as its iterator grows
/// (isl 0.25 can print a stride as a bound: `k < 2 * floord(k + 1, 2)`),
/// which C's `for` ends at the first failure: its iterator appears in the
/// condition other than linearly in a comparison of a conjunction. Says
/// which loop, or "". Cheap (syntactic): it runs where the full check is
/// past its budget.
std::string nonMonotoneLoop(const isl::ast_node &ast);

/// How the verifier orders two instances run at the times it read.
struct ExecutionOrder {
  /// A dependence between instances run at the same time is accepted (a
  /// leaf that launches a kernel orders its instances itself).
  bool sameTimeAllowed = false;
  /// The first `parallelDims` time dimensions are the block and thread
  /// indices of a kernel: instances whose values there differ run on
  /// different threads, unordered, and must not depend on each other.
  unsigned parallelDims = 0;
};

/// Why an AST with execution times `times` (executionTimes) does not run
/// every instance of `domain` exactly once or runs a dependence backwards:
/// empty when it does neither.
std::string verifyExecution(const isl::union_map &times,
                            const isl::union_set &domain,
                            const isl::union_map &dependences,
                            const isl::set &context, ExecutionOrder order);

} // namespace polycuda::polyhedral

#endif
