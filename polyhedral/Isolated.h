//===- Isolated.h - Work bounded by processor time --------------*- C++ -*-===//
//
// Some of isl's algorithms (the scheduler's integer LPs above all) do not
// count their work against isl's operation limit, and a few programs keep
// them busy for tens of seconds. Such work runs in a child process that is
// killed at a deadline; its result travels back as text.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_ISOLATED_H
#define POLYCUDA_POLYHEDRAL_ISOLATED_H

#include <functional>
#include <optional>
#include <string>

namespace polycuda::polyhedral {

/// Runs `work` in a child process (fork) and returns the text it returned,
/// or nothing when it used more than `limitMs` milliseconds of processor
/// time, or ran kWallFactor times that long by the clock (it is then
/// killed), threw, or died. Processor time, not wall-clock time: on a
/// loaded machine the work gets as far as on an idle one, so that what
/// polycuda prints does not depend on the load. Only for work whose effect
/// is its result: the child's other changes are lost. Must not be called
/// while other threads run. With `limitMs` 0, runs `work` here, unbounded.
std::optional<std::string>
runWithDeadline(const std::function<std::string()> &work, unsigned limitMs);

/// How work run by runInChild ended.
struct ChildOutcome {
  std::optional<std::string> result; ///< what the work returned, if it did
  int exitCode = 0;                  ///< the child's exit status otherwise
  int signal = 0;                    ///< the signal that killed it, or 0
  /// It used more processor time than its limit and was killed.
  bool overTime = false;
  /// The notes the work made (noteInChild), however it ended: a bit each.
  unsigned notes = 0;
};

/// Notes, for the caller of runInChild, that the work in the child took a
/// costly path (`note` < 32, its meaning the caller's): the caller sees it
/// in ChildOutcome::notes also when the child was killed over its time
/// (a cheaper translation then leaves that path out). Nothing outside a
/// child.
void noteInChild(unsigned note);

/// Runs `work` in a child process without a deadline, so that a crash in a
/// library (isl has a few) ends the child and not the caller. The child
/// ends with exit() (static destructors and leak checks run there, as in a
/// normal process); whatever `work` does besides returning its result
/// (output printed, files written) happens in the child. Output buffered
/// by the caller is flushed first, so that it is not printed twice. Must
/// not be called while other threads run.
///
/// With `cpuLimitMs` (not 0), the child is killed once it and the processes
/// it started, together, have used that much processor time (user and
/// system, all threads): a bound on the work, which unlike wall-clock time
/// does not grow when other programs load the machine. `moreForNotes`, if
/// given, raises the limit to what it returns for the notes made so far
/// (noteInChild): work that noted a costly path may take longer.
ChildOutcome
runInChild(const std::function<std::string()> &work, unsigned cpuLimitMs = 0,
           const std::function<unsigned(unsigned notes)> &moreForNotes = {});

/// Milliseconds of processor time process `pid` and its descendants have
/// used (those that ended, once waited for, included); 0 if unknown.
unsigned long processTreeCpuMs(int pid);

} // namespace polycuda::polyhedral

#endif
