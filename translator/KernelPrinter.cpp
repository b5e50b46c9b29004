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
#include "Persistent.h"

#include <cctype>
#include <optional>

namespace polycuda::translator {

using namespace polyhedral;

std::string kernelName(const Scop &scop, unsigned region,
                       const Kernel &kernel) {
  return scop.functionName + "_scop" + std::to_string(region) + "_kernel" +
         std::to_string(kernel.id);
}

std::string constantVariable(const Scop &scop, const Array &array) {
  return "polycuda_" + scop.functionName + "_" + std::to_string(scop.loc.line) +
         "_" + array.name + "_constant";
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
    bool readOnly = !kernel.writes(scop, a);
    params.push_back({(kernel.readsConstant(a)
                           ? target.constantPointerQualifier()
                           : target.pointerQualifier()) +
                          (readOnly ? "const " : "") +
                          spell(array.type) + " *" + target.restrictQualifier(),
                      array.name});
  }
  for (const std::string &p : scop.params)
    params.push_back({kIndexType, p});
  for (const auto &[name, type] : scop.scalarArgs)
    params.push_back({spell(type), name});
  // Scalars that host code writes: their values (GpuMapping.h).
  for (unsigned a : program.hostScalars)
    params.push_back({spell(scop.arrays[a].type), scop.arrays[a].name});
  for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
    params.push_back(
        {kIndexType, program.names.hostIterator + std::to_string(i)});
  return params;
}

namespace {

/// Prints a copy statement of memory promotion (AddedOp::RegisterLoad with
/// arguments e: the accumulator's register from element e; RegisterStore:
/// back), and returns whether `call` was one.
bool printCopy(const Scop &scop, const Kernel &kernel,
               const isl::ast_expr &call, const ArrayRefPrinter &arrayRef,
               const std::string &registerIndex, int indent,
               std::ostream &os) {
  std::string name = callName(call);
  const AddedStatement *added = kernel.addedStatement(name);
  if (!added || (added->op != AddedOp::RegisterLoad &&
                 added->op != AddedOp::RegisterStore))
    return false;
  bool load = added->op == AddedOp::RegisterLoad;
  unsigned index = added->index;
  POLYCUDA_CHECK(index < kernel.accumulators.size())
      << "unknown accumulator " << name;
  const RegisterAccumulator &acc = kernel.accumulators[index];
  const Array &array = scop.arrays[acc.array];
  std::vector<std::string> subscripts;
  for (const isl::ast_expr &arg : callArgs(call))
    subscripts.push_back(printExpr(arg));
  // A register tile's element: the register of the unrolled loop around.
  std::string variable = acc.variable;
  if (acc.slots > 1) {
    POLYCUDA_CHECK(!registerIndex.empty()) << "no register for " << name;
    variable += "[" + registerIndex + "]";
  }
  std::string element = arrayRef(array, subscripts);
  os << indentBy(indent)
     << (load ? variable + " = " + element : element + " = " + variable)
     << ";\n";
  return true;
}

/// Elements of a shared tile's array: its box, rows padded.
long sharedElements(const SharedTile &tile) {
  long elements = tile.sizes.back() + tile.padding;
  for (size_t d = 0; d + 1 < tile.sizes.size(); ++d)
    elements *= tile.sizes[d];
  return elements;
}

/// The element of `tile`'s shared array that holds the array element at
/// `subscripts` (C expressions): row-major in the box, rows padded.
std::string sharedElement(const SharedTile &tile,
                          const std::vector<std::string> &subscripts) {
  std::string index;
  for (size_t d = 0; d < subscripts.size(); ++d) {
    std::string local = "((" + subscripts[d] + ") - " + tile.offset +
                        std::to_string(d) + ")";
    long pitch = tile.sizes[d] + (d + 1 == subscripts.size() ? tile.padding : 0);
    index = d == 0 ? local
                   : "(" + index + ") * " + std::to_string(pitch) + " + " +
                         local;
  }
  return tile.variable + "[" + index + "]";
}

/// Prints a statement of shared memory's copies (AddedOp::SharedOffsets
/// with arguments o: the first element of the tile's box; SharedCopy with
/// e: element e into the tile; SharedWriteback: back; the barriers);
/// returns whether `call` was one.
bool printSharedCopy(const Scop &scop, const Kernel &kernel,
                     const GpuTarget &target, const isl::ast_expr &call,
                     const ArrayRefPrinter &arrayRef, int indent,
                     std::ostream &os) {
  std::string name = callName(call);
  const AddedStatement *added = kernel.addedStatement(name);
  if (!added)
    return false;
  if (added->op == AddedOp::BlockBarrier) {
    os << indentBy(indent) << target.barrier() << "\n";
    return true;
  }
  if (added->op == AddedOp::GridBarrier) {
    os << indentBy(indent) << target.globalBarrier() << "\n";
    return true;
  }
  bool offsets = added->op == AddedOp::SharedOffsets;
  bool writeback = added->op == AddedOp::SharedWriteback;
  if (!offsets && !writeback && added->op != AddedOp::SharedCopy)
    return false;
  unsigned index = added->index;
  POLYCUDA_CHECK(index < kernel.sharedTiles.size())
      << "unknown shared tile " << name;
  const SharedTile &tile = kernel.sharedTiles[index];
  std::vector<std::string> subscripts;
  for (const isl::ast_expr &arg : callArgs(call))
    subscripts.push_back(printExpr(arg));
  if (offsets) {
    for (size_t d = 0; d < subscripts.size(); ++d)
      os << indentBy(indent) << tile.offset << d << " = " << subscripts[d]
         << ";\n";
    return true;
  }
  if (writeback)
    os << indentBy(indent) << arrayRef(scop.arrays[tile.array], subscripts)
       << " = " << sharedElement(tile, subscripts) << ";\n";
  else if (tile.scale.empty())
    os << indentBy(indent) << sharedElement(tile, subscripts) << " = "
       << arrayRef(scop.arrays[tile.array], subscripts) << ";\n";
  else {
    // The products the references stand for, rounded as they would be.
    std::string element = arrayRef(scop.arrays[tile.array], subscripts);
    std::string fn = target.exactProduct(scop.arrays[tile.array].type);
    os << indentBy(indent) << sharedElement(tile, subscripts) << " = "
       << (fn.empty() ? tile.scale + " * " + element
                      : fn + "(" + tile.scale + ", " + element + ")")
       << ";\n";
  }
  return true;
}

/// The thread's position in its block, row-major over x, y, z.
std::string linearThread(const GpuProgram &program, const Kernel &kernel) {
  std::string index;
  unsigned stride = 1;
  for (unsigned hw = 0; hw < kernel.mapping->numMapped; ++hw)
    for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
      if (kernel.mapping->hardwareDim[d] == hw) {
        std::string t = program.names.threadId + std::to_string(d);
        index += (index.empty() ? "" : " + ") +
                 (stride == 1 ? t : std::to_string(stride) + " * " + t);
        stride *= kernel.mapping->blockSize[d];
      }
  return index.empty() ? "0" : index;
}

/// `a op b` for a reduction's operation (the larger or the smaller of the
/// two for '>' and '<').
std::string combined(char op, const std::string &a, const std::string &b) {
  if (op == '>')
    return "(" + b + " > " + a + " ? " + b + " : " + a + ")";
  if (op == '<')
    return "(" + b + " < " + a + " ? " + b + " : " + a + ")";
  return a + " " + std::string(1, op) + " " + b;
}

/// The integer value of `type` whose bits are all set (the identity of
/// `&`).
std::string allOnes(ElemType type) {
  switch (type) {
  case ElemType::UChar:
    return "255";
  case ElemType::UShort:
    return "65535";
  case ElemType::UInt:
    return "4294967295u";
  case ElemType::ULong:
    return "18446744073709551615ul";
  default:
    return "(-1)";
  }
}

/// The identity of a reduction's operation on `type` values.
std::string identity(char op, ElemType type, const GpuTarget &target) {
  if (op == '+')
    return "0";
  if (op == '*')
    return "1";
  if (op == '|' || op == '^')
    return "0";
  if (op == '&')
    return allOnes(type);
  bool max = op == '>'; // the identity of a maximum is the lowest value
  switch (type) {
  case ElemType::Float:
  case ElemType::Double:
    return (max ? "-" : "") + target.infinity(type);
  case ElemType::Char:
    return max ? "(-128)" : "127";
  case ElemType::UChar:
    return max ? "0" : "255";
  case ElemType::Short:
    return max ? "(-32767 - 1)" : "32767";
  case ElemType::UShort:
    return max ? "0" : "65535";
  case ElemType::Int:
    return max ? "(-2147483647 - 1)" : "2147483647";
  case ElemType::UInt:
    return max ? "0u" : "4294967295u";
  case ElemType::Long:
    return max ? "(-9223372036854775807L - 1)" : "9223372036854775807L";
  case ElemType::ULong:
    return max ? "0ul" : "18446744073709551615ul";
  }
  return "0";
}

/// Prints a statement of a block's reduction (AddedOp::Reduce: the
/// partials into the shared buffer and the tree of barriers that sums them
/// into the first lane's slot; Combine with arguments e: element e updated
/// with the total); returns whether `call` was one.
bool printReduction(const GpuProgram &program, const Kernel &kernel,
                    const GpuTarget &target, const isl::ast_expr &call,
                    const ArrayRefPrinter &arrayRef, int indent,
                    std::ostream &os) {
  const AddedStatement *added = kernel.addedStatement(callName(call));
  bool combine = added && added->op == AddedOp::Combine;
  if (!added || (!combine && added->op != AddedOp::Reduce))
    return false;
  POLYCUDA_CHECK(kernel.reduction) << "no reduction in " << kernel.name;
  const BlockReduction &reduction = *kernel.reduction;
  std::string in = indentBy(indent);
  std::string self = linearThread(program, kernel);
  std::string slot = reduction.buffer + "[" + self + "]";
  if (combine) {
    std::vector<std::string> subscripts;
    for (const isl::ast_expr &arg : callArgs(call))
      subscripts.push_back(printExpr(arg));
    std::string element =
        arrayRef(program.scop->arrays[reduction.array], subscripts);
    os << in << element << " = " << combined(reduction.op, element, slot)
       << ";\n";
    return true;
  }
  unsigned member = reduction.member;
  unsigned stride = 1;
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    if (kernel.mapping->hardwareDim[d] < kernel.mapping->hardwareDim[member])
      stride *= kernel.mapping->blockSize[d];
  std::string lane = program.names.threadId + std::to_string(member);
  os << in << slot << " = " << reduction.variable << ";\n";
  os << in << target.barrier() << "\n";
  for (unsigned half = kernel.mapping->blockSize[member] / 2; half > 0;
       half /= 2) {
    std::string other = reduction.buffer + "[" + self + " + " +
                        std::to_string(half * stride) + "]";
    os << in << "if (" << lane << " < " << half << ") " << slot << " = "
       << combined(reduction.op, slot, other) << ";\n";
    os << in << target.barrier() << "\n";
  }
  return true;
}

} // namespace

namespace {

/// Prints one kernel's body: its block and thread indices, the thread's
/// private variables, shared arrays and registers, then its AST, each
/// reference through the promotion that holds it.
class KernelBodyPrinter {
public:
  KernelBodyPrinter(const GpuProgram &program, const Kernel &kernel,
                    const GpuTarget &target)
      : program(program), scop(*program.scop), kernel(kernel), target(target),
        // With consecutive points (Kernel::blockedPoints), one per point:
        // the points' statements that write them run before the others.
        slots(kernel.blockedPoints
                  ? "[" + std::to_string(kernel.mapping->pointsPerThread()) +
                        "]"
                  : "") {}

  void print(const KernelIndices &indices, int indent, std::ostream &os);

private:
  void printIndices(const KernelIndices &indices, const std::string &in,
                    std::ostream &os) const;
  void declarePrivates(const std::string &in, std::ostream &os) const;
  void declarePromotions(const std::string &in, std::ostream &os) const;
  std::string arrayRef(const Array &array,
                       const std::vector<std::string> &subscripts) const;
  std::string promoted(const Statement &stmt, unsigned access,
                       const std::vector<std::string> &subscripts) const;
  bool scaled(const Statement &stmt, unsigned access,
              const std::string &scalar) const;
  void printLeaf(const AstPrinter &printer, const isl::ast_expr &call,
                 int indent, std::ostream &out);

  const GpuProgram &program;
  const Scop &scop;
  const Kernel &kernel;
  const GpuTarget &target;
  std::string slots;
  /// In a register tile, the register of the point being printed: the
  /// unrolled loops' iterators (MemoryPromotion's unroll marks), mixed
  /// radix.
  std::string registerIndex;
};

void KernelBodyPrinter::printIndices(const KernelIndices &indices,
                                     const std::string &in,
                                     std::ostream &os) const {
  // Column order: the grid position first, then each block index from it
  // (isl's expressions of the inverse of the column order).
  if (kernel.mapping->order.column)
    for (unsigned k = 0; k < kernel.mapping->numMapped; ++k)
      os << in << "const " << kIndexType << " " << program.names.gridId << k
         << " = " << indices.block(k) << ";\n";
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    unsigned hw = kernel.mapping->hardwareDim[d];
    std::string block = kernel.mapping->order.column
                            ? printExpr(kernel.blockExprs[d])
                            : indices.block(hw);
    os << in << "const " << kIndexType << " " << program.names.blockId << d
       << " = " << block << ";\n";
    os << in << "const " << kIndexType << " " << program.names.threadId << d
       << " = " << indices.thread(hw) << ";\n";
  }
}

void KernelBodyPrinter::declarePrivates(const std::string &in,
                                        std::ostream &os) const {
  for (unsigned a : kernel.registers) {
    auto shape = kernel.privateShapes.find(a);
    if (shape != kernel.privateShapes.end()) {
      long elements = 1;
      for (long extent : shape->second)
        elements *= extent;
      os << in << spell(scop.arrays[a].type) << " " << scop.arrays[a].name
         << "[" << elements << "]; /* private to the thread: its copy of "
         << "the variable it privatizes */\n";
      continue;
    }
    os << in << spell(scop.arrays[a].type) << " " << scop.arrays[a].name
       << slots << "; /* private to the thread"
       << (slots.empty() ? "" : ", one per point of its register tile")
       << " */\n";
  }
}

void KernelBodyPrinter::declarePromotions(const std::string &in,
                                          std::ostream &os) const {
  for (const SharedTile &tile : kernel.sharedTiles) {
    const Array &array = scop.arrays[tile.array];
    os << in << target.sharedQualifier() << " " << spell(array.type) << " "
       << tile.variable << "[" << sharedElements(tile) << "]; /* "
       << array.name
       << (kernel.sharedLoop.empty() ? std::string(" of the block")
                                     : " per tile of loop " + kernel.sharedLoop)
       << ", rows padded by " << tile.padding << " */\n";
    os << in << kIndexType << " ";
    for (size_t d = 0; d < tile.sizes.size(); ++d)
      os << (d ? ", " : "") << tile.offset << d;
    os << ";\n";
  }
  for (const RegisterAccumulator &acc : kernel.accumulators)
    os << in << spell(scop.arrays[acc.array].type) << " " << acc.variable
       << (acc.slots > 1 ? "[" + std::to_string(acc.slots) + "]" : "")
       << "; /* " << scop.arrays[acc.array].name << " across loop "
       << acc.loop
       << (acc.slots > 1 ? ", one per point of the thread's register tile"
                         : "")
       << " */\n";
  if (kernel.reduction) {
    const BlockReduction &reduction = *kernel.reduction;
    const Array &array = scop.arrays[reduction.array];
    os << in << spell(array.type) << " " << reduction.variable << " = "
       << identity(reduction.op, array.type, target)
       << "; /* this thread's part of "
       << array.name << "'s reduction over loop " << reduction.loop
       << " */\n";
    os << in << target.sharedQualifier() << " " << spell(array.type) << " "
       << reduction.buffer << "[" << blockThreads(kernel)
       << "]; /* the block's partial results */\n";
  }
}

std::string
KernelBodyPrinter::arrayRef(const Array &array,
                            const std::vector<std::string> &subscripts) const {
  for (unsigned a : kernel.registers) {
    if (scop.arrays[a].name != array.name)
      continue;
    auto shape = kernel.privateShapes.find(a);
    if (shape != kernel.privateShapes.end()) {
      // Its thread's copy: the subscripts after the expanded ones.
      std::string index;
      for (size_t d = 0; d < shape->second.size(); ++d) {
        std::string sub = "(" + subscripts[array.expandedDims + d] + ")";
        index = d == 0 ? sub
                       : "(" + index + ") * " +
                             std::to_string(shape->second[d]) + " + " + sub;
      }
      return array.name + "[" + index + "]";
    }
    return slots.empty() ? array.name
                         : array.name + "[" +
                               (registerIndex.empty() ? std::string("0")
                                                      : registerIndex) +
                               "]";
  }
  for (unsigned a : program.hostScalars)
    if (scop.arrays[a].name == array.name)
      return array.name;
  if (target.hasConstantVariables())
    for (unsigned a : kernel.constantArrays)
      if (scop.arrays[a].name == array.name)
        return constantVariable(scop, array) + "[" +
               linearIndex(scop, array, subscripts) + "]";
  return array.name + "[" + linearIndex(scop, array, subscripts) + "]";
}

std::string KernelBodyPrinter::promoted(
    const Statement &stmt, unsigned access,
    const std::vector<std::string> &subscripts) const {
  std::pair<unsigned, unsigned> ref(&stmt - scop.statements.data(), access);
  if (kernel.reduction)
    for (const auto &reference : kernel.reduction->references)
      if (reference == ref)
        return kernel.reduction->variable;
  for (unsigned n = 0; n < kernel.accumulators.size(); ++n) {
    const RegisterAccumulator &acc = kernel.accumulators[n];
    for (const auto &reference : acc.references)
      if (reference == ref) {
        if (acc.slots <= 1)
          return acc.variable;
        POLYCUDA_CHECK(!registerIndex.empty())
            << "no register for " << stmt.name;
        return acc.variable + "[" + registerIndex + "]";
      }
  }
  for (const SharedTile &tile : kernel.sharedTiles)
    for (const auto &reference : tile.references)
      if (reference == ref)
        return sharedElement(tile, subscripts);
  return "";
}

bool KernelBodyPrinter::scaled(const Statement &stmt, unsigned access,
                               const std::string &scalar) const {
  std::pair<unsigned, unsigned> ref(&stmt - scop.statements.data(), access);
  for (const SharedTile &tile : kernel.sharedTiles)
    if (tile.scale == scalar &&
        std::find(tile.references.begin(), tile.references.end(), ref) !=
            tile.references.end())
      return true;
  return false;
}

void KernelBodyPrinter::printLeaf(const AstPrinter &printer,
                                  const isl::ast_expr &call, int indent,
                                  std::ostream &out) {
  registerIndex.clear();
  for (const auto &[iterator, extent] : printer.unrolledLoops())
    registerIndex = registerIndex.empty()
                        ? iterator
                        : "(" + registerIndex + ") * " +
                              std::to_string(extent) + " + " + iterator;
  ArrayRefPrinter ref = [this](const Array &array,
                               const std::vector<std::string> &subscripts) {
    return arrayRef(array, subscripts);
  };
  if (printReduction(program, kernel, target, call, ref, indent, out) ||
      printCopy(scop, kernel, call, ref, registerIndex, indent, out) ||
      printSharedCopy(scop, kernel, target, call, ref, indent, out))
    return;
  printUserStatement(
      scop, call, ref,
      [this](const std::string &name) { return target.mathName(name); },
      indent, out,
      [this](polyhedral::ElemType type) { return target.exactProduct(type); },
      [this](const Statement &stmt, unsigned access,
             const std::vector<std::string> &subscripts) {
        return promoted(stmt, access, subscripts);
      },
      [this](const Statement &stmt, unsigned access,
             const std::string &scalar) {
        return scaled(stmt, access, scalar);
      });
}

void KernelBodyPrinter::print(const KernelIndices &indices, int indent,
                              std::ostream &os) {
  std::string in = indentBy(indent);
  printIndices(indices, in, os);
  declarePrivates(in, os);
  declarePromotions(in, os);
  const AstPrinter *self = nullptr;
  AstPrinter printer(
      [&](const isl::ast_expr &call, int indent, std::ostream &out) {
        printLeaf(*self, call, indent, out);
      },
      nullptr); // (a register tile's points: AstPrinter unrolls them)
  self = &printer;
  printer.setUnrollPragma(target.unrollPragma());
  printer.print(kernel.ast, indent, os);
}

} // namespace

void printKernelBody(const GpuProgram &program, const Kernel &kernel,
                     const GpuTarget &target, const KernelIndices &indices,
                     int indent, std::ostream &os) {
  KernelBodyPrinter(program, kernel, target).print(indices, indent, os);
}

std::string printKernel(const GpuProgram &program, const Kernel &kernel,
                        unsigned region, const GpuTarget &target) {
  const Scop &scop = *program.scop;
  std::ostringstream os;
  os << target.kernelQualifier() << target.launchBounds(kernel) << " "
     << kernelName(scop, region, kernel)
     << "(";
  auto params = kernelParameters(program, kernel, target);
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ", " : "") << params[i].first << " " << params[i].second;
  os << ") {\n";
  KernelIndices indices{[&](unsigned dim) { return target.blockIndex(dim); },
                        [&](unsigned dim) { return target.threadIndex(dim); }};
  printKernelBody(program, kernel, target, indices, 1, os);
  os << "}\n";
  return os.str();
}

} // namespace polycuda::translator
