//===- AstGenerationTest.cpp - Unit tests of the host and kernel ASTs -----===//
//
// generateGpuAsts (through runGpuPipeline) on hand-built scops: the launch
// nodes of the host AST (kernel, grid extents, host prefix, launch
// condition), the loops left in each kernel AST and the statement arguments
// in terms of block and thread ids; and generateCAst: where the
// `omp_parallel_<iterator>` marks go. AST expressions are checked by
// evaluating them for concrete parameter values, not by their spelling.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "IslTestSupport.h"

#include <isl/ast.h>
#include <isl/id.h>
#include <isl/val.h>

#include <algorithm>
#include <functional>
#include <map>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;

using AstGenerationTest = IslTest;
using Values = std::map<std::string, long>;

long floorDiv(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// The value of `expr` with the identifiers given by `values` (a missing
/// identifier fails the test and counts as 0).
long evaluate(__isl_keep isl_ast_expr *expr, const Values &values) {
  switch (isl_ast_expr_get_type(expr)) {
  case isl_ast_expr_id: {
    isl_id *id = isl_ast_expr_get_id(expr);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    auto found = values.find(name);
    if (found == values.end()) {
      ADD_FAILURE() << "no value for " << name;
      return 0;
    }
    return found->second;
  }
  case isl_ast_expr_int: {
    isl_val *val = isl_ast_expr_get_val(expr);
    long value = isl_val_get_num_si(val);
    isl_val_free(val);
    return value;
  }
  case isl_ast_expr_op:
    break;
  default:
    ADD_FAILURE() << "unexpected AST expression";
    return 0;
  }
  int n = isl_ast_expr_op_get_n_arg(expr);
  std::vector<long> args;
  for (int i = 0; i < n; ++i) {
    isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);
    args.push_back(evaluate(arg, values));
    isl_ast_expr_free(arg);
  }
  switch (isl_ast_expr_op_get_type(expr)) {
  case isl_ast_expr_op_and:
  case isl_ast_expr_op_and_then:
    return args[0] && args[1];
  case isl_ast_expr_op_or:
  case isl_ast_expr_op_or_else:
    return args[0] || args[1];
  case isl_ast_expr_op_max:
    return *std::max_element(args.begin(), args.end());
  case isl_ast_expr_op_min:
    return *std::min_element(args.begin(), args.end());
  case isl_ast_expr_op_minus:
    return -args[0];
  case isl_ast_expr_op_add:
    return args[0] + args[1];
  case isl_ast_expr_op_sub:
    return args[0] - args[1];
  case isl_ast_expr_op_mul:
    return args[0] * args[1];
  case isl_ast_expr_op_div:
  case isl_ast_expr_op_fdiv_q:
  case isl_ast_expr_op_pdiv_q:
    return floorDiv(args[0], args[1]);
  case isl_ast_expr_op_pdiv_r:
  case isl_ast_expr_op_zdiv_r:
    return args[0] - args[1] * floorDiv(args[0], args[1]);
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return args[0] ? args[1] : args[2];
  case isl_ast_expr_op_eq:
    return args[0] == args[1];
  case isl_ast_expr_op_le:
    return args[0] <= args[1];
  case isl_ast_expr_op_lt:
    return args[0] < args[1];
  case isl_ast_expr_op_ge:
    return args[0] >= args[1];
  case isl_ast_expr_op_gt:
    return args[0] > args[1];
  default:
    ADD_FAILURE() << "unexpected AST operation";
    return 0;
  }
}

long evaluate(const isl::ast_expr &expr, const Values &values) {
  return evaluate(expr.get(), values);
}

/// Calls `visit` on every node of `root`, outermost first, with the
/// iterators of the enclosing for nodes.
void walk(const isl::ast_node &root,
          const std::function<void(const isl::ast_node &,
                                   const std::vector<std::string> &)> &visit) {
  std::function<void(const isl::ast_node &, std::vector<std::string>)> rec =
      [&](const isl::ast_node &node, std::vector<std::string> loops) {
        visit(node, loops);
        isl_ast_node *raw = node.get();
        switch (isl_ast_node_get_type(raw)) {
        case isl_ast_node_for: {
          isl_ast_expr *it = isl_ast_node_for_get_iterator(raw);
          isl_id *id = isl_ast_expr_get_id(it);
          loops.push_back(isl_id_get_name(id));
          isl_id_free(id);
          isl_ast_expr_free(it);
          rec(isl::manage(isl_ast_node_for_get_body(raw)), loops);
          break;
        }
        case isl_ast_node_if:
          rec(isl::manage(isl_ast_node_if_get_then_node(raw)), loops);
          if (isl_ast_node_if_has_else_node(raw) == isl_bool_true)
            rec(isl::manage(isl_ast_node_if_get_else_node(raw)), loops);
          break;
        case isl_ast_node_block: {
          isl_ast_node_list *list = isl_ast_node_block_get_children(raw);
          for (int i = 0; i < isl_ast_node_list_n_ast_node(list); ++i)
            rec(isl::manage(isl_ast_node_list_get_at(list, i)), loops);
          isl_ast_node_list_free(list);
          break;
        }
        case isl_ast_node_mark:
          rec(isl::manage(isl_ast_node_mark_get_node(raw)), loops);
          break;
        default:
          break;
        }
      };
  rec(root, {});
}

/// A call `name(args...)` of a user node.
struct Call {
  std::string name;
  std::vector<isl::ast_expr> args;
  std::vector<std::string> loops; ///< iterators of the enclosing for nodes
};

std::vector<Call> callsOf(const isl::ast_node &root) {
  std::vector<Call> calls;
  walk(root, [&](const isl::ast_node &node,
                 const std::vector<std::string> &loops) {
    if (isl_ast_node_get_type(node.get()) != isl_ast_node_user)
      return;
    isl::ast_expr expr = isl::manage(isl_ast_node_user_get_expr(node.get()));
    Call call;
    call.loops = loops;
    isl_ast_expr *callee = isl_ast_expr_op_get_arg(expr.get(), 0);
    isl_id *id = isl_ast_expr_get_id(callee);
    call.name = isl_id_get_name(id);
    isl_id_free(id);
    isl_ast_expr_free(callee);
    int n = isl_ast_expr_op_get_n_arg(expr.get());
    for (int i = 1; i < n; ++i)
      call.args.push_back(isl::manage(isl_ast_expr_op_get_arg(expr.get(), i)));
    calls.push_back(call);
  });
  return calls;
}

/// The for nodes of `root`.
std::vector<isl::ast_node> loopsOf(const isl::ast_node &root) {
  std::vector<isl::ast_node> loops;
  walk(root, [&](const isl::ast_node &node, const std::vector<std::string> &) {
    if (isl_ast_node_get_type(node.get()) == isl_ast_node_for)
      loops.push_back(node);
  });
  return loops;
}

std::string iteratorOf(const isl::ast_node &loop) {
  isl_ast_expr *it = isl_ast_node_for_get_iterator(loop.get());
  isl_id *id = isl_ast_expr_get_id(it);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  isl_ast_expr_free(it);
  return name;
}

long ceilDiv(long a, long b) { return (a + b - 1) / b; }

std::string text(const isl::ast_node &node) {
  return node.is_null() ? "(null)" : node.to_C_str();
}

/// `for i < n, j < m: A[i][j] = B[i][j];` (fully parallel, 2-D)
std::unique_ptr<polyhedral::Scop> copy2dScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n", "m"}, "[n, m] -> { : }");
  addArray(*scop, "A", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addArray(*scop, "B", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addStatement(*scop, "S0",
               "[n, m] -> { S0[i, j] : 0 <= i < n and 0 <= j < m }", {"i", "j"},
               {0, 0, 0},
               {{Read, "B", "[n, m] -> { S0[i, j] -> B[i, j] }"},
                {Write, "A", "[n, m] -> { S0[i, j] -> A[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "[n, m] -> { S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

TEST_F(AstGenerationTest, ParallelScopIsOneLaunchWithExactGridExtents) {
  auto scop = copy2dScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  ASSERT_EQ(2u, kernel.mapping->numMapped);
  // i is y (block 8), j is x (block 32); blockSize is in member order.
  ASSERT_EQ((std::vector<unsigned>{8, 32}), kernel.mapping->blockSize);

  // One launch, outside any host loop: kernel0(grid_i, grid_j, condition);
  // no host prefix (hostDepth 0).
  std::vector<Call> launches = callsOf(program.host);
  ASSERT_EQ(1u, launches.size()) << text(program.host);
  const Call &launch = launches[0];
  EXPECT_EQ("S0", launch.name);
  EXPECT_TRUE(launch.loops.empty()) << text(program.host);
  EXPECT_TRUE(loopsOf(program.host).empty()) << text(program.host);
  ASSERT_EQ(3u, launch.args.size()) << text(program.host);
  // The grid covers the iterations with no block to spare, and the kernel
  // runs exactly when there is an iteration.
  for (long n : {1, 7, 8, 9, 100})
    for (long m : {1, 31, 32, 33, 200}) {
      Values values{{"n", n}, {"m", m}};
      EXPECT_EQ(ceilDiv(n, 8), evaluate(launch.args[0], values))
          << "n = " << n << ": " << text(program.host);
      EXPECT_EQ(ceilDiv(m, 32), evaluate(launch.args[1], values))
          << "m = " << m << ": " << text(program.host);
      EXPECT_TRUE(evaluate(launch.args[2], values)) << text(program.host);
    }
  for (auto [n, m] : {std::pair{0L, 5L}, {5L, 0L}, {-3L, 4L}})
    EXPECT_FALSE(evaluate(launch.args[2], {{"n", n}, {"m", m}}))
        << "n = " << n << ", m = " << m << ": " << text(program.host);
}

TEST_F(AstGenerationTest, MappedMembersLeaveNoLoopInTheKernel) {
  auto scop = copy2dScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  const isl::ast_node &ast = program.kernels[0].ast;
  ASSERT_FALSE(ast.is_null());
  EXPECT_TRUE(loopsOf(ast).empty()) << text(ast);
  // One statement instance per thread: S0(8 * b0 + t0, 32 * b1 + t1).
  std::vector<Call> calls = callsOf(ast);
  ASSERT_EQ(1u, calls.size()) << text(ast);
  EXPECT_EQ("S0", calls[0].name);
  ASSERT_EQ(2u, calls[0].args.size());
  for (long b0 : {0, 3})
    for (long t0 : {0, 7})
      for (long b1 : {0, 2})
        for (long t1 : {0, 31}) {
          Values values{{"n", 1000}, {"m", 1000}, {"b0", b0},
                        {"t0", t0},  {"b1", b1},  {"t1", t1}};
          EXPECT_EQ(8 * b0 + t0, evaluate(calls[0].args[0], values))
              << text(ast);
          EXPECT_EQ(32 * b1 + t1, evaluate(calls[0].args[1], values))
              << text(ast);
        }
}

TEST_F(AstGenerationTest, UnmappedMemberStaysALoopInTheKernel) {
  auto scop = gemmScop(ctx());
  // The mapping alone: no shared tiles, no registers (MemoryPromotionTest).
  PipelineOptions options;
  options.shared = options.registers = false;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  const isl::ast_node &ast = program.kernels[0].ast;
  // i and j are mapped, k is the only loop left: for (k2 = 0; k2 < nk; ...).
  std::vector<isl::ast_node> loops = loopsOf(ast);
  ASSERT_EQ(1u, loops.size()) << text(ast);
  std::string k = iteratorOf(loops[0]);
  EXPECT_EQ("k2", k);
  Values values{{"ni", 50}, {"nj", 60}, {"nk", 70}, {"b0", 1},
                {"t0", 2},  {"b1", 1},  {"t1", 3}};
  EXPECT_EQ(0, evaluate(isl::manage(isl_ast_node_for_get_init(loops[0].get())),
                        values));
  isl::ast_expr cond = isl::manage(isl_ast_node_for_get_cond(loops[0].get()));
  for (long value : {0L, 69L}) {
    values[k] = value;
    EXPECT_TRUE(evaluate(cond, values)) << text(ast);
  }
  values[k] = 70;
  EXPECT_FALSE(evaluate(cond, values)) << text(ast);
  EXPECT_EQ(1, evaluate(isl::manage(isl_ast_node_for_get_inc(loops[0].get())),
                        values));
  // The statement runs inside it: S0(8 * b0 + t0, 32 * b1 + t1, k2).
  std::vector<Call> calls = callsOf(ast);
  ASSERT_EQ(1u, calls.size()) << text(ast);
  EXPECT_EQ((std::vector<std::string>{k}), calls[0].loops);
  ASSERT_EQ(3u, calls[0].args.size());
  values[k] = 5;
  EXPECT_EQ(8 * 1 + 2, evaluate(calls[0].args[0], values));
  EXPECT_EQ(32 * 1 + 3, evaluate(calls[0].args[1], values));
  EXPECT_EQ(5, evaluate(calls[0].args[2], values));
}

TEST_F(AstGenerationTest, LaunchesInsideAHostLoopPassItsIterator) {
  auto scop = jacobiScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(2u, program.kernels.size()) << text(program.host);
  // for (c0 = 0; c0 < tsteps; c0++) { S0(...); S1(...); }: launches are
  // named after their kernels' statements.
  std::vector<isl::ast_node> loops = loopsOf(program.host);
  ASSERT_EQ(1u, loops.size()) << text(program.host);
  EXPECT_EQ("c0", iteratorOf(loops[0]));
  std::vector<Call> launches = callsOf(program.host);
  ASSERT_EQ(2u, launches.size()) << text(program.host);
  EXPECT_EQ("S0", launches[0].name);
  EXPECT_EQ("S1", launches[1].name);
  for (const Call &launch : launches) {
    EXPECT_EQ((std::vector<std::string>{"c0"}), launch.loops);
    // grid (i: 1 <= i < n - 1, block 256), then c0, then the condition.
    ASSERT_EQ(3u, launch.args.size()) << text(program.host);
    // i in 1 .. n - 2 in tiles of 256 from tile 0: (n - 2) / 256 + 1.
    for (long n : {3L, 257L, 258L, 1000L}) {
      Values values{{"tsteps", 10}, {"n", n}, {"c0", 4}};
      EXPECT_EQ((n - 2) / 256 + 1, evaluate(launch.args[0], values))
          << "n = " << n << ": " << text(program.host);
      EXPECT_EQ(4, evaluate(launch.args[1], values)) << text(program.host);
      EXPECT_TRUE(evaluate(launch.args[2], values)) << text(program.host);
    }
  }
}

// --- generateCAst --------------------------------------------------------

/// A mark of a C AST: its name, the loop right below it (empty when the
/// child is no loop) and the iterators of the loops around it.
struct MarkInfo {
  std::string name;
  std::string loop;
  std::vector<std::string> outer;
};

std::vector<MarkInfo> marksOf(const isl::ast_node &root) {
  std::vector<MarkInfo> marks;
  walk(root, [&](const isl::ast_node &node,
                 const std::vector<std::string> &loops) {
    if (isl_ast_node_get_type(node.get()) != isl_ast_node_mark)
      return;
    MarkInfo mark;
    isl_id *id = isl_ast_node_mark_get_id(node.get());
    mark.name = isl_id_get_name(id);
    isl_id_free(id);
    isl::ast_node child = isl::manage(isl_ast_node_mark_get_node(node.get()));
    if (isl_ast_node_get_type(child.get()) == isl_ast_node_for)
      mark.loop = iteratorOf(child);
    mark.outer = loops;
    marks.push_back(mark);
  });
  return marks;
}

isl::ast_node cAst(const polyhedral::Scop &scop) {
  polyhedral::Dependences deps;
  polyhedral::ScheduleResult result =
      polyhedral::runSchedulePipeline(scop, deps, PipelineOptions());
  EXPECT_FALSE(result.usedFallback()) << describe(result.fallback);
  return polyhedral::generateCAst(scop, result.schedule, deps, "c");
}

TEST_F(AstGenerationTest, CMarkIsAboveTheOutermostParallelLoop) {
  auto scop = gemmScop(ctx());
  isl::ast_node ast = cAst(*scop);
  // i (c0) is parallel: one mark, above the outermost loop; j, also
  // parallel, is not marked again inside it.
  std::vector<MarkInfo> marks = marksOf(ast);
  ASSERT_EQ(1u, marks.size()) << text(ast);
  EXPECT_EQ("omp_parallel_c0", marks[0].name);
  EXPECT_EQ("c0", marks[0].loop) << text(ast);
  EXPECT_TRUE(marks[0].outer.empty()) << text(ast);
  EXPECT_EQ(3u, loopsOf(ast).size()) << text(ast);
}

TEST_F(AstGenerationTest, CMarkSkipsASequentialOuterLoop) {
  auto scop = jacobiScop(ctx());
  isl::ast_node ast = cAst(*scop);
  // The time loop c0 carries the dependences: every mark is inside it,
  // above a loop c1 over i.
  std::vector<MarkInfo> marks = marksOf(ast);
  ASSERT_FALSE(marks.empty()) << text(ast);
  for (const MarkInfo &mark : marks) {
    EXPECT_EQ("omp_parallel_c1", mark.name) << text(ast);
    EXPECT_EQ("c1", mark.loop) << text(ast);
    EXPECT_EQ((std::vector<std::string>{"c0"}), mark.outer) << text(ast);
  }
}

TEST_F(AstGenerationTest, CRecurrenceHasNoMark) {
  auto scop = recurrenceScop(ctx());
  isl::ast_node ast = cAst(*scop);
  EXPECT_TRUE(marksOf(ast).empty()) << text(ast);
  ASSERT_EQ(1u, loopsOf(ast).size()) << text(ast);
  EXPECT_EQ("c0", iteratorOf(loopsOf(ast)[0]));
}

} // namespace
} // namespace polycuda::test
