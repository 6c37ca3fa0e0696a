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
#include "llvm/ADT/StringSwitch.h"

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

//===----------------------------------------------------------------------===//
// tcgen05.cp
//===----------------------------------------------------------------------===//

std::optional<TmemCopyShape> tilepipe::emu::parseTmemCopyShape(llvm::StringRef name) {
  std::string flat;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.substr(i).starts_with("::"))
      ++i; // "warpx2::02_13" -> "warpx2_02_13"
    flat += name[i] == '.' || name[i] == ':' ? '_' : name[i];
  }
  return llvm::StringSwitch<std::optional<TmemCopyShape>>(flat)
      .Case("128x256b", TmemCopyShape::S128x256b)
      .Case("4x256b", TmemCopyShape::S4x256b)
      .Case("128x128b", TmemCopyShape::S128x128b)
      .Case("64x128b_warpx2_02_13", TmemCopyShape::S64x128bWarpx2_02_13)
      .Case("64x128b_warpx2_01_23", TmemCopyShape::S64x128bWarpx2_01_23)
      .Case("32x128b_warpx4", TmemCopyShape::S32x128bWarpx4)
      .Default(std::nullopt);
}

llvm::Error tilepipe::emu::tmemCopyFromShared(TensorMemory &tmem, TmemCopyShape shape,
                                              uint32_t address, uint64_t sdesc,
                                              SharedWindow shared) {
  // Rows and bytes per row of the source, and the sub-partitions (lane
  // offsets) each group of 32 rows goes to.
  unsigned rows = 128, rowBytes = 16;
  llvm::SmallVector<unsigned, 4> copies = {0};
  unsigned rowGroupStride = 32; // lane offset of the next 32 source rows
  switch (shape) {
  case TmemCopyShape::S128x256b: rowBytes = 32; break;
  case TmemCopyShape::S4x256b: rows = 4, rowBytes = 32; break;
  case TmemCopyShape::S128x128b: break;
  case TmemCopyShape::S64x128bWarpx2_02_13: // rows 0-31 to warps 0, 2; 32-63 to 1, 3
    rows = 64, copies = {0, 64};
    break;
  case TmemCopyShape::S64x128bWarpx2_01_23: // rows 0-31 to warps 0, 1; 32-63 to 2, 3
    rows = 64, copies = {0, 32}, rowGroupStride = 64;
    break;
  case TmemCopyShape::S32x128bWarpx4: rows = 32, copies = {0, 32, 64, 96}; break;
  }
  llvm::Expected<MatrixDescriptor> desc = decodeTcgen05SmemDescriptor(sdesc);
  if (!desc)
    return desc.takeError();
  TmemAddress base = TmemAddress::decode(address);
  unsigned lanes = (rows - 1) / 32 * rowGroupStride + (rows - 1) % 32 + 1 + copies.back();
  if (std::string why = tmem.checkAllocated(base, lanes, rowBytes / 4); !why.empty())
    return fail("tcgen05.cp to tensor memory address 0x" + llvm::utohexstr(address) + ": " + why);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned byte = 0; byte < rowBytes; ++byte) {
      uint32_t at = desc->elementAddress(false, 1, r, byte);
      if (at >= shared.bytes)
        return fail("tcgen05.cp source byte (" + llvm::Twine(r) + ", " + llvm::Twine(byte) +
                    ") at shared address " + llvm::Twine(at) + " lies outside the " +
                    llvm::Twine(shared.bytes) + " bytes of shared memory");
      unsigned lane = base.lane + r / 32 * rowGroupStride + r % 32;
      for (unsigned copy : copies) {
        uint32_t &cell = tmem.cell(lane + copy, base.column + byte / 4);
        unsigned shift = 8 * (byte % 4);
        cell = (cell & ~(0xffu << shift)) | uint32_t(shared.base[at]) << shift;
      }
    }
  return llvm::Error::success();
}

llvm::Error tilepipe::emu::tmemShiftDown(TensorMemory &tmem, uint32_t address) {
  TmemAddress base = TmemAddress::decode(address);
  std::string why = base.lane % 32 ? "the lane is not a multiple of 32"
                                   : tmem.checkAllocated(base, 32, 8);
  if (!why.empty())
    return fail("tcgen05.shift at tensor memory address 0x" + llvm::utohexstr(address) + ": " +
                why);
  for (unsigned lane = base.lane + 31; lane > base.lane; --lane)
    for (unsigned c = base.column; c < base.column + 8; ++c)
      tmem.cell(lane, c) = tmem.cell(lane - 1, c);
  return llvm::Error::success();
}
