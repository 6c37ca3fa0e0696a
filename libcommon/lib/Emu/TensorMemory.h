//===- TensorMemory.h - A CTA's Blackwell tensor memory --------------------===//
//
// PTX ISA 9.7.16.2 "Tensor Memory": 128 lanes x 512 columns of 32-bit cells
// per CTA, addressed by a 32-bit value with the lane in bits 31..16 and the
// column in bits 15..0, allocated by column (tcgen05.alloc). The Runtime
// holds one for the running CTA; the tcgen05 instructions (Tcgen05.h) use it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_TENSORMEMORY_H
#define TILEPIPE_LIB_EMU_TENSORMEMORY_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::emu {

constexpr unsigned kTmemLanes = 128, kTmemColumns = 512;

/// A tensor memory address: lane in bits 31..16, column in bits 15..0.
struct TmemAddress {
  unsigned lane = 0, column = 0;
  static TmemAddress decode(uint32_t bits) { return {bits >> 16, bits & 0xffff}; }
  uint32_t encode() const { return uint32_t(lane) << 16 | column; }
};

/// One CTA's tensor memory and its column allocator ("Tensor Memory
/// Allocation": power-of-2 column counts from 32 to 512, all lanes at once;
/// placed first fit on the 32-column granularity). The cells persist from
/// one allocation to the next, as on the GPU (nothing clears them).
class TensorMemory {
public:
  /// The allocated column, or std::nullopt while not enough columns are free.
  std::optional<unsigned> allocate(unsigned columns);
  /// An error message when [column, column + columns) is not one allocation.
  std::string deallocate(unsigned column, unsigned columns);
  /// An error message when a cell of lanes x columns from `at` is not
  /// allocated (or out of range).
  std::string checkAllocated(TmemAddress at, unsigned lanes, unsigned columns) const;
  uint32_t &cell(unsigned lane, unsigned column) {
    if (cells_.empty())
      cells_.assign(kTmemLanes * kTmemColumns, 0);
    return cells_[lane * kTmemColumns + column];
  }
  unsigned allocatedColumns() const;
  /// A new CTA: nothing allocated (the cells keep their stale values).
  void reset() {
    allocations_.clear();
    relinquished = false;
  }

  /// tcgen05.relinquish_alloc_permit was executed by a thread of the CTA.
  bool relinquished = false;

private:
  std::vector<uint32_t> cells_;      // lazily: most kernels never use it
  std::vector<unsigned> allocations_; // per column: size of the allocation starting there, or 0
  unsigned owner(unsigned column) const;
};

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_TENSORMEMORY_H
