//===- Explain.cpp - Why the pipeline did what it did ---------------------===//
//
// See Explain.h. Dependences are split per array (RAW from the tagged flow,
// WAR/WAW by joining the relations with the array's accesses) and per level
// of the common loops that carries them, so that every fact has one
// direction vector. Coalescing looks at thread neighbours: instances in the
// same host iteration whose kernel schedule differs by one along a hardware
// dimension; the distance between the elements they touch is the pattern.
//
//===----------------------------------------------------------------------===//
#include "Explain.h"

#include "IslExtras.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/polynomial.h>
#include <isl/printer.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <map>
#include <set>

namespace polycuda::polyhedral {

namespace {

unsigned elementBytes(ElemType type) {
  switch (type) {
  case ElemType::Char:
  case ElemType::UChar:
    return 1;
  case ElemType::Short:
    return 2;
  case ElemType::Int:
  case ElemType::UInt:
  case ElemType::Float:
    return 4;
  case ElemType::Long:
  case ElemType::Double:
    return 8;
  }
  return 8;
}

unsigned statementIndex(const Scop &scop, const std::string &name) {
  const Statement *stmt = scop.findStatement(name);
  return stmt ? stmt - scop.statements.data() : 0;
}

std::string varList(const std::string &prefix, unsigned n) {
  std::string text;
  for (unsigned i = 0; i < n; ++i)
    text += (i ? ", " : "") + prefix + std::to_string(i);
  return text;
}

/// `{ S[i] -> T[o] : o_k = i_k for k < level, and o_level >= i_level + 1 }`
/// (level == common: equal on every common loop).
isl::map levelConstraint(isl::ctx ctx, const std::string &source, unsigned ns,
                         const std::string &sink, unsigned nt, unsigned common,
                         unsigned level) {
  std::string text = "{ " + source + "[" + varList("i", ns) + "] -> " + sink +
                     "[" + varList("o", nt) + "] : 0 = 0";
  for (unsigned k = 0; k < level && k < common; ++k)
    text += " and o" + std::to_string(k) + " = i" + std::to_string(k);
  if (level < common)
    text += " and o" + std::to_string(level) + " >= i" +
            std::to_string(level) + " + 1";
  return isl::map(ctx, text + " }");
}

/// The sink-minus-source differences on the first `common` iterators.
isl::set commonDeltas(const isl::map &relation, unsigned common) {
  isl_map *map = relation.copy();
  unsigned ns = isl_map_dim(map, isl_dim_in);
  unsigned nt = isl_map_dim(map, isl_dim_out);
  map = isl_map_project_out(map, isl_dim_in, common, ns - common);
  map = isl_map_project_out(map, isl_dim_out, common, nt - common);
  map = isl_map_reset_tuple_id(map, isl_dim_in);
  map = isl_map_reset_tuple_id(map, isl_dim_out);
  return isl::manage(isl_map_deltas(map));
}

/// Sign of set dimension `d` over `set`: "=", "<", ">", "<=", ">=" or "*"
/// ("<" meaning positive: the sink runs in a later iteration).
std::string direction(const isl::set &set, unsigned d) {
  isl::space space = set.get_space();
  isl::pw_aff x = variableOn(space, d);
  isl::pw_aff zero = constantOn(space, 0);
  bool pos = !set.intersect(x.gt_set(zero)).is_empty();
  bool eq = !set.intersect(x.eq_set(zero)).is_empty();
  bool neg = !set.intersect(x.lt_set(zero)).is_empty();
  if (pos && !eq && !neg)
    return "<";
  if (neg && !eq && !pos)
    return ">";
  if (eq && !pos && !neg)
    return "=";
  if (!neg)
    return "<=";
  if (!pos)
    return ">=";
  return "*";
}

/// The value of set dimension `d` if it is the same at every point.
std::optional<long> fixedValue(const isl::set &set, unsigned d) {
  std::optional<long> low = constantValue(
      isl::manage(isl_set_dim_min(set.copy(), d)));
  std::optional<long> high = constantValue(
      isl::manage(isl_set_dim_max(set.copy(), d)));
  if (low && high && *low == *high)
    return low;
  return std::nullopt;
}

/// The map of `umap` whose domain is statement `name`, or a null map.
isl::map pieceOf(const isl::union_map &umap, const std::string &name) {
  for (const isl::map &map : mapsOf(umap))
    if (isl_map_get_tuple_name(map.get(), isl_dim_in) == name)
      return map;
  return isl::map();
}

std::string printCTaking(isl_pw_aff *pa) {
  isl_printer *p = isl_printer_to_str(isl_pw_aff_get_ctx(pa));
  p = isl_printer_set_output_format(p, ISL_FORMAT_C);
  p = isl_printer_print_pw_aff(p, pa);
  char *s = isl_printer_get_str(p);
  std::string text = s ? s : "";
  free(s);
  isl_printer_free(p);
  isl_pw_aff_free(pa);
  return text;
}

/// Member `upa` of a band on statement `stmt`, as C over source names.
std::string memberText(const Statement &stmt, const isl::union_pw_aff &upa) {
  isl::map map = pieceOf(isl::union_map::from(isl::multi_union_pw_aff(upa)),
                         stmt.name);
  if (map.is_null())
    return "";
  map = withSourceNames(stmt, map);
  isl_pw_multi_aff *pma = isl_pw_multi_aff_from_map(map.release());
  isl_pw_aff *pa = isl_pw_multi_aff_get_pw_aff(pma, 0);
  isl_pw_multi_aff_free(pma);
  return printCTaking(isl_pw_aff_coalesce(pa));
}

class Explainer {
public:
  Explainer(const GpuProgram &program, ScopExplanation &out)
      : program(program), scop(*program.scop), out(out),
        ctx(isl_set_get_ctx(scop.context.get())) {}

  void run() {
    out.typicalParams = scop.context;
    for (const Statement &stmt : scop.statements)
      out.typicalParams = out.typicalParams.intersect(stmt.domain.params());
    // No parameter values run every statement (an if/else on parameters):
    // simplify only by what is known.
    if (out.typicalParams.is_empty())
      out.typicalParams = scop.context;
    collectLoops();
    out.dependencesComplete = program.deps.complete;
    if (program.deps.complete)
      collectDependences();
    if (!program.schedule.is_null())
      walk(program.schedule.get_root(), std::nullopt, false);
    for (const Kernel &kernel : program.kernels)
      describeKernel(kernel);
    for (const Transfer &transfer : program.transfers)
      out.transfers.push_back(
          {transfer.array, transfer.toDevice, transfer.toHost,
           transfer.accessed, transfer.written, transfer.in, transfer.out,
           transfer.inReason, transfer.outReason, transfer.inExact,
           transfer.outExact, transfer.method});
  }

private:
  const GpuProgram &program;
  const Scop &scop;
  ScopExplanation &out;
  isl_ctx *ctx;
  /// Per statement, the index of its loop at each depth.
  std::vector<std::vector<unsigned>> loopsOf;

  void collectLoops() {
    std::map<std::vector<int>, unsigned> index;
    for (unsigned s = 0; s < scop.statements.size(); ++s) {
      const Statement &stmt = scop.statements[s];
      std::vector<unsigned> &mine = loopsOf.emplace_back();
      for (unsigned d = 0; d < stmt.iterators.size(); ++d) {
        std::vector<int> key(stmt.beta.begin(), stmt.beta.begin() + d + 1);
        auto [it, added] = index.emplace(key, out.loops.size());
        if (added) {
          LoopFact &loop = out.loops.emplace_back();
          loop.iterator = stmt.sourceIterators[d];
          loop.loc = d < stmt.loopLocs.size() ? stmt.loopLocs[d] : stmt.loc;
          loop.depth = d;
        }
        out.loops[it->second].statements.push_back(s);
        mine.push_back(it->second);
      }
    }
  }

  isl::union_map accessesOf(unsigned array, bool reads, bool writes) const {
    isl::union_map result = isl::union_map::empty(scop.ctx);
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == array &&
            (access.kind == Access::Kind::Read ? reads : writes))
          result = result.unite(isl::union_map(
              access.relation.intersect_domain(stmt.domain)));
    return result;
  }

  void collectDependences() {
    const Dependences &deps = program.deps;
    for (unsigned a = 0; a < scop.arrays.size(); ++a) {
      isl::union_map reads = accessesOf(a, true, false);
      isl::union_map writes = accessesOf(a, false, true);
      std::pair<DependenceFact::Kind, isl::union_map> kinds[] = {
          {DependenceFact::Kind::Flow, flowOnArray(scop, deps, a)},
          {DependenceFact::Kind::Anti,
           deps.anti.intersect(reads.apply_range(writes.reverse()))},
          {DependenceFact::Kind::Output,
           deps.output.intersect(writes.apply_range(writes.reverse()))},
      };
      for (auto &[kind, relation] : kinds)
        for (const isl::map &map : mapsOf(coalesced(relation)))
          addDependence(kind, a, map);
    }
  }

  void addDependence(DependenceFact::Kind kind, unsigned array,
                     const isl::map &map) {
    std::string sourceName = isl_map_get_tuple_name(map.get(), isl_dim_in);
    std::string sinkName = isl_map_get_tuple_name(map.get(), isl_dim_out);
    unsigned source = statementIndex(scop, sourceName);
    unsigned sink = statementIndex(scop, sinkName);
    const std::vector<unsigned> &a = loopsOf[source], &b = loopsOf[sink];
    std::vector<unsigned> common;
    for (unsigned d = 0; d < a.size() && d < b.size() && a[d] == b[d]; ++d)
      common.push_back(a[d]);
    unsigned c = common.size();
    unsigned ns = map.domain_tuple_dim(), nt = map.range_tuple_dim();
    for (unsigned level = 0; level <= c; ++level) {
      isl::map part = map.intersect(levelConstraint(
          scop.ctx, sourceName, ns, sinkName, nt, c, level));
      if (part.is_empty())
        continue;
      DependenceFact fact;
      fact.kind = kind;
      fact.array = array;
      fact.source = source;
      fact.sink = sink;
      fact.commonLoops = common;
      if (level < c)
        fact.carriedAt = level;
      fact.relation = part;
      isl::set deltas = commonDeltas(part, c);
      std::vector<long> distance;
      for (unsigned d = 0; d < c; ++d) {
        fact.direction.push_back(direction(deltas, d));
        if (std::optional<long> v = fixedValue(deltas, d))
          distance.push_back(*v);
      }
      if (distance.size() == c && c > 0)
        fact.distance = distance;
      if (level < c)
        out.loops[common[level]].carried.push_back(out.dependences.size());
      out.dependences.push_back(fact);
    }
  }

  /// Dependences of `deps` carried by member `k` of `band`.
  std::vector<unsigned> carriedBy(const isl::schedule_node_band &band,
                                  unsigned k) const {
    std::vector<unsigned> result;
    if (out.dependences.empty())
      return result;
    isl::union_set domain = isl::manage(isl_schedule_node_get_domain(band.get()));
    isl::union_map prefix = band.get_prefix_schedule_union_map();
    isl::union_map same = prefix.apply_range(prefix.reverse());
    isl::multi_union_pw_aff partial = band.get_partial_schedule();
    for (unsigned j = 0; j < k; ++j) {
      isl::union_map member =
          isl::union_map::from(isl::multi_union_pw_aff(partial.at(j)));
      same = same.intersect(member.apply_range(member.reverse()));
    }
    isl::union_map member =
        isl::union_map::from(isl::multi_union_pw_aff(partial.at(k)));
    isl::union_map equalAtK = member.apply_range(member.reverse());
    for (unsigned f = 0; f < out.dependences.size(); ++f) {
      isl::union_map dep(out.dependences[f].relation);
      dep = dep.intersect_domain(domain).intersect_range(domain);
      if (!dep.intersect(same).subtract(equalAtK).is_empty())
        result.push_back(f);
    }
    return result;
  }

  /// Describes the bands of the tree in source terms. Below a kernel's
  /// mark, the tile band the mapping inserted is not described: the band
  /// below the thread mark is the one the scheduler chose, and its first
  /// members are those mapped.
  void walk(const isl::schedule_node &node, std::optional<unsigned> kernel,
            bool kernelTop, bool inTiles = false) {
    if (node.isa<isl::schedule_node_mark>()) {
      std::string name =
          isl::manage(isl_schedule_node_mark_get_id(node.get())).name();
      if (const Kernel *found = program.findKernel(name)) {
        kernel = found->id;
        kernelTop = true;
        inTiles = found->numMapped > 0;
      } else if (name == kThreadMark) {
        inTiles = false;
      }
    } else if (node.isa<isl::schedule_node_band>() && !inTiles) {
      describeBand(node.as<isl::schedule_node_band>(), kernel, kernelTop);
      kernelTop = false;
    }
    for (int i = 0; i < (int)node.n_children(); ++i)
      walk(node.child(i), kernel, kernelTop, inTiles);
  }

  void describeBand(const isl::schedule_node_band &band,
                    std::optional<unsigned> kernel, bool kernelTop) {
    BandFact fact;
    fact.kernel = kernel;
    fact.permutable = band.permutable();
    isl::union_set domain = isl::manage(isl_schedule_node_get_domain(band.get()));
    for (unsigned s = 0; s < scop.statements.size(); ++s)
      if (!domain.extract_set(scop.statements[s].domain.get_space()).is_empty())
        fact.statements.push_back(s);
    isl::multi_union_pw_aff partial = band.get_partial_schedule();
    const Kernel *mapped = nullptr;
    if (kernel && kernelTop)
      mapped = &program.kernels[*kernel];
    for (unsigned k = 0; k < band.n_member(); ++k) {
      MemberFact member;
      member.coincident = band.member_get_coincident(k);
      isl::union_pw_aff upa = partial.at(k);
      for (unsigned s : fact.statements)
        member.perStatement.push_back(
            {s, memberText(scop.statements[s], upa)});
      if (!member.coincident)
        member.carried = carriedBy(band, k);
      if (mapped && k < mapped->numMapped) {
        member.hardwareDim = mapped->hardwareDim[k];
        member.blockSize = mapped->blockSize[k];
      }
      fact.members.push_back(member);
    }
    out.bands.push_back(fact);
  }

  /// Where the references of `kernel` fall, from the access model the
  /// mapping recorded: the pattern along threadIdx.x, and the hardware
  /// dimensions along which threads share an element.
  void classify(const Kernel &kernel, unsigned s, ReferenceFact &ref) const {
    for (const ReferenceAccess &access : kernel.accesses) {
      if (access.statement != s || access.access != ref.access)
        continue;
      for (unsigned d = 0; d < kernel.numMapped; ++d) {
        const MemberAccess &member = access.members[d];
        if (member.pattern == AccessPattern::Broadcast)
          ref.reusedAlong.push_back(kernel.hardwareDim[d]);
        if (kernel.hardwareDim[d] != 0)
          continue;
        ref.pattern = member.pattern;
        ref.stride = member.stride;
        ref.movingDim = member.movingDim;
      }
    }
  }

  /// Bounding-box count of `set`'s points; `exact` cleared if it is not a
  /// box.
  isl_pw_qpolynomial *boxCount(const isl::set &set, bool &exact) const {
    unsigned n = set.tuple_dim();
    isl::space space = set.get_space();
    isl_pw_qpolynomial *count = isl_pw_qpolynomial_from_pw_aff(
        isl_pw_aff_from_aff(isl_aff_val_on_domain(
            isl_local_space_from_space(isl_space_params(space.copy())),
            isl_val_one(ctx))));
    isl::set box = isl::set::universe(space);
    for (unsigned d = 0; d < n; ++d) {
      isl::pw_aff low = isl::manage(isl_set_dim_min(set.copy(), d));
      isl::pw_aff high = isl::manage(isl_set_dim_max(set.copy(), d));
      isl::pw_aff size = high.sub(low).add(isl::pw_aff(
          isl::manage(isl_pw_aff_val_on_domain(
              isl_set_universe(isl_space_params(space.copy())),
              isl_val_one(ctx)))));
      count = isl_pw_qpolynomial_mul(count,
                                     isl_pw_qpolynomial_from_pw_aff(size.copy()));
      isl::pw_aff x = variableOn(space, d);
      box = box.intersect(x.ge_set(liftToSpace(low, space)))
                .intersect(x.le_set(liftToSpace(high, space)));
    }
    if (!box.intersect_params(set.params()).is_subset(set))
      exact = false;
    return count;
  }

  void describeKernel(const Kernel &kernel) {
    KernelFact fact;
    fact.id = kernel.id;
    fact.name = kernel.name;
    fact.hostDepth = kernel.hostDepth;
    fact.numMapped = kernel.numMapped;
    fact.blockSize = kernel.blockSize;
    fact.hardwareDim = kernel.hardwareDim;
    for (const std::string &name : kernel.statements)
      fact.statements.push_back(statementIndex(scop, name));
    for (unsigned d = 0; d < kernel.numMapped; ++d) {
      isl::union_set values =
          kernel.memberSchedules[d].intersect_domain(kernel.domain).range();
      isl::set set = setsOf(values).empty() ? isl::set() : setsOf(values)[0];
      for (const isl::set &other : setsOf(values))
        set = set.unite(other);
      if (set.is_null()) {
        fact.extent.push_back(isl::pw_aff());
        continue;
      }
      isl::pw_aff low = isl::manage(isl_set_dim_min(set.copy(), 0));
      isl::pw_aff high = isl::manage(isl_set_dim_max(set.copy(), 0));
      isl::space space = set.get_space();
      isl::pw_aff one = isl::manage(isl_pw_aff_val_on_domain(
          isl_set_universe(isl_space_params(space.copy())),
          isl_val_one(ctx)));
      fact.extent.push_back(coalesced(high.sub(low).add(one)));
    }
    std::set<unsigned> registers(kernel.registers.begin(),
                                 kernel.registers.end());
    isl_pw_qpolynomial *bytes = nullptr;
    for (unsigned s : fact.statements) {
      const Statement &stmt = scop.statements[s];
      unsigned perInstance = 0;
      for (unsigned a = 0; a < stmt.accesses.size(); ++a) {
        ReferenceFact ref;
        ref.statement = s;
        ref.access = a;
        ref.isRead = stmt.accesses[a].kind == Access::Kind::Read;
        ref.inRegister = registers.count(stmt.accesses[a].array);
        if (!ref.inRegister) {
          classify(kernel, s, ref);
          perInstance += elementBytes(scop.arrays[stmt.accesses[a].array].type);
        }
        fact.references.push_back(ref);
      }
      isl::set instances =
          kernel.instances.extract_set(stmt.domain.get_space());
      if (instances.is_empty() || perInstance == 0)
        continue;
      isl_pw_qpolynomial *count = boxCount(instances, fact.bytesExact);
      count = isl_pw_qpolynomial_scale_val(
          count, isl_val_int_from_ui(ctx, perInstance));
      bytes = bytes ? isl_pw_qpolynomial_add(bytes, count) : count;
    }
    if (bytes) {
      bytes = isl_pw_qpolynomial_gist_params(bytes, out.typicalParams.copy());
      bytes = isl_pw_qpolynomial_coalesce(bytes);
      isl_printer *p = isl_printer_to_str(ctx);
      p = isl_printer_set_output_format(p, ISL_FORMAT_C);
      p = isl_printer_print_pw_qpolynomial(p, bytes);
      char *s = isl_printer_get_str(p);
      fact.globalBytesExpr = s ? s : "";
      free(s);
      isl_printer_free(p);
      if (isl_pw_qpolynomial_dim(bytes, isl_dim_param) == 0) {
        isl_space *space = isl_pw_qpolynomial_get_domain_space(bytes);
        isl_val *v = isl_pw_qpolynomial_eval(isl_pw_qpolynomial_copy(bytes),
                                             isl_point_zero(space));
        if (v && !isl_val_is_nan(v))
          fact.globalBytes = isl_val_get_d(v);
        isl_val_free(v);
      }
      isl_pw_qpolynomial_free(bytes);
    } else {
      fact.globalBytesExpr = "0";
      fact.globalBytes = 0;
    }
    if (kernel.numMapped == 0)
      for (const BandFact &band : out.bands)
        if (band.kernel == kernel.id)
          for (const MemberFact &member : band.members)
            fact.preventing.insert(fact.preventing.end(),
                                   member.carried.begin(),
                                   member.carried.end());
    out.kernels.push_back(fact);
  }
};

} // namespace

isl::map withSourceNames(const Statement &stmt, isl::map map) {
  isl_map *m = map.release();
  for (unsigned d = 0; d < stmt.sourceIterators.size(); ++d)
    m = isl_map_set_dim_id(m, isl_dim_in, d,
                           isl_id_alloc(isl_map_get_ctx(m),
                                        stmt.sourceIterators[d].c_str(),
                                        nullptr));
  return isl::manage(m);
}

std::string printC(const isl::pw_aff &pa) {
  return pa.is_null() ? "" : printCTaking(pa.copy());
}

std::string accessText(const Scop &scop, const Statement &stmt,
                       const Access &access) {
  const Array &array = scop.arrays[access.array];
  isl::map relation = withSourceNames(stmt, access.relation);
  std::string text = array.name;
  for (unsigned d = 0; d < array.rank(); ++d) {
    if (!access.isAffine() && !access.nonAffineSubscripts[d].empty()) {
      text += "[" + access.nonAffineSubscripts[d] + "]";
      continue;
    }
    // Dimension d alone: a function even where others are not.
    isl_map *dim = isl_map_project_out(relation.copy(), isl_dim_out, d + 1,
                                       array.rank() - d - 1);
    dim = isl_map_project_out(dim, isl_dim_out, 0, d);
    isl_pw_multi_aff *pma = isl_pw_multi_aff_from_map(dim);
    text +=
        "[" +
        printCTaking(isl_pw_aff_coalesce(isl_pw_multi_aff_get_pw_aff(pma, 0))) +
        "]";
    isl_pw_multi_aff_free(pma);
  }
  return text;
}

ScopExplanation explain(const GpuProgram &program) {
  ScopExplanation out;
  Explainer(program, out).run();
  return out;
}

} // namespace polycuda::polyhedral
