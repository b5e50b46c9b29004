//===- IslExtras.cpp - isl helpers missing from isl/cpp.h -----------------===//
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
#include <isl/stride_info.h>
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

OperationLimit::OperationLimit(isl::ctx ctx, unsigned long limit)
    : ctx(ctx), previous(isl_ctx_get_max_operations(ctx.get())) {
  if (previous != 0 && (limit == 0 || previous < limit))
    limit = previous;
  isl_ctx_reset_operations(ctx.get());
  isl_ctx_set_max_operations(ctx.get(), limit);
}

OperationLimit::~OperationLimit() {
  isl_ctx_set_max_operations(ctx.get(), previous);
  isl_ctx_reset_operations(ctx.get());
  isl_ctx_reset_error(ctx.get());
}

std::vector<isl::map> mapsOf(const isl::union_map &umap) {
  std::vector<isl::map> result;
  umap.foreach_map([&](isl::map map) { result.push_back(map); });
  return result;
}

std::vector<isl::set> setsOf(const isl::union_set &uset) {
  std::vector<isl::set> result;
  uset.foreach_set([&](isl::set set) { result.push_back(set); });
  return result;
}

std::vector<isl::basic_map> basicMapsOf(const isl::map &map) {
  std::vector<isl::basic_map> result;
  map.foreach_basic_map([&](isl::basic_map bmap) { result.push_back(bmap); });
  return result;
}

std::vector<HullEquality> affineHullEqualities(const isl::set &set) {
  // Raw objects are owned here until the end: nothing below throws until
  // isl::manage, which gets a fresh copy.
  using Hull = std::unique_ptr<isl_basic_set, decltype(&isl_basic_set_free)>;
  using List = std::unique_ptr<isl_constraint_list,
                               decltype(&isl_constraint_list_free)>;
  using Constraint =
      std::unique_ptr<isl_constraint, decltype(&isl_constraint_free)>;
  Hull hull(isl_set_affine_hull(set.copy()), &isl_basic_set_free);
  List constraints(isl_basic_set_get_constraint_list(hull.get()),
                   &isl_constraint_list_free);
  if (!hull || !constraints)
    isl::exception::throw_last_error(set.ctx());
  int dims = isl_basic_set_dim(hull.get(), isl_dim_set);
  int n = isl_constraint_list_n_constraint(constraints.get());
  std::vector<HullEquality> result;
  for (int c = 0; c < n; ++c) {
    Constraint constraint(
        isl_constraint_list_get_constraint(constraints.get(), c),
        &isl_constraint_free);
    if (isl_constraint_is_equality(constraint.get()) != isl_bool_true)
      continue;
    HullEquality equality;
    for (int d = 0; d < dims; ++d) {
      isl_val *v =
          isl_constraint_get_coefficient_val(constraint.get(), isl_dim_set, d);
      equality.variables += isl_val_is_zero(v) == isl_bool_false;
      isl_val_free(v);
    }
    equality.plane = isl::manage(isl_set_from_basic_set(
        isl_basic_set_from_constraint(constraint.release())));
    result.push_back(equality);
  }
  return result;
}

isl::union_map subtreeSchedule(const isl::schedule_node &node) {
  return isl::manage(
      isl_schedule_node_get_subtree_schedule_union_map(node.get()));
}

isl::map outputsToParams(isl::map map, const std::vector<std::string> &names) {
  isl::ctx ctx = map.ctx();
  isl_map *raw = map.release();
  unsigned n = names.size();
  for (unsigned i = 0; i < n; ++i)
    raw = isl_map_set_dim_id(raw, isl_dim_out, i,
                             isl_id_alloc(ctx.get(), names[i].c_str(), nullptr));
  for (unsigned i = 0; i < n; ++i) {
    isl_size np = isl_map_dim(raw, isl_dim_param);
    raw = isl_map_move_dims(raw, isl_dim_param, np, isl_dim_out, 0, 1);
  }
  return isl::manage(raw);
}

isl::map paramsToOutputs(isl::map map, const std::vector<std::string> &names) {
  isl::ctx ctx = map.ctx();
  isl_space *params = isl_space_params_alloc(ctx.get(), 0);
  for (const std::string &name : names)
    params = isl_space_add_param_id(
        params, isl_id_alloc(ctx.get(), name.c_str(), nullptr));
  isl_map *raw = isl_map_align_params(map.release(), params);
  for (size_t i = names.size(); i-- > 0;) {
    int pos = isl_map_find_dim_by_name(raw, isl_dim_param, names[i].c_str());
    raw = isl_map_move_dims(raw, isl_dim_out, 0, isl_dim_param, pos, 1);
  }
  return isl::manage(raw);
}

isl::set projectOutParams(isl::set set, const std::vector<std::string> &names) {
  isl_set *raw = set.release();
  for (const std::string &name : names) {
    int pos = isl_set_find_dim_by_name(raw, isl_dim_param, name.c_str());
    if (pos >= 0)
      raw = isl_set_project_out(raw, isl_dim_param, pos, 1);
  }
  return isl::manage(raw);
}

isl::pw_aff inputsToParams(isl::pw_aff pa,
                           const std::vector<std::string> &names) {
  isl::ctx ctx = pa.ctx();
  isl_pw_aff *raw = pa.release();
  unsigned n = names.size();
  for (unsigned i = 0; i < n; ++i)
    raw = isl_pw_aff_set_dim_id(raw, isl_dim_in, i,
                                isl_id_alloc(ctx.get(), names[i].c_str(), nullptr));
  for (unsigned i = 0; i < n; ++i) {
    isl_size np = isl_pw_aff_dim(raw, isl_dim_param);
    raw = isl_pw_aff_move_dims(raw, isl_dim_param, np, isl_dim_in, 0, 1);
  }
  raw = isl_pw_aff_reset_tuple_id(raw, isl_dim_in);
  return isl::manage(raw);
}

isl::pw_aff onParams(const isl::pw_aff &pa) {
  return isl::manage(isl_pw_aff_project_domain_on_params(pa.copy()));
}

isl::pw_aff paramOn(const isl::space &space, const std::string &name) {
  isl::ctx ctx = space.ctx();
  isl_id *id = isl_id_alloc(ctx.get(), name.c_str(), nullptr);
  isl_space *withParam = isl_space_add_param_id(space.copy(), isl_id_copy(id));
  return isl::manage(isl_pw_aff_from_aff(
      isl_aff_param_on_domain_space_id(withParam, id)));
}

isl::pw_aff liftToSpace(const isl::pw_aff &pa, const isl::space &space) {
  isl_space *domain = isl_pw_aff_get_domain_space(pa.get());
  bool onParams = isl_space_is_params(domain);
  isl_space_free(domain);
  if (onParams)
    return isl::manage(isl_pw_aff_insert_domain(pa.copy(), space.copy()));
  isl_space *target = isl_space_params(space.copy());
  target = isl_space_set_from_params(target);
  isl_space *mapSpace = isl_space_map_from_domain_and_range(space.copy(), target);
  isl_multi_aff *zero = isl_multi_aff_zero(mapSpace);
  return isl::manage(isl_pw_aff_pullback_multi_aff(pa.copy(), zero));
}

isl::schedule_node setCoincident(isl::schedule_node band, int pos,
                                 bool value) {
  return isl::manage(
      isl_schedule_node_band_member_set_coincident(band.release(), pos, value));
}

bool isCoincident(const isl::schedule_node &band, int pos) {
  return isl_schedule_node_band_member_get_coincident(band.get(), pos) ==
         isl_bool_true;
}

isl::space namedSetSpace(isl::ctx ctx, const std::string &name,
                          unsigned dims) {
  isl_space *space = isl_space_set_alloc(ctx.get(), 0, dims);
  if (!name.empty())
    space = isl_space_set_tuple_name(space, isl_dim_set, name.c_str());
  return isl::manage(space);
}

isl::map lexOrder(const isl::space &space, bool orEqual) {
  return isl::manage(orEqual ? isl_map_lex_le(space.copy())
                             : isl_map_lex_lt(space.copy()));
}

isl::map mapFromDomainAndRange(const isl::set &domain, const isl::set &range) {
  return isl::manage(isl_map_from_domain_and_range(domain.copy(), range.copy()));
}

isl::map equateLeading(const isl::map &map, unsigned n) {
  isl_map *raw = map.copy();
  for (unsigned d = 0; d < n; ++d)
    raw = isl_map_equate(raw, isl_dim_in, d, isl_dim_out, d);
  return isl::manage(raw);
}

isl::map equateAllBut(const isl::map &map, unsigned skip) {
  isl_map *raw = map.copy();
  unsigned n = unsigned(isl_map_dim(raw, isl_dim_in));
  for (unsigned d = 0; d < n; ++d)
    if (d != skip)
      raw = isl_map_equate(raw, isl_dim_in, d, isl_dim_out, d);
  return isl::manage(raw);
}

isl::union_map memberMap(const isl::union_pw_aff &member) {
  return isl::union_map::from(isl::multi_union_pw_aff(member));
}

isl::union_map memberMap(const isl::union_pw_aff &member,
                         const isl::union_set &domain) {
  return memberMap(member).intersect_domain(domain);
}

isl::union_map flatRangeProduct(const isl::union_map &left,
                                const isl::union_map &right) {
  return isl::manage(
      isl_union_map_flat_range_product(left.copy(), right.copy()));
}

isl::pw_aff constantOn(const isl::space &space, long value) {
  isl_local_space *ls = isl_local_space_from_space(space.copy());
  isl_aff *aff = isl_aff_zero_on_domain(ls);
  // Not isl_aff_set_constant_si, which takes an int.
  aff = isl_aff_set_constant_val(
      aff, isl_val_int_from_si(isl_space_get_ctx(space.get()), value));
  return isl::manage(isl_pw_aff_from_aff(aff));
}

isl::pw_aff variableOn(const isl::space &space, unsigned pos) {
  isl_local_space *ls = isl_local_space_from_space(space.copy());
  return isl::manage(
      isl_pw_aff_from_aff(isl_aff_var_on_domain(ls, isl_dim_set, pos)));
}

unsigned setDims(const isl::space &space) {
  return isl_space_dim(space.get(), isl_dim_out);
}

isl::pw_aff valueOutside(const isl::pw_aff &pa, const isl::set &context,
                         long value) {
  isl::pw_aff within = pa.intersect_params(context);
  isl::set rest = context.subtract(within.domain());
  if (rest.is_empty())
    return within;
  return within.union_add(isl::manage(isl_pw_aff_val_on_domain(
      rest.release(), isl_val_int_from_si(context.ctx().get(), value))));
}

isl::pw_aff dimMin(const isl::set &set, unsigned pos) {
  return isl::manage(isl_set_dim_min(set.copy(), (int)pos));
}

isl::pw_aff dimMax(const isl::set &set, unsigned pos) {
  return isl::manage(isl_set_dim_max(set.copy(), (int)pos));
}

isl::pw_aff totalOn(const isl::pw_aff &pa, const isl::set &context) {
  isl::set domain = pa.domain();
  isl::set within = context;
  if (isl_set_is_params(domain.get()) && !isl_set_is_params(within.get()))
    within = within.params();
  else if (!isl_set_is_params(domain.get()) && isl_set_is_params(within.get()))
    within = isl::manage(isl_set_from_params(within.copy()));
  isl::set rest = within.subtract(domain);
  if (rest.is_empty())
    return pa;
  isl::pw_aff zero = isl::manage(isl_pw_aff_zero_on_domain(
      isl_local_space_from_space(isl_set_get_space(rest.get()))));
  return pa.union_add(zero.intersect_domain(rest));
}

std::optional<isl::aff> onlyPiece(const isl::pw_aff &pa) {
  if (pa.is_null() || isl_pw_aff_n_piece(pa.get()) != 1)
    return std::nullopt;
  std::optional<isl::aff> result;
  isl_pw_aff_foreach_piece(
      pa.get(),
      [](isl_set *set, isl_aff *aff, void *user) -> isl_stat {
        *static_cast<std::optional<isl::aff> *>(user) = isl::manage(aff);
        isl_set_free(set);
        return isl_stat_ok;
      },
      &result);
  return result;
}

std::optional<long> constantValue(const isl::pw_aff &pa) {
  if (pa.is_null() || !isl_pw_aff_is_cst(pa.get()) ||
      isl_pw_aff_n_piece(pa.get()) != 1)
    return std::nullopt;
  std::optional<long> result;
  isl_pw_aff_foreach_piece(
      pa.get(),
      [](isl_set *set, isl_aff *aff, void *user) -> isl_stat {
        isl_val *v = isl_aff_get_constant_val(aff);
        if (isl_val_is_int(v))
          *static_cast<std::optional<long> *>(user) = isl_val_get_num_si(v);
        isl_val_free(v);
        isl_set_free(set);
        isl_aff_free(aff);
        return isl_stat_ok;
      },
      &result);
  return result;
}

} // namespace polycuda::polyhedral

namespace polycuda::polyhedral {

isl::union_pw_aff floorDiv(const isl::union_pw_aff &upa, long divisor) {
  isl::val d(upa.ctx(), divisor);
  return isl::manage(isl_union_pw_aff_floor(
      isl_union_pw_aff_scale_down_val(upa.copy(), d.release())));
}

isl::union_pw_aff scaled(const isl::union_pw_aff &upa, long factor) {
  isl::val f(upa.ctx(), factor);
  return isl::manage(isl_union_pw_aff_scale_val(upa.copy(), f.release()));
}

isl::union_pw_aff constantOnDomain(const isl::union_set &domain, long value) {
  isl::val v(domain.ctx(), value);
  return isl::manage(
      isl_union_pw_aff_val_on_domain(domain.copy(), v.release()));
}

isl::union_set zeroSet(const isl::union_pw_aff &upa) {
  return isl::manage(isl_union_pw_aff_zero_union_set(upa.copy()));
}

isl::union_pw_aff paramOnDomain(const isl::union_set &domain,
                                const std::string &name) {
  isl::id id(domain.ctx(), name);
  return isl::manage(
      isl_union_pw_aff_param_on_domain_id(domain.copy(), id.release()));
}

isl::union_pw_aff applyToSchedule(const isl::multi_union_pw_aff &schedule,
                                  const isl::pw_aff &pa) {
  return isl::manage(
      isl_multi_union_pw_aff_apply_pw_aff(schedule.copy(), pa.copy()));
}

/// `band`'s flags (coincident, permutable, loop types) on `copy`.
isl::schedule_node copyBandFlags(const isl::schedule_node &band,
                                 isl::schedule_node copy) {
  isl_schedule_node *raw = copy.release();
  raw = isl_schedule_node_band_set_permutable(
      raw, isl_schedule_node_band_get_permutable(band.get()));
  isl_size n = isl_schedule_node_band_n_member(band.get());
  for (isl_size i = 0; i < n; ++i) {
    raw = isl_schedule_node_band_member_set_coincident(
        raw, i, isl_schedule_node_band_member_get_coincident(band.get(), i));
    raw = isl_schedule_node_band_member_set_ast_loop_type(
        raw, i, isl_schedule_node_band_member_get_ast_loop_type(band.get(), i));
  }
  return isl::manage(raw);
}

namespace {

/// The root's child of `schedule` (where an insertion goes).
isl::schedule_node top(const isl::schedule &schedule) {
  return schedule.get_root().child(0);
}

} // namespace

isl::schedule subtreeAsSchedule(const isl::schedule_node &node,
                                const isl::union_set &domain) {
  switch (isl_schedule_node_get_type(node.get())) {
  case isl_schedule_node_leaf:
    return isl::schedule::from_domain(domain);
  case isl_schedule_node_band: {
    isl::schedule inner = subtreeAsSchedule(node.child(0), domain);
    isl::multi_union_pw_aff partial =
        node.as<isl::schedule_node_band>().get_partial_schedule();
    isl::schedule_node band = top(inner).insert_partial_schedule(partial);
    return copyBandFlags(node, band).get_schedule();
  }
  case isl_schedule_node_filter: {
    isl::union_set filter =
        isl::manage(isl_schedule_node_filter_get_filter(node.get()));
    return subtreeAsSchedule(node.child(0), domain.intersect(filter));
  }
  case isl_schedule_node_sequence:
  case isl_schedule_node_set: {
    bool sequence =
        isl_schedule_node_get_type(node.get()) == isl_schedule_node_sequence;
    isl::schedule result;
    for (int i = 0, n = isl_schedule_node_n_children(node.get()); i < n; ++i) {
      isl::schedule part = subtreeAsSchedule(node.child(i), domain);
      if (isl_union_set_is_empty(part.get_domain().get()) == isl_bool_true)
        continue;
      if (result.is_null())
        result = part;
      else if (sequence)
        result = isl::manage(
            isl_schedule_sequence(result.release(), part.release()));
      else
        result =
            isl::manage(isl_schedule_set(result.release(), part.release()));
    }
    return result.is_null() ? isl::schedule::from_domain(domain) : result;
  }
  case isl_schedule_node_mark: {
    isl::schedule inner = subtreeAsSchedule(node.child(0), domain);
    isl::id id = isl::manage(isl_schedule_node_mark_get_id(node.get()));
    return top(inner).insert_mark(id).get_schedule();
  }
  case isl_schedule_node_context:
    return subtreeAsSchedule(node.child(0), domain);
  default:
    throw std::runtime_error("internal compiler error: unexpected schedule "
                             "tree node in a kernel");
  }
}

} // namespace polycuda::polyhedral

namespace polycuda::polyhedral {

isl::map withDomainName(const isl::map &map, const std::string &name) {
  return isl::manage(
      isl_map_set_tuple_name(map.copy(), isl_dim_in, name.c_str()));
}

isl::map withRangeName(const isl::map &map, const std::string &name) {
  return isl::manage(
      isl_map_set_tuple_name(map.copy(), isl_dim_out, name.c_str()));
}

isl::set withTupleName(const isl::set &set, const std::string &name) {
  return isl::manage(isl_set_set_tuple_name(set.copy(), name.c_str()));
}

isl::map leadingIterators(const isl::set &domain, unsigned depth,
                          const std::string &name) {
  isl_space *space = isl_set_get_space(domain.get());
  unsigned dims = isl_space_dim(space, isl_dim_set);
  isl_space *range = isl_space_drop_dims(isl_space_copy(space), isl_dim_set,
                                         depth, dims - depth);
  range = isl_space_set_tuple_name(range, isl_dim_set, name.c_str());
  isl_space *mapSpace = isl_space_map_from_domain_and_range(space, range);
  return equateLeading(isl::manage(isl_map_universe(mapSpace)), depth)
      .intersect_domain(domain);
}

isl::map leadingDims(const isl::map &map, unsigned n) {
  isl_map *raw = map.copy();
  isl_size dims = isl_map_dim(raw, isl_dim_out);
  raw = isl_map_project_out(raw, isl_dim_out, n, dims - n);
  return isl::manage(isl_map_reset_tuple_id(raw, isl_dim_out));
}

isl::aff firstHullEquality(const isl::set &set) {
  isl_basic_set *hull = isl_set_affine_hull(set.copy());
  isl_constraint_list *list = isl_basic_set_get_constraint_list(hull);
  isl_constraint *eq = isl_constraint_list_get_constraint(list, 0);
  isl_aff *e = isl_constraint_get_aff(eq);
  isl_constraint_free(eq);
  isl_constraint_list_free(list);
  isl_basic_set_free(hull);
  return isl::manage(e);
}

isl::pw_aff unionMax(const isl::pw_aff &a, const isl::pw_aff &b) {
  return isl::manage(isl_pw_aff_union_max(a.copy(), b.copy()));
}

} // namespace polycuda::polyhedral

namespace polycuda::polyhedral {

namespace {
/// `v` as a long when it is an integer that fits.
std::optional<long> integerValue(isl_val *v) {
  std::optional<long> result;
  if (v && isl_val_is_int(v) == isl_bool_true) {
    isl_val *limit = isl_val_int_from_si(isl_val_get_ctx(v), LONG_MAX / 2);
    isl_val *abs = isl_val_abs(isl_val_copy(v));
    if (isl_val_le(abs, limit) == isl_bool_true)
      result = isl_val_get_num_si(v);
    isl_val_free(abs);
    isl_val_free(limit);
  }
  isl_val_free(v);
  return result;
}
} // namespace

std::optional<AffineTerms> affineTerms(const isl::aff &aff) {
  isl_aff *raw = aff.get();
  if (isl_aff_dim(raw, isl_dim_div) != 0)
    return std::nullopt;
  AffineTerms terms;
  std::optional<long> constant =
      integerValue(isl_aff_get_constant_val(raw));
  if (!constant)
    return std::nullopt;
  terms.constant = *constant;
  for (int k = 0, n = isl_aff_dim(raw, isl_dim_param); k < n; ++k) {
    std::optional<long> c =
        integerValue(isl_aff_get_coefficient_val(raw, isl_dim_param, k));
    if (!c)
      return std::nullopt;
    if (*c != 0)
      terms.params.push_back(
          {isl_aff_get_dim_name(raw, isl_dim_param, k), *c});
  }
  for (int d = 0, n = isl_aff_dim(raw, isl_dim_in); d < n; ++d) {
    std::optional<long> c =
        integerValue(isl_aff_get_coefficient_val(raw, isl_dim_in, d));
    if (!c)
      return std::nullopt;
    terms.inputs.push_back(*c);
  }
  return terms;
}
} // namespace polycuda::polyhedral

//===----------------------------------------------------------------------===//
// What isl/cpp.h (isl 0.25) lacks for the pipeline stages (see IslExtras.h).
// Every raw object is either kept (__isl_keep arguments: get()) or handed
// over with copy(), and every result is owned by an isl:: object at once.
//===----------------------------------------------------------------------===//

namespace polycuda::polyhedral {

void resetError(isl::ctx ctx) { isl_ctx_reset_error(ctx.get()); }

unsigned long maxOperations(isl::ctx ctx) {
  return isl_ctx_get_max_operations(ctx.get());
}

void continueOnError(isl::ctx ctx) {
  isl_options_set_on_error(ctx.get(), ISL_ON_ERROR_CONTINUE);
}

std::shared_ptr<isl_ctx> makeSharedContext() {
  std::shared_ptr<isl_ctx> ctx(isl_ctx_alloc(), isl_ctx_free);
  continueOnError(ctx.get());
  return ctx;
}

void setSchedulerOptions(isl::ctx ctx, const SchedulerOptions &options) {
  isl_ctx *raw = ctx.get();
  isl_options_set_schedule_outer_coincidence(raw, options.outerCoincidence);
  isl_options_set_schedule_serialize_sccs(raw, options.serializeSccs);
  isl_options_set_schedule_maximize_band_depth(raw, options.maximizeBandDepth);
  isl_options_set_schedule_whole_component(raw, options.wholeComponent);
  isl_options_set_schedule_maximize_coincidence(raw,
                                                options.maximizeCoincidence);
  isl_options_set_schedule_max_coefficient(raw, options.maxCoefficient);
  isl_options_set_schedule_max_constant_term(raw, options.maxConstantTerm);
}

std::string tupleName(const isl::set &set) {
  const char *name = isl_set_get_tuple_name(set.get());
  return name ? name : "";
}

std::string domainTupleName(const isl::map &map) {
  const char *name = isl_map_get_tuple_name(map.get(), isl_dim_in);
  return name ? name : "";
}

std::string rangeTupleName(const isl::map &map) {
  const char *name = isl_map_get_tuple_name(map.get(), isl_dim_out);
  return name ? name : "";
}

isl::map withInputNames(isl::map map, const std::vector<std::string> &names) {
  isl_ctx *ctx = map.ctx().get();
  isl_map *raw = map.release();
  for (unsigned d = 0; d < names.size(); ++d)
    raw = isl_map_set_dim_id(raw, isl_dim_in, d,
                             isl_id_alloc(ctx, names[d].c_str(), nullptr));
  return isl::manage(raw);
}

isl::map withoutTupleIds(const isl::map &map) {
  isl_map *raw = isl_map_reset_tuple_id(map.copy(), isl_dim_in);
  return isl::manage(isl_map_reset_tuple_id(raw, isl_dim_out));
}

isl::map projectOutInputs(const isl::map &map, unsigned first, unsigned n) {
  return isl::manage(isl_map_project_out(map.copy(), isl_dim_in, first, n));
}

isl::map projectOutOutputs(const isl::map &map, unsigned first, unsigned n) {
  return isl::manage(isl_map_project_out(map.copy(), isl_dim_out, first, n));
}

isl::space mapSpace(const isl::space &domain, const isl::space &range) {
  return isl::manage(
      isl_space_map_from_domain_and_range(domain.copy(), range.copy()));
}

isl::space dropSetDims(const isl::space &space, unsigned first, unsigned n) {
  return isl::manage(isl_space_drop_dims(space.copy(), isl_dim_set, first, n));
}

isl::set paramsOf(const isl::union_set &uset) {
  return isl::manage(isl_union_set_params(uset.copy()));
}

std::vector<isl::pw_aff> pwAffsOf(const isl::union_pw_aff &upa) {
  isl::pw_aff_list list =
      isl::manage(isl_union_pw_aff_get_pw_aff_list(upa.get()));
  std::vector<isl::pw_aff> result;
  for (unsigned i = 0, n = list.size(); i < n; ++i)
    result.push_back(list.at(i));
  return result;
}

std::vector<isl::val> coefficients(const isl::aff &aff) {
  std::vector<isl::val> result;
  for (isl_dim_type type : {isl_dim_in, isl_dim_param}) {
    isl_size n = isl_aff_dim(aff.get(), type);
    for (isl_size i = 0; i < n; ++i)
      result.push_back(
          isl::manage(isl_aff_get_coefficient_val(aff.get(), type, i)));
  }
  return result;
}

isl::val denominator(const isl::aff &aff) {
  return isl::manage(isl_aff_get_denominator_val(aff.get()));
}

unsigned numDivs(const isl::aff &aff) {
  isl_size n = isl_aff_dim(aff.get(), isl_dim_div);
  return n < 0 ? 0 : n;
}

std::string toCString(const isl::pw_aff &pa) {
  isl_printer *p = isl_printer_to_str(pa.ctx().get());
  p = isl_printer_set_output_format(p, ISL_FORMAT_C);
  p = isl_printer_print_pw_aff(p, pa.get());
  char *s = isl_printer_get_str(p);
  std::string text = s ? s : "";
  free(s);
  isl_printer_free(p);
  return text;
}

isl::union_set domainOf(const isl::schedule_node &node) {
  return isl::manage(isl_schedule_node_get_domain(node.get()));
}

isl::id markId(const isl::schedule_node &mark) {
  return isl::manage(isl_schedule_node_mark_get_id(mark.get()));
}

unsigned scheduleDepth(const isl::schedule_node &node) {
  isl_size depth = isl_schedule_node_get_schedule_depth(node.get());
  if (depth < 0)
    isl::exception::throw_last_error(node.ctx());
  return depth;
}

isl::schedule_node deleteNode(isl::schedule_node node) {
  return isl::manage(isl_schedule_node_delete(node.release()));
}


} // namespace polycuda::polyhedral

namespace polycuda::polyhedral {

std::string islVersion() {
  std::string version = isl_version();
  while (!version.empty() && isspace((unsigned char)version.back()))
    version.pop_back();
  return version;
}

std::string toYaml(const isl::schedule &schedule) {
  isl_printer *p = isl_printer_to_str(schedule.ctx().get());
  p = isl_printer_set_yaml_style(p, ISL_YAML_STYLE_BLOCK);
  p = isl_printer_print_schedule(p, schedule.get());
  char *s = isl_printer_get_str(p);
  std::string text = s ? s : "";
  free(s);
  isl_printer_free(p);
  return text;
}

} // namespace polycuda::polyhedral

namespace polycuda::polyhedral {

isl::map pieceOf(const isl::union_map &umap, const std::string &name) {
  for (const isl::map &map : mapsOf(umap))
    if (domainTupleName(map) == name)
      return map;
  return isl::map();
}

std::optional<std::vector<long>> rangeWidthsPerKey(const isl::map &byKey) {
  isl::set deltas = byKey.reverse().apply_range(byKey).deltas();
  std::vector<long> widths;
  for (unsigned d = 0, n = deltas.tuple_dim(); d < n; ++d) {
    isl::val width = deltas.dim_max_val(d);
    if (!width.is_int() || width.is_neg())
      return std::nullopt;
    widths.push_back(width.get_num_si() + 1);
  }
  return widths;
}

std::optional<long> fixedValue(const isl::set &set, unsigned d) {
  std::optional<long> low = constantValue(dimMin(set, d));
  std::optional<long> high = constantValue(dimMax(set, d));
  if (low && high && *low == *high)
    return low;
  return std::nullopt;
}

bool isZeroDim(const isl::set &set, unsigned d) {
  isl::space space = set.get_space();
  return set.is_subset(variableOn(space, d).eq_set(constantOn(space, 0)));
}

bool isBounded(const isl::set &set) {
  return isl_set_is_bounded(set.get()) == isl_bool_true;
}

isl::aff strideValue(const isl::set &domain, unsigned pos) {
  unsigned dims = domain.tuple_dim();
  isl::set outer = domain;
  if (pos + 1 < dims)
    outer = isl::manage(isl_set_eliminate(outer.release(), isl_dim_set,
                                          pos + 1, dims - pos - 1));
  isl_stride_info *info = isl_set_get_stride_info(outer.get(), pos);
  if (!info)
    return isl::aff();
  isl::val stride = isl::manage(isl_stride_info_get_stride(info));
  isl::aff offset = isl::manage(isl_stride_info_get_offset(info));
  isl_stride_info_free(info);
  if (stride.is_one())
    return isl::aff();
  bool integral =
      isl::manage(isl_aff_get_denominator_val(offset.get())).is_one();
  if (!integral || isl_aff_dim(offset.get(), isl_dim_div) != 0 ||
      isl_aff_involves_dims(offset.get(), isl_dim_in, pos, dims - pos))
    return isl::aff();
  isl::aff own = isl::manage(isl_aff_var_on_domain(
      isl_local_space_from_space(domain.get_space().release()), isl_dim_set,
      pos));
  return offset.add(own.scale(stride));
}

} // namespace polycuda::polyhedral
