//===- TransferRecord.h - An array's device copies --------------*- C++ -*-===//
//
// The record of one array's device copy (its boxes, directions, method and
// why), made by Transfers.h and placed in the host code by placeTransfers;
// part of GpuProgram.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_TRANSFERRECORD_H
#define POLYCUDA_POLYHEDRAL_TRANSFERRECORD_H

#include <isl/cpp.h>

#include <optional>
#include <vector>

namespace polycuda::polyhedral {

/// The lexicographically first and last element of a set of array elements,
/// one function of the parameters per dimension. Row-major linearization of
/// `first` and `last` bounds the contiguous range that holds the set.
struct ElementRange {
  std::vector<isl::pw_aff> first;
  std::vector<isl::pw_aff> last;
};

/// A box of array elements: per dimension, the first and the last index as
/// functions of the parameters. Where the box is empty for some parameter
/// values, its bounds there are 0 and -1.
struct ElementBox {
  std::vector<isl::pw_aff> lower;
  std::vector<isl::pw_aff> upper;
  /// Bands (empty unless the box holds far more than the elements to copy,
  /// a triangle): the copy is cut into at most kCopyBands bands of
  /// consecutive indices of the first dimension of the transfer's
  /// `allocated` box (the same bands both ways), and each band copies only
  /// the box of its own elements: per dimension `bandLower`/`bandUpper`,
  /// functions of the parameters of `bandContext`, the scop's and
  /// kBandFirst, kBandLast (the band's first and last index of dimension
  /// 0).
  std::vector<isl::pw_aff> bandLower, bandUpper;
  std::optional<isl::set> bandContext;
  bool banded() const { return !bandLower.empty(); }
};

/// The most bands of a banded copy, and the names of the parameters that
/// bound a band in ElementBox::bandLower and bandUpper (variables of the
/// printed host code).
inline constexpr unsigned kCopyBands = 16;
inline constexpr const char *kBandFirst = "polycuda_band_first";
inline constexpr const char *kBandLast = "polycuda_band_last";

/// How the runtime moves an array's bytes (`--transfers`; see
/// runtime/polycuda_cuda.h). OpenCL copies are plain whatever the method.
enum class TransferMethod { Auto, Plain, Staged };

/// The device copy of one array: allocated up to the last element of the
/// box that holds every accessed element (`allocated.upper`), copied in
/// over the box `in` (the elements read before the scop writes them, and
/// those of `out` that it may not write), copied out over the box `out`
/// (the box of the written elements). Copying `out` back clobbers no host
/// value: each of its elements is written by the scop or was copied in.
struct Transfer {
  unsigned array = 0;
  bool toDevice = false;
  bool toHost = false;
  ElementRange accessed;
  ElementRange written;
  ElementBox allocated;
  ElementBox in;
  ElementBox out;
  /// Why the array is (or is not) copied in and out; the report words it
  /// (with the bands of `in` and `out`, `outWidened` and `wholeWhy`).
  enum class In {
    Local,            ///< local to the scop: never copied
    WrittenFirst,     ///< every element is written before it is read
    LiveIn,           ///< read before it is written
    KeepsUnwritten,   ///< holds the host values of `out`'s unwritten ones
    LiveInAndKeepsUnwritten, ///< both of the above
    Whole,            ///< all it accesses (`wholeWhy`)
  };
  enum class Out {
    Local,      ///< local to the scop: never copied
    Written,    ///< the box of the written elements
    NotWritten, ///< the scop writes none
    Whole,      ///< written, all it accesses (`wholeWhy`)
  };
  In inWhy = In::Local;
  Out outWhy = Out::Local;
  /// Why it moves whole (`whole()`).
  enum class WholeWhy {
    Cheapest, ///< the cheapest fallbacks (past the processor-time budget)
    Budget,   ///< the exact copy sets exceeded their isl budget
  };
  WholeWhy wholeWhy = WholeWhy::Cheapest;
  /// `out` spans the copy-in box's rows (widenOutBox).
  bool outWidened = false;
  /// Whether `in` (`out`) holds no element more than needed.
  bool inExact = true;
  bool outExact = true;
  /// A fallback: the array moves as the box of all it accesses, both ways
  /// (the cheapest copies, or exact copy sets past their isl budget).
  bool whole() const { return inWhy == In::Whole; }
  TransferMethod method = TransferMethod::Auto;
};

/// Where the host code of a scop does its transfers (placeTransfers), in
/// terms of the top-level parts of its host AST (topLevelParts). Each
/// list holds indices into GpuProgram::transfers, in their order.
struct TransferPlacement {
  /// Per part, and one entry after the last: the copies to the device
  /// just before the part, the first whose kernels use the array (so that
  /// the host's share of later copies overlaps the kernels before them);
  /// after the last part, those of arrays no kernel uses.
  std::vector<std::vector<unsigned>> copyInBefore;
  /// Per part: the arrays copied back whose last writer is this part,
  /// not the last one; each is marked written after it, and its copy to
  /// the host waits for the kernels up to the mark only (3mm's F and E,
  /// copied while G is computed).
  std::vector<std::vector<unsigned>> markWrittenAfter;
  /// The copies to the host, after every kernel was launched, in the
  /// order of their arrays' last writers.
  std::vector<unsigned> copyOutOrder;
};

} // namespace polycuda::polyhedral

#endif
