//===- Driver_Translate.cpp - The translation, guarded --------------------===//
//
// Parses the input, runs the pipeline and prints the code and the report
// in a child process with a processor-time budget, and translates again
// with fallbacks when isl crashes or the budget runs out.
//
//===----------------------------------------------------------------------===//
#include "DriverInternal.h"

#include "IslExtras.h"
#include "Isolated.h"
#include "Report.h"
#include "Translation.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <csignal>
#include <cstdlib>
#include <unistd.h>

namespace polycuda::translator::driver {

namespace {


/// Owns the isl context of one run (style: no global context).
class IslContext {
public:
  isl::ctx get() const { return isl::ctx(ctx.get()); }

private:
  std::shared_ptr<isl_ctx> ctx = polyhedral::makeSharedContext();
};


/// isl's operation budgets bound most analyses, but not every one of
/// them tracks time well; this bounds the whole translation. Nothing has
/// been written when it fires: output files are written after it is
/// cancelled.
void startTimeLimit(unsigned seconds) {
  if (seconds == 0)
    return;
  std::signal(SIGALRM, [](int) {
    const char message[] = "polycuda: error: translation exceeded its time "
                           "limit (--time-limit); the scop is too complex "
                           "for polycuda\n";
    (void)!write(2, message, sizeof(message) - 1);
    _exit(1);
  });
  alarm(seconds);
}

TranslationOptions translationOptions(const Options &options,
                                      const Settings &settings) {
  TranslationOptions translation;
  translation.target = settings.target;
  translation.pipeline = settings.pipeline;
  translation.dumpSchedule = options.dumpSchedule;
  translation.emitCl = options.emitCl;
  translation.verbose = options.verbose;
  translation.fpContract = settings.fpContract;
  return translation;
}

/// The report in `settings.reportFormat` ("" without one); false after an
/// internal error was printed.
bool printReport(const ParsedInput &input, const Translation &result,
                 const Options &options, const Settings &settings,
                 std::string &reportOutput) {
  if (settings.reportFormat.empty())
    return true;
  ReportOptions reportOptions;
  reportOptions.target = settings.target;
  reportOptions.scheduleTree = options.explainTree;
  try {
    if (settings.reportFormat == "json") {
      llvm::raw_string_ostream os(reportOutput);
      os << llvm::formatv("{0:2}", reportJson(input, result, reportOptions))
         << "\n";
    } else {
      reportOutput = reportText(input, result, reportOptions);
    }
  } catch (const std::exception &e) {
    llvm::errs() << "polycuda: internal compiler error in the report: "
                 << e.what() << "\n";
    return false;
  }
  return true;
}


/// translateInput's status when isl failed with an internal error (see
/// translateGuarded); never polycuda's own exit status.
constexpr int kIslFailedExit = 70;

std::string encode(const Translated &t) {
  std::string out = std::to_string(t.rc) + "\n";
  for (const std::string *part : {&t.report, &t.text, &t.hostText, &t.clText})
    out += std::to_string(part->size()) + "\n" + *part;
  return out;
}

Translated decode(const std::string &text) {
  Translated t;
  size_t pos = text.find('\n');
  t.rc = std::stoi(text.substr(0, pos));
  for (std::string *part : {&t.report, &t.text, &t.hostText, &t.clText}) {
    size_t end = text.find('\n', ++pos);
    size_t size = std::stoul(text.substr(pos, end - pos));
    *part = text.substr(end + 1, size);
    pos = end + size;
  }
  return t;
}


/// Parses and translates the input, and prints the report into the
/// result: everything that works with isl.
Translated translateInput(const Options &options, const Settings &settings) {
  Translated out;
  // A crash on demand, to test translateGuarded's retry without isl's help.
  const char *crash = std::getenv("POLYCUDA_CRASH_FOR_TESTING");
  if (crash && std::string(crash) == "1" &&
      !settings.pipeline.skipDependences)
    std::abort();
  startTimeLimit(options.timeLimit);
  IslContext isl;
  ParsedInput input;
  bool ok;
  {
    StageTimer timer(options.verbose, options.input + ": stage parse");
    ok = parseInput(options.input, settings.frontend, isl.get(), input);
  }
  Translation result;
  if (!ok || options.verify)
    out.rc = ok ? 0 : 1;
  else if (!translate(input, translationOptions(options, settings), result) ||
           !printReport(input, result, options, settings, out.report))
    out.rc = polyhedral::islFailedInternally() ? kIslFailedExit : 1;
  alarm(0);
  out.text = std::move(result.text);
  out.hostText = std::move(result.hostText);
  out.clText = std::move(result.clText);
  llvm::outs().flush();
  return out;
}

/// Warns that the translation is done again with a fallback: `reason`,
/// then its `effect` on the code.
void warnFallback(const Options &options, const std::string &reason,
                  const std::string &effect) {
  if (options.verbose)
    llvm::errs() << "polycuda: " << options.input
                 << ": fallback: cpu budget: " << reason << "\n";
  llvm::errs() << "polycuda: warning: " << options.input << ": " << reason
               << ": " << effect << "\n";
}

/// After a child ran past its processor-time `budget`: the settings of
/// the next try (first without tiled wavefronts, the costly part: isl's
/// code for the tiles takes most of a second; then the cheapest fallbacks).
void fallBackOverTime(const Options &options, Settings &settings,
                      const polyhedral::ChildOutcome &outcome,
                      unsigned budget) {
  if (outcome.notes & (1u << polyhedral::kTiledWavefrontNote)) {
    warnFallback(options,
                 "the translation with tiled wavefronts exceeded its "
                 "processor-time budget (" +
                     std::to_string(budget + kTiledWavefrontCpuMs) +
                     " ms, --cpu-budget and " +
                     std::to_string(kTiledWavefrontCpuMs) +
                     " ms more for the tiles); translated again without "
                     "them",
                 "each wavefront is one launch");
    settings.pipeline.mapping.tiledWavefronts = false;
    return;
  }
  std::string reason = "the translation exceeded its processor-time budget (" +
                       std::to_string(options.cpuBudget) +
                       " ms, --cpu-budget); translated again with its "
                       "cheapest fallbacks";
  warnFallback(options, reason,
               "every scop keeps its original order on one thread");
  settings.pipeline.makeMinimal(reason);
}

/// After the translation failed (`what`: "isl failed (internal error
/// above)", or "the translation crashed (signal N)", in isl or in a check
/// of polycuda's own): false when it did so without the dependence
/// analysis (an internal error, printed when `crashed`), else true, the
/// next try without it.
bool fallBackIslFailed(const Options &options, Settings &settings,
                       const std::string &what, bool crashed) {
  if (settings.pipeline.skipDependences) {
    if (crashed)
      llvm::errs() << "polycuda: internal compiler error: " << options.input
                   << ": " << what << " also without the dependence "
                   << "analysis\n";
    return false;
  }
  llvm::errs() << "polycuda: warning: " << options.input << ": " << what
               << "; translating again without the dependence analysis: "
                  "every scop keeps its original order on one thread\n";
  settings.pipeline.skipDependences = true;
  if (crashed)
    settings.pipeline.skipReason = "the dependence analysis was not run "
                                   "(the translation crashed)";
  return true;
}

} // namespace

/// translateInput in a child process: isl 0.25 crashes on a few programs
/// (a segmentation fault in its dataflow analysis, random program 5004808).
/// After a crash the input is translated again without the dependence
/// analysis, so every scop keeps its original order on one thread; a
/// second crash is an internal error. The child has --cpu-budget of
/// processor time (isl's operation limits bound most analyses, but count
/// only its LP pivots, and some random programs took tens of seconds
/// within them): past it, the input is translated again with the cheapest
/// fallbacks (PipelineOptions::minimal), which are always right.
/// POLYCUDA_NO_FORK=1 translates in this process (for debuggers), unbounded.
Translated translateGuarded(const Options &options, Settings settings) {
  const char *noFork = std::getenv("POLYCUDA_NO_FORK");
  if (noFork && std::string(noFork) == "1") {
    Translated done = translateInput(options, settings);
    if (done.rc == kIslFailedExit)
      done.rc = 1;
    return done;
  }
  for (;;) {
    llvm::outs().flush();
    bool bounded = !settings.pipeline.skipDependences;
    unsigned budget = bounded ? unsigned(options.cpuBudget) : 0;
    polyhedral::ChildOutcome outcome = polyhedral::runInChild(
        [&] { return encode(translateInput(options, settings)); }, budget,
        [&](unsigned notes) {
          return notes & (1u << polyhedral::kTiledWavefrontNote)
                     ? budget + kTiledWavefrontCpuMs
                     : budget;
        });
    if (outcome.result) {
      Translated done = decode(*outcome.result);
      if (done.rc != kIslFailedExit)
        return done;
      // An internal error of isl: the memory corruption behind the crashes
      // below shows so too; the same remedy.
      done.rc = 1;
      if (!fallBackIslFailed(options, settings,
                             "isl failed (internal error above)", false))
        return done;
      continue;
    }
    if (outcome.overTime) {
      fallBackOverTime(options, settings, outcome, budget);
      continue;
    }
    Translated failed;
    failed.rc = outcome.exitCode ? outcome.exitCode : 1;
    if (outcome.signal == 0 ||
        !fallBackIslFailed(options, settings,
                           "the translation crashed (signal " +
                               std::to_string(outcome.signal) + ")",
                           true))
      return failed;
  }
}

} // namespace polycuda::translator::driver
