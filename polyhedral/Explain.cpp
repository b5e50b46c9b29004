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

#include <map>
#include <set>

namespace polycuda::polyhedral {

namespace {

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

/// `{ S[i] -> T[o] : o_k = i_k for k < level, and o_level > i_level }`
/// (level == common: equal on every common loop); `o_level < i_level` where
/// the loop runs down (`reversed[level]`: its time is -i).
isl::map levelConstraint(isl::ctx ctx, const std::string &source, unsigned ns,
                         const std::string &sink, unsigned nt, unsigned common,
                         unsigned level, const std::vector<bool> &reversed) {
  std::string text = "{ " + source + "[" + varList("i", ns) + "] -> " + sink +
                     "[" + varList("o", nt) + "] : 0 = 0";
  for (unsigned k = 0; k < level && k < common; ++k)
    text += " and o" + std::to_string(k) + " = i" + std::to_string(k);
  if (level < common) {
    std::string o = "o" + std::to_string(level), i = "i" + std::to_string(level);
    text += level < reversed.size() && reversed[level]
                ? " and " + o + " <= " + i + " - 1"
                : " and " + o + " >= " + i + " + 1";
  }
  return isl::map(ctx, text + " }");
}

/// The sink-minus-source differences on the first `common` iterators.
isl::set commonDeltas(const isl::map &relation, unsigned common) {
  unsigned ns = relation.domain_tuple_dim();
  unsigned nt = relation.range_tuple_dim();
  isl::map map = projectOutInputs(relation, common, ns - common);
  map = projectOutOutputs(map, common, nt - common);
  return withoutTupleIds(map).deltas();
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

/// The constant 1 as a function of the parameters of `space`.
isl::pw_aff oneOnParams(const isl::space &space) {
  return isl::set::universe(space.params())
      .pw_aff_on_domain(isl::val::one(space.ctx()));
}

class Explainer {
public:
  Explainer(const GpuProgram &program, ScopExplanation &out)
      : program(program), scop(*program.scop), out(out) {}

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
    out.transfers = program.transfers;
    for (const PersistentLoop &loop : program.persistentLoops) {
      PersistentFact fact{loop.loop,       {},
                          loop.persistent, loop.threads,
                          loop.singleBlock, loop.sharedBytes};
      fact.kernels = loop.kernels;
      out.persistentLoops.push_back(fact);
    }
  }

private:
  const GpuProgram &program;
  const Scop &scop;
  ScopExplanation &out;
  /// Per statement, the index of its loop at each depth.
  std::vector<std::vector<unsigned>> loopsOf;
  /// Per statement, whether each loop around it runs down (its time in the
  /// original schedule is -i), computed when first asked.
  std::map<unsigned, std::vector<bool>> reversed;

  const std::vector<bool> &reversedOf(unsigned s) {
    auto found = reversed.find(s);
    if (found != reversed.end())
      return found->second;
    const Statement &stmt = scop.statements[s];
    std::vector<bool> &result = reversed[s];
    isl::map time;
    for (const isl::map &map : mapsOf(scop.originalSchedule))
      if (domainTupleName(map) == stmt.name)
        time = map.intersect_domain(stmt.domain);
    for (unsigned d = 0; !time.is_null() && d < stmt.iterators.size(); ++d) {
      // The time of loop d is -i_d on the whole domain.
      isl::map down = isl::manage(isl_map_oppose(time.copy(), isl_dim_in, d,
                                                 isl_dim_out, 2 * d + 1));
      result.push_back(!time.is_empty() && down.is_equal(time));
    }
    return result;
  }

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
    std::string sourceName = domainTupleName(map);
    std::string sinkName = rangeTupleName(map);
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
          scop.ctx, sourceName, ns, sinkName, nt, c, level,
          reversedOf(source)));
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
    isl::union_set domain = domainOf(band);
    isl::union_map prefix = band.get_prefix_schedule_union_map();
    isl::union_map same = prefix.apply_range(prefix.reverse());
    isl::multi_union_pw_aff partial = band.get_partial_schedule();
    for (unsigned j = 0; j < k; ++j) {
      isl::union_map member = memberMap(partial.at(j));
      same = same.intersect(member.apply_range(member.reverse()));
    }
    isl::union_map member = memberMap(partial.at(k));
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
      isl::id mark = markId(node);
      if (const Kernel *found = program.kernelOf(mark)) {
        kernel = found->id;
        kernelTop = true;
        inTiles = found->mapping->numMapped > 0;
      } else if (isMark(node, MarkKind::Thread)) {
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
    isl::union_set domain = domainOf(band);
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
      if (mapped && k < mapped->mapping->numMapped) {
        member.hardwareDim = mapped->mapping->hardwareDim[k];
        member.blockSize = mapped->mapping->blockSize[k];
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
      for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
        const MemberAccess &member = access.members[d];
        if (member.pattern == AccessPattern::Broadcast)
          ref.reusedAlong.push_back(kernel.mapping->hardwareDim[d]);
        if (kernel.mapping->hardwareDim[d] != 0)
          continue;
        ref.pattern = member.pattern;
        ref.stride = member.stride;
        ref.movingDim = member.movingDim;
      }
    }
  }

  /// Bounding-box count of `set`'s points; `exact` cleared if it is not a
  /// box.
  PwQPolynomial boxCount(const isl::set &set, bool &exact) const {
    unsigned n = set.tuple_dim();
    isl::space space = set.get_space();
    PwQPolynomial count(oneOnParams(space));
    isl::set box = isl::set::universe(space);
    for (unsigned d = 0; d < n; ++d) {
      isl::pw_aff low = dimMin(set, d);
      isl::pw_aff high = dimMax(set, d);
      isl::pw_aff size = high.sub(low).add(oneOnParams(space));
      count = count.mul(PwQPolynomial(size));
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
    fact.hostDepth = kernel.mapping->hostDepth;
    fact.numMapped = kernel.mapping->numMapped;
    fact.blockSize = kernel.mapping->blockSize;
    fact.hardwareDim = kernel.mapping->hardwareDim;
    fact.registerTile = kernel.mapping->registerTile;
    fact.registerTileDecision = kernel.registerTileDecision;
    fact.wavefrontSteps = kernel.steps.size;
    fact.wavefront = kernel.steps.text;
    fact.wavefrontMembers = kernel.steps.members;
    fact.wavefrontTile = kernel.steps.block;
    fact.registerTileConsidered = kernel.registerTileConsidered;
    fact.sizing = kernel.mapping->sizing;
    fact.order = kernel.mapping->order;
    for (const std::string &name : kernel.statements)
      fact.statements.push_back(statementIndex(scop, name));
    fact.extent = memberExtents(kernel);
    fact.sharedLoop = kernel.sharedLoop;
    fact.sharedTileSize = kernel.sharedTileSize;
    fact.sharedTiles = kernel.sharedTiles;
    fact.noShared = kernel.noShared;
    fact.accumulators = kernel.accumulators;
    fact.reduction = kernel.reduction;
    std::set<unsigned> registers(kernel.registers.begin(),
                                 kernel.registers.end());
    for (unsigned s : fact.statements)
      describeReferences(kernel, s, registers, fact.references);
    estimateGlobalBytes(kernel, registers, fact);
    if (kernel.mapping->numMapped == 0)
      for (const BandFact &band : out.bands)
        if (band.kernel == kernel.id)
          for (const MemberFact &member : band.members)
            fact.preventing.insert(fact.preventing.end(),
                                   member.carried.begin(),
                                   member.carried.end());
    out.kernels.push_back(fact);
  }

  /// Per mapped member of `kernel`, the number of values it takes (max -
  /// min + 1) over the kernel's instances, or null if it has none.
  std::vector<isl::pw_aff> memberExtents(const Kernel &kernel) const {
    std::vector<isl::pw_aff> extents;
    for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
      isl::union_set values = kernel.mapping->memberSchedules[d]
                                  .intersect_domain(kernel.domain)
                                  .range();
      isl::set set = setsOf(values).empty() ? isl::set() : setsOf(values)[0];
      for (const isl::set &other : setsOf(values))
        set = set.unite(other);
      if (set.is_null()) {
        extents.push_back(isl::pw_aff());
        continue;
      }
      isl::pw_aff low = dimMin(set, 0);
      isl::pw_aff high = dimMax(set, 0);
      isl::pw_aff one = oneOnParams(set.get_space());
      extents.push_back(coalesced(high.sub(low).add(one)));
    }
    return extents;
  }

  /// The references of statement `s` in `kernel`, appended to `refs`; those
  /// to arrays in `registers` live in registers.
  void describeReferences(const Kernel &kernel, unsigned s,
                          const std::set<unsigned> &registers,
                          std::vector<ReferenceFact> &refs) const {
    const Statement &stmt = scop.statements[s];
    for (unsigned a = 0; a < stmt.accesses.size(); ++a) {
      ReferenceFact ref;
      ref.statement = s;
      ref.access = a;
      ref.isRead = stmt.accesses[a].kind == Access::Kind::Read;
      ref.inRegister = registers.count(stmt.accesses[a].array);
      std::pair<unsigned, unsigned> id(s, a);
      for (unsigned i = 0; i < kernel.accumulators.size(); ++i)
        for (const auto &other : kernel.accumulators[i].references)
          if (other == id)
            ref.accumulator = i;
      for (unsigned i = 0; i < kernel.sharedTiles.size(); ++i)
        for (const auto &other : kernel.sharedTiles[i].references)
          if (other == id)
            ref.sharedTile = i;
      if (kernel.reduction)
        for (const auto &reference : kernel.reduction->references)
          ref.reductionPartial |= reference == id;
      if (kernel.readsConstant(stmt.accesses[a].array))
        ref.constantElements =
            program.findConstant(stmt.accesses[a].array)->elements;
      ref.inRegister |= ref.accumulator.has_value() || ref.reductionPartial;
      if (!ref.inRegister || ref.accumulator || ref.reductionPartial)
        classify(kernel, s, ref);
      refs.push_back(ref);
    }
  }

  /// The bytes the references of `fact` outside `registers` request from
  /// global memory over all launches of `kernel`: per statement, the
  /// bounding-box count of its instances times its bytes per instance.
  void estimateGlobalBytes(const Kernel &kernel,
                           const std::set<unsigned> &registers,
                           KernelFact &fact) const {
    PwQPolynomial bytes;
    for (unsigned s : fact.statements) {
      const Statement &stmt = scop.statements[s];
      unsigned perInstance = 0;
      for (const Access &access : stmt.accesses)
        if (!registers.count(access.array))
          perInstance += elementBytes(scop.arrays[access.array].type);
      isl::set instances =
          kernel.instances.extract_set(stmt.domain.get_space());
      if (instances.is_empty() || perInstance == 0)
        continue;
      PwQPolynomial count =
          boxCount(instances, fact.bytesExact).scale(perInstance);
      bytes = bytes.isNull() ? count : bytes.add(count);
    }
    if (bytes.isNull()) {
      fact.globalBytesExpr = "0";
      fact.globalBytes = 0;
      return;
    }
    bytes = bytes.gistParams(out.typicalParams).coalesce();
    fact.globalBytesExpr = bytes.toCString();
    if (std::optional<double> value = bytes.value())
      fact.globalBytes = *value;
  }
};

} // namespace

isl::map withSourceNames(const Statement &stmt, isl::map map) {
  return withInputNames(map, stmt.sourceIterators);
}

std::string printC(const isl::pw_aff &pa) {
  return pa.is_null() ? "" : toCString(pa);
}

std::string memberText(const Statement &stmt, const isl::union_pw_aff &upa) {
  isl::map map = pieceOf(memberMap(upa), stmt.name);
  if (map.is_null())
    return "";
  map = withSourceNames(stmt, map);
  return toCString(map.as_pw_multi_aff().at(0).coalesce());
}

std::string accessText(const Scop &scop, const Statement &stmt,
                       const Access &access) {
  const Array &array = scop.arrays[access.array];
  isl::map relation = withSourceNames(stmt, access.relation);
  std::string text = array.source.empty() ? array.name : array.source;
  // An array of structs: its last dimension is the field (P[i].y).
  unsigned dims = array.rank() - (array.fields.empty() ? 0 : 1);
  for (unsigned d = 0; d < dims; ++d) {
    if (!access.isAffine() && !access.nonAffineSubscripts[d].empty()) {
      text += "[" + access.nonAffineSubscripts[d] + "]";
      continue;
    }
    // Dimension d alone: a function even where others are not.
    isl::map dim = projectOutOutputs(relation, d + 1, array.rank() - d - 1);
    dim = projectOutOutputs(dim, 0, d);
    text += "[" + toCString(dim.as_pw_multi_aff().at(0).coalesce()) + "]";
  }
  if (dims < array.rank()) {
    isl::map field = projectOutOutputs(relation, 0, dims);
    std::optional<long> position =
        constantValue(field.as_pw_multi_aff().at(0).coalesce());
    text += position ? "." + array.fields.at(*position) : "[field]";
  }
  return text;
}

ScopExplanation explain(const GpuProgram &program) {
  ScopExplanation out;
  Explainer(program, out).run();
  return out;
}

} // namespace polycuda::polyhedral
