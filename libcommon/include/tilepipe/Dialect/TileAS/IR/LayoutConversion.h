//===- LayoutConversion.h - Plan a change of register layout ---------------===//
//
// How tile_as.convert_layout moves the elements of a tensor from one
// register layout to another, decided on the two linear layouts
// (TileASLinearLayouts.h) alone, cheapest first:
//   - Registers: the lane and warp parts agree, and every element a thread
//     needs is already in one of its registers: a register permutation;
//   - WarpShuffles: the warp parts agree, so every element a thread needs
//     is held in its own warp: one shfl.sync.idx per result register, the
//     source register the same for every lane of the warp;
//   - SharedMemory: anything else, through the shared-memory exchange, in
//     slots chosen so that a warp's stores and loads avoid bank conflicts
//     (exchangeSlotLayout).
// See docs/layouts.md.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_LAYOUTCONVERSION_H
#define TILEPIPE_DIALECT_TILEAS_IR_LAYOUTCONVERSION_H

#include "tilepipe/Dialect/TileAS/IR/LinearLayout.h"

#include <optional>

namespace tilepipe::tile_as {

struct LayoutConversionPlan {
  enum class Kind { Registers, WarpShuffles, SharedMemory };
  Kind kind = Kind::SharedMemory;
  /// Registers, WarpShuffles: result register r is source register
  /// sourceRegister[r] ...
  llvm::SmallVector<int32_t> sourceRegister;
  /// ... WarpShuffles: of lane laneOffset[r] XOR the XOR of laneBases[i]
  /// over the bits i set in the reading lane.
  llvm::SmallVector<int32_t> laneOffset;
  llvm::SmallVector<int32_t> laneBases;

  /// Whether the reading lane's own bits select the source lane unchanged
  /// (laneBases[i] == 1 << i): the source lane is lane ^ laneOffset[r].
  bool lanesMapToThemselves() const;
};

/// The plan for moving a tensor laid out as `from` into `to`: register
/// layouts ((register, lane, warp) -> the same tensor coordinates, as
/// toLinearLayout builds them with one warp count).
LayoutConversionPlan planLayoutConversion(const LinearLayout &from, const LinearLayout &to);

/// Replays (wavefronts per phase, 1 when conflict-free) of one warp's
/// access to shared memory where lane l of `layout` touches element slot
/// slots(layout(r, l, w)) of `elementBytes` (1, 2 or 4) bytes, a thread's
/// run of adjacent slots (up to 16 bytes) taken as one vector access: 32
/// banks of 4 bytes, lanes in one word not conflicting.
unsigned countBankReplays(const LinearLayout &layout, const LinearLayout &slots,
                          unsigned elementBytes);

/// The row-major slots of `layout`'s outputs (tensor coordinates ->
/// `offset`, the last dimension fastest).
LinearLayout rowMajorSlotLayout(const LinearLayout &layout);

/// The slots (tensor coordinates -> `offset`, a bijection onto the
/// elements) of a shared-memory exchange from `from` to `to` of elements
/// of `elementBytes`: row-major, with bits above the bank window XORed into
/// the bank bits above both sides' vector runs, chosen to lower the bank
/// replays of the stores (`from`) plus the loads (`to`). None where that
/// gains nothing over row-major slots, and for elements over 4 bytes.
std::optional<LinearLayout> exchangeSlotLayout(const LinearLayout &from, const LinearLayout &to,
                                               unsigned elementBytes);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_LAYOUTCONVERSION_H
