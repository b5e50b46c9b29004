//===- Persistent.h - Host loops of launches as persistent kernels -*- C++ -*-===//
//
// Stage 5b, after the transfers and before AST generation: GpuProgram ->
// GpuProgram::persistentLoops. Input: the kernels and the schedule with
// their marks. Output: per outermost host loop, whether its launches run as
// one persistent kernel, and a mark above the loops chosen in the tree the
// host AST is generated from (markPersistentLoops), which the CUDA printer
// turns into one cooperative launch.
//
// A host loop qualifies when everything below it is kernels: its AST then
// holds loops, conditions and launches only, all uniform functions of the
// parameters and host iterators, which every thread of a persistent grid
// can evaluate alike. Each launch becomes a phase: the grid's blocks
// iterate over the former grid (a virtual block index), a grid-wide
// barrier follows each phase, so the phases run in the order the host loop
// launched them (the loop's back edge included). A kernel that waits for
// its block (shared-memory tiles) must have as many threads as the
// persistent block, so that no thread is idle at its barriers.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_PERSISTENT_H
#define POLYCUDA_POLYHEDRAL_PERSISTENT_H

#include "DeviceModel.h"
#include "GpuProgram.h"

namespace polycuda::polyhedral {

/// `--persistent`: whether host loops of launches may become persistent
/// kernels (only where the target has a grid-wide barrier: CUDA).
struct PersistentOptions {
  bool enabled = false;
  /// When not enabled: whether every host loop is recorded as turned off
  /// (--persistent=off); otherwise nothing is recorded.
  bool recordOff = false;
};


/// Fills `program.persistentLoops`: one record per outermost host band of
/// `program.schedule` (in tree order), persistent or not and why.
void choosePersistentLoops(GpuProgram &program,
                           const PersistentOptions &options);

/// The tree below `node` (a child of the root of a tree whose outer nodes
/// are those of `program.schedule`) with the mark of each persistent loop
/// inserted above its band; returns the node at `node`'s position.
isl::schedule_node markPersistentLoops(const GpuProgram &program,
                                       isl::schedule_node node);

/// Threads of one block of `kernel` (1 for a kernel on one thread).
unsigned blockThreads(const Kernel &kernel);

/// Bytes of shared memory `kernel` declares.
unsigned long sharedBytes(const Scop &scop, const Kernel &kernel);

} // namespace polycuda::polyhedral

#endif
