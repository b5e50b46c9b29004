//===- ThreadOrder.cpp - Column order of a kernel's blocks ----------------===//
//
// Part of stage 3: the order of a kernel's blocks (see ThreadOrder.h), and
// `auto`'s cache model.
//
//===----------------------------------------------------------------------===//
#include "ThreadOrder.h"

#include "Check.h"
#include "IslExtras.h"
#include "Persistent.h"

#include <map>
#include <optional>

namespace polycuda::polyhedral {

bool parseThreadOrder(const std::string &text, ThreadOrderRequest &request,
                      std::string &error) {
  request = ThreadOrderRequest();
  if (text == "linear")
    return true;
  if (text == "auto") {
    request.kind = ThreadOrderRequest::Kind::Auto;
    return true;
  }
  // column:W or column:W,zigzag, W of 1 to 7 digits.
  const std::string prefix = "column:", zigzag = ",zigzag";
  size_t digits = text.compare(0, prefix.size(), prefix) == 0
                      ? text.find_first_not_of("0123456789", prefix.size())
                      : 0;
  if (digits == std::string::npos)
    digits = text.size();
  size_t count = digits > prefix.size() ? digits - prefix.size() : 0;
  if (count < 1 || count > 7 ||
      (digits != text.size() && text.substr(digits) != zigzag)) {
    error = "use linear, column:W, column:W,zigzag or auto (W: a number of "
            "elements along the x dimension)";
    return false;
  }
  unsigned long width = std::stoul(text.substr(prefix.size(), count));
  if (width < 1 || width > (1u << 20)) {
    error = "the column width W must be between 1 and 1048576 elements";
    return false;
  }
  request.kind = ThreadOrderRequest::Kind::Column;
  request.width = width;
  request.zigzag = digits != text.size();
  return true;
}

unsigned memberOnHardware(const Kernel &kernel, unsigned hw) {
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    if (kernel.mapping->hardwareDim[d] == hw)
      return d;
  POLYCUDA_CHECK(false) << "no member on hardware dimension " << hw;
  return 0;
}

namespace {

/// A column of `width` elements for `kernel`: whole blocks along x (rounded
/// up; `requestedWidth` keeps `width`).
void setColumnWidth(const Kernel &kernel, unsigned width, bool zigzag,
                    ThreadOrder &order) {
  unsigned blockX = kernel.mapping->tileSize(memberOnHardware(kernel, 0));
  order.column = true;
  order.zigzag = zigzag;
  order.requestedWidth = width;
  order.widthBlocks = (width + blockX - 1) / blockX;
  order.width = order.widthBlocks * blockX;
}

/// The number of values of `set`'s only dimension, when it is a constant.
std::optional<long> constantExtent(const isl::set &set, unsigned d) {
  isl::pw_aff low = dimMin(set, d), high = dimMax(set, d);
  return constantValue(coalesced(high.sub(low)).add(
      constantOn(high.get_space().domain(), 1)));
}

/// The model's view of one kernel: the bytes that every row of blocks
/// reads again (references read along a sequential loop of the kernel
/// whose index ignores the member on y), and the number of elements along
/// x. Empty `arrays` when there is no such reference.
struct RowReuse {
  std::vector<std::string> references; ///< as `A (S1)`, for the report
  double bytes = 0;
  bool known = true; ///< every size is a constant
  long width = 0;
};

/// Whether reference `ref` of `kernel` reads a different element along the
/// kernel's own (sequential) loops with its mapped members fixed.
bool variesInside(const Scop &scop, const Kernel &kernel,
                  const ReferenceAccess &ref) {
  const Statement &stmt = scop.statements[ref.statement];
  isl::map schedule = pieceOf(kernel.mapping->localSchedule, stmt.name);
  unsigned members = schedule.range_tuple_dim();
  if (members <= kernel.mapping->numMapped)
    return false;
  isl::map elements = schedule.reverse().apply_range(
      stmt.accesses[ref.access].relation);
  elements = projectOutInputs(elements, kernel.mapping->numMapped,
                              members - kernel.mapping->numMapped);
  return !elements.is_single_valued();
}

RowReuse rowReuse(const Scop &scop, const Kernel &kernel) {
  RowReuse reuse;
  unsigned x = memberOnHardware(kernel, 0), y = memberOnHardware(kernel, 1);
  std::map<unsigned, isl::set> perArray; // array -> elements read
  for (const ReferenceAccess &ref : kernel.accesses) {
    const Statement &stmt = scop.statements[ref.statement];
    const Access &access = stmt.accesses[ref.access];
    AccessPattern alongX = ref.members[x].pattern;
    if (access.kind != Access::Kind::Read ||
        ref.members[y].pattern != AccessPattern::Broadcast ||
        alongX == AccessPattern::Broadcast ||
        alongX == AccessPattern::NoNeighbours ||
        !variesInside(scop, kernel, ref))
      continue;
    isl::set instances = kernel.domain.extract_set(stmt.domain.get_space())
                             .intersect_params(scop.context);
    isl::set elements =
        access.relation.intersect_domain(instances).range();
    auto it = perArray.find(access.array);
    if (it == perArray.end())
      perArray.emplace(access.array, elements);
    else
      it->second = it->second.unite(elements);
    reuse.references.push_back(scop.arrays[access.array].name + " (" +
                               stmt.name + ")");
  }
  for (const auto &[array, elements] : perArray) {
    double count = 1;
    for (unsigned d = 0; d < elements.tuple_dim(); ++d) {
      std::optional<long> n = constantExtent(elements, d);
      reuse.known &= n.has_value();
      count *= n.value_or(0);
    }
    reuse.bytes += count * elementBytes(scop.arrays[array].type);
  }
  isl::union_set values = kernel.mapping->memberSchedules[x]
                              .intersect_domain(kernel.domain)
                              .range()
                              .intersect_params(scop.context);
  std::optional<long> width;
  for (const isl::set &set : setsOf(values))
    width = constantExtent(set, 0);
  reuse.known &= width.has_value() && setsOf(values).size() == 1;
  reuse.width = width.value_or(0);
  return reuse;
}

/// Whether threads of neighbouring rows (along the member on y) read an
/// element in common: the union of the kernel's reads of one array,
/// as a map from the y member's value to elements, meets itself shifted
/// by one row (a stencil's neighbourhood overlaps the next row's).
bool rowsShareElements(const Scop &scop, const Kernel &kernel) {
  unsigned y = memberOnHardware(kernel, 1);
  std::map<unsigned, isl::union_map> perArray; // array -> { [y] -> element }
  for (const ReferenceAccess &ref : kernel.accesses) {
    const Statement &stmt = scop.statements[ref.statement];
    const Access &access = stmt.accesses[ref.access];
    if (access.kind != Access::Kind::Read)
      continue;
    isl::union_map rows =
        kernel.mapping->memberSchedules[y]
            .intersect_domain(
                isl::union_set(stmt.domain).intersect(kernel.domain))
            .reverse()
            .apply_range(isl::union_map(access.relation));
    auto it = perArray.find(access.array);
    if (it == perArray.end())
      perArray.emplace(access.array, rows);
    else
      it->second = it->second.unite(rows);
  }
  for (const auto &[array, rows] : perArray)
    for (const isl::map &byRow : mapsOf(rows)) {
      isl::map next(byRow.ctx(), "{ [y] -> [y + 1] }");
      if (!next.apply_range(byRow)
               .intersect(byRow)
               .intersect_params(scop.context)
               .is_empty())
        return true;
    }
  return false;
}

/// `auto`: column order when the data that consecutive rows of blocks
/// share does not stay in the cache in linear order (a row of blocks sweeps
/// the whole width before the next row reuses it) and does in columns.
/// Level 1 (per SM): the widest width of `device.widths` whose column
/// footprint fits L1. Level 2: the linear footprint exceeds the part of L2
/// it may count on; the narrowest width then.
ThreadOrder autoOrder(const Scop &scop, const Kernel &kernel,
                      const DeviceModel &device) {
  using Why = ThreadOrder::Why;
  ThreadOrder order;
  order.automatic = true;
  order.device = device.name;
  order.l1Budget = device.l1Bytes;
  order.l2Budget = device.l2Bytes * device.l2Fraction;
  RowReuse reuse = rowReuse(scop, kernel);
  unsigned blockX = kernel.mapping->tileSize(memberOnHardware(kernel, 0));
  if (reuse.references.empty()) {
    order.threads = blockThreads(kernel);
    order.blocksPerSm = device.maxThreadsPerMultiprocessor / order.threads;
    if (rowsShareElements(scop, kernel) && order.blocksPerSm <= 2) {
      // Columns one block wide for large blocks of a neighbourhood
      // (docs/mapping.md, "The mapping's numbers").
      order.why = Why::Neighbourhood;
      setColumnWidth(kernel, blockX, false, order);
      return order;
    }
    order.why = Why::NoRowReuse;
    return order;
  }
  order.references = reuse.references;
  if (!reuse.known) {
    order.why = Why::UnknownSize;
    return order;
  }
  order.linearFootprint = reuse.bytes;
  order.rowWidth = reuse.width;
  auto columnBytes = [&](unsigned w) {
    return reuse.bytes * std::min(1.0, double(w) / double(reuse.width));
  };
  auto fits = [&](unsigned w) {
    return w >= blockX && w % blockX == 0 && w < reuse.width;
  };
  std::optional<unsigned> chosen;
  if (reuse.bytes <= order.l1Budget) {
    order.why = Why::FitsL1;
  } else {
    order.why = Why::NoWidth;
    for (unsigned w : device.widths)
      if (fits(w) && columnBytes(w) <= order.l1Budget && !chosen) {
        chosen = w;
        order.why = Why::ColumnL1;
      }
    for (auto w = device.widths.rbegin(); !chosen && w != device.widths.rend();
         ++w)
      if (fits(*w) && reuse.bytes > order.l2Budget &&
          columnBytes(*w) <= order.l2Budget) {
        chosen = *w;
        order.why = Why::ColumnL2;
      }
  }
  if (chosen) {
    order.columnFootprint = columnBytes(*chosen);
    setColumnWidth(kernel, *chosen, false, order);
  }
  return order;
}

} // namespace

ThreadOrder chooseThreadOrder(const Scop &scop, const Kernel &kernel,
                              const ThreadOrderRequest &request,
                              const DeviceModel &device) {
  ThreadOrder order;
  using Kind = ThreadOrderRequest::Kind;
  using Why = ThreadOrder::Why;
  if (request.kind == Kind::Linear) {
    order.why = Why::Default;
    order.byDefault = true;
    return order;
  }
  if (kernel.mapping->numMapped < 2) {
    order.why =
        kernel.mapping->numMapped == 0 ? Why::OneThread : Why::OneDimension;
    order.automatic = request.kind == Kind::Auto;
    return order;
  }
  if (request.kind == Kind::Auto)
    return autoOrder(scop, kernel, device);
  order.why = Why::Requested;
  setColumnWidth(kernel, request.width, request.zigzag, order);
  return order;
}

isl::map columnOrderMap(isl::ctx ctx, unsigned widthBlocks, bool zigzag) {
  std::string w = std::to_string(widthBlocks);
  std::string column = "c = floor(x / " + w + ")";
  std::string forward = "q = " + w + " * y + x - " + w + " * c";
  std::string reversed =
      "q = " + w + " * y + " + w + " - 1 - (x - " + w + " * c)";
  std::string order = zigzag ? "((y mod 2 = 0 and " + forward +
                                   ") or (y mod 2 = 1 and " + reversed + "))"
                             : forward;
  return isl::map(ctx, "{ [x, y] -> [c, q] : x >= 0 and y >= 0 and " +
                           column + " and " + order + " }");
}

isl::union_pw_aff_list columnBand(const isl::union_pw_aff &x,
                                  const isl::union_pw_aff &y,
                                  const isl::union_pw_aff &z,
                                  unsigned widthBlocks, bool zigzag) {
  long w = widthBlocks;
  isl::union_pw_aff c = floorDiv(x, w);
  isl::union_pw_aff inColumn = x.sub(scaled(c, w));
  isl::union_pw_aff q = scaled(y, w).add(inColumn);
  if (zigzag) {
    // Odd rows run from the column's right edge to its left.
    isl::union_set domain = x.domain();
    isl::union_set even = zeroSet(y.sub(scaled(floorDiv(y, 2), 2)));
    isl::union_pw_aff back = scaled(y, w).sub(inColumn).add(
        constantOnDomain(domain, w - 1));
    q = q.intersect_domain(even).union_add(
        back.intersect_domain(domain.subtract(even)));
  }
  isl::union_pw_aff_list band(x.ctx(), 3);
  if (!z.is_null())
    band = band.add(z);
  return band.add(c).add(q);
}

namespace {

/// `{ [g0, g1] -> [x, y] }`: the inverse of columnOrderMap with (c, q) =
/// (g1, g0), in closed form (isl's own inverse of the map has more pieces).
isl::multi_pw_aff gridToBlock(isl::ctx ctx, unsigned widthBlocks,
                              bool zigzag) {
  std::string w = std::to_string(widthBlocks);
  std::string quadrant = "g0 >= 0 and g1 >= 0";
  std::string y = "{ [g0, g1] -> [(floor(g0 / " + w + "))] : " + quadrant + " }";
  std::string x = "{ [g0, g1] -> [(" + w + " * g1 + (g0 mod " + w + "))] : " +
                  quadrant;
  if (zigzag)
    x += " and floor(g0 / " + w + ") mod 2 = 0; [g0, g1] -> [(" + w +
         " * g1 + " + w + " - 1 - (g0 mod " + w + "))] : " + quadrant +
         " and floor(g0 / " + w + ") mod 2 = 1";
  x += " }";
  isl::pw_aff_list list(ctx, 2);
  list = list.add(isl::pw_aff(ctx, x)).add(isl::pw_aff(ctx, y));
  isl::space space = isl::map(ctx, "{ [g0, g1] -> [x, y] }").get_space();
  return isl::multi_pw_aff(space, list);
}

} // namespace

std::vector<isl::pw_aff> blocksOfGrid(const Kernel &kernel,
                                      const std::vector<std::string> &gridNames) {
  isl::ctx ctx = kernel.instances.ctx();
  unsigned wb = kernel.mapping->order.widthBlocks;
  isl::map order = columnOrderMap(ctx, wb, kernel.mapping->order.zigzag);
  isl::multi_pw_aff inverse =
      gridToBlock(ctx, wb, kernel.mapping->order.zigzag);
  // Every grid position of the quadrant is the position of exactly one
  // block and the block computes it back: each block, hence each instance,
  // runs exactly once.
  isl::map back = inverse.as_map().apply_range(order);
  POLYCUDA_CHECK(order.is_injective() && order.is_single_valued() &&
                 back.is_equal(isl::map(
                     ctx, "{ [g0, g1] -> [g1, g0] : g0 >= 0 and g1 >= 0 }")))
      << "column order is not a bijection of the blocks";
  std::vector<isl::pw_aff> blocks(kernel.mapping->numMapped);
  std::vector<std::string> xy = {gridNames[0], gridNames[1]};
  blocks[memberOnHardware(kernel, 0)] =
      onParams(inputsToParams(inverse.at(0), xy));
  blocks[memberOnHardware(kernel, 1)] =
      onParams(inputsToParams(inverse.at(1), xy));
  if (kernel.mapping->numMapped == 3)
    blocks[memberOnHardware(kernel, 2)] = onParams(
        isl::pw_aff(ctx, "[" + gridNames[2] + "] -> { [(" + gridNames[2] +
                             ")] : " + gridNames[2] + " >= 0 }"));
  return blocks;
}

std::vector<isl::pw_aff> columnGrid(const Kernel &kernel,
                                    const std::vector<isl::pw_aff> &blocks) {
  isl::pw_aff x = blocks[memberOnHardware(kernel, 0)];
  isl::pw_aff y = blocks[memberOnHardware(kernel, 1)];
  isl::val w(x.ctx(), kernel.mapping->order.widthBlocks);
  isl::pw_aff wMinusOne =
      constantOn(x.get_space().domain(), kernel.mapping->order.widthBlocks - 1);
  std::vector<isl::pw_aff> grid = {y.scale(w),
                                   x.add(wMinusOne).scale_down(w).floor()};
  if (kernel.mapping->numMapped == 3)
    grid.push_back(blocks[memberOnHardware(kernel, 2)]);
  return grid;
}

} // namespace polycuda::polyhedral
