//===- Reductions.cpp - Reductions shared by the threads of a block -------===//
//
// Stages 3 and 4 (see Reductions.h). A kernel with a reduction reads
//
//   sequence
//     filter (block) ...               each thread: its lanes' iterations
//                                      into its partial `variable`
//     polycuda_reduce_N()              partials -> shared buffer, tree
//     polycuda_combine_N(e)            lane 0: e = e op total
//
// The two grafts are outside the block's filter: the tree's barriers are
// guarded by nothing that depends on a thread, so that every thread of the
// block reaches them (the OpenCL of PoCL fails on a barrier in a
// condition); the combine's elements are those of the first lane of each
// thread position along the other members.
//
//===----------------------------------------------------------------------===//
#include "Reductions.h"

#include "IslExtras.h"
#include "SharedMemory.h"

#include <algorithm>
#include <functional>
#include <set>

namespace polycuda::polyhedral {

namespace {

/// The accesses of the array references in `e`, subscripts included.
void accessesIn(const ExprPtr &e, std::set<unsigned> &out) {
  if (!e)
    return;
  if (e->kind == Expr::Kind::ArrayRef && e->access >= 0)
    out.insert(e->access);
  for (const ExprPtr &arg : e->args)
    accessesIn(arg, out);
}

bool sameReference(const Access &a, const Access &b) {
  return a.array == b.array && a.isAffine() && b.isAffine() &&
         a.relation.is_equal(b.relation);
}

/// Whether `a` and `b` are the same expression (array references by array
/// and subscripts, whatever their accesses).
bool sameExpr(const ExprPtr &a, const ExprPtr &b) {
  if (!a || !b || a->kind != b->kind || a->name != b->name || a->op != b->op ||
      a->literal != b->literal || a->castType != b->castType ||
      a->args.size() != b->args.size())
    return false;
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!sameExpr(a->args[i], b->args[i]))
      return false;
  return true;
}

/// For `x = max(x, e)` forms (`(x > e) ? x : e`, `(e < x) ? x : e`, ...,
/// `fmax(x, e)`, `fmin(e, x)`): '>' for a maximum, '<' for a minimum, and
/// the references of x in `rhs` (`isX`); 0 when `rhs` is none of them.
char extremumForm(const ExprPtr &rhs,
                  const std::function<bool(const ExprPtr &)> &isX,
                  std::vector<ExprPtr> &xs) {
  if (rhs->kind == Expr::Kind::Call && rhs->args.size() == 2) {
    bool max = rhs->name == "fmax" || rhs->name == "fmaxf";
    bool min = rhs->name == "fmin" || rhs->name == "fminf";
    if (!max && !min)
      return 0;
    for (int x = 0; x < 2; ++x)
      if (isX(rhs->args[x]) && !isX(rhs->args[1 - x])) {
        xs = {rhs->args[x]};
        return max ? '>' : '<';
      }
    return 0;
  }
  if (rhs->kind != Expr::Kind::Ternary || rhs->args.size() != 3)
    return 0;
  const ExprPtr &cond = rhs->args[0];
  if (cond->kind != Expr::Kind::Binary || cond->args.size() != 2 ||
      (cond->op != ">" && cond->op != ">=" && cond->op != "<" &&
       cond->op != "<="))
    return 0;
  // The branches are x and e, the comparison's operands the same two.
  int x = isX(rhs->args[1]) ? 1 : isX(rhs->args[2]) ? 2 : 0;
  if (x == 0 || isX(rhs->args[3 - x]))
    return 0;
  const ExprPtr &e = rhs->args[3 - x];
  int cx = isX(cond->args[0]) ? 0 : isX(cond->args[1]) ? 1 : -1;
  if (cx < 0 || !sameExpr(cond->args[1 - cx], e))
    return 0;
  // The operand the comparison finds greater, and the branch taken then.
  bool greaterIsFirst = cond->op == ">" || cond->op == ">=";
  bool xIsGreater = (cx == 0) == greaterIsFirst;
  bool takesX = x == 1;
  xs = {cond->args[cx], rhs->args[x]};
  return xIsGreater == takesX ? '>' : '<';
}

} // namespace

const char *reductionOpName(char op) {
  switch (op) {
  case '*':
    return "*";
  case '>':
    return "max";
  case '<':
    return "min";
  case '&':
    return "&";
  case '|':
    return "|";
  case '^':
    return "^";
  default:
    return "+";
  }
}

std::optional<ReductionForm> reductionForm(const Statement &stmt) {
  if (!stmt.lhs || stmt.lhs->kind != Expr::Kind::ArrayRef ||
      stmt.lhs->access < 0 || !stmt.rhs)
    return std::nullopt;
  ReductionForm form;
  form.write = stmt.lhs->access;
  const Access &write = stmt.accesses[form.write];
  if (write.kind != Access::Kind::MustWrite || !write.isAffine())
    return std::nullopt;
  std::set<unsigned> inRhs;
  accessesIn(stmt.rhs, inRhs);
  static const std::set<std::string> compound = {"+=", "-=", "*=",
                                                  "&=", "|=", "^="};
  if (compound.count(stmt.op)) {
    form.op = stmt.op == "-=" ? '+' : stmt.op[0];
    // The compound assignment's read of x: the access no node refers to.
    for (unsigned i = 0; i < stmt.accesses.size(); ++i) {
      if (i == form.write || inRhs.count(i))
        continue;
      if (stmt.accesses[i].kind != Access::Kind::Read ||
          !sameReference(stmt.accesses[i], write) ||
          form.references.size() > 0)
        return std::nullopt;
      form.references.push_back(i);
    }
    if (form.references.size() != 1)
      return std::nullopt;
  } else if (stmt.op == "=") {
    const ExprPtr &rhs = stmt.rhs;
    auto isX = [&](const ExprPtr &e) {
      return e->kind == Expr::Kind::ArrayRef && e->access >= 0 &&
             sameReference(stmt.accesses[e->access], write);
    };
    std::vector<ExprPtr> xs;
    if (char op = extremumForm(rhs, isX, xs)) {
      form.op = op;
    } else {
      if (rhs->kind != Expr::Kind::Binary || rhs->args.size() != 2 ||
          (rhs->op != "+" && rhs->op != "-" && rhs->op != "*"))
        return std::nullopt;
      form.op = rhs->op == "*" ? '*' : '+';
      if (isX(rhs->args[0]))
        xs = {rhs->args[0]};
      else if (rhs->op != "-" && isX(rhs->args[1]))
        xs = {rhs->args[1]};
      else
        return std::nullopt;
    }
    for (const ExprPtr &x : xs)
      form.references.push_back(x->access);
    for (unsigned i = 0; i < stmt.accesses.size(); ++i)
      if (i != form.write && !inRhs.count(i))
        return std::nullopt; // an access outside the body's references
  } else {
    return std::nullopt;
  }
  form.references.push_back(form.write);
  for (unsigned i : inRhs)
    if (stmt.accesses[i].array == write.array &&
        std::find(form.references.begin(), form.references.end(), i) ==
            form.references.end())
      form.others.push_back(i);
  return form;
}

bool reductionIsLegal(const Statement &stmt, const ReductionForm &form,
                      const isl::union_set &instances,
                      const isl::union_map &host,
                      const isl::union_map &prefix) {
  return reductionsAreLegal({{&stmt, form}}, instances, host, prefix);
}

bool reductionsAreLegal(
    const std::vector<std::pair<const Statement *, ReductionForm>> &updates,
    const isl::union_set &instances, const isl::union_map &host,
    const isl::union_map &prefix) {
  if (updates.empty())
    return false;
  isl::union_map write = isl::union_map::empty(instances.ctx());
  for (const auto &[stmt, form] : updates) {
    if (form.op != updates.front().second.op ||
        stmt->accesses[form.write].array !=
            updates.front().first->accesses[updates.front().second.write]
                .array)
      return false;
    write = write.unite(isl::union_map(stmt->accesses[form.write].relation)
                            .intersect_domain(instances));
  }
  if (write.is_empty())
    return false;
  // One element per prefix, and some prefix with several instances.
  isl::union_map byPrefix = prefix.intersect_domain(instances);
  if (!byPrefix.reverse().apply_range(write).is_single_valued() ||
      byPrefix.is_injective())
    return false;
  // No operand reads an element the launch writes.
  isl::union_map written = host.reverse().apply_range(write);
  for (const auto &[stmt, form] : updates)
    for (unsigned i : form.others) {
      isl::union_map read = host.reverse().apply_range(
          isl::union_map(stmt->accesses[i].relation)
              .intersect_domain(instances));
      if (!read.intersect(written).is_empty())
        return false;
    }
  return true;
}

void insertBlockReductions(GpuProgram &program) {
  const Scop &scop = *program.scop;
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  for (Kernel &kernel : program.kernels) {
    if (!kernel.reduction)
      continue;
    BlockReduction &reduction = *kernel.reduction;
    isl::schedule_node mark = findKernelMark(root.child(0), kernel);
    if (mark.is_null())
      continue;
    isl::schedule tree = kernel.deviceTree.is_null()
                             ? subtreeAsSchedule(mark.child(0), kernel.domain)
                             : kernel.deviceTree;
    isl::schedule_node node = tree.get_root().child(0); // the block filter
    isl::union_map prefix = node.get_prefix_schedule_union_map();
    isl::set outside =
        isl::set::universe(prefix.range().as_set().get_space());
    // The elements of this thread's first lane: those that any of the
    // statements writes. Their domains differ where isl fused nests (one's
    // D[i + 1][i + 2] for i < n, another's D[j + 2][j + 3] for j < n) or a
    // statement is a branch (nussinov's i < j - 1), and an element that only
    // other statements than the first update would lose its lanes' partials.
    unsigned lane = reduction.member;
    std::string t = program.names.threadId + std::to_string(lane);
    isl::set first(scop.ctx, "[" + t + "] -> { : " + t + " = 0 }");
    isl::union_set owners =
        reduction.owners.intersect(kernel.domain).intersect_params(first);
    isl::union_map writes = isl::union_map::empty(scop.ctx);
    for (const auto &[index, access] : reduction.references) {
      const Access &reference = scop.statements[index].accesses[access];
      if (reference.kind == Access::Kind::MustWrite)
        writes = writes.unite(isl::union_map(reference.relation));
    }
    isl::set elements = writes.intersect_domain(owners).range().as_set();
    unsigned index = 0; // one reduction per kernel
    isl::map combine = mapFromDomainAndRange(
        outside, withTupleName(elements,
                               kernel.addStatement(AddedOp::Combine, index)));
    isl::map reduce = mapFromDomainAndRange(
        outside,
        isl::set::universe(namedSetSpace(
            scop.ctx, kernel.addStatement(AddedOp::Reduce, index), 0)));
    // graft_after puts each graft right after the filter: combine first.
    node = node.graft_after(
        isl::schedule_node::from_extension(isl::union_map(combine)));
    node = node.graft_after(
        isl::schedule_node::from_extension(isl::union_map(reduce)));
    kernel.deviceTree = node.get_schedule();
  }
}

} // namespace polycuda::polyhedral
