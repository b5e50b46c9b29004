//===- KernelPrinter.cpp - Device code of one kernel ----------------------===//
//
// Printer: Kernel (device AST) -> kernel function text. Arrays are flat
// device pointers indexed row-major; mapped members read their block and
// thread indices from the target's built-ins.
//
//===----------------------------------------------------------------------===//
#include "KernelPrinter.h"

#include "Check.h"
#include "CodePrinter.h"

namespace polycuda::translator {

using namespace polyhedral;

std::string kernelName(const Scop &scop, unsigned region,
                       const Kernel &kernel) {
  return scop.functionName + "_scop" + std::to_string(region) + "_kernel" +
         std::to_string(kernel.id);
}

std::vector<std::pair<std::string, std::string>>
kernelParameters(const GpuProgram &program, const Kernel &kernel,
                 const GpuTarget &target) {
  const Scop &scop = *program.scop;
  std::vector<std::pair<std::string, std::string>> params;
  // Distinct arrays never overlap (the dependence analysis relies on it
  // too), so pointers are restrict: the compiler may then keep values such
  // as a reduction's accumulator in registers across loop iterations.
  for (unsigned a : kernel.arrays) {
    const Array &array = scop.arrays[a];
    bool readOnly = true;
    for (const std::string &name : kernel.statements)
      for (const Access &access : scop.findStatement(name)->accesses)
        readOnly &= access.array != a || access.kind == Access::Kind::Read;
    params.push_back({target.pointerQualifier() + (readOnly ? "const " : "") +
                          spell(array.type) + " *" + target.restrictQualifier(),
                      array.name});
  }
  for (const std::string &p : scop.params)
    params.push_back({kIndexType, p});
  for (const auto &[name, type] : scop.scalarArgs)
    params.push_back({spell(type), name});
  for (unsigned i = 0; i < kernel.hostDepth; ++i)
    params.push_back(
        {kIndexType, program.names.hostIterator + std::to_string(i)});
  return params;
}

std::string printKernel(const GpuProgram &program, const Kernel &kernel,
                        unsigned region, const GpuTarget &target) {
  const Scop &scop = *program.scop;
  std::ostringstream os;
  os << target.kernelQualifier() << " " << kernelName(scop, region, kernel)
     << "(";
  auto params = kernelParameters(program, kernel, target);
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ", " : "") << params[i].first << " " << params[i].second;
  os << ") {\n";
  // Column order: the grid position first, then each block index from it
  // (isl's expressions of the inverse of the column order).
  if (kernel.order.column)
    for (unsigned k = 0; k < kernel.numMapped; ++k)
      os << "  const " << kIndexType << " " << program.names.gridId << k
         << " = " << target.blockIndex(k) << ";\n";
  for (unsigned d = 0; d < kernel.numMapped; ++d) {
    unsigned hw = kernel.hardwareDim[d];
    std::string block = kernel.order.column ? printExpr(kernel.blockExprs[d])
                                            : target.blockIndex(hw);
    os << "  const " << kIndexType << " " << program.names.blockId << d
       << " = " << block << ";\n";
    os << "  const " << kIndexType << " " << program.names.threadId << d
       << " = "
       << target.threadIndex(hw) << ";\n";
  }
  for (unsigned a : kernel.registers)
    os << "  " << spell(scop.arrays[a].type) << " " << scop.arrays[a].name
       << "; /* private to the thread */\n";
  ArrayRefPrinter arrayRef = [&](const Array &array,
                                 const std::vector<std::string> &subscripts) {
    for (unsigned a : kernel.registers)
      if (scop.arrays[a].name == array.name)
        return array.name;
    return array.name + "[" + linearIndex(scop, array, subscripts) + "]";
  };
  auto mathName = [&](const std::string &name) {
    return target.mathName(name);
  };
  AstPrinter printer(
      [&](const isl::ast_expr &call, int indent, std::ostream &out) {
        printUserStatement(scop, call, arrayRef, mathName, indent, out,
                           [&](polyhedral::ElemType type) {
                             return target.exactProduct(type);
                           });
      },
      nullptr);
  printer.print(kernel.ast, 1, os);
  os << "}\n";
  return os.str();
}

} // namespace polycuda::translator
