//===- PersistentPrinter.cpp - Host loops run by one persistent kernel ----===//
//
// Printer: PersistentLoop (its host AST below the mark) -> one kernel whose
// threads run the host loops, and its cooperative launch. Each launch of
// the host AST becomes a phase: the grid's blocks take the former grid's
// blocks in turn (virtual block v = blockIdx.x, + gridDim.x, ...), each
// derives the former blockIdx from v (x fastest, as the hardware numbers
// blocks) and its former threadIdx from threadIdx.x; threads beyond the
// former block's shape sit the phase out. A barrier follows every phase:
// grid-wide, or the block's own where this phase and the next one run on
// block 0 alone. Every condition and bound printed here is a function of
// the parameters and host iterators, the same in every thread, so every
// thread reaches every barrier.
//
//===----------------------------------------------------------------------===//
#include "PersistentPrinter.h"

#include "Check.h"
#include "KernelPrinter.h"
#include "Persistent.h"
#include "Report.h"

#include <algorithm>
#include <set>

namespace polycuda::translator {

using namespace polyhedral;

namespace {

/// Is `expr` the constant 1 (isl's "always")?
bool isTrue(const isl::ast_expr &expr) {
  return expr.isa<isl::ast_expr_int>() &&
         expr.as<isl::ast_expr_int>().val().is_one();
}

/// A launch user node of the host AST, `kernelN(grid extents..., host
/// prefix..., active)` (AstGeneration's makeLaunch), read back.
struct Launch {
  const Kernel *kernel = nullptr;
  std::vector<isl::ast_expr> extents; ///< per mapped member
  std::vector<isl::ast_expr> prefix;  ///< per host dimension
  isl::ast_expr active;
};

Launch readLaunch(const GpuProgram &program, const isl::ast_expr &call) {
  Launch launch;
  launch.kernel = program.kernelOf(callId(call));
  POLYCUDA_CHECK(launch.kernel)
      << "unexpected host statement " << callName(call);
  std::vector<isl::ast_expr> args = callArgs(call);
  const Kernel &kernel = *launch.kernel;
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    launch.extents.push_back(args[d]);
  for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
    launch.prefix.push_back(args[kernel.mapping->numMapped + i]);
  launch.active = args[kernel.mapping->numMapped + kernel.mapping->hostDepth];
  return launch;
}

/// Declares `polycuda_grid_d` per mapped member and returns the condition
/// under which the launch has work (as printLaunchNode in HostPrinter).
std::string printGridExtents(const Launch &launch, int indent,
                             std::ostream &os) {
  std::string in = indentBy(indent);
  std::string nonEmpty;
  if (!isTrue(launch.active))
    nonEmpty = printExpr(launch.active);
  for (unsigned d = 0; d < launch.extents.size(); ++d) {
    os << in << "const " << kIndexType << " polycuda_grid_" << d << " = "
       << printExpr(launch.extents[d]) << ";\n";
    nonEmpty += (nonEmpty.empty() ? "" : " && ") +
                std::string("polycuda_grid_") + std::to_string(d) + " > 0";
  }
  return nonEmpty.empty() ? "1" : nonEmpty;
}

/// The former grid's extent along hardware dimension `hw` (C).
std::string gridAlong(const Kernel &kernel, unsigned hw) {
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    if (kernel.mapping->gridDimension(d) == hw)
      return "polycuda_grid_" + std::to_string(d);
  return "1";
}

/// The former block's extent along hardware dimension `hw`.
unsigned blockAlong(const Kernel &kernel, unsigned hw) {
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    if (kernel.mapping->hardwareDim[d] == hw)
      return kernel.mapping->blockSize[d];
  return 1;
}

/// Per launch of `node` in the order AstPrinter visits them: whether a
/// barrier of block 0 alone suffices after it (it and the launch that
/// surely comes next in the same block of statements run on one thread).
void collectBlockBarriers(const GpuProgram &program, const isl::ast_node &node,
                          std::vector<bool> &blockLevel) {
  auto oneThread = [&](const isl::ast_node &child) {
    return child.isa<isl::ast_node_user>() &&
           readLaunch(program, child.as<isl::ast_node_user>().expr())
                   .kernel->mapping->numMapped == 0;
  };
  if (node.isa<isl::ast_node_for>()) {
    collectBlockBarriers(program, node.as<isl::ast_node_for>().body(),
                         blockLevel);
  } else if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    collectBlockBarriers(program, branch.then_node(), blockLevel);
    if (branch.has_else_node())
      collectBlockBarriers(program, branch.else_node(), blockLevel);
  } else if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < children.size(); ++i) {
      isl::ast_node child = children.at(i);
      if (child.isa<isl::ast_node_user>())
        blockLevel.push_back(oneThread(child) && i + 1 < children.size() &&
                             oneThread(children.at(i + 1)));
      else
        collectBlockBarriers(program, child, blockLevel);
    }
  } else if (node.isa<isl::ast_node_user>()) {
    blockLevel.push_back(false);
  } else if (node.isa<isl::ast_node_mark>()) {
    collectBlockBarriers(program, node.as<isl::ast_node_mark>().node(),
                         blockLevel);
  }
}

/// The mark node of `mark` (that id) in `node`, or null.
isl::ast_node findMark(const isl::ast_node &node, const isl::id &mark) {
  isl::ast_node found;
  forEachAstNode(node, [&](const isl::ast_node &child) {
    if (!found.is_null())
      return false;
    if (child.isa<isl::ast_node_mark>() &&
        child.as<isl::ast_node_mark>().id().get() == mark.get()) {
      found = child;
      return false;
    }
    return true;
  });
  return found;
}

/// The arrays the kernels of `loop` access, in the order of Scop::arrays.
std::vector<unsigned> loopArrays(const GpuProgram &program,
                                 const PersistentLoop &loop) {
  std::set<unsigned> arrays;
  for (unsigned kernel : loop.kernels)
    for (unsigned a : program.kernels[kernel].arrays)
      arrays.insert(a);
  return {arrays.begin(), arrays.end()};
}

/// Whether a statement of the kernels of `loop` writes `array`.
bool isWritten(const GpuProgram &program, const PersistentLoop &loop,
               unsigned array) {
  for (unsigned kernel : loop.kernels)
    if (program.kernels[kernel].writes(*program.scop, array))
      return true;
  return false;
}

/// One phase: the former launch `call`, run by the grid, then a barrier.
void printPhase(const GpuProgram &program, const PersistentLoop &loop,
                const GpuTarget &target, const isl::ast_expr &call,
                bool blockBarrier, int indent, std::ostream &os) {
  Launch launch = readLaunch(program, call);
  const Kernel &kernel = *launch.kernel;
  std::string in = indentBy(indent);
  os << in << "{ /* phase: " << kernel.name << " */\n";
  for (unsigned i = 0; i < launch.prefix.size(); ++i)
    os << in << "  const " << kIndexType << " polycuda_host_" << i << " = "
       << printExpr(launch.prefix[i]) << ";\n";
  std::string nonEmpty = printGridExtents(launch, indent + 1, os);
  os << in << "  if (" << nonEmpty << ") {\n";
  std::string blocks = gridAlong(kernel, 0) + " * " + gridAlong(kernel, 1) +
                       " * " + gridAlong(kernel, 2);
  os << in << "    const " << kIndexType << " polycuda_blocks = " << blocks
     << ";\n";
  os << in << "    for (" << kIndexType
     << " polycuda_virtual = " << target.blockIndex(0)
     << "; polycuda_virtual < polycuda_blocks; polycuda_virtual += "
     << target.gridBlocks() << ") {\n";
  std::string inner = indentBy(indent + 3);
  unsigned dims = std::max(1u, kernel.mapping->numMapped);
  for (unsigned hw = 0; hw < dims && kernel.mapping->numMapped > 0; ++hw) {
    std::string below = "1";
    for (unsigned lower = 0; lower < hw; ++lower)
      below += " * " + gridAlong(kernel, lower);
    os << inner << "const " << kIndexType << " polycuda_block_" << hw
       << " = polycuda_virtual / (" << below << ") % " << gridAlong(kernel, hw)
       << ";\n";
  }
  unsigned threads = blockThreads(kernel);
  int bodyIndent = indent + 3;
  if (threads < loop.threads) {
    os << inner << "if (polycuda_thread < " << threads << ") {\n";
    ++bodyIndent;
  }
  std::string body = indentBy(bodyIndent);
  for (unsigned hw = 0; hw < dims && kernel.mapping->numMapped > 0; ++hw) {
    unsigned below = 1;
    for (unsigned lower = 0; lower < hw; ++lower)
      below *= blockAlong(kernel, lower);
    os << body << "const " << kIndexType << " polycuda_thread_" << hw
       << " = polycuda_thread / " << below << " % " << blockAlong(kernel, hw)
       << ";\n";
  }
  for (unsigned i = 0; i < launch.prefix.size(); ++i)
    os << body << "const " << kIndexType << " " << program.names.hostIterator
       << i << " = polycuda_host_" << i << ";\n";
  KernelIndices indices{
      [](unsigned dim) { return "polycuda_block_" + std::to_string(dim); },
      [](unsigned dim) { return "polycuda_thread_" + std::to_string(dim); }};
  printKernelBody(program, kernel, target, indices, bodyIndent, os);
  if (threads < loop.threads)
    os << inner << "}\n";
  // The next virtual block's copies must not overwrite shared tiles (or
  // partial results) that slower threads still read.
  if (kernel.waitsForBlock())
    os << inner << target.barrier() << "\n";
  os << in << "    }\n";
  os << in << "  }\n";
  os << in << "  "
     << (blockBarrier || loop.singleBlock ? target.barrier()
                                          : target.gridBarrier())
     << "\n";
  os << in << "}\n";
}

} // namespace

std::string persistentKernelName(const Scop &scop, unsigned region,
                                 const PersistentLoop &loop) {
  std::string mark = loop.mark.name();
  return scop.functionName + "_scop" + std::to_string(region) + "_" + mark;
}

std::string printPersistentKernels(const GpuProgram &program, unsigned region,
                                   const GpuTarget &target) {
  if (!target.hasGridBarrier())
    return "";
  const Scop &scop = *program.scop;
  std::string text;
  for (const PersistentLoop &loop : program.persistentLoops) {
    if (!loop.persistent)
      continue;
    isl::ast_node mark = findMark(program.host, loop.mark);
    if (mark.is_null())
      continue;
    isl::ast_node loops = mark.as<isl::ast_node_mark>().node();
    std::ostringstream os;
    os << target.persistentPreamble();
    os << "/* polycuda: host loop " << loop.loop << " as one kernel: "
       << persistentReason(program, loop) << " */\n";
    os << target.kernelQualifier() << " __launch_bounds__(" << loop.threads
       << ") " << persistentKernelName(scop, region, loop) << "(";
    std::vector<std::string> params;
    for (unsigned a : loopArrays(program, loop)) {
      const Array &array = scop.arrays[a];
      // A read-only pointer may be read through the non-coherent cache:
      // only for arrays no phase writes.
      params.push_back(target.pointerQualifier() +
                       (isWritten(program, loop, a) ? "" : "const ") +
                       spell(array.type) + " *" + target.restrictQualifier() +
                       " " + array.name);
    }
    for (const std::string &p : scop.params)
      params.push_back(std::string(kIndexType) + " " + p);
    for (const auto &[name, type] : scop.scalarArgs)
      params.push_back(std::string(spell(type)) + " " + name);
    for (unsigned a : program.hostScalars)
      params.push_back(std::string(spell(scop.arrays[a].type)) + " " +
                       scop.arrays[a].name);
    for (size_t i = 0; i < params.size(); ++i)
      os << (i ? ", " : "") << params[i];
    os << ") {\n";
    if (!loop.singleBlock)
      os << "  " << target.gridBarrierSetup() << "\n";
    os << "  const " << kIndexType << " polycuda_thread = "
       << target.threadIndex(0) << ";\n";
    std::vector<bool> blockLevel;
    collectBlockBarriers(program, loops, blockLevel);
    size_t next = 0;
    AstPrinter printer(
        [&](const isl::ast_expr &call, int indent, std::ostream &out) {
          POLYCUDA_CHECK(next < blockLevel.size()) << "launches miscounted";
          printPhase(program, loop, target, call, blockLevel[next++], indent,
                     out);
        },
        nullptr);
    printer.print(loops, 1, os);
    os << "}\n";
    text += os.str() + "\n";
  }
  return text;
}

void printPersistentLoop(const GpuProgram &program, const PersistentLoop &loop,
                         unsigned region, const GpuTarget &target,
                         const std::string &where, const isl::ast_node &loops,
                         const AstPrinter &launches, bool launcher,
                         int indent, std::ostream &os) {
  const Scop &scop = *program.scop;
  std::string in = indentBy(indent);
  os << in << "{ /* host loop " << loop.loop
     << ": one persistent kernel, or its launches */\n";
  PersistentLaunchInfo launch;
  launch.kernelName = persistentKernelName(scop, region, loop);
  launch.where = where;
  launch.threads = loop.threads;
  launch.cooperative = !loop.singleBlock;
  launch.wantedBlocks = "1";
  if (!loop.singleBlock) {
    // The loops once on the host, each launch replaced by the count of its
    // blocks: the grid need not be larger than the largest phase.
    os << in << "  " << kIndexType << " polycuda_most = 1;\n";
    AstPrinter counter(
        [&](const isl::ast_expr &call, int at, std::ostream &out) {
          Launch phase = readLaunch(program, call);
          std::string at0 = indentBy(at);
          out << at0 << "{\n";
          std::string nonEmpty = printGridExtents(phase, at + 1, out);
          std::string blocks = "1";
          for (unsigned d = 0; d < phase.extents.size(); ++d)
            blocks += " * polycuda_grid_" + std::to_string(d);
          out << at0 << "  if ((" << nonEmpty << ") && " << blocks
              << " > polycuda_most)\n"
              << at0 << "    polycuda_most = " << blocks << ";\n";
          out << at0 << "}\n";
        },
        nullptr);
    counter.print(loops, indent + 1, os);
    launch.wantedBlocks = "polycuda_most";
  }
  const std::string &dev = program.names.devicePrefix;
  for (unsigned a : loopArrays(program, loop))
    launch.args.push_back({"void *", dev + scop.arrays[a].name});
  for (const std::string &p : scop.params)
    launch.args.push_back({kIndexType, "polycuda_param_" + p});
  for (const auto &[name, type] : scop.scalarArgs)
    launch.args.push_back({spell(type), name});
  for (unsigned a : program.hostScalars)
    launch.args.push_back({spell(scop.arrays[a].type),
                           hostScalarValue(scop.arrays[a], launcher)});
  target.printPersistentLaunch(launch, indent + 1, os);
  launches.print(loops, indent + 2, os);
  os << in << "  }\n";
  os << in << "}\n";
}

} // namespace polycuda::translator
