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

#include <cctype>
#include <optional>

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

namespace {

/// Whether `name` is `prefix` followed by a number, and that number.
std::optional<unsigned> numbered(const std::string &name,
                                 const std::string &prefix) {
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size())
    return std::nullopt;
  for (size_t i = prefix.size(); i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i])))
      return std::nullopt;
  return std::stoul(name.substr(prefix.size()));
}

/// Prints a copy statement of memory promotion (`polycuda_load_N(e...)`:
/// the accumulator's register from element e, `polycuda_store_N(e...)`:
/// back), and returns whether `call` was one.
bool printCopy(const Scop &scop, const Kernel &kernel,
               const isl::ast_expr &call, const ArrayRefPrinter &arrayRef,
               int indent, std::ostream &os) {
  std::string name = callName(call);
  std::optional<unsigned> load = numbered(name, "polycuda_load_");
  std::optional<unsigned> store = numbered(name, "polycuda_store_");
  if (!load && !store)
    return false;
  unsigned index = load ? *load : *store;
  POLYCUDA_CHECK(index < kernel.accumulators.size())
      << "unknown accumulator " << name;
  const RegisterAccumulator &acc = kernel.accumulators[index];
  std::vector<std::string> subscripts;
  for (const isl::ast_expr &arg : callArgs(call))
    subscripts.push_back(printExpr(arg));
  std::string element = arrayRef(scop.arrays[acc.array], subscripts);
  os << indentBy(indent)
     << (load ? acc.variable + " = " + element
              : element + " = " + acc.variable)
     << ";\n";
  return true;
}

} // namespace

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
  for (unsigned d = 0; d < kernel.numMapped; ++d) {
    unsigned hw = kernel.hardwareDim[d];
    os << "  const " << kIndexType << " " << program.names.blockId << d
       << " = " << target.blockIndex(hw) << ";\n";
    os << "  const " << kIndexType << " " << program.names.threadId << d
       << " = "
       << target.threadIndex(hw) << ";\n";
  }
  for (unsigned a : kernel.registers)
    os << "  " << spell(scop.arrays[a].type) << " " << scop.arrays[a].name
       << "; /* private to the thread */\n";
  for (const RegisterAccumulator &acc : kernel.accumulators)
    os << "  " << spell(scop.arrays[acc.array].type) << " " << acc.variable
       << "; /* " << scop.arrays[acc.array].name << " across loop "
       << acc.loop << " */\n";
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
  ReferenceOverride inRegister = [&](const Statement &stmt,
                                     unsigned access) -> std::string {
    unsigned s = &stmt - scop.statements.data();
    for (const RegisterAccumulator &acc : kernel.accumulators)
      for (const auto &reference : acc.references)
        if (reference == std::make_pair(s, access))
          return acc.variable;
    return "";
  };
  AstPrinter printer(
      [&](const isl::ast_expr &call, int indent, std::ostream &out) {
        if (printCopy(scop, kernel, call, arrayRef, indent, out))
          return;
        printUserStatement(
            scop, call, arrayRef, mathName, indent, out,
            [&](polyhedral::ElemType type) {
              return target.exactProduct(type);
            },
            inRegister);
      },
      nullptr);
  printer.print(kernel.ast, 1, os);
  os << "}\n";
  return os.str();
}

} // namespace polycuda::translator
