//===- HostPrinter.cpp - Output files: host code around the kernels -------===//
//
// Printer: GpuProgram (host AST, transfers) -> the output file. Host code
// follows PPCG's print_host_user: the host AST is printed as C, and each
// launch user node `kernelN(grid...)` becomes a launch of kernel N.
//
//===----------------------------------------------------------------------===//
#include "HostPrinter.h"

#include "AstGeneration.h"
#include "IslExtras.h"
#include "Check.h"
#include "CodePrinter.h"
#include "KernelPrinter.h"
#include "PersistentPrinter.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace polycuda::translator {

using namespace polyhedral;

namespace {

std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Is `expr` the constant 1 (isl's "always")?
bool isTrue(const isl::ast_expr &expr) {
  return expr.isa<isl::ast_expr_int>() &&
         expr.as<isl::ast_expr_int>().val().is_one();
}

std::string linear(const Scop &scop, const Array &array,
                   const std::vector<isl::pw_aff> &index) {
  std::vector<std::string> subscripts;
  for (const isl::pw_aff &pa : index)
    subscripts.push_back(printParamExpr(scop.context, pa));
  return linearIndex(scop, array, subscripts);
}

/// The elements of the device copy of `t`'s array (a C expression): up to
/// the last element of the box of accessed elements.
std::string allocatedElements(const Scop &scop, const Transfer &t) {
  const Array &array = scop.arrays[t.array];
  std::string last =
      array.rank() ? linear(scop, array, t.allocated.upper) : "0";
  return "(" + last + ") + 1";
}

/// The host address of `array`: in place (in the user's function) a scalar
/// is addressed with `&`; in a launcher every array arrives as a pointer.
std::string hostAddress(const Array &array, bool launcher) {
  if (!launcher && !array.source.empty())
    return array.source;
  return array.rank() == 0 && !launcher ? "&" + array.name : array.name;
}

/// Whether `e` or a part of it computes in double.
bool computesInDouble(const Scop &scop, const Statement &stmt,
                      const Expr &e) {
  if (typeOf(scop, stmt, e) == ElemType::Double)
    return true;
  return std::any_of(e.args.begin(), e.args.end(), [&](const ExprPtr &arg) {
    return computesInDouble(scop, stmt, *arg);
  });
}

/// Whether the scop's code needs double precision: a double array or
/// scalar, or a double literal, cast or math function in a statement or in
/// a function it calls.
bool usesDouble(const Scop &scop) {
  if (std::any_of(scop.arrays.begin(), scop.arrays.end(),
                  [](const Array &a) { return a.type == ElemType::Double; }))
    return true;
  for (const auto &[name, type] : scop.scalarArgs)
    if (type == ElemType::Double)
      return true;
  // A function the statements call may compute in double inside.
  for (const polyhedral::Function &function : scop.functions)
    if (function.definition.find("double") != std::string::npos)
      return true;
  for (const Statement &stmt : scop.statements)
    if (stmt.rhs && computesInDouble(scop, stmt, *stmt.rhs))
      return true;
  return false;
}

std::string paramValue(const std::string &name) {
  return "polycuda_param_" + name;
}

/// Every line of `text` indented by two spaces.
std::string indentLines(const std::string &text) {
  std::istringstream lines(text);
  std::string line, out;
  while (std::getline(lines, line))
    out += (out.empty() ? "  " : "\n  ") + line;
  return out;
}

/// The copy of `box` of transfer `t`'s array.
BoxCopyInfo boxCopy(const GpuProgram &program, const Transfer &t,
                    const ElementBox &box, bool launcher,
                    const std::string &where) {
  const Scop &scop = *program.scop;
  const Array &array = scop.arrays[t.array];
  BoxCopyInfo copy;
  copy.device = program.names.devicePrefix + array.name;
  copy.host = hostAddress(array, launcher);
  copy.type = spell(array.type);
  copy.array = array.name;
  copy.method = t.method;
  copy.where = where;
  for (unsigned d = 0; d < array.rank(); ++d) {
    copy.extents.push_back(d == 0 && !array.firstExtentKnown
                               ? "0"
                               : printParamExpr(scop.context, array.extents[d]));
    copy.lower.push_back(printParamExpr(scop.context, box.lower[d]));
    copy.upper.push_back(printParamExpr(scop.context, box.upper[d]));
  }
  if (box.banded()) {
    copy.bandFirst = printParamExpr(scop.context, t.allocated.lower[0]);
    copy.bandLast = printParamExpr(scop.context, t.allocated.upper[0]);
    for (unsigned d = 0; d < array.rank(); ++d) {
      copy.bandLower.push_back(
          printParamExpr(*box.bandContext, box.bandLower[d]));
      copy.bandUpper.push_back(
          printParamExpr(*box.bandContext, box.bandUpper[d]));
    }
  }
  return copy;
}

/// The opening of the block that replaces a scop, naming it.
std::string blockHeader(const GpuProgram &program) {
  return "{\n  /* polycuda: scop at " + program.scop->loc.str() + ", " +
         std::to_string(program.kernels.size()) + " kernel(s) */\n";
}

/// Makes every parameter a 64-bit variable under its isl name for the code
/// that follows: the user's variables are often `int`, and isl's
/// expressions (`2 * off + 2`) would then be computed in 32 bits. A
/// parameter named as in the source is shadowed in a block of its own,
/// which parameterEpilogue closes.
std::string parameterPrologue(const Scop &scop) {
  std::string outer, inner;
  for (size_t i = 0; i < scop.params.size(); ++i) {
    const std::string &name = scop.params[i];
    const std::string &source = scop.paramSourceNames[i];
    if (name != source) {
      outer += "  const " + std::string(kIndexType) + " " + name + " = " +
               source + ";\n";
      continue;
    }
    outer += "  const " + std::string(kIndexType) + " polycuda_wide_" + name +
             " = " + name + ";\n";
    inner += "  const " + std::string(kIndexType) + " " + name +
             " = polycuda_wide_" + name + ";\n";
  }
  return inner.empty() ? outer : outer + "  {\n" + inner;
}

std::string parameterEpilogue(const Scop &scop) {
  for (size_t i = 0; i < scop.params.size(); ++i)
    if (scop.params[i] == scop.paramSourceNames[i])
      return "  }\n";
  return "";
}

/// The kernels of one scop as the target defines them.
std::string kernelDefinitionsOf(const GpuProgram &program, unsigned region,
                                const GpuTarget &target) {
  std::vector<std::string> kernels;
  const Scop &scop = *program.scop;
  // The functions of the input that statements call, each once per file.
  for (const polyhedral::Function &function : scop.functions) {
    std::string guard = "POLYCUDA_FUNCTION_" + function.name;
    kernels.push_back("#ifndef " + guard + "\n#define " + guard + "\n" +
                      target.functionQualifier() + " " + function.definition +
                      "#endif");
  }
  if (target.hasConstantVariables())
    for (const GpuProgram::ConstantArray &constant : program.constants) {
      const Array &array = scop.arrays[constant.array];
      kernels.push_back(target.constantDefinition(
          spell(array.type), constantVariable(scop, array),
          constant.elements));
    }
  std::vector<std::string> names;
  for (const Kernel &kernel : program.kernels) {
    kernels.push_back(printKernel(program, kernel, region, target));
    names.push_back(kernelName(scop, region, kernel));
  }
  std::string persistent = printPersistentKernels(program, region, target);
  if (!persistent.empty())
    kernels.push_back(persistent);
  return target.kernelDefinitions(region, kernels, usesDouble(*program.scop)) +
         target.preloadKernels(region, names);
}

/// The launch of the kernel that the host AST's user node `call`,
/// `kernelN(grid extents..., host iterators..., active)`, stands for: a block
/// that computes the grid and launches the kernel if it has work.
void printLaunchNode(const GpuProgram &program, unsigned region,
                     const GpuTarget &target, const std::string &where,
                     bool launcher, const isl::ast_expr &call, int indent,
                     std::ostream &out) {
  const Scop &scop = *program.scop;
  const std::string &dev = program.names.devicePrefix;
  std::string name = callName(call);
  const Kernel *found = program.kernelOf(callId(call));
  if (!found) {
    // Scalar code on the host (GpuMapping.h): on the user's scalars.
    POLYCUDA_CHECK(program.isHostStatement(name))
        << "unexpected host statement " << name;
    ArrayRefPrinter arrayRef = [&](const Array &array,
                                   const std::vector<std::string> &) {
      return hostScalarValue(array, launcher);
    };
    printUserStatement(
        scop, call, arrayRef, [](const std::string &f) { return f; }, indent,
        out);
    return;
  }
  const Kernel &kernel = *found;
  std::vector<isl::ast_expr> extents = callArgs(call);
  LaunchInfo launch;
  launch.kernelName = kernelName(scop, region, kernel);
  launch.where = where;
  launch.grid.assign(3, "1");
  launch.block.assign(3, 1);
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    launch.grid[kernel.mapping->gridDimension(d)] =
        "polycuda_grid_" + std::to_string(d);
    launch.block[kernel.mapping->hardwareDim[d]] = kernel.mapping->blockSize[d];
  }
  for (unsigned a : kernel.arrays)
    launch.args.push_back({"void *", dev + scop.arrays[a].name});
  for (const std::string &p : scop.params)
    launch.args.push_back({kIndexType, paramValue(p)});
  for (const auto &[name, type] : scop.scalarArgs)
    launch.args.push_back({spell(type), name});
  for (unsigned a : program.hostScalars)
    launch.args.push_back({spell(scop.arrays[a].type),
                           hostScalarValue(scop.arrays[a], launcher)});
  for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
    launch.args.push_back({kIndexType, "polycuda_host_" + std::to_string(i)});
  std::string in = indentBy(indent);
  out << in << "{\n";
  for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
    out << in << "  " << kIndexType << " polycuda_host_" << i << " = "
        << printExpr(extents[kernel.mapping->numMapped + i]) << ";\n";
  // The host point has instances of the kernel (isl: 1 when the
  // loops around already say so), and every grid extent is positive.
  std::string nonEmpty;
  isl::ast_expr active =
      extents[kernel.mapping->numMapped + kernel.mapping->hostDepth];
  if (!isTrue(active))
    nonEmpty = printExpr(active);
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    out << in << "  const " << kIndexType << " polycuda_grid_" << d << " = "
        << printExpr(extents[d]) << ";\n";
    nonEmpty += (nonEmpty.empty() ? "" : " && ") +
                std::string("polycuda_grid_") + std::to_string(d) + " > 0";
  }
  if (nonEmpty.empty())
    nonEmpty = "1";
  out << in << "  if (" << nonEmpty << ")\n";
  target.printLaunch(launch, region, indent + 1, out);
  out << in << "}\n";
}

/// The opening of a host block up to its first copy: the parameters, the
/// target's setup and the allocation of every device array.
void printHostBlockSetup(const GpuProgram &program, unsigned region,
                         const GpuTarget &target, bool launcher,
                         const std::string &where, std::ostream &os) {
  const Scop &scop = *program.scop;
  os << blockHeader(program);
  // The launcher's parameters are 64-bit already.
  if (!launcher)
    os << parameterPrologue(scop);
  for (size_t i = 0; i < scop.params.size(); ++i)
    os << "  " << kIndexType << " " << paramValue(scop.params[i]) << " = "
       << scop.params[i] << ";\n";
  std::string setup = target.setup(region, where);
  if (!setup.empty()) {
    std::istringstream lines(setup);
    std::string line;
    while (std::getline(lines, line))
      os << "  " << line << "\n";
  }
  const std::string dev = program.names.devicePrefix;
  std::string begin = target.beginScop(where);
  if (!begin.empty())
    os << "  " << begin << "\n";
  for (const Transfer &t : program.transfers) {
    const Array &array = scop.arrays[t.array];
    std::string type = spell(array.type);
    os << "  "
       << target.alloc(dev + array.name, type, allocatedElements(scop, t),
                       where)
       << "\n";
  }
}

/// The copy to the device of transfer `t`, and of its constant memory
/// copy where it has one: its elements, or fewer where the device array
/// holds fewer (the parameters' values leave elements unread).
void printCopyIn(const GpuProgram &program, const Transfer &t,
                 const GpuTarget &target, bool launcher,
                 const std::string &where, std::ostream &os) {
  const Scop &scop = *program.scop;
  os << indentLines(target.copyBox(
            boxCopy(program, t, t.in, launcher, where), true))
     << "\n";
  const GpuProgram::ConstantArray *constant = program.findConstant(t.array);
  if (!constant || !target.hasConstantVariables())
    return;
  const Array &array = scop.arrays[t.array];
  std::string held = allocatedElements(scop, t);
  std::string count = "((" + held + ") < " +
                      std::to_string(constant->elements) + " ? (" + held +
                      ") : " + std::to_string(constant->elements) + ")";
  os << "  "
     << target.copyToConstant(constantVariable(scop, array),
                              program.names.devicePrefix + array.name,
                              std::string("sizeof(") + spell(array.type) +
                                  ") * (size_t)" + count,
                              where)
     << "\n";
}

/// The end of a host block: the copies to the host, the release of every
/// device array and the end of the scop (TransferPlacement's order).
void printHostBlockEnd(const GpuProgram &program, const GpuTarget &target,
                       bool launcher, const std::string &where,
                       std::ostream &os) {
  const Scop &scop = *program.scop;
  for (unsigned i : program.placement.copyOutOrder) {
    const Transfer &t = program.transfers[i];
    os << indentLines(target.copyBox(
              boxCopy(program, t, t.out, launcher, where), false))
       << "\n";
  }
  const std::string &dev = program.names.devicePrefix;
  for (const Transfer &t : program.transfers)
    os << "  " << target.release(dev + scop.arrays[t.array].name, where) << "\n";
  std::string end = target.endScop(where);
  if (!end.empty())
    os << "  " << end << "\n";
  if (!launcher)
    os << parameterEpilogue(scop);
  os << "}\n";
}

/// The host block of one scop: in place of the scop in the user's function,
/// or (`launcher`) as the body of the function that the host file calls,
/// whose arguments are named like the scop's parameters and variables (see
/// launcherArguments).
std::string printHostBlock(const GpuProgram &program, unsigned region,
                           const GpuTarget &target, bool launcher) {
  const Scop &scop = *program.scop;
  std::string where = quote(scop.loc.str());
  std::ostringstream os;
  printHostBlockSetup(program, region, target, launcher, where, os);
  AstPrinter launches(
      [&](const isl::ast_expr &call, int indent, std::ostream &out) {
        printLaunchNode(program, region, target, where, launcher, call,
                        indent, out);
      },
      nullptr);
  AstPrinter printer(
      [&](const isl::ast_expr &call, int indent, std::ostream &out) {
        printLaunchNode(program, region, target, where, launcher, call,
                        indent, out);
      },
      [&](const isl::id &mark, const isl::ast_node &child, int indent,
          std::ostream &out) {
        const PersistentLoop *loop = program.findPersistentLoop(mark);
        if (!loop || !loop->persistent || !target.hasGridBarrier())
          return false;
        printPersistentLoop(program, *loop, region, target, where, child,
                            launches, launcher, indent, out);
        return true;
      });
  std::vector<isl::ast_node> parts = topLevelParts(program.host);
  const TransferPlacement &place = program.placement;
  POLYCUDA_CHECK(place.copyInBefore.size() == parts.size() + 1)
      << "transfers not placed (placeTransfers) for the scop at " << where;
  const std::string &dev = program.names.devicePrefix;
  for (size_t p = 0; p <= parts.size(); ++p) {
    for (unsigned i : place.copyInBefore[p])
      printCopyIn(program, program.transfers[i], target, launcher, where, os);
    if (p == parts.size())
      break;
    printer.print(parts[p], 1, os);
    for (unsigned i : place.markWrittenAfter[p]) {
      std::string mark = target.markWritten(
          dev + scop.arrays[program.transfers[i].array].name, where);
      if (!mark.empty())
        os << "  " << mark << "\n";
    }
  }
  printHostBlockEnd(program, target, launcher, where, os);
  return os.str();
}

/// `block`, the code printed for region `r`, under the scop's assumption
/// (Scop::assumed) when it has one: where it fails, the region's original
/// statements run instead.
std::string underAssumption(const ParsedInput &input, size_t r,
                            const std::string &block) {
  const ScopRegion &region = input.regions[r];
  const Scop &scop = *region.scop;
  if (!scop.assumed)
    return block;
  // The parameters as `long`, so that the condition cannot overflow.
  isl_set *cond = scop.assumed->copy();
  std::string values;
  for (int i = 0; i < isl_set_dim(cond, isl_dim_param); ++i) {
    isl_id *id = isl_set_get_dim_id(cond, isl_dim_param, i);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    auto it = std::find(scop.params.begin(), scop.params.end(), name);
    POLYCUDA_CHECK(it != scop.params.end()) << "unknown parameter " << name;
    std::string local = "polycuda_assumed_" + name;
    cond = isl_set_set_dim_id(cond, isl_dim_param, i,
                              isl_id_alloc(isl_set_get_ctx(cond), local.c_str(),
                                           nullptr));
    if (isl_set_involves_dims(cond, isl_dim_param, i, 1) == isl_bool_true)
      values += "  const " + std::string(kIndexType) + " " + local + " = " +
                scop.paramSourceNames[it - scop.params.begin()] + ";\n";
  }
  // The statements between the `#pragma scop` and `#pragma endscop` lines.
  std::string original =
      input.source.substr(region.beginOffset,
                          region.endOffset - region.beginOffset);
  original = original.substr(original.find('\n') + 1);
  original = original.substr(0, original.rfind('\n', original.size() - 2) + 1);
  std::string what;
  if (scop.assumesNoWrap)
    what = "no unsigned or narrow value of the scop wraps around";
  if (scop.assumesInRows)
    what += std::string(what.empty() ? "" : " and ") +
            "each flat subscript A[i * m + j] stays within a row of m "
            "elements";
  return "{\n  /* polycuda: the code below assumes that " + what +
         "; where that fails, the original statements run */\n" +
         values + "  if (" + printExpr(polyhedral::buildExprFromSet(isl::manage(cond))) +
         ")\n" +
         block + "  else {\n" + original + "  }\n}\n";
}

/// Replaces the regions of `input.source` by `blocks[i]` and inserts
/// `before[offset]` at the given offsets, `header` at the top.
std::string splice(const ParsedInput &input, const std::string &header,
                   const std::map<unsigned, std::string> &before,
                   const std::vector<std::string> &blocks) {
  std::string out = header;
  unsigned pos = 0;
  std::vector<std::pair<unsigned, int>> events; // offset, -1 = insert, i = region
  for (auto &[offset, text] : before)
    events.push_back({offset, -1});
  for (size_t i = 0; i < input.regions.size(); ++i)
    events.push_back({input.regions[i].beginOffset, (int)i});
  std::sort(events.begin(), events.end());
  for (auto &[offset, kind] : events) {
    out += input.source.substr(pos, offset - pos);
    pos = offset;
    if (kind < 0) {
      out += before.at(offset);
    } else {
      out += underAssumption(input, kind, blocks[kind]);
      pos = input.regions[kind].endOffset;
    }
  }
  out += input.source.substr(pos);
  return out;
}

/// One argument of a launcher: its C type, its name in the launcher, and
/// the expression that passes it at the scop's place in the host file.
struct LauncherArgument {
  std::string type, name, value;
};

/// The scop's parameters, read-only scalars, every array copied to or from
/// the device and the scalars of host code, in that order. Arrays travel
/// as `void *`, so that the host file may keep variable-length array types
/// that C++ lacks.
std::vector<LauncherArgument> launcherArguments(const GpuProgram &program) {
  const Scop &scop = *program.scop;
  std::vector<LauncherArgument> args;
  for (size_t i = 0; i < scop.params.size(); ++i)
    args.push_back({kIndexType, scop.params[i], scop.paramSourceNames[i]});
  for (const auto &[name, type] : scop.scalarArgs)
    args.push_back({spell(type), name, name});
  std::vector<bool> seen(scop.arrays.size(), false);
  for (const Transfer &t : program.transfers) {
    if (!(t.toDevice || t.toHost) || seen[t.array])
      continue;
    seen[t.array] = true;
    const Array &array = scop.arrays[t.array];
    args.push_back({"void *", array.name,
                    "(void *)" + hostAddress(array, false)});
  }
  // The scalars that host code writes, in place (GpuMapping.h).
  for (unsigned a : program.hostScalars) {
    const Array &array = scop.arrays[a];
    args.push_back({"void *", array.name,
                    "(void *)" + hostAddress(array, false)});
  }
  return args;
}

std::string launcherName(const Scop &scop, unsigned region) {
  return "polycuda_launch_" + scop.functionName + "_scop" +
         std::to_string(region);
}

/// `void name(type a, type b)`, or the prototype without names.
std::string launcherSignature(const std::string &name,
                              const std::vector<LauncherArgument> &args,
                              bool withNames) {
  std::string text = "void " + name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const LauncherArgument &arg = args[i];
    text += (i ? ", " : "") + arg.type;
    if (withNames)
      text += (arg.type.back() == '*' ? "" : " ") + arg.name;
  }
  return text + (args.empty() ? "void)" : ")");
}

} // namespace

std::string printGpuFile(const ParsedInput &input,
                         const std::vector<GpuProgram> &programs,
                         const GpuTarget &target) {
  std::map<unsigned, std::string> before;
  std::vector<std::string> blocks;
  for (size_t r = 0; r < programs.size(); ++r) {
    before[input.regions[r].functionOffset] +=
        kernelDefinitionsOf(programs[r], r, target);
    blocks.push_back(printHostBlock(programs[r], r, target, false));
  }
  std::string header = "/* Generated by polycuda (" + target.name() +
                       ") from " + input.fileName + " */\n" +
                       target.fileHeader();
  return splice(input, header, before, blocks);
}

CudaFiles printCudaFiles(const ParsedInput &input,
                         const std::vector<GpuProgram> &programs,
                         const GpuTarget &target) {
  CudaFiles files;
  files.device = "/* Generated by polycuda (" + target.name() + ") from " +
                 input.fileName +
                 ": kernels and the host code of each scop, called from "
                 "the host file printed with it */\n" +
                 target.fileHeader();
  std::map<unsigned, std::string> prototypes;
  std::vector<std::string> calls;
  for (size_t r = 0; r < programs.size(); ++r) {
    const GpuProgram &program = programs[r];
    const Scop &scop = *program.scop;
    files.device += "\n" + kernelDefinitionsOf(program, r, target);
    std::string name = launcherName(scop, r);
    std::vector<LauncherArgument> args = launcherArguments(program);
    files.device += "extern \"C\" " + launcherSignature(name, args, true) +
                    "\n" + printHostBlock(program, r, target, true);
    prototypes[input.regions[r].functionOffset] +=
        "/* polycuda: runs the scop at " + scop.loc.str() + " on the GPU */\n" +
        launcherSignature(name, args, false) + ";\n";
    std::string call = blockHeader(program) + "  " + name + "(";
    for (size_t i = 0; i < args.size(); ++i)
      call += (i ? ", " : "") + args[i].value;
    calls.push_back(call + ");\n}\n");
  }
  std::string hostHeader = "/* Generated by polycuda (" + target.name() +
                           ", host) from " + input.fileName +
                           ": the scops call their GPU code in the .cu file "
                           "printed with it */\n";
  // A scop's assumption (underAssumption) is tested in this file, and its
  // condition may call the index helpers (floord of a parameter).
  for (const GpuProgram &program : programs)
    if (program.scop->assumed) {
      hostHeader += helperDefinitions("static inline __attribute__((unused))");
      break;
    }
  files.host = splice(input, hostHeader, prototypes, calls);
  return files;
}

std::string printOpenCLKernels(const ParsedInput &input,
                               const std::vector<GpuProgram> &programs,
                               bool fpContract) {
  auto target = makeOpenCLTarget(fpContract);
  std::string text = "/* OpenCL kernels generated by polycuda from " +
                     input.fileName + " */\n";
  bool anyDouble = false;
  for (const GpuProgram &program : programs)
    anyDouble |= usesDouble(*program.scop);
  if (anyDouble)
    text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  text += contractionPragma(fpContract);
  text += helperDefinitions("static inline");
  for (size_t r = 0; r < programs.size(); ++r)
    for (const Kernel &kernel : programs[r].kernels)
      text += "\n" + printKernel(programs[r], kernel, r, *target);
  return text;
}

std::string printCFile(const ParsedInput &input,
                       const std::vector<isl::ast_node> &asts) {
  std::vector<std::string> blocks;
  for (size_t r = 0; r < asts.size(); ++r) {
    const Scop &scop = *input.regions[r].scop;
    std::ostringstream os;
    os << "{\n  /* polycuda: scop at " << scop.loc.str() << " */\n";
    os << parameterPrologue(scop);
    // Scalars local to the scop; expanded ones live on the heap, indexed
    // row-major like device arrays.
    for (const Array &array : scop.arrays) {
      if (!array.isLocal)
        continue;
      std::string type = spell(array.type);
      if (array.rank() == 0) {
        os << "  " << type << " " << array.name << ";\n";
        continue;
      }
      std::string size = "(size_t)1";
      for (const isl::pw_aff &extent : array.extents)
        size += " * (size_t)(" + printParamExpr(scop.context, extent) + ")";
      os << "  " << type << " *" << array.name << " = (" << type
         << " *)malloc(sizeof(" << type << ") * " << size << ");\n";
    }
    ArrayRefPrinter arrayRef = [&](const Array &array,
                                   const std::vector<std::string> &subscripts) {
      // Expanded locals live on the heap; delinearized arrays are indexed
      // with one subscript, as in the source.
      if ((array.isLocal && array.rank() > 0) || array.delinearized)
        return array.name + "[" + linearIndex(scop, array, subscripts) + "]";
      return sourceReference(array, subscripts);
    };
    auto mathName = [](const std::string &name) { return name; };
    AstPrinter *self = nullptr;
    AstPrinter printer(
        [&](const isl::ast_expr &call, int indent, std::ostream &out) {
          printUserStatement(scop, call, arrayRef, mathName, indent, out);
        },
        [&](const isl::id &mark, const isl::ast_node &child, int indent,
            std::ostream &out) {
          std::optional<polyhedral::GpuMark> payload =
              polyhedral::gpuMarkOf(mark);
          if (!payload || payload->kind != polyhedral::MarkKind::Parallel ||
              !child.isa<isl::ast_node_for>())
            return false;
          isl::ast_node_for loop = child.as<isl::ast_node_for>();
          if (loop.is_degenerate())
            return false;
          // Only the loop of the marked band member (GpuMark::loop).
          if (printExpr(loop.iterator()) != payload->loop)
            return false;
          out << indentBy(indent) << "#pragma omp parallel for\n";
          self->printFor(child, indent, out);
          return true;
        });
    self = &printer;
    printer.print(asts[r], 1, os);
    for (const Array &array : scop.arrays)
      if (array.isLocal && array.rank() > 0)
        os << "  free(" << array.name << ");\n";
    os << parameterEpilogue(scop) << "}\n";
    blocks.push_back(os.str());
  }
  std::string header = "/* Generated by polycuda (c) from " + input.fileName +
                       " */\n#include <stdlib.h>\n" +
                       guardedHelperDefinitions("static inline");
  return splice(input, header, {}, blocks);
}

} // namespace polycuda::translator
