//===- Report.cpp - --explain and --report=json ---------------------------===//
//
// One builder produces the JSON object; the text report is printed from the
// same object, so both always say the same thing.
//
//===----------------------------------------------------------------------===//
#include "Report.h"

#include "CodePrinter.h"
#include "Explain.h"
#include "IslExtras.h"
#include "Reductions.h"
#include "Transfers.h"

#include <llvm/Support/raw_ostream.h>

#include <set>
#include <sstream>

namespace polycuda::translator {

namespace json = llvm::json;
using polyhedral::AccessPattern;
using polyhedral::DependenceFact;
using polyhedral::Scop;
using polyhedral::ScopExplanation;
using polyhedral::Statement;

namespace {

const char *const kHardware[] = {"x", "y", "z"};

std::string str(const json::Value *value);

const char *kindName(DependenceFact::Kind kind) {
  switch (kind) {
  case DependenceFact::Kind::Flow:
    return "RAW";
  case DependenceFact::Kind::Anti:
    return "WAR";
  case DependenceFact::Kind::Output:
    return "WAW";
  }
  return "RAW";
}

const char *patternName(AccessPattern pattern) {
  switch (pattern) {
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Broadcast:
    return "broadcast";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Irregular:
    return "irregular";
  case AccessPattern::NoNeighbours:
    return "single-thread";
  }
  return "irregular";
}

/// `(x)` -> `x` when the outer parentheses enclose everything.
std::string stripParens(std::string text) {
  while (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    int depth = 0;
    bool outer = true;
    for (size_t i = 0; i + 1 < text.size(); ++i) {
      depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
      if (depth == 0) {
        outer = false;
        break;
      }
    }
    if (!outer)
      break;
    text = text.substr(1, text.size() - 2);
  }
  return text;
}

json::Object location(const polyhedral::SourceLoc &loc) {
  return json::Object{{"file", loc.file},
                      {"line", (int64_t)loc.line},
                      {"column", (int64_t)loc.col}};
}

/// A parameter expression as C, and its value when it is a constant.
/// Simplified for the parameters where every statement runs.
json::Value expression(const isl::set &params, const isl::pw_aff &pa) {
  if (pa.is_null())
    return nullptr;
  isl::pw_aff simple = pa.gist_params(params).coalesce();
  if (std::optional<long> v = polyhedral::constantValue(simple))
    return (int64_t)*v;
  return stripParens(printParamExpr(params, simple));
}

std::string statementText(const Scop &scop, const Statement &stmt) {
  std::map<std::string, std::string> names;
  for (size_t d = 0; d < stmt.iterators.size(); ++d)
    names[stmt.iterators[d]] = stmt.sourceIterators[d];
  return printStatement(
      scop, stmt, names,
      [](const polyhedral::Array &array,
         const std::vector<std::string> &subscripts) {
        std::vector<std::string> bare;
        for (const std::string &s : subscripts)
          bare.push_back(stripParens(s));
        return sourceReference(array, bare);
      },
      [](const std::string &name) { return name; });
}

/// Why a reference is (not) coalesced, from its access pattern.
std::string patternReason(const polyhedral::Array &array,
                          const polyhedral::ReferenceFact &ref,
                          const std::string &xLoop) {
  if (ref.inRegister)
    return "privatized scalar: every value is produced and used by one "
           "thread, so it lives in a register";
  std::string along = xLoop.empty() ? "" : " (threadIdx.x runs along " +
                                               xLoop + ")";
  switch (ref.pattern) {
  case AccessPattern::Coalesced:
    return "consecutive threads of a warp access consecutive elements" + along;
  case AccessPattern::Broadcast:
    return "every thread of a warp accesses the same element: one "
           "transaction" + along;
  case AccessPattern::Strided: {
    std::string text = "uncoalesced: consecutive threads move along dimension " +
                       std::to_string(ref.movingDim) + " of " + array.name;
    if (ref.stride)
      text += ", " + std::to_string(*ref.stride) + " elements apart";
    return text + along;
  }
  case AccessPattern::Irregular:
    return "uncoalesced: consecutive threads access elements at varying "
           "distances" + along;
  case AccessPattern::NoNeighbours:
    return "the kernel runs on one thread";
  }
  return "";
}

/// Why a reference with a non-affine subscript is a may-access, e.g.
/// "subscript idx[i] is not affine: may access any element of x".
std::string mayAccessReason(const polyhedral::Array &array,
                            const polyhedral::Access &access) {
  std::string subscripts, dims;
  unsigned count = 0;
  for (unsigned d = 0; d < access.nonAffineSubscripts.size(); ++d) {
    if (access.nonAffineSubscripts[d].empty())
      continue;
    subscripts += (count ? ", " : "") + access.nonAffineSubscripts[d];
    dims += (count ? ", " : "") + std::to_string(d);
    ++count;
  }
  std::string text = (count > 1 ? "subscripts " : "subscript ") + subscripts +
                     (count > 1 ? " are" : " is") +
                     " not affine: may access any element of " + array.name;
  if (count < array.rank())
    text += " along dimension" + std::string(count > 1 ? "s " : " ") + dims;
  return text;
}

/// "8 x 32".
std::string boxText(const std::vector<long> &sizes) {
  std::string text;
  for (long size : sizes)
    text += (text.empty() ? "" : " x ") + std::to_string(size);
  return text;
}

/// Why a promoted reference lives where it does ("" if not promoted).
std::string promotionReason(const polyhedral::KernelFact &kernel,
                            const polyhedral::ReferenceFact &ref) {
  if (ref.reductionPartial)
    return "reduction: each lane accumulates its iterations of loop " +
           kernel.reduction->loop + " in register " +
           kernel.reduction->variable +
           ", the block combines the lanes' results in shared memory, and the "
           "first lane updates the element";
  if (ref.accumulator) {
    const polyhedral::RegisterAccumulator &acc =
        kernel.accumulators[*ref.accumulator];
    return "accumulator: the same element in every iteration of loop " +
           acc.loop + ", accessed by this thread only and by no other "
           "reference in the loop, so it is loaded into a register before "
           "the loop and stored after it";
  }
  if (ref.constantElements)
    return "read-only in the scop and the same element for every "
           "thread of a block (every mapped loop): the kernel reads a copy of "
           "its first " + std::to_string(*ref.constantElements) +
           " elements in constant memory, whose cache serves a warp's read "
           "in one access (--no-constant keeps it in global memory)";
  if (!ref.sharedTile)
    return "";
  const polyhedral::SharedTile &tile = kernel.sharedTiles[*ref.sharedTile];
  std::string when = kernel.sharedLoop.empty()
                         ? "once, before computing,"
                         : "per tile of loop " + kernel.sharedLoop + " (" +
                               std::to_string(kernel.sharedTileSize) +
                               " iterations)";
  if (kernel.wavefrontSteps > 0)
    return "the tile of a wavefront: the block copies its footprint in once, "
           "into a shared " + boxText(tile.sizes) + " tile with rows padded by " +
           std::to_string(tile.padding) + " (bank conflict degree " +
           std::to_string(tile.conflicts) + " over its references, " +
           std::to_string(tile.conflictsUnpadded) +
           " unpadded), its steps read and write the tile, and it copies the "
           "elements it wrote back";
  std::string why =
      tile.forCoalescing
          ? "read-only in the kernel and read uncoalesced by consecutive "
            "threads (--stage-uncoalesced): "
          : "read-only in the kernel and reused across the threads of a "
            "block: ";
  return why + when + " the block copies the elements it reads, coalesced, "
         "into a shared " + boxText(tile.sizes) + " tile with rows padded by " +
         std::to_string(tile.padding) + " (bank conflict degree " +
         std::to_string(tile.conflicts) + " over its references, " +
         std::to_string(tile.conflictsUnpadded) + " unpadded)" +
         (tile.scale.empty()
              ? std::string()
              : "; the tile holds each element times " + tile.scale +
                    ", the product every reference takes (computed once per "
                    "element, rounded the same)");
}

std::string referenceReason(const Scop &scop, const Statement &stmt,
                            const polyhedral::KernelFact &kernel,
                            const polyhedral::ReferenceFact &ref,
                            const std::string &xLoop) {
  const polyhedral::Access &access = stmt.accesses[ref.access];
  const polyhedral::Array &array = scop.arrays[access.array];
  std::string promoted = promotionReason(kernel, ref);
  if (!promoted.empty()) {
    polyhedral::ReferenceFact global = ref;
    global.inRegister = false;
    return promoted + "; in global memory: " +
           patternReason(array, global, xLoop);
  }
  std::string reason = patternReason(array, ref, xLoop);
  if (!access.isAffine())
    return mayAccessReason(array, access) + "; " + reason;
  return reason;
}

class Builder {
public:
  Builder(const ParsedInput &input, const Translation &translation,
          const ReportOptions &options)
      : input(input), translation(translation), options(options) {}

  json::Value build() {
    json::Array scops;
    for (size_t r = 0; r < input.regions.size(); ++r)
      scops.push_back(scop(input.regions[r], translation.regions[r]));
    return json::Object{{"schema", "polycuda-report"},
                        {"version", kReportVersion},
                        {"input", input.fileName},
                        {"target", options.target},
                        {"scops", std::move(scops)}};
  }

private:
  const ParsedInput &input;
  const Translation &translation;
  const ReportOptions &options;

  json::Value scop(const ScopRegion &region, const RegionTranslation &record) {
    const polyhedral::GpuProgram &program = record.program;
    const Scop &scop = *region.scop;
    ScopExplanation facts = polyhedral::explain(program);

    json::Array statements = statementsJson(scop);
    json::Array arrays = arraysJson(scop, facts);
    json::Array privatized;
    for (const polyhedral::ScalarExpansion &e : record.prepared.expansions)
      privatized.push_back(json::Object{{"name", e.array},
                                        {"expanded_loops", (int64_t)e.depth},
                                        {"reason", e.reason}});
    json::Array loops = loopsJson(scop, facts);
    json::Array dependences = dependencesJson(scop, facts);
    json::Array bands = bandsJson(scop, facts);
    json::Array kernels;
    for (const polyhedral::KernelFact &kernel : facts.kernels)
      kernels.push_back(kernelJson(scop, facts, kernel));
    json::Array transfers = transfersJson(scop, facts);
    json::Array persistent = persistentJson(program, facts);

    json::Value fallback = nullptr;
    if (program.scheduleIsFallback)
      fallback = program.fallbackReason;
    json::Array params;
    for (const std::string &p : scop.paramSourceNames)
      params.push_back(p);
    json::Array splits;
    for (const std::string &s : record.prepared.splits)
      splits.push_back(s);
    json::Object out{
        {"function", scop.functionName},
        {"location", location(scop.loc)},
        {"parameters", std::move(params)},
        {"assumed", assumedJson(scop)},
        {"statements", std::move(statements)},
        {"arrays", std::move(arrays)},
        {"privatized_scalars", std::move(privatized)},
        {"index_set_splitting",
         json::Object{{"splits", std::move(splits)},
                      {"applied", record.prepared.splitApplied},
                      {"launch_depth_before",
                       (int64_t)record.prepared.launchDepthBefore},
                      {"launch_depth_after", (int64_t)record.prepared.launchDepthAfter}}},
        {"dependences_complete", facts.dependencesComplete},
        {"loops", std::move(loops)},
        {"dependences", std::move(dependences)},
        {"schedule",
         json::Object{{"fallback", std::move(fallback)},
                      {"tree", scheduleYaml(program.schedule)},
                      {"bands", std::move(bands)}}},
        {"kernels", std::move(kernels)},
        {"persistent_loops", std::move(persistent)},
        {"host_code", hostCodeJson(scop, program)},
        {"transfers", std::move(transfers)}};
    return std::move(out);
  }

  /// Scalar code that runs on the host (GpuMapping.h), or null.
  static json::Value hostCodeJson(const Scop &scop,
                                  const polyhedral::GpuProgram &program) {
    if (program.hostStatements.empty())
      return nullptr;
    json::Array statements, scalars;
    for (const std::string &name : program.hostStatements)
      statements.push_back(name);
    for (unsigned a : program.hostScalars)
      scalars.push_back(scop.arrays[a].name);
    return json::Object{{"statements", std::move(statements)},
                        {"scalars", std::move(scalars)},
                        {"why", program.hostReason}};
  }

  static json::Array statementsJson(const Scop &scop) {
    json::Array statements;
    for (const Statement &stmt : scop.statements) {
      json::Array loops;
      for (size_t d = 0; d < stmt.sourceIterators.size(); ++d)
        loops.push_back(stmt.sourceIterators[d]);
      json::Object entry = location(stmt.loc);
      entry["id"] = stmt.name;
      entry["text"] = statementText(scop, stmt);
      entry["loops"] = std::move(loops);
      entry["role"] = polyhedral::roleName(stmt.role);
      json::Array inlined;
      for (const std::string &name : stmt.inlined)
        inlined.push_back(name);
      entry["inlined"] = std::move(inlined);
      json::Array called;
      for (const std::string &name : stmt.called)
        called.push_back(name);
      entry["functions"] = std::move(called);
      statements.push_back(std::move(entry));
    }
    return statements;
  }

  static json::Array arraysJson(const Scop &scop,
                                const ScopExplanation &facts) {
    json::Array arrays;
    for (const polyhedral::Array &array : scop.arrays) {
      json::Array extents;
      for (const isl::pw_aff &extent : array.extents)
        extents.push_back(expression(facts.typicalParams, extent));
      arrays.push_back(json::Object{{"name", array.name},
                                    {"type", polyhedral::spell(array.type)},
                                    {"extents", std::move(extents)},
                                    {"read", array.isRead},
                                    {"written", array.isWritten},
                                    {"local", array.isLocal},
                                    {"delinearized", array.delinearized}});
    }
    return arrays;
  }

  /// The condition the scop's code checks on entry (Scop::assumed), or
  /// null.
  static json::Value assumedJson(const Scop &scop) {
    if (!scop.assumed)
      return nullptr;
    return json::Object{
        {"condition",
         printExpr(polyhedral::buildExprFromSet(*scop.assumed))},
        {"no_wrap_around", scop.assumesNoWrap},
        {"flat_subscripts_in_rows", scop.assumesInRows}};
  }

  static json::Array loopsJson(const Scop &scop, const ScopExplanation &facts) {
    json::Array loops;
    for (size_t l = 0; l < facts.loops.size(); ++l) {
      const polyhedral::LoopFact &loop = facts.loops[l];
      json::Object entry = location(loop.loc);
      entry["id"] = (int64_t)l;
      entry["iterator"] = loop.iterator;
      entry["depth"] = (int64_t)loop.depth;
      entry["statements"] = statementIds(scop, loop.statements);
      entry["parallel"] = facts.dependencesComplete && loop.carried.empty();
      entry["carries"] = indices(loop.carried);
      loops.push_back(std::move(entry));
    }
    return loops;
  }

  static json::Array dependencesJson(const Scop &scop,
                                     const ScopExplanation &facts) {
    json::Array dependences;
    for (size_t f = 0; f < facts.dependences.size(); ++f) {
      const DependenceFact &dep = facts.dependences[f];
      json::Array common, direction;
      for (unsigned l : dep.commonLoops)
        common.push_back(facts.loops[l].iterator);
      for (const std::string &d : dep.direction)
        direction.push_back(d);
      json::Value carried = nullptr;
      if (dep.carriedAt) {
        unsigned l = dep.commonLoops[*dep.carriedAt];
        carried = json::Object{{"loop", (int64_t)l},
                               {"iterator", facts.loops[l].iterator},
                               {"line", (int64_t)facts.loops[l].loc.line}};
      }
      json::Value distance = nullptr;
      if (dep.distance) {
        json::Array values;
        for (long v : *dep.distance)
          values.push_back((int64_t)v);
        distance = std::move(values);
      }
      dependences.push_back(json::Object{
          {"id", (int64_t)f},
          {"type", kindName(dep.kind)},
          {"array", scop.arrays[dep.array].name},
          {"source", endpoint(scop, dep.source)},
          {"sink", endpoint(scop, dep.sink)},
          {"loops", std::move(common)},
          {"carried_by", std::move(carried)},
          {"direction", std::move(direction)},
          {"distance", std::move(distance)}});
    }
    return dependences;
  }

  json::Array bandsJson(const Scop &scop, const ScopExplanation &facts) {
    json::Array bands;
    for (const polyhedral::BandFact &band : facts.bands) {
      json::Array members;
      for (const polyhedral::MemberFact &member : band.members) {
        json::Object perStatement;
        for (const auto &[s, text] : member.perStatement)
          perStatement[scop.statements[s].name] = text;
        json::Value mapped = nullptr, block = nullptr;
        if (member.hardwareDim) {
          mapped = kHardware[*member.hardwareDim];
          block = (int64_t)member.blockSize;
        }
        members.push_back(json::Object{{"schedule", std::move(perStatement)},
                                       {"parallel", member.coincident},
                                       {"carries", indices(member.carried)},
                                       {"mapped_to", std::move(mapped)},
                                       {"block_size", std::move(block)}});
      }
      json::Value kernel = nullptr;
      if (band.kernel)
        kernel = (int64_t)*band.kernel;
      std::string placement = options.target == "c" ? "cpu"
                              : !band.kernel        ? "host"
                                                    : "device";
      bands.push_back(json::Object{{"statements",
                                    statementIds(scop, band.statements)},
                                   {"permutable", band.permutable},
                                   {"placement", placement},
                                   {"kernel", std::move(kernel)},
                                   {"members", std::move(members)}});
    }
    return bands;
  }

  static json::Array persistentJson(const polyhedral::GpuProgram &program,
                                    const ScopExplanation &facts) {
    json::Array loops;
    for (const polyhedral::PersistentFact &loop : facts.persistentLoops) {
      json::Array kernels;
      for (unsigned id : loop.kernels)
        kernels.push_back(program.kernels[id].name);
      loops.push_back(json::Object{{"loop", loop.loop},
                                   {"kernels", std::move(kernels)},
                                   {"persistent", loop.persistent},
                                   {"threads", (int64_t)loop.threads},
                                   {"single_block", loop.singleBlock},
                                   {"shared_bytes", (int64_t)loop.sharedBytes},
                                   {"why", loop.reason}});
    }
    return loops;
  }

  static json::Array transfersJson(const Scop &scop,
                                   const ScopExplanation &facts) {
    json::Array transfers;
    for (const polyhedral::TransferFact &t : facts.transfers)
      transfers.push_back(json::Object{
          {"array", scop.arrays[t.array].name},
          {"to_device", t.toDevice},
          {"to_host", t.toHost},
          {"accessed", range(facts.typicalParams, t.accessed)},
          {"written", range(facts.typicalParams, t.written)},
          {"method", polyhedral::transferMethodName(t.method)},
          {"copy_in", copy(facts.typicalParams, scop.arrays[t.array],
                           t.toDevice, t.in, t.inExact, t.inReason)},
          {"copy_out", copy(facts.typicalParams, scop.arrays[t.array],
                            t.toHost, t.out, t.outExact, t.outReason)}});
    return transfers;
  }

  static json::Array indices(const std::vector<unsigned> &values) {
    json::Array result;
    for (unsigned v : values)
      result.push_back((int64_t)v);
    return result;
  }

  static json::Array statementIds(const Scop &scop,
                                  const std::vector<unsigned> &statements) {
    json::Array result;
    for (unsigned s : statements)
      result.push_back(scop.statements[s].name);
    return result;
  }

  static json::Object endpoint(const Scop &scop, unsigned s) {
    return json::Object{{"statement", scop.statements[s].name},
                        {"line", (int64_t)scop.statements[s].loc.line}};
  }

  static json::Value range(const isl::set &params,
                           const polyhedral::ElementRange &range) {
    if (range.first.empty())
      return nullptr;
    json::Array first, last;
    for (const isl::pw_aff &pa : range.first)
      first.push_back(expression(params, pa));
    for (const isl::pw_aff &pa : range.last)
      last.push_back(expression(params, pa));
    return json::Object{{"first", std::move(first)}, {"last", std::move(last)}};
  }

  /// One direction of a transfer: whether it is copied, the box, its size
  /// in bytes (an integer, or a C expression of the parameters) and why.
  static json::Value copy(const isl::set &params, const polyhedral::Array &array,
                          bool copied, const polyhedral::ElementBox &box,
                          bool exact, const std::string &why) {
    json::Value lower = nullptr, upper = nullptr, bytes = (int64_t)0;
    if (copied) {
      json::Array lo, hi;
      std::optional<int64_t> total = polyhedral::elementBytes(array.type);
      std::string text = std::to_string(polyhedral::elementBytes(array.type));
      for (size_t d = 0; d < box.lower.size(); ++d) {
        lo.push_back(expression(params, box.lower[d]));
        hi.push_back(expression(params, box.upper[d]));
        isl::pw_aff count = box.upper[d].sub(box.lower[d]).add(
            box.upper[d].domain().pw_aff_on_domain(
                isl::val::one(box.upper[d].ctx())));
        json::Value n = expression(params, count);
        if (auto v = n.getAsInteger(); v && total)
          *total *= *v;
        else
          total.reset();
        text += " * (" + (n.kind() == json::Value::String
                              ? std::string(*n.getAsString())
                              : std::to_string(*n.getAsInteger())) +
                ")";
      }
      lower = std::move(lo);
      upper = std::move(hi);
      if (total)
        bytes = *total;
      else
        bytes = text;
    }
    return json::Object{{"copied", copied}, {"lower", std::move(lower)},
                        {"upper", std::move(upper)}, {"bytes", std::move(bytes)},
                        {"exact", exact}, {"why", why}};
  }

  json::Value kernelJson(const Scop &scop, const ScopExplanation &facts,
                         const polyhedral::KernelFact &kernel) {
    // Grid and block in hardware order x, y, z.
    std::vector<json::Value> grid(kernel.numMapped, nullptr);
    std::vector<int64_t> block(kernel.numMapped, 1);
    json::Array mapped;
    std::string xLoop;
    const polyhedral::BandFact *top = nullptr;
    for (const polyhedral::BandFact &band : facts.bands)
      if (band.kernel == kernel.id && !band.members.empty() &&
          band.members[0].hardwareDim && !top)
        top = &band;
    for (unsigned d = 0; d < kernel.numMapped; ++d) {
      unsigned hw = kernel.hardwareDim[d];
      block[hw] = kernel.blockSize[d];
      // A block covers a tile of `registerTile` points per thread.
      unsigned size = kernel.blockSize[d] *
                      (d < kernel.registerTile.size() ? kernel.registerTile[d]
                                                      : 1);
      json::Value extent = expression(facts.typicalParams, kernel.extent[d]);
      bool lane = kernel.reduction && kernel.reduction->member == d;
      if (lane) // one block along a reduction's lanes
        grid[hw] = 1;
      else if (llvm::Optional<int64_t> n = extent.getAsInteger())
        grid[hw] = (*n + size - 1) / size;
      else if (!kernel.extent[d].is_null())
        grid[hw] = "ceil((" + str(&extent) + ") / " + std::to_string(size) +
                   ")";
      json::Object schedule;
      if (top && d < top->members.size()) {
        for (const auto &[s, text] : top->members[d].perStatement) {
          schedule[scop.statements[s].name] = text;
          if (hw == 0 && xLoop.empty())
            xLoop = text;
        }
      }
      mapped.push_back(json::Object{{"member", (int64_t)d},
                                    {"hardware", kHardware[hw]},
                                    {"block_size", (int64_t)size},
                                    {"extent", std::move(extent)},
                                    {"schedule", std::move(schedule)}});
    }
    if (kernel.order.column)
      grid = columnGrid(kernel, std::move(grid));
    json::Array gridArray, blockArray;
    for (json::Value &g : grid)
      gridArray.push_back(std::move(g));
    for (int64_t b : block)
      blockArray.push_back(b);

    json::Array references = referencesJson(scop, kernel, xLoop);
    json::Value bytes = nullptr;
    if (kernel.globalBytes)
      bytes = *kernel.globalBytes;
    return json::Object{
        {"id", (int64_t)kernel.id},
        {"name", kernel.name},
        {"statements", statementIds(scop, kernel.statements)},
        {"host_loops", (int64_t)kernel.hostDepth},
        {"grid", std::move(gridArray)},
        {"block", std::move(blockArray)},
        {"block_size_detail", blockSizingJson(kernel)},
        {"register_tile", registerTileJson(kernel)},
        {"wavefront_tile", wavefrontTileJson(kernel)},
        {"thread_order", kernel.order.column ? "column" : "row-major"},
        {"thread_order_detail", threadOrderJson(kernel.order)},
        {"mapped", std::move(mapped)},
        {"sequential_because", indices(kernel.preventing)},
        {"references", std::move(references)},
        {"global_bytes", std::move(bytes)},
        {"global_bytes_expression", kernel.globalBytesExpr},
        {"global_bytes_exact", kernel.bytesExact},
        {"shared", sharedJson(scop, kernel)},
        {"accumulators", accumulatorsJson(scop, kernel)},
        {"reduction", reductionJson(scop, kernel)}};
  }
  /// The points per thread (hardware order x, y, z) and why; null for
  /// one-thread kernels.
  static json::Value registerTileJson(const polyhedral::KernelFact &kernel) {
    if (kernel.numMapped == 0)
      return nullptr;
    json::Array points;
    for (unsigned hw = 0; hw < kernel.numMapped; ++hw)
      for (unsigned d = 0; d < kernel.numMapped; ++d)
        if (kernel.hardwareDim[d] == hw)
          points.push_back((int64_t)(d < kernel.registerTile.size()
                                         ? kernel.registerTile[d]
                                         : 1));
    return json::Object{{"points", std::move(points)},
                        {"considered", kernel.registerTileConsidered},
                        {"why", kernel.registerTileReason}};
  }
  /// A tiled wavefront's steps and tile, or null.
  static json::Value wavefrontTileJson(const polyhedral::KernelFact &kernel) {
    if (kernel.wavefrontSteps == 0)
      return nullptr;
    json::Array tile;
    for (unsigned size : kernel.wavefrontTile)
      tile.push_back((int64_t)size);
    return json::Object{
        {"wavefront", kernel.wavefront},
        {"steps", (int64_t)kernel.wavefrontSteps},
        {"members", kernel.wavefrontMembers},
        {"tile", std::move(tile)},
        {"why", "the host loop " + kernel.wavefront +
                    " carries every dependence and, with its parallel "
                    "loops skewed to " + kernel.wavefrontMembers +
                    ", no dependence distance is negative: the three tile, "
                    "each launch runs a wavefront of tiles (independent), "
                    "each block one tile's " +
                    std::to_string(kernel.wavefrontSteps) +
                    " steps with a barrier after each"}};
  }
  /// The reduction the block's threads share, or null.
  static json::Value reductionJson(const Scop &scop,
                                   const polyhedral::KernelFact &kernel) {
    if (!kernel.reduction)
      return nullptr;
    const polyhedral::BlockReduction &r = *kernel.reduction;
    std::string statements;
    for (unsigned s : r.statements)
      statements += (statements.empty() ? "" : ", ") + scop.statements[s].name;
    return json::Object{
        {"statement", statements},
        {"array", scop.arrays[r.array].name},
        {"operation", polyhedral::reductionOpName(r.op)},
        {"loop", r.loop},
        {"member", (int64_t)r.member},
        {"hardware", kHardware[kernel.hardwareDim[r.member]]},
        {"lanes", (int64_t)kernel.blockSize[r.member]},
        {"jam", (int64_t)r.jam},
        {"variable", r.variable},
        {"why", r.reason}};
  }
  /// The kernel's shared tiles: the tiled loop, the tiles, or why none.
  static json::Object sharedJson(const Scop &scop,
                                 const polyhedral::KernelFact &kernel) {
    json::Array tiles;
    for (const polyhedral::SharedTile &tile : kernel.sharedTiles) {
      json::Array box;
      for (long size : tile.sizes)
        box.push_back((int64_t)size);
      tiles.push_back(json::Object{
          {"array", scop.arrays[tile.array].name},
          {"box", std::move(box)},
          {"padding", (int64_t)tile.padding},
          {"bank_conflicts", (int64_t)tile.conflicts},
          {"bank_conflicts_unpadded", (int64_t)tile.conflictsUnpadded},
          {"references", (int64_t)tile.references.size()},
          {"scale", tile.scale.empty() ? json::Value(nullptr)
                                       : json::Value(tile.scale)}});
    }
    json::Value loop = nullptr, size = nullptr;
    if (!kernel.sharedLoop.empty()) {
      loop = kernel.sharedLoop;
      size = (int64_t)kernel.sharedTileSize;
    }
    std::string reason =
        kernel.sharedTiles.empty() ? kernel.sharedReason
        : kernel.sharedLoop.empty()
            ? "no loop inside the kernel: each block copies the elements it "
              "reads of the arrays its threads reuse once, then computes"
            : "the loop runs above the threads in tiles of " +
                  std::to_string(kernel.sharedTileSize) +
                  " iterations; its tiles of the arrays the block reuses are "
                  "read from shared memory";
    return json::Object{
        {"loop", std::move(loop)},
        {"tile_size", std::move(size)},
        {"tiles", std::move(tiles)},
        {"reason", reason}};
  }
  /// The kernel's register accumulators.
  static json::Array accumulatorsJson(const Scop &scop,
                                      const polyhedral::KernelFact &kernel) {
    json::Array result;
    for (const polyhedral::RegisterAccumulator &acc : kernel.accumulators) {
      json::Array refs;
      std::set<std::string> seen; // C[i][j] read and written: once
      for (const auto &[s, a] : acc.references) {
        std::string text = polyhedral::accessText(
            scop, scop.statements[s], scop.statements[s].accesses[a]);
        if (seen.insert(scop.statements[s].name + " " + text).second)
          refs.push_back(scop.statements[s].name + ": " + text);
      }
      result.push_back(json::Object{{"array", scop.arrays[acc.array].name},
                                    {"loop", acc.loop},
                                    {"variable", acc.variable},
                                    {"references", std::move(refs)}});
    }
    return result;
  }
  /// Column order: the grid (x, y[, z]) from the blocks per hardware
  /// dimension of the linear grid `linear`: Wb * rows, the columns[, z].
  static std::vector<json::Value>
  columnGrid(const polyhedral::KernelFact &kernel,
             std::vector<json::Value> linear) {
    int64_t wb = kernel.order.widthBlocks;
    std::vector<json::Value> grid;
    llvm::Optional<int64_t> x = linear[0].getAsInteger();
    llvm::Optional<int64_t> y = linear[1].getAsInteger();
    if (y)
      grid.push_back(wb * *y);
    else
      grid.push_back(std::to_string(wb) + " * (" + str(&linear[1]) + ")");
    if (x)
      grid.push_back((*x + wb - 1) / wb);
    else
      grid.push_back("ceil((" + str(&linear[0]) + ") / " +
                     std::to_string(wb) + ")");
    if (linear.size() > 2)
      grid.push_back(std::move(linear[2]));
    return grid;
  }

  /// How the kernel's block size was chosen (null for one-thread kernels).
  static json::Value blockSizingJson(const polyhedral::KernelFact &kernel) {
    if (kernel.numMapped == 0)
      return nullptr;
    const polyhedral::BlockSizing &sizing = kernel.sizing;
    using Source = polyhedral::BlockSizing::Source;
    auto optional = [](const std::optional<long> &n) -> json::Value {
      if (n)
        return (int64_t)*n;
      return nullptr;
    };
    auto count = [&](unsigned n) -> json::Value {
      if (sizing.source == Source::Sizes)
        return nullptr;
      return (int64_t)n;
    };
    json::Array requested, bounds;
    for (unsigned size : sizing.requested)
      requested.push_back((int64_t)size);
    for (const std::optional<long> &bound : sizing.extentBound)
      bounds.push_back(optional(bound));
    return json::Object{
        {"source", sizing.source == Source::Sizes    ? "sizes"
                   : sizing.source == Source::Shrunk ? "shrunk"
                                                     : "default"},
        {"requested", std::move(requested)},
        {"extent_bound", std::move(bounds)},
        {"requested_blocks", optional(sizing.requestedBlocks)},
        {"blocks", optional(sizing.chosenBlocks)},
        {"multiprocessors", count(sizing.multiprocessors)},
        {"warp_size", count(sizing.warpSize)},
        {"max_threads_per_block", count(sizing.maxThreadsPerBlock)},
        {"reason", sizing.reason}};
  }

  static json::Value threadOrderJson(const polyhedral::ThreadOrder &order) {
    json::Value model = nullptr;
    if (order.linearFootprint > 0)
      model = json::Object{{"linear_bytes", order.linearFootprint},
                           {"column_bytes", order.columnFootprint},
                           {"l1_budget_bytes", order.l1Budget},
                           {"l2_budget_bytes", order.l2Budget}};
    json::Value width = nullptr, widthBlocks = nullptr;
    if (order.column) {
      width = (int64_t)order.width;
      widthBlocks = (int64_t)order.widthBlocks;
    }
    return json::Object{{"order", order.column ? "column" : "linear"},
                        {"width", std::move(width)},
                        {"width_blocks", std::move(widthBlocks)},
                        {"zigzag", order.zigzag},
                        {"auto", order.automatic},
                        {"default", order.byDefault},
                        {"reason", order.reason},
                        {"model", std::move(model)}};
  }

  /// The references of `kernel`: where each lives, its access pattern and
  /// why (`xLoop`: the loop along threadIdx.x).
  static json::Array referencesJson(const Scop &scop,
                                    const polyhedral::KernelFact &kernel,
                                    const std::string &xLoop) {
    json::Array references;
    for (const polyhedral::ReferenceFact &ref : kernel.references) {
      const Statement &stmt = scop.statements[ref.statement];
      const polyhedral::Access &access = stmt.accesses[ref.access];
      json::Array reused;
      for (unsigned hw : ref.reusedAlong)
        reused.push_back(kHardware[hw]);
      json::Value stride = nullptr;
      if (ref.stride)
        stride = (int64_t)*ref.stride;
      references.push_back(json::Object{
          {"statement", stmt.name},
          {"reference", polyhedral::accessText(scop, stmt, access)},
          {"array", scop.arrays[access.array].name},
          {"kind", ref.isRead ? "read" : "write"},
          {"memory", ref.inRegister         ? "register"
                     : ref.sharedTile        ? "shared"
                     : ref.constantElements ? "constant"
                                             : "global"},
          {"pattern", ref.inRegister && !ref.accumulator &&
                              !ref.reductionPartial
                          ? "private"
                          : patternName(ref.pattern)},
          {"stride", std::move(stride)},
          {"reused_along", std::move(reused)},
          {"may_access", !access.isAffine()},
          {"reason", referenceReason(scop, stmt, kernel, ref, xLoop)}});
    }
    return references;
  }
};

//===- Text rendering of the JSON object ----------------------------------===//

std::string str(const json::Value *value) {
  if (!value || value->kind() == json::Value::Null)
    return "-";
  if (auto s = value->getAsString())
    return s->str();
  if (auto i = value->getAsInteger())
    return std::to_string(*i);
  if (auto d = value->getAsNumber()) {
    std::ostringstream os;
    os.precision(15);
    os << *d;
    return os.str();
  }
  if (auto b = value->getAsBoolean())
    return *b ? "yes" : "no";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *value;
  return os.str();
}

std::string list(const json::Array *array, const std::string &sep = ", ") {
  std::string text;
  if (!array)
    return text;
  for (const json::Value &v : *array)
    text += (text.empty() ? "" : sep) + str(&v);
  return text;
}

std::string depRef(const json::Array &deps, int64_t id) {
  const json::Object &dep = *deps[id].getAsObject();
  const json::Object &source = *dep.getObject("source");
  const json::Object &sink = *dep.getObject("sink");
  std::string text = "#" + std::to_string(id) + " " +
                     str(dep.get("type")) + " on " + str(dep.get("array")) +
                     " " + str(source.get("statement")) + " (line " +
                     str(source.get("line")) + ") -> " +
                     str(sink.get("statement")) + " (line " +
                     str(sink.get("line")) + ")";
  return text;
}

void printStatements(const json::Object &scop, std::ostream &os) {
  const json::Object &loc = *scop.getObject("location");
  os << "scop in " << str(scop.get("function")) << " at "
     << str(loc.get("file")) << ":" << str(loc.get("line")) << ":"
     << str(loc.get("column")) << "\n";
  if (const json::Array *params = scop.getArray("parameters"))
    if (!params->empty())
      os << "  parameters: " << list(params) << "\n";
  for (const json::Value &v : *scop.getArray("arrays")) {
    const json::Object &a = *v.getAsObject();
    if (a.getBoolean("delinearized").getValueOr(false)) {
      std::string shape = str(a.get("name")) + "[]";
      const json::Array &extents = *a.getArray("extents");
      for (size_t d = 1; d < extents.size(); ++d)
        shape += "[" + str(&extents[d]) + "]";
      os << "  array " << str(a.get("name"))
         << ": flat, its subscripts read as " << shape
         << " (rows recovered from their strides)\n";
    }
  }
  if (const json::Object *assumed = scop.getObject("assumed"))
    os << "  assumed on entry: " << str(assumed->get("condition"))
       << (assumed->getBoolean("flat_subscripts_in_rows").getValueOr(false)
               ? " (each flat subscript stays within its row)"
               : "")
       << (assumed->getBoolean("no_wrap_around").getValueOr(false)
               ? " (no value wraps around)"
               : "")
       << "; where it fails, the original statements run\n";

  os << "\nstatements\n";
  for (const json::Value &v : *scop.getArray("statements")) {
    const json::Object &s = *v.getAsObject();
    os << "  " << str(s.get("id")) << "  line " << str(s.get("line"))
       << "  " << str(s.get("text"));
    if (!s.getArray("loops")->empty())
      os << "   [loops " << list(s.getArray("loops")) << "]";
    std::string role = str(s.get("role"));
    if (role == "data_condition")
      os << "   (the condition of an if on data, stored before its branches)";
    else if (role == "break_reset")
      os << "   (a break on data: its flag, 0 before the loop's first "
            "iteration)";
    else if (role == "break_taken")
      os << "   (a break on data: the flag set where it is taken)";
    else if (role == "iterator_exit")
      os << "   (the value the loop leaves in its variable)";
    if (const json::Array *inlined = s.getArray("inlined"))
      if (!inlined->empty())
        os << "   (calls of " << list(inlined) << " inlined)";
    if (const json::Array *called = s.getArray("functions"))
      if (!called->empty())
        os << "   (calls " << list(called)
           << ", printed with the kernels as functions)";
    os << "\n";
  }
  for (const json::Value &v : *scop.getArray("privatized_scalars")) {
    const json::Object &p = *v.getAsObject();
    os << "  scalar " << str(p.get("name")) << ": " << str(p.get("reason"))
       << "\n";
  }
  const json::Object &split = *scop.getObject("index_set_splitting");
  for (const json::Value &v : *split.getArray("splits"))
    os << "  index-set split " << (*split.getBoolean("applied") ? "" : "not ")
       << "applied: " << str(&v) << " (launch depth "
       << str(split.get("launch_depth_before")) << " -> "
       << str(split.get("launch_depth_after")) << ")\n";
}

void printDependences(const json::Object &scop, std::ostream &os) {
  const json::Array &deps = *scop.getArray("dependences");
  os << "\ndependences";
  if (!*scop.getBoolean("dependences_complete"))
    os << ": the analysis exceeded its budget; the scop keeps its original "
          "order and nothing runs in parallel\n";
  else if (deps.empty())
    os << ": none\n";
  else
    os << " (direction and distance: sink iteration minus source "
          "iteration, per common loop)\n";
  for (size_t f = 0; f < deps.size(); ++f) {
    const json::Object &dep = *deps[f].getAsObject();
    os << "  " << depRef(deps, f);
    const json::Array *loops = dep.getArray("loops");
    if (!loops->empty()) {
      os << "  loops (" << list(loops) << ") direction ("
         << list(dep.getArray("direction")) << ")";
      if (const json::Array *d = dep.getArray("distance"))
        os << " distance (" << list(d) << ")";
    }
    if (const json::Object *c = dep.getObject("carried_by"))
      os << ", carried by " << str(c->get("iterator")) << " (line "
         << str(c->get("line")) << ")";
    else
      os << ", loop-independent";
    os << "\n";
  }
}

void printLoops(const json::Object &scop, std::ostream &os) {
  const json::Array &deps = *scop.getArray("dependences");
  os << "\nloops of the source (original order)\n";
  for (const json::Value &v : *scop.getArray("loops")) {
    const json::Object &l = *v.getAsObject();
    os << "  " << std::string(2 * *l.getInteger("depth"), ' ') << "for "
       << str(l.get("iterator")) << " (line " << str(l.get("line")) << "): ";
    if (*l.getBoolean("parallel")) {
      os << "parallel\n";
      continue;
    }
    os << "sequential";
    const json::Array &carried = *l.getArray("carries");
    if (carried.empty())
      os << " (dependence analysis incomplete)\n";
    else
      os << ", carries:\n";
    for (const json::Value &id : carried)
      os << "  " << std::string(2 * *l.getInteger("depth"), ' ') << "    "
         << depRef(deps, *id.getAsInteger()) << "\n";
  }
}

/// `S0: i; S1: i + 1`: a member's schedule per statement.
std::string perStatement(const json::Object &schedule) {
  std::string per;
  for (const auto &entry : schedule)
    per += (per.empty() ? "" : "; ") + entry.first.str() + ": " +
           str(&entry.second);
  return per;
}

void printSchedule(const json::Object &scop, const ReportOptions &options,
                   std::ostream &os) {
  const json::Array &deps = *scop.getArray("dependences");
  const json::Object &schedule = *scop.getObject("schedule");
  os << "\nschedule";
  if (const json::Value *fallback = schedule.get("fallback");
      fallback && fallback->kind() != json::Value::Null)
    os << " (isl's scheduler gave up: " << str(fallback)
       << "; the original loop order is used)";
  os << "\n";
  int bandIndex = 0;
  for (const json::Value &v : *schedule.getArray("bands")) {
    const json::Object &band = *v.getAsObject();
    os << "  band " << bandIndex++ << " over "
       << list(band.getArray("statements")) << " ("
       << str(band.get("placement"));
    if (const json::Value *k = band.get("kernel");
        k && k->kind() != json::Value::Null)
      os << ", kernel" << str(k);
    os << (*band.getBoolean("permutable") ? ", permutable" : "") << ")\n";
    int m = 0;
    for (const json::Value &mv : *band.getArray("members")) {
      const json::Object &member = *mv.getAsObject();
      os << "    member " << m++ << " ["
         << perStatement(*member.getObject("schedule")) << "] "
         << (*member.getBoolean("parallel") ? "parallel" : "sequential");
      if (const json::Value *hw = member.get("mapped_to");
          hw && hw->kind() != json::Value::Null) {
        // A sequential member on the hardware: a reduction's lanes.
        if (*member.getBoolean("parallel"))
          os << " -> blockIdx." << str(hw) << " * "
             << str(member.get("block_size")) << " + threadIdx." << str(hw);
        else
          os << " -> threadIdx." << str(hw) << " (" << str(member.get("block_size"))
             << " lanes of a reduction)";
      }
      os << "\n";
      for (const json::Value &id : *member.getArray("carries"))
        os << "      carries " << depRef(deps, *id.getAsInteger()) << "\n";
    }
  }
  if (options.scheduleTree)
    os << "  isl schedule tree:\n" << str(schedule.get("tree")) << "\n";
}

/// A kernel's threads: the grid, the block and the loops mapped to them, or
/// the dependences that keep it on one thread.
void printKernelThreads(const json::Object &k, const json::Array &deps,
                        std::ostream &os) {
  const json::Array &mapped = *k.getArray("mapped");
  if (mapped.empty()) {
    os << "  one thread (no parallel loop)";
    const json::Array &why = *k.getArray("sequential_because");
    if (!why.empty())
      os << ", because of:";
    os << "\n";
    for (const json::Value &id : why)
      os << "    " << depRef(deps, *id.getAsInteger()) << "\n";
    return;
  }
  std::string tile = "the tile of the mapped loops";
  if (const json::Object *registers = k.getObject("register_tile")) {
    const json::Array &points = *registers->getArray("points");
    const json::Array &block = *k.getArray("block");
    std::string sizes;
    bool tiled = false;
    for (size_t d = 0; d < points.size() && d < block.size(); ++d) {
      int64_t p = points[d].getAsInteger().getValueOr(1);
      tiled |= p > 1;
      sizes += (d ? " x " : "") +
               std::to_string(p * block[d].getAsInteger().getValueOr(1));
    }
    if (tiled)
      tile = "tiles of " + sizes + " points";
  }
  os << "  grid (" << list(k.getArray("grid")) << "), block ("
     << list(k.getArray("block")) << ") = " << tile << ", "
     << "thread order " << str(k.get("thread_order"));
  const json::Object &order = *k.getObject("thread_order_detail");
  if (llvm::Optional<int64_t> w = order.getInteger("width"))
    os << " (columns of " << *w << " elements = "
       << *order.getInteger("width_blocks") << " block(s) along x"
       << (*order.getBoolean("zigzag") ? ", zigzag" : "")
       << "; blockIdx.x runs inside a column, blockIdx.y over the columns)";
  // The default order needs no explanation; a chosen one (or one asked
  // for but not possible) does.
  if (!*order.getBoolean("default"))
    os << "\n    why: " << str(order.get("reason"));
  os << "\n";
  if (const json::Object *sizing = k.getObject("block_size_detail"))
    os << "    block: " << str(sizing->get("reason")) << "\n";
  if (const json::Object *tile = k.getObject("register_tile")) {
    bool tiled = false;
    for (const json::Value &points : *tile->getArray("points"))
      tiled |= points.getAsInteger().getValueOr(1) > 1;
    // Untiled kernels that the model considered (gemm-like, but too few
    // blocks, a triangle, no bound): say why, as for the tiled ones.
    std::string why = str(tile->get("why"));
    bool considered = tile->getBoolean("considered").getValueOr(false);
    if (tiled)
      os << "    register tile: " << why << "\n";
    else if (considered)
      os << "    register tile: none, " << why << "\n";
  }
  if (const json::Object *tile = k.getObject("wavefront_tile"))
    os << "    tiled wavefront: " << str(tile->get("why")) << "\n";
  const json::Object *reduction = k.getObject("reduction");
  if (reduction)
    os << "    reduction: " << str(reduction->get("statement")) << " "
       << str(reduction->get("array")) << " (" << str(reduction->get("operation"))
       << ") over loop " << str(reduction->get("loop")) << ", "
       << str(reduction->get("lanes")) << " lanes along "
       << str(reduction->get("hardware")) << ": " << str(reduction->get("why"))
       << "\n";
  bool column = order.getInteger("width").hasValue();
  for (const json::Value &mv : mapped) {
    const json::Object &m = *mv.getAsObject();
    std::string hw = str(m.get("hardware"));
    if (reduction && m.getInteger("member") == reduction->getInteger("member")) {
      os << "  " << perStatement(*m.getObject("schedule")) << " -> threadIdx."
         << hw << " (" << str(m.get("block_size"))
         << " lanes, round-robin; one block along it; "
         << str(m.get("extent")) << " iterations per launch)\n";
      continue;
    }
    // In column order a block's index along x and y comes from its grid
    // position (the column and the position inside it).
    std::string block = column && hw != "z" ? "block " + hw + " of the column order"
                                            : "blockIdx." + hw;
    os << "  " << perStatement(*m.getObject("schedule")) << " -> " << block
       << ", threadIdx." << hw
       << " (block " << str(m.get("block_size")) << ", "
       << str(m.get("extent")) << " iterations per launch)\n";
  }
}

void printKernel(const json::Object &k, const json::Array &deps,
                 std::ostream &os) {
  os << "\nkernel" << *k.getInteger("id") << " (" << str(k.get("name"))
     << "): statements "
     << list(k.getArray("statements"));
  int64_t host = *k.getInteger("host_loops");
  os << (host == 0 ? ", launched once"
                   : ", launched in " + std::to_string(host) +
                         " host loop(s)")
     << "\n";
  printKernelThreads(k, deps, os);
  os << "  references\n";
  for (const json::Value &rv : *k.getArray("references")) {
    const json::Object &r = *rv.getAsObject();
    os << "    " << str(r.get("statement")) << " " << str(r.get("kind"))
       << " " << str(r.get("reference")) << ": " << str(r.get("memory"));
    if (str(r.get("memory")) == "global")
      os << ", " << str(r.get("pattern"));
    os << " - " << str(r.get("reason"));
    if (!r.getArray("reused_along")->empty() &&
        str(r.get("memory")) == "global")
      os << "; the same element is used by threads along "
         << list(r.getArray("reused_along"))
         << " (not staged in shared memory)";
    os << "\n";
  }
  const json::Object &shared = *k.getObject("shared");
  os << "  shared memory: ";
  if (shared.getArray("tiles")->empty())
    os << "none (" << str(shared.get("reason")) << ")\n";
  else if (const json::Value *loop = shared.get("loop");
           loop && loop->kind() != json::Value::Null)
    os << "loop " << str(loop) << " in tiles of "
       << str(shared.get("tile_size")) << "\n";
  else
    os << "copied once per block\n";
  for (const json::Value &tv : *shared.getArray("tiles")) {
    const json::Object &t = *tv.getAsObject();
    os << "    " << str(t.get("array")) << ": " << list(t.getArray("box"), " x ")
       << " elements, rows padded by " << str(t.get("padding"))
       << " (bank conflict degree " << str(t.get("bank_conflicts"))
       << ", unpadded " << str(t.get("bank_conflicts_unpadded")) << ")\n";
  }
  for (const json::Value &av : *k.getArray("accumulators")) {
    const json::Object &a = *av.getAsObject();
    os << "  register " << str(a.get("variable")) << ": "
       << list(a.getArray("references")) << " across loop "
       << str(a.get("loop")) << "\n";
  }
  os << "  global memory traffic "
     << (*k.getBoolean("global_bytes_exact") ? "" : "(upper bound) ")
     << "of all launches: ";
  if (const json::Value *b = k.get("global_bytes");
      b && b->kind() != json::Value::Null)
    os << str(b) << " bytes\n";
  else
    os << str(k.get("global_bytes_expression")) << " bytes\n";
}

/// One transfer: whether and which box of the array is copied each way.
void printTransfer(const json::Object &t, std::ostream &os) {
  std::string name = str(t.get("array"));
  auto box = [&](const json::Object &copy) {
    std::string text = name;
    const json::Array *lower = copy.getArray("lower");
    const json::Array *upper = copy.getArray("upper");
    for (size_t d = 0; lower && d < lower->size(); ++d)
      text += "[" + str(&(*lower)[d]) + ".." + str(&(*upper)[d]) + "]";
    return text;
  };
  auto direction = [&](const char *key, const char *label) {
    const json::Object &copy = *t.getObject(key);
    if (!*copy.getBoolean("copied"))
      return "not copied " + std::string(label) + " (" +
             str(copy.get("why")) + ")";
    return "copied " + std::string(label) + " " + box(copy) + ", " +
           str(copy.get("bytes")) + " bytes (" + str(copy.get("why")) + ")";
  };
  os << "  " << name << ": " << direction("copy_in", "in") << "; "
     << direction("copy_out", "out") << "; method " << str(t.get("method"))
     << "\n";
}

/// One outermost host loop: one persistent kernel or a launch per kernel
/// and iteration, and why.
void printPersistentLoop(const json::Object &loop, std::ostream &os) {
  std::string kernels;
  for (const json::Value &k : *loop.getArray("kernels"))
    kernels += (kernels.empty() ? "" : ", ") + str(&k);
  os << "\nhost loop " << str(loop.get("loop")) << " (launches " << kernels
     << "): "
     << (*loop.getBoolean("persistent")
             ? std::string("one persistent kernel")
             : std::string("a launch per kernel and iteration"))
     << "\n  " << str(loop.get("why")) << "\n";
}

void printScop(const json::Object &scop, const ReportOptions &options,
               std::ostream &os) {
  printStatements(scop, os);
  printDependences(scop, os);
  printLoops(scop, os);
  printSchedule(scop, options, os);
  const json::Array &deps = *scop.getArray("dependences");
  for (const json::Value &v : *scop.getArray("kernels"))
    printKernel(*v.getAsObject(), deps, os);
  for (const json::Value &v : *scop.getArray("persistent_loops"))
    printPersistentLoop(*v.getAsObject(), os);
  if (const json::Object *host = scop.getObject("host_code")) {
    std::string statements, scalars;
    for (const json::Value &v : *host->getArray("statements"))
      statements += (statements.empty() ? "" : ", ") + str(&v);
    for (const json::Value &v : *host->getArray("scalars"))
      scalars += (scalars.empty() ? "" : ", ") + str(&v);
    os << "\nhost code: " << statements << " (writing " << scalars
       << ")\n  " << str(host->get("why")) << "\n";
  }
  const json::Array &transfers = *scop.getArray("transfers");
  if (!transfers.empty())
    os << "\nhost/device copies (once around the scop)\n";
  for (const json::Value &v : transfers)
    printTransfer(*v.getAsObject(), os);
}

} // namespace

json::Value reportJson(const ParsedInput &input, const Translation &translation,
                       const ReportOptions &options) {
  return Builder(input, translation, options).build();
}

std::string reportText(const ParsedInput &input,
                       const Translation &translation,
                       const ReportOptions &options) {
  json::Value report = reportJson(input, translation, options);
  std::ostringstream os;
  os << "polycuda report for " << input.fileName << " (target "
     << options.target << ")\n";
  for (const json::Value &scop : *report.getAsObject()->getArray("scops")) {
    os << "\n";
    printScop(*scop.getAsObject(), options, os);
  }
  return os.str();
}

} // namespace polycuda::translator
