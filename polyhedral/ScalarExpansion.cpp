//===- ScalarExpansion.cpp - Privatize scalars by expansion ---------------===//
//
// Stage 0 (see ScalarExpansion.h). The test for depth l is exact: every flow
// dependence on the scalar (isl's last-writer relation) must connect
// instances with equal values of the l common iterators, and no read may be
// without a writer in the scop (live-in).
//
//===----------------------------------------------------------------------===//
#include "ScalarExpansion.h"

#include "Dependences.h"
#include "IslExtras.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace polycuda::polyhedral {

namespace {

/// Number of loops all statements in `stmts` share (same positions in the
/// 2d+1 schedule at every outer level).
unsigned commonLoops(const std::vector<Statement *> &stmts) {
  unsigned depth = stmts[0]->iterators.size();
  for (Statement *stmt : stmts)
    depth = std::min<unsigned>(depth, stmt->iterators.size());
  unsigned shared = 0;
  while (shared < depth) {
    bool same = true;
    for (Statement *stmt : stmts)
      same &= stmt->beta[shared] == stmts[0]->beta[shared];
    if (!same)
      break;
    ++shared;
  }
  return shared;
}

/// `{ S[i] -> T[j] : i_0 = j_0, ..., i_{l-1} = j_{l-1} }` holds for `deps`?
bool isWithinIterations(const isl::union_map &deps, unsigned l) {
  for (const isl::map &map : mapsOf(deps))
    if (!map.is_subset(equateLeading(map, l)))
      return false;
  return true;
}

void setSubscripts(const ExprPtr &expr, const std::string &array,
                   const std::vector<std::string> &iterators) {
  if (!expr)
    return;
  if (expr->kind == Expr::Kind::ArrayRef && expr->name == array) {
    expr->args.clear();
    for (const std::string &it : iterators) {
      auto node = std::make_shared<Expr>();
      node->kind = Expr::Kind::Iterator;
      node->name = it;
      expr->args.push_back(node);
    }
  }
  for (const ExprPtr &arg : expr->args)
    setSubscripts(arg, array, iterators);
}

void renameRefs(const ExprPtr &expr, const std::string &from,
                const std::string &to) {
  if (!expr)
    return;
  if (expr->kind == Expr::Kind::ArrayRef && expr->name == from)
    expr->name = to;
  for (const ExprPtr &arg : expr->args)
    renameRefs(arg, from, to);
}

/// Statement-level flow dependences `(source, sink)` on array `a`.
std::vector<std::pair<std::string, std::string>>
flowEdgesOn(const DependenceCache &cache, unsigned a) {
  std::vector<std::pair<std::string, std::string>> edges;
  for (const isl::map &map : mapsOf(cache.parts.at(a)->flow))
    edges.push_back({domainTupleName(map), rangeTupleName(map)});
  return edges;
}

/// The webs of scalar `a`: the statements that access it, connected by its
/// flow dependences, each web in statement order and the webs in the order
/// of their first statement (whatever the order in which isl lists the
/// dependences: the new variables' names are stable).
std::vector<std::vector<std::string>>
websOf(const Scop &scop, const DependenceCache &cache, unsigned a) {
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string &)> find =
      [&](const std::string &x) {
        return parent[x] == x ? x : parent[x] = find(parent[x]);
      };
  for (const Statement &stmt : scop.statements)
    for (const Access &access : stmt.accesses)
      if (access.array == a)
        parent[stmt.name] = stmt.name;
  for (auto &[from, to] : flowEdgesOn(cache, a))
    if (parent.count(from) && parent.count(to))
      parent[find(from)] = find(to);
  std::vector<std::vector<std::string>> webs;
  std::map<std::string, size_t> index; // root -> web
  for (const Statement &stmt : scop.statements) {
    if (!parent.count(stmt.name))
      continue;
    auto [it, added] = index.emplace(find(stmt.name), webs.size());
    if (added)
      webs.emplace_back();
    webs[it->second].push_back(stmt.name);
  }
  return webs;
}

/// Gives the statements of `web` a variable of their own instead of scalar
/// `a`, with `deps` (the scalar's dependences) restricted to them.
void renameWeb(Scop &scop, DependenceCache &cache, unsigned a,
               const std::vector<std::string> &web, const Dependences &deps,
               unsigned &suffix) {
  std::string name;
  do
    name = scop.arrays[a].name + "_" + std::to_string(++suffix);
  while (scop.findArray(name) >= 0);
  Array copy = scop.arrays[a];
  copy.name = name;
  copy.isLocal = true;
  unsigned id = scop.arrays.size();
  scop.arrays.push_back(copy);
  cache.parts[id] = std::make_shared<const Dependences>(
      restrictToStatements(deps, {web.begin(), web.end()}));
  for (Statement &stmt : scop.statements) {
    if (std::find(web.begin(), web.end(), stmt.name) == web.end())
      continue;
    for (Access &access : stmt.accesses) {
      if (access.array != a)
        continue;
      access.array = id;
      access.relation = withRangeName(access.relation, name);
    }
    renameRefs(stmt.lhs, scop.arrays[a].name, name);
    renameRefs(stmt.rhs, scop.arrays[a].name, name);
    if (stmt.guard)
      renameRefs(stmt.guard, scop.arrays[a].name, name);
  }
}

/// Live-range splitting: the statements that access a scalar fall into
/// webs connected by its flow dependences (a write and the reads it
/// reaches). Values never cross webs, so each web may use its own variable;
/// each then privatizes on its own loops. The web that reads the value from
/// before the scop keeps the original variable.
void splitLiveRanges(Scop &scop, DependenceCache &cache,
                     const isl::union_map &liveIn, bool localOnly) {
  unsigned count = scop.arrays.size();
  for (unsigned a = 0; a < count; ++a) {
    if (scop.arrays[a].rank() != 0 || !scop.arrays[a].isWritten ||
        scop.arrays[a].usedAfterScop ||
        (localOnly && !scop.arrays[a].isLocal))
      continue;
    std::vector<std::vector<std::string>> webs = websOf(scop, cache, a);
    if (webs.size() < 2)
      continue;
    // The web with a live-in read keeps the variable.
    std::set<std::string> liveInStmts;
    for (const isl::map &map : mapsOf(liveIn))
      if (map.range_tuple_dim() == 0 && scop.arrays[a].name == rangeTupleName(map))
        liveInStmts.insert(domainTupleName(map.domain().unwrap()));
    // The dependences split with the accesses: values never cross webs.
    std::shared_ptr<const Dependences> before = cache.parts.at(a);
    unsigned suffix = 0;
    for (const std::vector<std::string> &web : webs) {
      bool keeps = false;
      for (const std::string &m : web)
        keeps |= liveInStmts.count(m) > 0;
      if (!keeps)
        renameWeb(scop, cache, a, web, *before, suffix);
    }
    std::set<std::string> keeping;
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a)
          keeping.insert(stmt.name);
    cache.parts[a] = std::make_shared<const Dependences>(
        restrictToStatements(*before, keeping));
  }
}

} // namespace

std::vector<ScalarExpansion> expandScalars(Scop &scop) {
  DependenceCache cache;
  return expandScalars(scop, cache, false);
}

namespace {

/// The statements that access array `a`.
std::vector<Statement *> accessorsOf(Scop &scop, unsigned a) {
  std::vector<Statement *> stmts;
  for (Statement &stmt : scop.statements)
    for (const Access &access : stmt.accesses)
      if (access.array == a) {
        stmts.push_back(&stmt);
        break;
      }
  return stmts;
}

/// The number of loops around `stmts` along which a scalar whose flow is
/// `flow` may be expanded: its values stay within their iterations, and
/// the iterators (its subscripts) are non-negative.
unsigned expansionDepth(const std::vector<Statement *> &stmts,
                        const isl::union_map &flow) {
  unsigned depth = commonLoops(stmts);
  while (depth > 0 && !isWithinIterations(flow, depth))
    --depth;
  for (; depth > 0; --depth) {
    bool nonNegative = true;
    for (Statement *stmt : stmts) {
      isl::space space = stmt->domain.get_space();
      for (unsigned d = 0; d < depth; ++d)
        nonNegative &= stmt->domain
                           .intersect(variableOn(space, d).lt_set(
                               constantOn(space, 0)))
                           .is_empty();
    }
    if (nonNegative)
      break;
  }
  return depth;
}

/// Makes scalar `a` an array along the `depth` loops around `stmts`: its
/// extents, accesses, subscripts and dependences.
void expand(Scop &scop, DependenceCache &cache, unsigned a,
            const std::vector<Statement *> &stmts, unsigned depth) {
  Array &array = scop.arrays[a];
  std::vector<isl::pw_aff> extents;
  for (unsigned d = 0; d < depth; ++d) {
    isl::pw_aff extent;
    for (Statement *stmt : stmts) {
      isl::pw_aff max = dimMax(stmt->domain, d);
      // Defined wherever some statement runs (max is defined only where
      // both are: an empty inner loop made the extent 0).
      extent = extent.is_null() ? max : unionMax(extent, max);
    }
    extents.push_back(totalOn(
        extent.add(constantOn(extent.domain().get_space(), 1)), scop.context));
  }
  array.extents = extents;
  array.isLocal = true;
  array.expandedDims = depth;
  cache.parts[a] = std::make_shared<const Dependences>(
      expandAlongLoops(*cache.parts.at(a), depth));
  for (Statement *stmt : stmts) {
    std::vector<std::string> its(stmt->iterators.begin(),
                                 stmt->iterators.begin() + depth);
    for (Access &access : stmt->accesses)
      if (access.array == a)
        access.relation = leadingIterators(stmt->domain, depth, array.name);
    setSubscripts(stmt->lhs, array.name, its);
    setSubscripts(stmt->rhs, array.name, its);
    if (stmt->guard)
      setSubscripts(stmt->guard, array.name, its);
  }
}

/// Expands scalar `a` if it can be; says why (not).
ScalarExpansion expandScalar(Scop &scop, DependenceCache &cache, unsigned a,
                             const std::vector<Statement *> &stmts,
                             const isl::union_map &liveIn) {
  const Array &array = scop.arrays[a];
  ScalarExpansion record;
  record.array = array.name;
  isl::space space = namedSetSpace(scop.ctx, array.name, 0);
  bool isLiveIn = !liveIn.range()
                       .intersect(isl::union_set(isl::set::universe(space)))
                       .is_empty();
  unsigned depth = 0;
  using Why = ScalarExpansion::Why;
  if (array.usedAfterScop)
    record.why = Why::UsedAfterScop;
  else if (isLiveIn)
    record.why = Why::ReadBeforeWritten;
  else if (commonLoops(stmts) == 0)
    record.why = Why::NoCommonLoop;
  else if (!(depth = expansionDepth(stmts, cache.parts.at(a)->flow)))
    record.why = Why::FlowsAcrossEveryLoop;
  if (depth == 0)
    return record;
  record.depth = depth;
  record.why = Why::Privatized;
  expand(scop, cache, a, stmts, depth);
  return record;
}

} // namespace

std::vector<ScalarExpansion> expandScalars(Scop &scop, DependenceCache &cache,
                                           bool localOnly) {
  std::vector<ScalarExpansion> result;
  auto candidate = [&](unsigned a) {
    return scop.arrays[a].rank() == 0 && scop.arrays[a].isWritten &&
           (!localOnly || scop.arrays[a].isLocal);
  };
  // Only the scalars' dependences matter here.
  std::vector<unsigned> candidates;
  for (unsigned a = 0; a < scop.arrays.size(); ++a)
    if (candidate(a))
      candidates.push_back(a);
  if (candidates.empty())
    return result;
  // The flow decides everything here; the anti and output dependences of
  // the scalars that are renamed or expanded are cheaper to compute
  // afterwards, from their new accesses.
  Dependences deps = computeDependences(scop, cache, candidates,
                                        /*flowOnly=*/true);
  if (!deps.complete)
    return result;
  // Reads without a writer in the scop: { [S[i] -> ref[]] -> A[] }.
  const isl::union_map &liveIn = deps.taggedLiveIn;
  splitLiveRanges(scop, cache, liveIn, localOnly);
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    if (!candidate(a))
      continue;
    std::vector<Statement *> stmts = accessorsOf(scop, a);
    if (!stmts.empty()) // empty: every web was renamed
      result.push_back(expandScalar(scop, cache, a, stmts, liveIn));
  }
  return result;
}

namespace {

ExprPtr iteratorExpr(const std::string &name) {
  auto node = std::make_shared<Expr>();
  node->kind = Expr::Kind::Iterator;
  node->name = name;
  return node;
}

ExprPtr intExpr(long value) {
  auto node = std::make_shared<Expr>();
  node->kind = Expr::Kind::IntLit;
  node->literal = std::to_string(value);
  return node;
}

ExprPtr binaryExpr(const std::string &op, ExprPtr left, ExprPtr right) {
  auto node = std::make_shared<Expr>();
  node->kind = Expr::Kind::Binary;
  node->op = op;
  node->args = {std::move(left), std::move(right)};
  return node;
}

/// `terms` as an expression of the parameters and `inputs`.
ExprPtr termsExpr(const AffineTerms &terms,
                  const std::vector<std::string> &inputs) {
  ExprPtr sum;
  auto add = [&](ExprPtr term, long coefficient) {
    if (coefficient != 1)
      term = binaryExpr("*", intExpr(coefficient), term);
    sum = sum ? binaryExpr("+", sum, term) : term;
  };
  for (const auto &[name, coefficient] : terms.params) {
    auto param = std::make_shared<Expr>();
    param->kind = Expr::Kind::Param;
    param->name = name;
    add(param, coefficient);
  }
  for (size_t d = 0; d < terms.inputs.size(); ++d)
    if (terms.inputs[d] != 0)
      add(iteratorExpr(inputs[d]), terms.inputs[d]);
  if (!sum)
    return intExpr(terms.constant);
  return terms.constant ? binaryExpr("+", sum, intExpr(terms.constant)) : sum;
}

/// References to array `from` in `expr` become references to `to`, with
/// `leading` subscripts first.
void expandRefs(const ExprPtr &expr, const std::string &from,
                const std::string &to, const std::vector<std::string> &leading) {
  if (!expr)
    return;
  for (const ExprPtr &arg : expr->args)
    expandRefs(arg, from, to, leading);
  if (expr->kind != Expr::Kind::ArrayRef || expr->name != from)
    return;
  expr->name = to;
  std::vector<ExprPtr> args;
  for (const std::string &it : leading)
    args.push_back(iteratorExpr(it));
  args.insert(args.end(), expr->args.begin(), expr->args.end());
  expr->args = args;
}

/// The statements in the `depth` loops around `stmt` (same positions in
/// the 2d+1 schedule).
std::set<std::string> statementsInLoops(const Scop &scop,
                                        const Statement &stmt,
                                        unsigned depth) {
  std::set<std::string> names;
  for (const Statement &other : scop.statements) {
    bool inside = other.iterators.size() >= depth;
    for (unsigned d = 0; inside && d < depth; ++d)
      inside = other.beta[d] == stmt.beta[d];
    if (inside)
      names.insert(other.name);
  }
  return names;
}

/// The dependences of `deps` between two statements of `names`.
isl::union_map between(const isl::union_map &deps,
                       const std::set<std::string> &names) {
  isl::union_map result = isl::union_map::empty(deps.ctx());
  for (const isl::map &map : mapsOf(deps))
    if (names.count(domainTupleName(map)) && names.count(rangeTupleName(map)))
      result = result.unite(isl::union_map(map));
  return result;
}

/// Per element of array `a` that the scop writes, the iterators of the
/// `depth` loops of its last writer, as affine terms of the element's
/// indices; nullopt when that is no single affine function.
std::optional<std::vector<AffineTerms>>
lastWriterLoops(const Scop &scop, unsigned a, unsigned depth) {
  isl::union_map writes = scop.accesses(false, true, false, a);
  isl::union_map time = writes.reverse().apply_range(scop.originalSchedule);
  // The last write of each element in the original order, and the writer
  // instance there (the original schedule is injective); a loop's value
  // is its iterator, not its time dimension (a decreasing loop's is -j).
  isl::union_map last =
      isl::union_map(time.as_map().lexmax())
          .apply_range(scop.originalSchedule.reverse());
  isl::map loops;
  for (const isl::map &map : mapsOf(last)) {
    isl::map mine = leadingDims(map, depth);
    loops = loops.is_null() ? mine : loops.unite(mine);
  }
  if (loops.is_null())
    return std::nullopt;
  isl::pw_multi_aff function = loops.coalesce().as_pw_multi_aff();
  std::vector<AffineTerms> result;
  for (unsigned d = 0; d < depth; ++d) {
    isl::pw_aff value = coalesced(function.at(d));
    if (isl_pw_aff_n_piece(value.get()) != 1)
      return std::nullopt;
    std::optional<AffineTerms> terms;
    value.foreach_piece([&](isl::set, isl::multi_aff piece) {
      terms = affineTerms(piece.at(0));
    });
    if (!terms)
      return std::nullopt;
    result.push_back(*terms);
  }
  return result;
}

/// Appends `target[e] = source[last(e), e]` for the elements `e` of
/// `target` the scop writes (`written`), after every other statement.
void addCopyBack(Scop &scop, unsigned target, unsigned source,
                 const isl::set &written,
                 const std::vector<AffineTerms> &last) {
  const Array &array = scop.arrays[target];
  Statement copy;
  copy.name = "S" + std::to_string(scop.statements.size());
  while (scop.findStatement(copy.name))
    copy.name += "_";
  unsigned rank = array.rank();
  for (unsigned d = 0; d < rank; ++d) {
    copy.iterators.push_back("e" + std::to_string(d));
    copy.sourceIterators.push_back(array.name + "_" + std::to_string(d));
    copy.loopLocs.push_back(scop.loc);
  }
  copy.domain = withTupleName(written, copy.name);
  copy.loc = scop.loc;
  int first = 0;
  for (const Statement &stmt : scop.statements)
    first = std::max(first, stmt.beta[0] + 1);
  copy.beta.assign(rank + 1, 0);
  copy.beta[0] = first;
  isl::map identity =
      withDomainName(isl::set::universe(written.get_space()).identity(),
                     copy.name)
          .intersect_domain(copy.domain);
  Access write{Access::Kind::MustWrite, target, identity, {}};
  // source[last(e), e]: the last writer's loops, then the element.
  std::string params, lastText, indices;
  for (size_t k = 0; k < scop.params.size(); ++k)
    params += (k ? ", " : "") + scop.params[k];
  for (unsigned d = 0; d < rank; ++d)
    indices += (d ? ", " : "") + copy.iterators[d];
  for (const AffineTerms &terms : last) {
    std::string value = std::to_string(terms.constant);
    for (const auto &[name, c] : terms.params)
      value += " + " + std::to_string(c) + " * " + name;
    for (size_t d = 0; d < terms.inputs.size(); ++d)
      value += " + " + std::to_string(terms.inputs[d]) + " * " +
               copy.iterators[d];
    lastText += value + ", ";
  }
  isl::map read =
      isl::map(scop.ctx, "[" + params + "] -> { " + copy.name + "[" +
                             indices + "] -> " + scop.arrays[source].name +
                             "[" + lastText + indices + "] }")
          .intersect_domain(copy.domain);
  copy.accesses = {Access{Access::Kind::Read, source, read, {}}, write};
  auto lhs = std::make_shared<Expr>();
  lhs->kind = Expr::Kind::ArrayRef;
  lhs->name = array.name;
  lhs->access = 1;
  for (const std::string &it : copy.iterators)
    lhs->args.push_back(iteratorExpr(it));
  auto rhs = std::make_shared<Expr>();
  rhs->kind = Expr::Kind::ArrayRef;
  rhs->name = scop.arrays[source].name;
  rhs->access = 0;
  for (const AffineTerms &terms : last)
    rhs->args.push_back(termsExpr(terms, copy.iterators));
  for (const std::string &it : copy.iterators)
    rhs->args.push_back(iteratorExpr(it));
  copy.lhs = lhs;
  copy.op = "=";
  copy.rhs = rhs;
  // Its place in the original order: after everything.
  isl::map schedule = mapsOf(scop.originalSchedule).front();
  unsigned timeDims = schedule.range_tuple_dim();
  std::string time = std::to_string(first);
  for (unsigned d = 1; d < timeDims; ++d)
    time += ", " + (d % 2 == 1 && d / 2 < rank ? copy.iterators[d / 2]
                                               : std::string("0"));
  scop.originalSchedule = scop.originalSchedule.unite(isl::union_map(
      isl::map(scop.ctx, "[" + params + "] -> { " + copy.name + "[" +
                             indices + "] -> [" + time + "] }")
          .intersect_domain(copy.domain)));
  scop.statements.push_back(copy);
}

} // namespace

namespace {

/// The elements of array `a` that the scop accesses, `{ A[e] }`.
isl::set accessedElements(const Scop &scop, unsigned a) {
  const Array &array = scop.arrays[a];
  return scop.accesses(true, true, true, a)
      .range()
      .extract_set(namedSetSpace(scop.ctx, array.name, array.rank()));
}

/// The number of loops along which array `a` may be expanded to good
/// effect (0: none): its accesses are affine, nothing of it is read before
/// the scop writes it, its values stay within iterations of those loops,
/// and its own reuse is the only dependence they carry. `depsOf` holds each
/// array's dependences.
unsigned arrayExpansionDepth(const Scop &scop, const Dependences &deps,
                             const std::map<unsigned, isl::union_map> &depsOf,
                             unsigned a,
                             const std::vector<Statement *> &stmts) {
  const Array &array = scop.arrays[a];
  bool affine = true;
  for (Statement *stmt : stmts)
    for (const Access &access : stmt->accesses)
      affine &= access.array != a || access.isAffine();
  isl::set liveIn = deps.liveIn.extract_set(
      namedSetSpace(scop.ctx, array.name, array.rank()));
  if (stmts.empty() || !affine || !liveIn.is_empty())
    return 0;
  // Without a first extent (a pointer, `A[][M]`) the copy's is the largest
  // index accessed, which must then be the elements 0, 1, ... of it.
  if (!array.firstExtentKnown) {
    isl::pw_aff min = dimMin(accessedElements(scop, a), 0);
    if (!min.lt_set(constantOn(min.domain().get_space(), 0))
             .intersect_params(scop.context)
             .is_empty())
      return 0;
  }
  unsigned depth = expansionDepth(stmts, deps.flowByArray.at(a));
  // Only where it pays: every other dependence among the statements of
  // those loops stays within their iterations (they become parallel).
  isl::union_map others = isl::union_map::empty(scop.ctx);
  for (const auto &[b, all] : depsOf)
    if (b != a)
      others = others.unite(all);
  while (depth > 0 &&
         !isWithinIterations(
             between(others, statementsInLoops(scop, *stmts[0], depth)),
             depth))
    --depth;
  // The array's own reuse must be what keeps the loops sequential.
  if (depth > 0 && isWithinIterations(depsOf.at(a), depth))
    return 0;
  return depth;
}

/// Array `a` with one copy per iteration of the `depth` loops around
/// `stmts`: a new local array (the loops' extents, then `a`'s) that every
/// access of `stmts` to `a` uses instead. Returns its index.
unsigned expandArray(Scop &scop, unsigned a,
                     const std::vector<Statement *> &stmts, unsigned depth) {
  Array copy = scop.arrays[a];
  copy.name += "_x";
  while (scop.findArray(copy.name) >= 0)
    copy.name += "_";
  copy.isLocal = true;
  copy.usedAfterScop = false;
  copy.isRead = true;
  copy.expandedDims = depth;
  copy.extents.clear();
  for (unsigned d = 0; d < depth; ++d) {
    isl::pw_aff extent;
    for (Statement *stmt : stmts) {
      isl::pw_aff max = dimMax(stmt->domain, d);
      extent = extent.is_null() ? max : unionMax(extent, max);
    }
    copy.extents.push_back(totalOn(
        extent.add(constantOn(extent.domain().get_space(), 1)), scop.context));
  }
  const std::vector<isl::pw_aff> &extents = scop.arrays[a].extents;
  copy.extents.insert(copy.extents.end(), extents.begin(), extents.end());
  if (!copy.firstExtentKnown) {
    // (arrayExpansionDepth checked that the accessed indices are >= 0.)
    isl::pw_aff max = dimMax(accessedElements(scop, a), 0);
    copy.extents[depth] = totalOn(
        max.add(constantOn(max.domain().get_space(), 1)), scop.context);
    copy.firstExtentKnown = true;
  }
  unsigned id = scop.arrays.size();
  std::string name = scop.arrays[a].name, copyName = copy.name;
  scop.arrays.push_back(copy);
  for (Statement *stmt : stmts) {
    std::vector<std::string> leading(stmt->iterators.begin(),
                                     stmt->iterators.begin() + depth);
    for (Access &access : stmt->accesses) {
      if (access.array != a)
        continue;
      access.array = id;
      access.relation = withRangeName(
          flatRangeProduct(leadingIterators(stmt->domain, depth, ""),
                           access.relation)
              .as_map(),
          copyName);
    }
    expandRefs(stmt->lhs, name, copyName, leading);
    expandRefs(stmt->rhs, name, copyName, leading);
    if (stmt->guard)
      expandRefs(stmt->guard, name, copyName, leading);
  }
  return id;
}

} // namespace

std::vector<ScalarExpansion> expandArrays(Scop &scop, DependenceCache &cache,
                                          bool localOnly) {
  std::vector<ScalarExpansion> result;
  Dependences deps = computeDependences(scop, cache);
  if (!deps.complete || scop.statements.empty())
    return result;
  std::map<unsigned, isl::union_map> depsOf; // per array, as they were
  for (const auto &[b, part] : cache.parts)
    depsOf[b] = part->all();
  unsigned timeDims =
      mapsOf(scop.originalSchedule).front().range_tuple_dim();
  for (unsigned a = 0, count = scop.arrays.size(); a < count; ++a) {
    const Array &array = scop.arrays[a];
    if (array.rank() == 0 || !array.isWritten ||
        (localOnly && !array.isLocal))
      continue;
    std::vector<Statement *> stmts = accessorsOf(scop, a);
    unsigned depth = arrayExpansionDepth(scop, deps, depsOf, a, stmts);
    if (depth == 0)
      continue;
    // The copy back needs the last writer's loops as a function of the
    // element, and a place in the 2d+1 original order.
    std::optional<std::vector<AffineTerms>> last;
    if (array.usedAfterScop &&
        (2 * array.rank() + 1 > timeDims ||
         !(last = lastWriterLoops(scop, a, depth))))
      continue;
    isl::set written =
        scop.accesses(false, true, false, a).range().extract_set(
            namedSetSpace(scop.ctx, array.name, array.rank()));
    std::string name = array.name;
    unsigned id = expandArray(scop, a, stmts, depth);
    cache.invalidate(a);
    if (last)
      addCopyBack(scop, a, id, written, *last);
    ScalarExpansion record;
    record.array = name;
    record.depth = depth;
    record.why = ScalarExpansion::Why::ArrayExpanded;
    record.into = scop.arrays[id].name;
    record.copiedBack = last.has_value();
    result.push_back(record);
  }
  return result;
}

} // namespace polycuda::polyhedral
