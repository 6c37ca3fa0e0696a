//===- Tcgen05Memory.cpp - Tensor memory: allocation and ld/st fragments ---===//
//
// PTX ISA 9.7.16.2 "Tensor Memory" and 9.7.16.8 "tcgen05.ld / tcgen05.st".
// A warp may only access the 32 lanes of its sub-partition: warp w reaches
// lanes 32 * (w % 4) .. 32 * (w % 4) + 31 ("Access restrictions"). Within
// them the five data movement shapes place register `r` of thread `t` at
// (with g = t / 4, the thread's group of four):
//   32x32b   lane t,                column r
//   16x64b   lane g + 8 (t % 2),    column 2r + (t / 2) % 2
//   16x128b  lane g + 8 (r % 2),    column 4 (r / 2) + t % 4
//   16x256b  lane g + 8 (r / 2 % 2), column 8 (r / 4) + 2 (t % 4) + r % 2
//   16x32bx2 lane t % 16,           column r (+ immHalfSplitoff for t >= 16)
// (the figures "Matrix fragment for shape .16x64b" etc.; .xN repeats the
// pattern N times along the columns). With .pack::16b (ld) / .unpack::16b
// (st) a register holds the low 16 bits of two adjacent columns: the
// pattern applies to 16-bit cells, two per 32-bit column pair.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilepipe::emu;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// 32-bit columns one repetition of `shape` covers per lane.
unsigned shapeWidth(TmemShape shape) {
  switch (shape) {
  case TmemShape::S32x32b:
  case TmemShape::S16x32bx2: return 1;
  case TmemShape::S16x64b: return 2;
  case TmemShape::S16x128b: return 4;
  case TmemShape::S16x256b: return 8;
  }
  return 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

std::optional<unsigned> TensorMemory::allocate(unsigned columns) {
  if (allocations_.empty())
    allocations_.assign(kTmemColumns, 0);
  // First fit on the 32-column allocation granularity.
  for (unsigned start = 0; start + columns <= kTmemColumns; start += 32) {
    bool free = true;
    for (unsigned c = start; c < start + columns && free; c += 32)
      free = owner(c) == kTmemColumns;
    if (free) {
      allocations_[start] = columns;
      return start;
    }
  }
  return std::nullopt;
}

std::string TensorMemory::deallocate(unsigned column, unsigned columns) {
  if (column >= kTmemColumns || allocations_.empty() || allocations_[column] == 0)
    return "column " + std::to_string(column) + " does not start an allocation";
  if (allocations_[column] != columns)
    return "the allocation at column " + std::to_string(column) + " has " +
           std::to_string(allocations_[column]) + " columns, not " + std::to_string(columns);
  allocations_[column] = 0;
  return "";
}

/// The first column of the allocation holding `column`, or kTmemColumns.
unsigned TensorMemory::owner(unsigned column) const {
  if (allocations_.empty())
    return kTmemColumns;
  for (unsigned start = 0; start <= column && start < kTmemColumns; start += 32)
    if (allocations_[start] && column < start + allocations_[start])
      return start;
  return kTmemColumns;
}

std::string TensorMemory::checkAllocated(TmemAddress at, unsigned lanes,
                                         unsigned columns) const {
  if (at.lane + lanes > kTmemLanes || at.column + columns > kTmemColumns)
    return "lanes " + std::to_string(at.lane) + ".." + std::to_string(at.lane + lanes - 1) +
           ", columns " + std::to_string(at.column) + ".." +
           std::to_string(at.column + columns - 1) + " lie outside the 128 x 512 tensor memory";
  for (unsigned c = at.column; c < at.column + columns; ++c)
    if (owner(c) == kTmemColumns)
      return "column " + std::to_string(c) + " of tensor memory is not allocated";
  return "";
}

unsigned TensorMemory::allocatedColumns() const {
  unsigned total = 0;
  for (unsigned columns : allocations_)
    total += columns;
  return total;
}

//===----------------------------------------------------------------------===//
// tcgen05.ld / tcgen05.st
//===----------------------------------------------------------------------===//

unsigned tilepipe::emu::tmemRegisters(TmemShape shape, unsigned num) {
  switch (shape) {
  case TmemShape::S16x128b: return 2 * num;
  case TmemShape::S16x256b: return 4 * num;
  default: return num;
  }
}

TmemCellOffset tilepipe::emu::tmemFragmentCell(TmemShape shape, unsigned t, unsigned r) {
  unsigned g = t / 4;
  switch (shape) {
  case TmemShape::S32x32b: return {t, r};
  case TmemShape::S16x64b: return {g + 8 * (t % 2), 2 * r + (t / 2) % 2};
  case TmemShape::S16x128b: return {g + 8 * (r % 2), 4 * (r / 2) + t % 4};
  case TmemShape::S16x256b: return {g + 8 * (r / 2 % 2), 8 * (r / 4) + 2 * (t % 4) + r % 2};
  case TmemShape::S16x32bx2: return {t % 16, r};
  }
  return {0, 0};
}

unsigned tilepipe::emu::tmemShapeColumns(TmemShape shape, unsigned num, unsigned halfSplit,
                                         bool packed) {
  unsigned columns = shapeWidth(shape) * num * (packed ? 2 : 1);
  return shape == TmemShape::S16x32bx2 ? halfSplit + columns : columns;
}

llvm::Error tilepipe::emu::tmemLoadStore(TensorMemory &tmem, bool load, TmemShape shape,
                                         unsigned num, bool packed, uint32_t address,
                                         unsigned halfSplit, unsigned warp, unsigned laneInWarp,
                                         uint32_t *regs) {
  TmemAddress base = TmemAddress::decode(address);
  const char *op = load ? "tcgen05.ld" : "tcgen05.st";
  unsigned quarter = 32 * (warp % 4), lanes = tmemShapeLanes(shape);
  if (base.lane < quarter || base.lane + lanes > quarter + 32)
    return fail(llvm::Twine(op) + " of lanes " + llvm::Twine(base.lane) + ".." +
                llvm::Twine(base.lane + lanes - 1) + " by warp " + llvm::Twine(warp) +
                ", which may only access lanes " + llvm::Twine(quarter) + ".." +
                llvm::Twine(quarter + 31) + " (warp id % 4 selects the sub-partition)");
  if (std::string why =
          tmem.checkAllocated(base, lanes, tmemShapeColumns(shape, num, halfSplit, packed));
      !why.empty())
    return fail(llvm::Twine(op) + " at tensor memory address 0x" +
                llvm::utohexstr(address) + ": " + why);
  for (unsigned r = 0, n = tmemRegisters(shape, num); r < n; ++r) {
    TmemCellOffset cell = tmemFragmentCell(shape, laneInWarp, r);
    unsigned lane = base.lane + cell.lane;
    unsigned column = base.column + (packed ? 2 : 1) * cell.column;
    if (shape == TmemShape::S16x32bx2 && laneInWarp >= 16)
      column += halfSplit;
    uint32_t &lo = tmem.cell(lane, column);
    if (!packed) {
      if (load)
        regs[r] = lo;
      else
        lo = regs[r];
      continue;
    }
    uint32_t &hi = tmem.cell(lane, column + 1);
    if (load) {
      regs[r] = (lo & 0xffff) | hi << 16;
    } else {
      lo = regs[r] & 0xffff;
      hi = regs[r] >> 16;
    }
  }
  return llvm::Error::success();
}
