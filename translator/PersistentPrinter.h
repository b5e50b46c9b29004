//===- PersistentPrinter.h - Host loops run by one persistent kernel -*- C++ -*-===//
#ifndef POLYCUDA_TRANSLATOR_PERSISTENTPRINTER_H
#define POLYCUDA_TRANSLATOR_PERSISTENTPRINTER_H

#include "CodePrinter.h"
#include "GpuTarget.h"

namespace polycuda::translator {

/// Name of the persistent kernel of `loop` of the scop numbered `region`.
std::string persistentKernelName(const polyhedral::Scop &scop, unsigned region,
                                 const polyhedral::PersistentLoop &loop);

/// The definitions of the persistent kernels of `program` (none unless the
/// target has a grid-wide barrier).
std::string printPersistentKernels(const polyhedral::GpuProgram &program,
                                   unsigned region, const GpuTarget &target);

/// Host code in place of the host AST `loops` (the child of `loop`'s
/// mark): the persistent kernel's launch when the runtime says the device
/// can run it, otherwise `loops` printed by `launches` (one launch per
/// kernel and iteration, as without the mark).
void printPersistentLoop(const polyhedral::GpuProgram &program,
                         const polyhedral::PersistentLoop &loop,
                         unsigned region, const GpuTarget &target,
                         const std::string &where, const isl::ast_node &loops,
                         const AstPrinter &launches, bool launcher,
                         int indent, std::ostream &os);

} // namespace polycuda::translator

#endif
