//===- IslExtras_Ast.cpp - Building ASTs with isl's C interface ----------===//
//
// The AST builds that isl/cpp.h 0.25 lacks: from a schedule with a mark
// callback whose exceptions do not unwind through isl, from a map with
// the loop types asked for, and expressions and calls from sets and
// parameters (see IslExtras.h).
//
//===----------------------------------------------------------------------===//
#include "IslExtras.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/printer.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/version.h>
#include <isl/union_map.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <memory>
#include <utility>


namespace polycuda::polyhedral {


/// Names the loops at depth `skip` and below prefix0, prefix1, ...; those
/// above, prefix64, prefix65, ... (still names that cannot clash with the
/// user's: the translator chooses prefixes so that none of prefix<digits>
/// does).
static isl_ast_build *withIterators(isl_ast_build *build,
                                    const std::string &prefix,
                                    unsigned skip = 0) {
  isl_ctx *ctx = isl_ast_build_get_ctx(build);
  isl_id_list *names = isl_id_list_alloc(ctx, 16);
  for (unsigned i = 0; i < 64 + skip; ++i)
    names = isl_id_list_add(
        names,
        isl_id_alloc(
            ctx,
            (prefix + std::to_string(i < skip ? 64 + i : i - skip)).c_str(),
            nullptr));
  return isl_ast_build_set_iterators(build, names);
}

// Every band member's loop type is set to the mode asked for. "Atomic" (one
// loop per member, no separation into full and partial pieces) comes first:
// it is what PPCG generates by default. Neither mode is right everywhere in
// isl 0.25 (see AstVerifier.h), so the callers verify the AST and try the
// others.
static isl_schedule_node *setLoopType(isl_schedule_node *node, void *user) {
  if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
    return node;
  auto type = *static_cast<isl_ast_loop_type *>(user);
  isl_size n = isl_schedule_node_band_n_member(node);
  for (isl_size i = 0; i < n; ++i)
    node = isl_schedule_node_band_member_set_ast_loop_type(node, i, type);
  return node;
}

/// `{ [i0, ..., i(n-1)] -> atomic[d] }` for every dimension d of the
/// range of `schedule` (all its maps have the same range dimension).
static isl_union_map *atomicOptions(isl_union_map *schedule) {
  isl_ctx *ctx = isl_union_map_get_ctx(schedule);
  isl_size dims = 0;
  isl_map_list *maps = isl_union_map_get_map_list(schedule);
  if (isl_map_list_n_map(maps) > 0) {
    isl_map *first = isl_map_list_get_at(maps, 0);
    dims = isl_map_dim(first, isl_dim_out);
    isl_map_free(first);
  }
  isl_map_list_free(maps);
  std::string tuple;
  for (isl_size d = 0; d < dims; ++d)
    tuple += (d ? ", i" : "i") + std::to_string(d);
  std::string text = "{ ";
  for (isl_size d = 0; d < dims; ++d)
    text += (d ? "; [" : "[") + tuple + "] -> atomic[" + std::to_string(d) + "]";
  return isl_union_map_read_from_str(ctx, (text + " }").c_str());
}

static isl::ast_node buildAstFromMapOnce(const isl::set &context,
                                         const isl::union_map &schedule,
                                         const std::string &iteratorPrefix);

isl::ast_node buildAstFromMap(const isl::set &context,
                              const isl::union_map &schedule,
                              const std::string &iteratorPrefix) {
  // isl 0.25's AST generator can fail with an internal error in its
  // coalescing (random program 4114: "original tableau does not correspond
  // to original basic map"); the same schedule with its equalities made
  // explicit and redundant constraints removed is
  // generated without it. Only after a failure: the first form is the one
  // every other schedule is printed from.
  isl_ctx *ctx = schedule.ctx().get();
  isl::ast_node node = buildAstFromMapOnce(context, schedule, iteratorPrefix);
  if (!node.is_null())
    return node;
  isl_ctx_reset_error(ctx);
  isl::union_map simpler = isl::manage(isl_union_map_remove_redundancies(
      isl_union_map_detect_equalities(schedule.copy())));
  node = buildAstFromMapOnce(context, simpler, iteratorPrefix);
  if (node.is_null())
    isl::exception::throw_last_error(schedule.ctx());
  return node;
}

static isl::ast_node buildAstFromMapOnce(const isl::set &context,
                                         const isl::union_map &schedule,
                                         const std::string &iteratorPrefix) {
  // Give the context and the schedule the same parameter order: isl's AST
  // generator otherwise prints some integer divisions with the wrong
  // parameter.
  isl_space *params = isl_space_align_params(
      isl_set_get_space(context.get()), isl_union_map_get_space(schedule.get()));
  isl_set *alignedContext = isl_set_align_params(context.copy(),
                                                 isl_space_copy(params));
  isl_union_map *alignedSchedule =
      isl_union_map_align_params(schedule.copy(), params);
  isl_ast_build *build = isl_ast_build_from_context(alignedContext);
  build = withIterators(build, iteratorPrefix);
  build = isl_ast_build_set_options(build, atomicOptions(alignedSchedule));
  isl_ast_node *node =
      isl_ast_build_node_from_schedule_map(build, alignedSchedule);
  isl_ast_build_free(build);
  if (!node)
    return isl::ast_node();
  return isl::manage(node);
}

namespace {
using MarkFn = MarkCallbackFn;

/// The mark callback and the first exception it threw.
struct MarkCallback {
  const MarkFn &fn;
  std::exception_ptr error;
};

isl_ast_node *afterMark(isl_ast_node *node, isl_ast_build *build,
                        void *user) {
  auto &callback = *static_cast<MarkCallback *>(user);
  // An exception (an isl quota error, say) must not unwind through isl's C
  // frames, which would leak everything they hold: keep it, fail the AST
  // build, and rethrow it once isl has cleaned up.
  try {
    isl::id id = isl::manage(isl_ast_node_mark_get_id(node));
    isl::ast_build wrapped = isl::manage_copy(build);
    isl::ast_node child = isl::manage(isl_ast_node_mark_get_node(node));
    isl::ast_node replacement = callback.fn(id, child, wrapped);
    if (replacement.is_null())
      return node;
    isl_ast_node_free(node);
    return replacement.release();
  } catch (...) {
    callback.error = std::current_exception();
    isl_ast_node_free(node);
    return nullptr;
  }
}
} // namespace

isl::ast_node buildAstFromSchedule(const isl::set &context,
                                   const isl::schedule &schedule,
                                   const std::string &iteratorPrefix,
                                   const MarkFn &onMark, unsigned skip,
                                   AstLoopMode mode) {
  isl_union_set *domain = isl_schedule_get_domain(schedule.get());
  isl_space *params = isl_space_align_params(isl_set_get_space(context.get()),
                                             isl_union_set_get_space(domain));
  isl_union_set_free(domain);
  isl_ast_build *build = isl_ast_build_from_context(
      isl_set_align_params(context.copy(), isl_space_copy(params)));
  isl_schedule *aligned = isl_schedule_align_params(schedule.copy(), params);
  isl_ast_loop_type type = mode == AstLoopMode::Atomic ? isl_ast_loop_atomic
                           : mode == AstLoopMode::Separate
                               ? isl_ast_loop_separate
                               : isl_ast_loop_default;
  aligned = isl_schedule_map_schedule_node_bottom_up(aligned, &setLoopType,
                                                     &type);
  build = withIterators(build, iteratorPrefix, skip);
  MarkCallback callback{onMark, nullptr};
  build = isl_ast_build_set_after_each_mark(build, &afterMark, &callback);
  isl_ast_node *node = isl_ast_build_node_from_schedule(build, aligned);
  isl_ast_build_free(build);
  if (callback.error) {
    isl_ast_node_free(node);
    std::rethrow_exception(callback.error);
  }
  if (!node)
    isl::exception::throw_last_error(schedule.ctx());
  return isl::manage(node);
}

isl::ast_expr buildExprFromParams(const isl::set &context,
                                  const isl::pw_aff &pa) {
  isl_space *params = isl_space_align_params(isl_set_get_space(context.get()),
                                             isl_pw_aff_get_space(pa.get()));
  isl_ast_build *build = isl_ast_build_from_context(
      isl_set_align_params(context.copy(), isl_space_copy(params)));
  isl_ast_expr *expr = isl_ast_build_expr_from_pw_aff(
      build, isl_pw_aff_align_params(pa.copy(), params));
  isl_ast_build_free(build);
  return isl::manage(expr);
}

isl::ast_expr buildExprFromSet(const isl::set &set) {
  isl_ast_build *build = isl_ast_build_from_context(
      isl_set_universe(isl_set_get_space(set.get())));
  isl_ast_expr *expr = isl_ast_build_expr_from_set(build, set.copy());
  isl_ast_build_free(build);
  return isl::manage(expr);
}

isl::ast_node makeCallNode(const isl::id &fn,
                           const std::vector<isl::ast_expr> &args) {
  isl_ast_expr_list *list =
      isl_ast_expr_list_alloc(fn.ctx().get(), args.size());
  for (const isl::ast_expr &arg : args)
    list = isl_ast_expr_list_add(list, arg.copy());
  return isl::manage(isl_ast_node_alloc_user(
      isl_ast_expr_call(isl_ast_expr_from_id(fn.copy()), list)));
}

void forEachAstNode(const isl::ast_node &node,
                    const std::function<bool(const isl::ast_node &)> &fn) {
  auto visit = [](isl_ast_node *child, void *user) -> isl_bool {
    auto &fn =
        *static_cast<const std::function<bool(const isl::ast_node &)> *>(user);
    return fn(isl::manage_copy(child)) ? isl_bool_true : isl_bool_false;
  };
  isl_ast_node_foreach_descendant_top_down(
      node.get(), visit, const_cast<void *>(static_cast<const void *>(&fn)));
}

isl::id callId(const isl::ast_expr &call) {
  return call.as<isl::ast_expr_op>().arg(0).as<isl::ast_expr_id>().id();
}

} // namespace polycuda::polyhedral
