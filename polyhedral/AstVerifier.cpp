//===- AstVerifier.cpp - What a generated AST executes, checked -----------===//
#include "AstVerifier.h"

#include "IslExtras.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace polycuda::polyhedral {

namespace {

/// Time dimensions below `node`: one per loop and one per block, along
/// the deepest path.
unsigned timeDims(const isl::ast_node &node) {
  if (node.isa<isl::ast_node_for>())
    return 1 + timeDims(node.as<isl::ast_node_for>().body());
  if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    unsigned dims = timeDims(branch.then_node());
    if (branch.has_else_node())
      dims = std::max(dims, timeDims(branch.else_node()));
    return dims;
  }
  if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    unsigned dims = 0;
    for (int i = 0, n = children.size(); i < n; ++i)
      dims = std::max(dims, timeDims(children.at(i)));
    return 1 + dims;
  }
  if (node.isa<isl::ast_node_mark>())
    return timeDims(node.as<isl::ast_node_mark>().node());
  return 0;
}

/// Whether no leaf below `node` runs an instance of the scop (`runs`: see
/// LeafInstances): the statements that promotion or a reduction added
/// (copies, barriers, loads and stores of registers), so that the reader
/// need not read their loops and conditions (a register tile's loads have
/// long ones).
bool runsNoInstance(const isl::ast_node &node,
                    const std::function<bool(const std::string &)> &runs) {
  if (node.isa<isl::ast_node_for>())
    return runsNoInstance(node.as<isl::ast_node_for>().body(), runs);
  if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    return runsNoInstance(branch.then_node(), runs) &&
           (!branch.has_else_node() ||
            runsNoInstance(branch.else_node(), runs));
  }
  if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    for (int i = 0, n = children.size(); i < n; ++i)
      if (!runsNoInstance(children.at(i), runs))
        return false;
    return true;
  }
  if (node.isa<isl::ast_node_mark>())
    return runsNoInstance(node.as<isl::ast_node_mark>().node(), runs);
  if (node.isa<isl::ast_node_user>()) {
    isl::ast_expr call = node.as<isl::ast_node_user>().expr();
    if (!call.isa<isl::ast_expr_op>() ||
        !call.as<isl::ast_expr_op>().isa<isl::ast_expr_op_call>())
      return false;
    isl::ast_expr name = call.as<isl::ast_expr_op>().arg(0);
    return name.isa<isl::ast_expr_id>() &&
           !runs(name.as<isl::ast_expr_id>().id().name());
  }
  return false;
}

/// Whether `e` refers to `name`.
bool mentions(const isl::ast_expr &e, const std::string &name) {
  if (e.isa<isl::ast_expr_id>())
    return e.as<isl::ast_expr_id>().id().name() == name;
  if (!e.isa<isl::ast_expr_op>())
    return false;
  isl::ast_expr_op op = e.as<isl::ast_expr_op>();
  for (int i = 0, n = op.n_arg(); i < n; ++i)
    if (mentions(op.arg(i), name))
      return true;
  return false;
}

/// Whether `e` is affine in `name` where it mentions it: sums, differences,
/// negations and products with a constant of terms free of it.
bool linearIn(const isl::ast_expr &e, const std::string &name) {
  if (!mentions(e, name) || e.isa<isl::ast_expr_id>())
    return true;
  isl::ast_expr_op op = e.as<isl::ast_expr_op>();
  if (op.isa<isl::ast_expr_op_add>() || op.isa<isl::ast_expr_op_sub>() ||
      op.isa<isl::ast_expr_op_minus>()) {
    for (int i = 0, n = op.n_arg(); i < n; ++i)
      if (!linearIn(op.arg(i), name))
        return false;
    return true;
  }
  if (op.isa<isl::ast_expr_op_mul>())
    return (op.arg(0).isa<isl::ast_expr_int>() && linearIn(op.arg(1), name)) ||
           (op.arg(1).isa<isl::ast_expr_int>() && linearIn(op.arg(0), name));
  return false;
}

/// Whether the loop condition `cond` on iterator `name` is a conjunction of
/// comparisons linear in it (each one, hence all, fails for good once it
/// fails as the iterator grows, as isl's upper bounds do).
bool monotoneCondition(const isl::ast_expr &cond, const std::string &name) {
  if (!mentions(cond, name))
    return true;
  if (!cond.isa<isl::ast_expr_op>())
    return false;
  isl::ast_expr_op op = cond.as<isl::ast_expr_op>();
  if (op.isa<isl::ast_expr_op_and>() || op.isa<isl::ast_expr_op_and_then>())
    return monotoneCondition(op.arg(0), name) &&
           monotoneCondition(op.arg(1), name);
  if (op.isa<isl::ast_expr_op_le>() || op.isa<isl::ast_expr_op_lt>() ||
      op.isa<isl::ast_expr_op_ge>() || op.isa<isl::ast_expr_op_gt>() ||
      op.isa<isl::ast_expr_op_eq>())
    return linearIn(op.arg(0), name) && linearIn(op.arg(1), name);
  return false;
}

long intValue(const isl::ast_expr &expr) {
  if (!expr.isa<isl::ast_expr_int>())
    throw UnreadableAst("AST verifier: expected an integer");
  return expr.as<isl::ast_expr_int>().val().get_num_si();
}

/// Reads an AST back: each node's execution condition as a set of times
/// (block positions and loop iterators in nesting order, then zeros).
class AstReader : public LeafReader {
public:
  AstReader(isl::space time, const LeafInstances &leaves)
      : time(std::move(time)), leaves(leaves),
        executed(isl::union_map::empty(this->time.ctx())) {}

  void visit(const isl::ast_node &node, const isl::set &where, unsigned next);
  isl::union_map result() const { return executed; }

  isl::pw_aff value(const isl::ast_expr &e) const override { return expr(e); }
  isl::set condition(const isl::ast_expr &e) const override;
  isl::space timeSpace() const override { return time; }

private:
  void visitFor(const isl::ast_node_for &loop, const isl::set &where,
                unsigned next);
  void visitLeaf(const isl::ast_node_user &leaf, isl::set where,
                 unsigned next);
  isl::pw_aff expr(const isl::ast_expr &e) const;
  /// `{ t -> t' : t'_d > t_d, t'_j = t_j (j != d) }` on the times.
  isl::map laterOn(unsigned d) const;
  isl::pw_aff op(const isl::ast_expr_op &e) const;

  isl::space time;
  const LeafInstances &leaves;
  isl::union_map executed;
  std::map<std::string, unsigned> loops; ///< iterator name -> time dimension
};

void AstReader::visit(const isl::ast_node &node, const isl::set &where,
                      unsigned next) {
  if ((node.isa<isl::ast_node_for>() || node.isa<isl::ast_node_if>()) &&
      leaves.runs && runsNoInstance(node, leaves.runs))
    return;
  if (node.isa<isl::ast_node_for>()) {
    visitFor(node.as<isl::ast_node_for>(), where, next);
  } else if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    isl::set cond = condition(branch.cond());
    visit(branch.then_node(), where.intersect(cond), next);
    if (branch.has_else_node())
      visit(branch.else_node(), where.subtract(cond), next);
  } else if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    isl::pw_aff position = variableOn(time, next);
    for (int i = 0, n = children.size(); i < n; ++i)
      visit(children.at(i),
            where.intersect(position.eq_set(constantOn(time, i))), next + 1);
  } else if (node.isa<isl::ast_node_mark>()) {
    visit(node.as<isl::ast_node_mark>().node(), where, next);
  } else if (node.isa<isl::ast_node_user>()) {
    visitLeaf(node.as<isl::ast_node_user>(), where, next);
  } else {
    throw UnreadableAst("AST verifier: unexpected node");
  }
}

void AstReader::visitFor(const isl::ast_node_for &loop, const isl::set &where,
                         unsigned next) {
  std::string name = loop.iterator().as<isl::ast_expr_id>().id().name();
  std::optional<unsigned> outer;
  if (loops.count(name))
    outer = loops[name];
  isl::pw_aff iterator = variableOn(time, next);
  isl::pw_aff init = expr(loop.init());
  isl::set runs;
  if (loop.is_degenerate()) {
    // Printed as `iterator = init` (the code printers): it runs once.
    runs = iterator.eq_set(init);
  } else {
    loops[name] = next;
    isl::set steps = iterator.ge_set(init);
    long inc = intValue(loop.inc());
    if (inc != 1)
      steps = steps.intersect(
          iterator.sub(init).mod(inc).eq_set(constantOn(time, 0)));
    // C runs the values from `init` while the condition holds: the first
    // value where it fails ends the loop, even if it holds again later
    // (isl may print a stride as a bound, `k < 2 * floord(k + 1, 2)`).
    isl::set cond = condition(loop.cond());
    isl::set fails = steps.subtract(cond);
    runs = steps.intersect(cond).subtract(fails.apply(laterOn(next)));
  }
  loops[name] = next;
  isl::set inside = where.intersect(runs).coalesce();
  if (!inside.is_empty())
    visit(loop.body(), inside, next + 1);
  if (outer)
    loops[name] = *outer;
  else
    loops.erase(name);
}

void AstReader::visitLeaf(const isl::ast_node_user &leaf, isl::set where,
                          unsigned next) {
  isl::ast_expr call = leaf.expr();
  if (!call.isa<isl::ast_expr_op>() ||
      !call.as<isl::ast_expr_op>().isa<isl::ast_expr_op_call>())
    throw UnreadableAst("AST verifier: a leaf that is not a call");
  // Times of shorter paths end in zeros, so that all share one space.
  for (unsigned d = next, n = setDims(time); d < n; ++d)
    where = where.intersect(variableOn(time, d).eq_set(constantOn(time, 0)));
  isl::union_map instances =
      leaves.instances(call.as<isl::ast_expr_op>(), *this);
  if (!instances.is_null())
    executed = executed.unite(instances.intersect_domain(where));
}

isl::map AstReader::laterOn(unsigned d) const {
  isl_map *later = isl_map_universe(time.map_from_set().release());
  for (unsigned j = 0, n = setDims(time); j < n; ++j)
    if (j != d)
      later = isl_map_equate(later, isl_dim_in, j, isl_dim_out, j);
  return isl::manage(isl_map_order_lt(later, isl_dim_in, d, isl_dim_out, d));
}

isl::pw_aff AstReader::expr(const isl::ast_expr &e) const {
  if (e.isa<isl::ast_expr_int>())
    return constantOn(time, intValue(e));
  if (e.isa<isl::ast_expr_id>()) {
    std::string name = e.as<isl::ast_expr_id>().id().name();
    auto loop = loops.find(name);
    if (loop != loops.end())
      return variableOn(time, loop->second);
    return paramOn(time, name);
  }
  return op(e.as<isl::ast_expr_op>());
}

isl::pw_aff AstReader::op(const isl::ast_expr_op &e) const {
  auto arg = [&](int i) { return expr(e.arg(i)); };
  if (e.isa<isl::ast_expr_op_add>())
    return arg(0).add(arg(1));
  if (e.isa<isl::ast_expr_op_sub>())
    return arg(0).sub(arg(1));
  if (e.isa<isl::ast_expr_op_mul>())
    return arg(0).mul(arg(1));
  if (e.isa<isl::ast_expr_op_minus>())
    return arg(0).neg();
  if (e.isa<isl::ast_expr_op_div>() || e.isa<isl::ast_expr_op_fdiv_q>() ||
      e.isa<isl::ast_expr_op_pdiv_q>())
    // Exact, floored, or floored of a non-negative value: the same floor
    // wherever isl uses them.
    return arg(0).div(arg(1)).floor();
  if (e.isa<isl::ast_expr_op_pdiv_r>())
    return arg(0).mod(isl::val(time.ctx(), intValue(e.arg(1))));
  if (e.isa<isl::ast_expr_op_zdiv_r>())
    return arg(0).tdiv_r(arg(1));
  if (e.isa<isl::ast_expr_op_min>() || e.isa<isl::ast_expr_op_max>()) {
    bool isMin = e.isa<isl::ast_expr_op_min>();
    isl::pw_aff value = arg(0);
    for (unsigned i = 1; i < e.n_arg(); ++i)
      value = isMin ? value.min(arg(i)) : value.max(arg(i));
    return value;
  }
  if (e.isa<isl::ast_expr_op_select>() || e.isa<isl::ast_expr_op_cond>())
    return condition(e.arg(0)).indicator_function().cond(arg(1), arg(2));
  // A comparison used as a value: 1 where it holds, 0 elsewhere.
  return condition(e).indicator_function();
}

isl::set AstReader::condition(const isl::ast_expr &e) const {
  if (!e.isa<isl::ast_expr_op>())
    return expr(e).ne_set(constantOn(time, 0));
  isl::ast_expr_op o = e.as<isl::ast_expr_op>();
  auto arg = [&](int i) { return expr(o.arg(i)); };
  if (o.isa<isl::ast_expr_op_and>() || o.isa<isl::ast_expr_op_and_then>())
    return condition(o.arg(0)).intersect(condition(o.arg(1)));
  if (o.isa<isl::ast_expr_op_or>() || o.isa<isl::ast_expr_op_or_else>())
    return condition(o.arg(0)).unite(condition(o.arg(1)));
  if (o.isa<isl::ast_expr_op_eq>())
    return arg(0).eq_set(arg(1));
  if (o.isa<isl::ast_expr_op_le>())
    return arg(0).le_set(arg(1));
  if (o.isa<isl::ast_expr_op_lt>())
    return arg(0).lt_set(arg(1));
  if (o.isa<isl::ast_expr_op_ge>())
    return arg(0).ge_set(arg(1));
  if (o.isa<isl::ast_expr_op_gt>())
    return arg(0).gt_set(arg(1));
  return op(o).ne_set(constantOn(time, 0));
}

/// At most a few hundred characters of `text`, for a message.
std::string shortened(const std::string &text) {
  return text.size() <= 300 ? text : text.substr(0, 300) + " ...";
}

} // namespace

isl::map instanceMap(const LeafReader &reader, const std::string &name,
                     const std::vector<isl::ast_expr> &args) {
  isl::space time = reader.timeSpace();
  isl::space space =
      mapFromDomainAndRange(
          isl::set::universe(time),
          isl::set::universe(namedSetSpace(time.ctx(), name, args.size())))
          .get_space();
  if (args.empty())
    return isl::map::universe(space);
  isl::pw_aff_list values(time.ctx(), args.size());
  for (const isl::ast_expr &arg : args)
    values = values.add(reader.value(arg));
  return isl::multi_pw_aff(space, values).as_map();
}

LeafInstances statementLeaves(const isl::union_set &domain) {
  auto statements = std::make_shared<std::set<std::string>>();
  for (const isl::set &set : setsOf(domain))
    statements->insert(tupleName(set));
  auto instances = [statements](const isl::ast_expr_op &call,
                                const LeafReader &reader) -> isl::union_map {
    std::string name = call.arg(0).as<isl::ast_expr_id>().id().name();
    if (!statements->count(name))
      return isl::union_map();
    std::vector<isl::ast_expr> args;
    for (unsigned i = 1; i < call.n_arg(); ++i)
      args.push_back(call.arg(i));
    return isl::union_map(instanceMap(reader, name, args));
  };
  return {instances, [statements](const std::string &name) {
            return statements->count(name) > 0;
          }};
}

std::string nonMonotoneLoop(const isl::ast_node &ast) {
  std::string problem;
  auto visit = [](isl_ast_node *node, void *user) -> isl_bool {
    std::string &problem = *static_cast<std::string *>(user);
    if (!problem.empty())
      return isl_bool_false;
    if (isl_ast_node_get_type(node) == isl_ast_node_for) {
      isl::ast_node_for loop =
          isl::manage_copy(node).as<isl::ast_node_for>();
      std::string name = loop.iterator().as<isl::ast_expr_id>().id().name();
      if (!loop.is_degenerate() && !monotoneCondition(loop.cond(), name))
        problem = "the loop over " + name +
                  " ends at the first value where " + loop.cond().to_C_str() +
                  " fails, and it holds again for larger values";
    }
    return isl_bool_true;
  };
  isl_ast_node_foreach_descendant_top_down(ast.get(), visit, &problem);
  return problem;
}

isl::union_map executionTimes(const isl::ast_node &ast, const isl::set &context,
                              const LeafInstances &leaves) {
  isl::space time = namedSetSpace(context.ctx(), "", timeDims(ast));
  AstReader reader(time, leaves);
  reader.visit(ast, isl::set::universe(time).intersect_params(context), 0);
  return reader.result().reverse();
}

std::string verifyExecution(const isl::union_map &times,
                            const isl::union_set &domain,
                            const isl::union_map &dependences,
                            const isl::set &context, ExecutionOrder how) {
  isl::union_map ran = times.intersect_params(context).coalesce();
  isl::union_set instances = domain.intersect_params(context);
  isl::union_set executed = ran.domain();
  if (!executed.is_subset(instances))
    return "runs instances that do not exist: " +
           shortened(toString(executed.subtract(instances)));
  if (!instances.is_subset(executed))
    return "never runs " + shortened(toString(instances.subtract(executed)));
  if (!ran.is_single_valued())
    return "runs an instance more than once";
  isl::union_map order = dependences.intersect_params(context)
                             .intersect_domain(instances)
                             .intersect_range(instances)
                             .apply_domain(ran)
                             .apply_range(ran);
  for (const isl::map &pairs : mapsOf(order)) {
    isl::space time = pairs.get_space().domain();
    isl::map backwards;
    if (how.parallelDims == 0) {
      // Backwards: the sink runs before the source (or at the same time,
      // unless that is allowed).
      backwards =
          pairs.intersect(lexOrder(time, !how.sameTimeAllowed).reverse());
    } else {
      // On another thread, or not later on the same one.
      backwards = pairs.subtract(
          equateLeading(lexOrder(time, how.sameTimeAllowed), how.parallelDims));
    }
    if (!backwards.is_empty())
      return "runs a dependence backwards, at times " +
             shortened(toString(backwards));
  }
  return "";
}

} // namespace polycuda::polyhedral
