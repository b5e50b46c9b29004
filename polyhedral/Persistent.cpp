//===- Persistent.cpp - Host loops of launches as persistent kernels ------===//
//
// Stage 5b: GpuProgram -> GpuProgram::persistentLoops (see Persistent.h).
// The outermost host bands are visited in tree order by both functions
// below, so that the N-th record belongs to the N-th band of either tree.
//
//===----------------------------------------------------------------------===//
#include "Persistent.h"

#include "IslExtras.h"

#include <algorithm>
#include <functional>

namespace polycuda::polyhedral {

namespace {

const Kernel *kernelAt(const GpuProgram &program,
                       const isl::schedule_node &node) {
  if (!node.isa<isl::schedule_node_mark>())
    return nullptr;
  return program.kernelOf(markId(node));
}

/// The kernels below `node` in tree order; `hostCode` is set when a leaf
/// lies outside every kernel (statements the host would run).
void collectKernels(const GpuProgram &program, const isl::schedule_node &node,
                    std::vector<const Kernel *> &kernels, bool &hostCode) {
  if (const Kernel *kernel = kernelAt(program, node)) {
    kernels.push_back(kernel);
    return;
  }
  if (node.isa<isl::schedule_node_leaf>()) {
    hostCode = true;
    return;
  }
  for (int i = 0, n = node.n_children(); i < n; ++i)
    collectKernels(program, node.child(i), kernels, hostCode);
}

/// Calls `visit` on each outermost host band below `node`, in tree order:
/// a band that no kernel mark is above. `visit` returns the node at the
/// band's position (it may insert above it).
isl::schedule_node visitHostBands(
    const GpuProgram &program, isl::schedule_node node,
    const std::function<isl::schedule_node(isl::schedule_node)> &visit) {
  if (kernelAt(program, node))
    return node;
  if (node.isa<isl::schedule_node_band>())
    return visit(node);
  for (int i = 0, n = node.n_children(); i < n; ++i)
    node = visitHostBands(program, node.child(i), visit).parent();
  return node;
}

/// Whether the launches of `band` can run as one persistent kernel.
PersistentLoop decide(const GpuProgram &program,
                      const isl::schedule_node &band, unsigned index,
                      const PersistentOptions &options) {
  PersistentLoop loop;
  loop.mark = isl::id(program.scop->ctx,
                      kPersistentMark + std::to_string(index));
  loop.loop = program.names.hostIterator + std::to_string(scheduleDepth(band));
  std::vector<const Kernel *> kernels;
  bool hostCode = false;
  collectKernels(program, band, kernels, hostCode);
  for (const Kernel *kernel : kernels) {
    loop.kernels.push_back(kernel->id);
    loop.threads = std::max(loop.threads, blockThreads(*kernel));
    loop.sharedBytes += sharedBytes(*program.scop, *kernel);
  }
  loop.singleBlock =
      std::all_of(kernels.begin(), kernels.end(),
                  [](const Kernel *k) { return k->mapping->numMapped == 0; });
  using Why = PersistentLoop::Why;
  if (!options.enabled) {
    loop.why = Why::Off;
    return loop;
  }
  if (hostCode || kernels.empty()) {
    loop.why = Why::HostCode;
    return loop;
  }
  for (const Kernel *kernel : kernels)
    if (kernel->stepped()) {
      loop.why = Why::Wavefront;
      loop.kernel = kernel->id;
      return loop;
    }
  if (loop.sharedBytes > kPersistentSharedBytes) {
    loop.why = Why::SharedMemory;
    return loop;
  }
  // A kernel that waits for its block must find every thread of the
  // persistent block at each barrier: none may sit the phase out.
  for (const Kernel *kernel : kernels)
    if (kernel->waitsForBlock() && blockThreads(*kernel) != loop.threads) {
      loop.why = Why::WaitsForBlock;
      loop.kernel = kernel->id;
      return loop;
    }
  loop.persistent = true;
  loop.why = loop.singleBlock ? Why::OneBlock : Why::Cooperative;
  return loop;
}

} // namespace

unsigned blockThreads(const Kernel &kernel) {
  unsigned threads = 1;
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    threads *= kernel.mapping->blockSize[d];
  return threads;
}

unsigned long sharedBytes(const Scop &scop, const Kernel &kernel) {
  unsigned long bytes = 0;
  for (const SharedTile &tile : kernel.sharedTiles) {
    unsigned long elements = tile.sizes.back() + tile.padding;
    for (size_t d = 0; d + 1 < tile.sizes.size(); ++d)
      elements *= tile.sizes[d];
    bytes += elements * elementBytes(scop.arrays[tile.array].type);
  }
  if (kernel.reduction) // the partial results
    bytes += static_cast<unsigned long>(blockThreads(kernel)) *
             elementBytes(scop.arrays[kernel.reduction->array].type);
  return bytes;
}

void choosePersistentLoops(GpuProgram &program,
                           const PersistentOptions &options) {
  program.persistentLoops.clear();
  if (!options.enabled && !options.recordOff)
    return;
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  visitHostBands(program, root.child(0), [&](isl::schedule_node band) {
    program.persistentLoops.push_back(
        decide(program, band, program.persistentLoops.size(), options));
    return band;
  });
}

isl::schedule_node markPersistentLoops(const GpuProgram &program,
                                       isl::schedule_node node) {
  size_t index = 0;
  return visitHostBands(program, node, [&](isl::schedule_node band) {
    if (index >= program.persistentLoops.size())
      return band;
    const PersistentLoop &loop = program.persistentLoops[index++];
    return loop.persistent ? band.insert_mark(loop.mark) : band;
  });
}

const PersistentLoop *
GpuProgram::findPersistentLoop(const isl::id &mark) const {
  for (const PersistentLoop &loop : persistentLoops)
    if (loop.mark.get() == mark.get())
      return &loop;
  return nullptr;
}

} // namespace polycuda::polyhedral
