//===- Scheduling.h - A legal, parallel schedule from isl ------*- C++ -*-===//
//
// Stage 2: Scop + Dependences -> isl schedule tree.
// Input: the statement domains and all dependences.
// Output: a schedule tree whose band members are marked coincident where no
// dependence is carried; every dependence is respected.
// The scheduler's work is bounded; when it gives up, a simpler legal schedule
// (the original loop structure, with parallel loops detected) is returned and
// `fallback` says why.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_SCHEDULING_H
#define POLYCUDA_POLYHEDRAL_SCHEDULING_H

#include "Dependences.h"

namespace polycuda::polyhedral {

/// Milliseconds isl's scheduler may take before the fallback is used (0:
/// no limit). Well within the translation's processor-time budget (the
/// driver's --cpu-budget): past that budget the whole scop runs on one
/// thread, while this fallback keeps the original loops' parallelism.
/// No inputs/ schedule takes half of it. Sanitizers slow isl down several
/// times: they get more.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr unsigned kScheduleTimeLimitMs = 8000;
#else
inline constexpr unsigned kScheduleTimeLimitMs = 800;
#endif

struct SchedulingOptions {
  /// isl operations the scheduler may spend before the fallback is used.
  unsigned long maxOperations = 20000000;
  /// Wall-clock bound of the scheduler (see kScheduleTimeLimitMs).
  unsigned timeLimitMs = kScheduleTimeLimitMs;
  /// Skip isl's scheduler and use the original loop structure.
  bool useOriginal = false;
  /// Original order with nothing parallel (a last-resort fallback).
  bool sequential = false;
  /// Give each strongly connected component of the dependence graph its own
  /// band (less fusion); used for scops whose statements were split.
  bool serializeSccs = false;
};

/// Why a scop keeps its original order, with what its words need;
/// describe() words it (the report, the remarks, -v).
struct ScheduleFallback {
  enum class Why {
    None,
    /// The dependence analysis is incomplete; `detail` says why
    /// (Dependences::incompleteReason).
    NoDependences,
    /// The original order on one thread was asked for
    /// (SchedulingOptions::sequential).
    Sequential,
    /// The original schedule was asked for (SchedulingOptions::useOriginal).
    Requested,
    /// isl's scheduler failed; `detail`: its message, if it gave one.
    SchedulerFailed,
    /// isl's scheduler exceeded its time limit, `value` ms.
    SchedulerTimeLimit,
    /// isl's schedule has a coefficient of `value`, above
    /// kMaxScheduleCoefficient.
    LargeCoefficient,
    /// The C target: isl's code for the parallel schedule failed its
    /// check in every loop mode.
    CCodeNotVerified,
    /// isl's code for the parallel GPU mapping failed its check in every
    /// loop mode.
    GpuCodeNotVerified,
    /// Generating code for the parallel GPU mapping exceeded its budget.
    GpuCodeBudget,
  };
  Why why = Why::None;
  std::string detail;
  long value = 0;
};

/// `fallback` in words.
std::string describe(const ScheduleFallback &fallback);

struct ScheduleResult {
  isl::schedule schedule;
  ScheduleFallback fallback;
  /// Whether the schedule is a fallback (the original order).
  bool usedFallback() const {
    return fallback.why != ScheduleFallback::Why::None;
  }
};

/// The largest absolute value of a coefficient (of an iterator or a
/// parameter) or constant in the band members of `schedule`.
long maxScheduleCoefficient(const isl::schedule &schedule);

/// Bound on maxScheduleCoefficient of a computed schedule. isl bounds the
/// coefficients it chooses itself (schedule_max_coefficient), but not those
/// of its Feautrier fallback, which were seen in the tens of thousands:
/// index arithmetic then overflows, and loops take far longer to enumerate.
inline constexpr long kMaxScheduleCoefficient = 64;

/// Computes a legal schedule for `scop` respecting `deps`.
ScheduleResult computeSchedule(const Scop &scop, const Dependences &deps,
                               const SchedulingOptions &options);

/// The original execution order as a schedule tree: a sequence per loop body,
/// a one-member band per loop, each member marked coincident when `deps`
/// carries nothing along it.
isl::schedule buildOriginalSchedule(const Scop &scop, const Dependences &deps);

} // namespace polycuda::polyhedral

#endif
