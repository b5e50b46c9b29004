//===- IslExtras.h - isl helpers missing from isl/cpp.h --------*- C++ -*-===//
//
// What isl's C++ interface (isl 0.25) lacks, wrapping isl's C API; every
// result is wrapped immediately with isl::manage. Everything else (the
// pipeline's stages, the printers, the report, the driver) uses isl through
// these and isl/cpp.h only.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_ISLEXTRAS_H
#define POLYCUDA_POLYHEDRAL_ISLEXTRAS_H

#include <isl/cpp.h>
#include <isl/polynomial_type.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <optional>
#include <vector>

namespace polycuda::polyhedral {

/// isl's textual form of any isl object.
template <typename T> std::string toString(const T &object) {
  std::ostringstream os;
  os << object;
  return os.str();
}

/// `object` coalesced, or `object` itself when isl's coalescing fails:
/// coalescing only simplifies the representation, and isl 0.25 has an
/// internal error on some inputs ("original tableau does not correspond to
/// original basic map", random program 4114).
template <typename T> T coalesced(const T &object) {
  try {
    return object.coalesce();
  } catch (const isl::exception &) {
    isl_ctx_reset_error(object.ctx().get());
    return object;
  }
}

/// Sets an isl operation limit on `ctx` for its lifetime (0: none) and
/// starts the count from zero. A limit already set on `ctx` (by an enclosing
/// OperationLimit, or by the owner of the context, as the fuzz target does)
/// is never raised: the smaller one applies. On leaving scope the previous
/// limit is restored and the count and any quota error are cleared.
class OperationLimit {
public:
  OperationLimit(isl::ctx ctx, unsigned long limit);
  ~OperationLimit();
  OperationLimit(const OperationLimit &) = delete;
  OperationLimit &operator=(const OperationLimit &) = delete;

private:
  isl::ctx ctx;
  unsigned long previous;
};

/// All maps of `umap`.
std::vector<isl::map> mapsOf(const isl::union_map &umap);
/// All sets of `uset`.
std::vector<isl::set> setsOf(const isl::union_set &uset);
/// The disjuncts of `map`.
std::vector<isl::basic_map> basicMapsOf(const isl::map &map);

/// One equality `e(x) = 0` of the affine hull of a set.
struct HullEquality {
  /// `{ x : e(x) = 0 }`, in the space of the set.
  isl::set plane;
  /// Set dimensions with a non-zero coefficient in `e`.
  unsigned variables = 0;
};
/// The equalities of the affine hull of `set` (isl's form: after Gaussian
/// elimination, so their number is the codimension of the hull).
std::vector<HullEquality> affineHullEqualities(const isl::set &set);
/// The subtree schedule of `node`, `{ S[i] -> [s] }`.
isl::union_map subtreeSchedule(const isl::schedule_node &node);
/// Names the output dimensions of `map` with `names` and moves them to the
/// parameters: `{ S[i] -> [c] }` becomes `[c] -> { S[i] -> [] }`.
isl::map outputsToParams(isl::map map, const std::vector<std::string> &names);
/// The reverse for the parameters `names`: `[b] -> { S[i] -> [x] }` becomes
/// `{ S[i] -> [b, x] }` (a parameter `map` lacks counts as unconstrained).
isl::map paramsToOutputs(isl::map map, const std::vector<std::string> &names);
/// `set` without the parameters `names` (projected out).
isl::set projectOutParams(isl::set set, const std::vector<std::string> &names);
/// Same for a function of a set space: `{ [c] -> [e] }` becomes
/// `[c] -> { [] -> [e] }`.
isl::pw_aff inputsToParams(isl::pw_aff pa,
                           const std::vector<std::string> &names);
/// `pa`, a function of the parameters alone, on a parameter domain (what
/// an AST build from a parameter context expects).
isl::pw_aff onParams(const isl::pw_aff &pa);
/// The parameter `name` as a function on `space` (a set space).
isl::pw_aff paramOn(const isl::space &space, const std::string &name);
/// A parameter-only `pa` (domain a 0-d set) as a function on `space`.
isl::pw_aff liftToSpace(const isl::pw_aff &pa, const isl::space &space);
/// `copy` (a band of as many members as `band`) with `band`'s flags:
/// permutable, coincident and AST loop type per member.
isl::schedule_node copyBandFlags(const isl::schedule_node &band,
                                 isl::schedule_node copy);
/// Sets the band member's coincident flag.
isl::schedule_node setCoincident(isl::schedule_node band, int pos, bool value);
/// Whether member `pos` of `band` is coincident.
bool isCoincident(const isl::schedule_node &band, int pos);
/// Builds an AST from a schedule map with the given iterator prefix.
isl::ast_node buildAstFromMap(const isl::set &context,
                              const isl::union_map &schedule,
                              const std::string &iteratorPrefix);
/// Builds an AST from a schedule tree; every mark node is replaced by what
/// `onMark(markId, markAst, build)` returns, if it returns non-null
/// (`markAst` is the AST generated for the mark's subtree). An exception
/// thrown by `onMark` is rethrown after isl freed the partial AST. Loops
/// are named by depth, `iteratorPrefix`0 at depth `skip` (those above are
/// numbered from 64).
/// Every band member's loops are generated in `mode` (isl's atomic,
/// separate or default loop type).
using MarkCallbackFn = std::function<isl::ast_node(
    const isl::id &, const isl::ast_node &, const isl::ast_build &)>;
enum class AstLoopMode { Atomic, Separate, Default };
isl::ast_node buildAstFromSchedule(const isl::set &context,
                                   const isl::schedule &schedule,
                                   const std::string &iteratorPrefix,
                                   const MarkCallbackFn &onMark,
                                   unsigned skip = 0,
                                   AstLoopMode mode = AstLoopMode::Atomic);
/// The AST expression of `pa`, a function of the parameters, built in
/// `context` (the parameters of both aligned).
/// `set`, a set of parameters, as an AST expression (a condition).
isl::ast_expr buildExprFromSet(const isl::set &set);
isl::ast_expr buildExprFromParams(const isl::set &context,
                                  const isl::pw_aff &pa);
/// Calls `fn` on `node` and on its descendants, each before its children
/// (isl_ast_node_foreach_descendant_top_down); the children of a node for
/// which `fn` returns false are skipped.
void forEachAstNode(const isl::ast_node &node,
                    const std::function<bool(const isl::ast_node &)> &fn);
/// The function of a user node's call expression `name(args...)`.
isl::id callId(const isl::ast_expr &call);
/// A user node `fn(args...)`.
isl::ast_node makeCallNode(const isl::id &fn,
                           const std::vector<isl::ast_expr> &args);
/// The set space `name[d0, ..., d{dims-1}]` without parameters.
isl::space namedSetSpace(isl::ctx ctx, const std::string &name, unsigned dims);
/// `{ x -> y : x lexicographically before y }` on the set space `space`
/// (or before or equal, with `orEqual`).
isl::map lexOrder(const isl::space &space, bool orEqual);
/// `{ x -> y : x in domain and y in range }`.
isl::map mapFromDomainAndRange(const isl::set &domain, const isl::set &range);
/// `map` restricted to pairs whose first `n` input and output dimensions
/// are equal (the same iteration of `n` shared loops).
isl::map equateLeading(const isl::map &map, unsigned n);
/// `map` (from a space to itself) restricted to pairs equal in every
/// dimension but `skip` (instances that differ at most in one loop).
isl::map equateAllBut(const isl::map &map, unsigned skip);
/// One band member as a map, `{ x -> [member(x)] }`: what instances share
/// a value of it, or a factor of a flatRangeProduct.
isl::union_map memberMap(const isl::union_pw_aff &member);
/// `memberMap(member)` on the instances in `domain` only.
isl::union_map memberMap(const isl::union_pw_aff &member,
                         const isl::union_set &domain);
/// `{ x -> [a, b] : x -> [a] in left and x -> [b] in right }`.
isl::union_map flatRangeProduct(const isl::union_map &left,
                                const isl::union_map &right);
/// The constant `value` as a function on the set space `space`.
isl::pw_aff constantOn(const isl::space &space, long value);
/// Set dimension `pos` of the set space `space` as a function on it.
isl::pw_aff variableOn(const isl::space &space, unsigned pos);
/// Number of set (or output) dimensions of `space`.
unsigned setDims(const isl::space &space);
/// Replaces `pa` by 0 outside its domain, within `context`.
isl::pw_aff totalOn(const isl::pw_aff &pa, const isl::set &context);
/// `pa` within `context`, and `value` on the rest of `context` (a set of
/// parameters).
isl::pw_aff valueOutside(const isl::pw_aff &pa, const isl::set &context,
                         long value);
/// The least (greatest) value of set dimension `pos` of `set`, a function
/// of the parameters defined where `set` is not empty.
isl::pw_aff dimMin(const isl::set &set, unsigned pos);
isl::pw_aff dimMax(const isl::set &set, unsigned pos);
/// Dimension `pos` of `set` as `offset + stride * k`, an affine expression
/// on `set`'s space in which `k` is the dimension itself and the offset a
/// function of the parameters and the dimensions before `pos`, where the
/// dimension takes only such values (a loop with a step, `i % 2 == 0`);
/// null where the stride is 1 or the offset is not integral.
isl::aff strideValue(const isl::set &set, unsigned pos);

/// `floor(upa / divisor)`.
isl::union_pw_aff floorDiv(const isl::union_pw_aff &upa, long divisor);
/// `factor * upa`.
isl::union_pw_aff scaled(const isl::union_pw_aff &upa, long factor);
/// The constant `value` on `domain`.
isl::union_pw_aff constantOnDomain(const isl::union_set &domain, long value);
/// The elements of `upa`'s domain where it is 0.
isl::union_set zeroSet(const isl::union_pw_aff &upa);
/// The parameter `name` as a function on `domain`.
isl::union_pw_aff paramOnDomain(const isl::union_set &domain,
                                const std::string &name);
/// `pa` (a function of the values of `schedule`) of each element's
/// schedule: `{ S[i] -> pa(schedule(S[i])) }`.
isl::union_pw_aff applyToSchedule(const isl::multi_union_pw_aff &schedule,
                                  const isl::pw_aff &pa);
/// The subtree below `node` as a schedule of its own, over `domain` (the
/// node's instances, possibly with extra parameters). Context nodes are
/// left out (isl 0.25's AST generator rejects them): the caller adds their
/// constraints to the context of the AST build.
isl::schedule subtreeAsSchedule(const isl::schedule_node &node,
                                const isl::union_set &domain);

/// Copies of `map` (`set`) with a tuple renamed (tupleName, domainTupleName
/// and rangeTupleName below read them).
isl::map withDomainName(const isl::map &map, const std::string &name);
isl::map withRangeName(const isl::map &map, const std::string &name);
isl::set withTupleName(const isl::set &set, const std::string &name);
/// `{ S[i] -> A[i0, ..., i(depth-1)] }` on `domain` (a statement's
/// instances): the first `depth` iterators as the element of array `name`.
isl::map leadingIterators(const isl::set &domain, unsigned depth,
                          const std::string &name);
/// `{ x -> [y0, ..., y(n-1)] }` from `{ x -> S[y] }`: the first `n` output
/// dimensions, in an unnamed tuple.
isl::map leadingDims(const isl::map &map, unsigned n);
/// `e` of the first equality `e(x) = 0` of the affine hull of `set`.
isl::aff firstHullEquality(const isl::set &set);
/// The maximum of `a` and `b` where both are defined, and the defined one
/// elsewhere.
isl::pw_aff unionMax(const isl::pw_aff &a, const isl::pw_aff &b);

/// An affine function with integer coefficients: `constant + sum of
/// params[k].second * params[k].first + sum of inputs[d] * x_d`.
struct AffineTerms {
  long constant = 0;
  std::vector<std::pair<std::string, long>> params;
  std::vector<long> inputs;
};
/// The terms of `aff`, or nullopt when it has integer divisions or
/// non-integer (or over 64-bit) coefficients.
std::optional<AffineTerms> affineTerms(const isl::aff &aff);
/// The affine function of a pw_aff of one piece (on any domain), or nothing.
std::optional<isl::aff> onlyPiece(const isl::pw_aff &pa);

/// The map of `umap` whose domain is statement `name`, or a null map.
isl::map pieceOf(const isl::union_map &umap, const std::string &name);
/// The value of set dimension `d` of `set` when it takes a single one.
std::optional<long> fixedValue(const isl::set &set, unsigned d);
/// Per dimension of the range of `byKey` (`{ k -> v }`), the most values
/// that the v of one k take along it: the largest difference v' - v of two
/// of them, plus 1, over every k and value of the parameters (the widths
/// of the box that holds each k's values); nothing when one is unbounded.
std::optional<std::vector<long>> rangeWidthsPerKey(const isl::map &byKey);
/// Whether set dimension `d` of `set` is 0 in every element.
bool isZeroDim(const isl::set &set, unsigned d);
/// Whether `set` is bounded (for each value of the parameters).
bool isBounded(const isl::set &set);
/// The constant value of `pa` if it has one (on its whole domain).
std::optional<long> constantValue(const isl::pw_aff &pa);

//===----------------------------------------------------------------------===//
// What isl/cpp.h (isl 0.25) lacks for the pipeline stages: contexts, tuple
// names and dimensions, affine functions and their coefficients, schedule
// tree nodes, printing in C, and piecewise quasipolynomials.
//===----------------------------------------------------------------------===//

/// Clears the error recorded on `ctx` (after an isl::exception was caught:
/// the next operation must not see it).
void resetError(isl::ctx ctx);
/// The operation limit set on `ctx` (0: none).
unsigned long maxOperations(isl::ctx ctx);
/// Makes isl operations on `ctx` return null on an error, without printing
/// or aborting, as isl/cpp.h's exceptions expect.
void continueOnError(isl::ctx ctx);
/// A new isl context that continues on errors (see continueOnError), freed
/// with its last owner (isl objects of it must be gone by then).
std::shared_ptr<isl_ctx> makeSharedContext();
/// isl's version string, without trailing white space.
std::string islVersion();
/// `schedule` as YAML in block style (isl's tree, one node per line).
std::string toYaml(const isl::schedule &schedule);

/// Options of isl's scheduler (isl_options_set_schedule_*). All of them
/// are set on the context, none keeps isl's default.
struct SchedulerOptions {
  bool outerCoincidence = false;
  bool serializeSccs = false;
  bool maximizeBandDepth = false;
  bool wholeComponent = false;
  bool maximizeCoincidence = false;
  /// Bounds on the schedule's coefficients and constant terms (-1: none).
  int maxCoefficient = -1;
  int maxConstantTerm = -1;
};
/// Sets `options` on `ctx` for every later schedule computed in it.
void setSchedulerOptions(isl::ctx ctx, const SchedulerOptions &options);

/// The name of the tuple of `set` ("" when it has none).
std::string tupleName(const isl::set &set);
/// The names of the domain and range tuples of `map` ("" when none).
std::string domainTupleName(const isl::map &map);
std::string rangeTupleName(const isl::map &map);
/// Names the first `names.size()` input dimensions of `map` with `names`.
isl::map withInputNames(isl::map map, const std::vector<std::string> &names);
/// `map` without its tuple names: `{ S[i] -> A[a] }` becomes `{ [i] -> [a] }`.
isl::map withoutTupleIds(const isl::map &map);
/// `map` without its input (output) dimensions `first` to `first + n - 1`,
/// existentially quantified.
isl::map projectOutInputs(const isl::map &map, unsigned first, unsigned n);
isl::map projectOutOutputs(const isl::map &map, unsigned first, unsigned n);
/// The space of maps from the set space `domain` to the set space `range`.
isl::space mapSpace(const isl::space &domain, const isl::space &range);
/// The set space `space` without its dimensions `first` to `first + n - 1`.
isl::space dropSetDims(const isl::space &space, unsigned first, unsigned n);
/// The parameter values for which `uset` has elements.
isl::set paramsOf(const isl::union_set &uset);

/// The functions of `upa`, one per space of its domain.
std::vector<isl::pw_aff> pwAffsOf(const isl::union_pw_aff &upa);
/// The coefficients of `aff`: those of its input dimensions, then those of
/// its parameters.
std::vector<isl::val> coefficients(const isl::aff &aff);
/// The common denominator of the coefficients and the constant of `aff`.
isl::val denominator(const isl::aff &aff);
/// Number of integer divisions (floor terms) in `aff`.
unsigned numDivs(const isl::aff &aff);
/// `pa` as a C expression, e.g. `(n >= 1 ? n : 0)`.
std::string toCString(const isl::pw_aff &pa);

/// The statement instances that reach `node`.
isl::union_set domainOf(const isl::schedule_node &node);
/// The identifier of the mark node `mark`.
isl::id markId(const isl::schedule_node &mark);
/// Number of band members above `node` (the depth of its prefix schedule).
unsigned scheduleDepth(const isl::schedule_node &node);
/// Removes `node` from its tree; returns the node now at its position (its
/// child, or a leaf).
isl::schedule_node deleteNode(isl::schedule_node node);

/// A piecewise quasipolynomial (isl_pw_qpolynomial, absent from
/// isl/cpp.h), with the few operations the report needs. Unlike isl/cpp.h,
/// and like isl's C interface, an operation on a null polynomial (after an
/// isl error) gives a null one rather than an exception.
class PwQPolynomial {
public:
  PwQPolynomial() = default;
  /// `pa` as a polynomial.
  explicit PwQPolynomial(const isl::pw_aff &pa);
  PwQPolynomial(const PwQPolynomial &other);
  PwQPolynomial(PwQPolynomial &&other) noexcept;
  PwQPolynomial &operator=(PwQPolynomial other) noexcept;
  ~PwQPolynomial();

  bool isNull() const { return ptr == nullptr; }
  PwQPolynomial add(const PwQPolynomial &other) const;
  PwQPolynomial mul(const PwQPolynomial &other) const;
  PwQPolynomial scale(unsigned long factor) const;
  /// Simplified where the parameters satisfy `context`.
  PwQPolynomial gistParams(const isl::set &context) const;
  PwQPolynomial coalesce() const;
  /// The polynomial as a C expression ("" if null).
  std::string toCString() const;
  /// Its value, when it involves no parameter and is a number (not NaN).
  std::optional<double> value() const;

private:
  explicit PwQPolynomial(isl_pw_qpolynomial *ptr) : ptr(ptr) {}
  isl_pw_qpolynomial *ptr = nullptr;
};

//===----------------------------------------------------------------------===//

} // namespace polycuda::polyhedral

#endif
