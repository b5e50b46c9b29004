//===- Report_Text.cpp - The text report, rendered from the JSON ----------===//
//
// `--explain` prints the JSON object of Report.cpp as text for people, so
// that both reports always say the same thing.
//
//===----------------------------------------------------------------------===//
#include "ReportInternal.h"

#include <llvm/Support/raw_ostream.h>

#include <sstream>

namespace polycuda::translator {

namespace json = llvm::json;

std::string report::str(const json::Value *value) {
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

namespace {

using report::str;


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
/// "the tile of the mapped loops", or a register tile's points per block.
std::string blockTile(const json::Object &k) {
  const json::Object *registers = k.getObject("register_tile");
  if (!registers)
    return "the tile of the mapped loops";
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
  return tiled ? "tiles of " + sizes + " points"
               : "the tile of the mapped loops";
}

/// The lines of a mapped kernel's register tile, tiled wavefront and
/// reduction, where it has them.
void printKernelTiles(const json::Object &k, std::ostream &os) {
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
  if (const json::Object *reduction = k.getObject("reduction"))
    os << "    reduction: " << str(reduction->get("statement")) << " "
       << str(reduction->get("array")) << " (" << str(reduction->get("operation"))
       << ") over loop " << str(reduction->get("loop")) << ", "
       << str(reduction->get("lanes")) << " lanes along "
       << str(reduction->get("hardware")) << ": " << str(reduction->get("why"))
       << "\n";
}

/// One line per mapped loop of kernel `k`: the block and thread index it
/// runs on (`column`: in column order).
void printMappedLoops(const json::Object &k, bool column, std::ostream &os) {
  const json::Object *reduction = k.getObject("reduction");
  for (const json::Value &mv : *k.getArray("mapped")) {
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
  os << "  grid (" << list(k.getArray("grid")) << "), block ("
     << list(k.getArray("block")) << ") = " << blockTile(k) << ", "
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
  printKernelTiles(k, os);
  printMappedLoops(k, order.getInteger("width").hasValue(), os);
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
