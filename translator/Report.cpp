//===- Report.cpp - --explain and --report=json ---------------------------===//
//
// One builder produces the JSON object; the text report is printed from the
// same object, so both always say the same thing.
//
//===----------------------------------------------------------------------===//
#include "ReportInternal.h"

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

using report::blockSizingReason;
using report::copyInReason;
using report::copyOutReason;
using report::noSharedReason;
using report::reductionReason;
using report::threadOrderReason;
using report::registerTileReason;
using report::referenceReason;
using report::str;

const char *const kHardware[] = {"x", "y", "z"};

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
                                        {"reason", expansionReason(e)}});
    json::Array loops = loopsJson(scop, facts);
    json::Array dependences = dependencesJson(scop, facts);
    json::Array bands = bandsJson(scop, facts);
    json::Array kernels;
    for (const polyhedral::KernelFact &kernel : facts.kernels)
      kernels.push_back(kernelJson(scop, facts, kernel));
    json::Array transfers = transfersJson(scop, facts);
    json::Array persistent = persistentJson(program, facts);

    json::Value fallback = nullptr;
    if (program.scheduleIsFallback())
      fallback = polyhedral::describe(program.fallback);
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
    std::string names;
    for (unsigned a : program.hostScalars) {
      scalars.push_back(scop.arrays[a].name);
      names += (names.empty() ? "" : ", ") + scop.arrays[a].name;
    }
    std::string why =
        "statements outside every loop that access only scalars (" + names +
        "), which no other statement writes or precedes in a dependence: "
        "they run first, on the host, and kernels receive the scalars' "
        "values as arguments";
    return json::Object{{"statements", std::move(statements)},
                        {"scalars", std::move(scalars)},
                        {"why", std::move(why)}};
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
    // One fact per loop of the program, in its order; why a loop is (not)
    // persistent is worded from the program's record.
    for (size_t i = 0; i < facts.persistentLoops.size(); ++i) {
      const polyhedral::PersistentFact &loop = facts.persistentLoops[i];
      std::string why = persistentReason(program, program.persistentLoops[i]);
      json::Array kernels;
      for (unsigned id : loop.kernels)
        kernels.push_back(program.kernels[id].name);
      loops.push_back(json::Object{{"loop", loop.loop},
                                   {"kernels", std::move(kernels)},
                                   {"persistent", loop.persistent},
                                   {"threads", (int64_t)loop.threads},
                                   {"single_block", loop.singleBlock},
                                   {"shared_bytes", (int64_t)loop.sharedBytes},
                                   {"why", why}});
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
                           t.toDevice, t.in, t.inExact, copyInReason(t))},
          {"copy_out", copy(facts.typicalParams, scop.arrays[t.array],
                            t.toHost, t.out, t.outExact, copyOutReason(t))}});
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
        {"register_tile", registerTileJson(scop, kernel)},
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
  static json::Value registerTileJson(const Scop &scop,
                                      const polyhedral::KernelFact &kernel) {
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
                        {"why", registerTileReason(
                                    scop, kernel.registerTileDecision)}};
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
        {"why", reductionReason(scop, r)}};
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
        kernel.sharedTiles.empty() ? noSharedReason(scop, kernel.noShared)
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
        {"reason", blockSizingReason(kernel)}};
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
                        {"reason", threadOrderReason(order)},
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
} // namespace

json::Value reportJson(const ParsedInput &input, const Translation &translation,
                       const ReportOptions &options) {
  return Builder(input, translation, options).build();
}

} // namespace polycuda::translator
