//===- TileASLinearLayouts.h - The lowering's layouts as linear layouts ---===//
//
// Every layout the lowering uses, as a LinearLayout (docs/layouts.md):
//   - register layouts map (register, lane, warp) to tensor coordinates
//     (dim0, dim1, ...): a `blocked` layout on a power-of-two shape, the
//     mma.sync A/B/accumulator fragments, the registers ldmatrix fills;
//   - shared-memory layouts map an element offset (`offset`) to tensor
//     coordinates: the canonical 128/64/32-byte swizzled layouts that
//     wgmma and tcgen05 read (SwizzledStaging.h).
// Register numbering follows TileASLayouts.h, so register r of a
// LinearLayout is element r of the lowered LLVM vector.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_TILEASLINEARLAYOUTS_H
#define TILEPIPE_DIALECT_TILEAS_IR_TILEASLINEARLAYOUTS_H

#include "tilepipe/Dialect/TileAS/IR/LinearLayout.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include <optional>

namespace tilepipe::tile_as {

/// Input dimensions of register and shared-memory layouts.
inline constexpr llvm::StringLiteral kRegisterDim = "register";
inline constexpr llvm::StringLiteral kLaneDim = "lane";
inline constexpr llvm::StringLiteral kWarpDim = "warp";
inline constexpr llvm::StringLiteral kOffsetDim = "offset";

/// The output dimension of tensor dimension `dim`: "dim0", "dim1", ...
std::string getTensorDimName(unsigned dim);

/// `layout` on a tensor of `shape`: register r (TileASLayouts.h numbering),
/// lane l and warp w -> the coordinates RegisterEmitter::coordinates gives
/// (wrapping included). Warps number `numWarps` (0: the layout's own
/// warpsPerCTA product); warps beyond the layout's hold copies, as do lanes
/// beyond its threadsPerWarp product. None unless every extent of `shape`
/// and `numWarps` is a power of two (the map is linear over F2 only then)
/// and the layout has at most 32 threads per warp and `numWarps` warps.
std::optional<LinearLayout> toLinearLayout(BlockedAttr layout,
                                           llvm::ArrayRef<int64_t> shape,
                                           unsigned numWarps = 0);

/// The operands of mma.sync.m16n8k<k>.
enum class MmaOperand { A, B, Accumulator };

/// One warp's fragment of `operand` of the mma.sync m16n8 form for
/// operands of `elementBytes` (2: f16/bf16, k16; 4: tf32, k8; 1: 8-bit
/// integer or float, k32), as in the PTX ISA ("Matrix Fragments for mma.m16n8k*"):
/// register i is element a_i/b_i/c_i of the thread's fragment, lane l has
/// groupID l / 4 and threadID_in_group l % 4. Outputs (dim0, dim1) are
/// (row, k) for A (16 x k), (k, column) for B (k x 8), (row, column) for
/// the accumulator (16 x 8, f32 or s32 elements whatever `elementBytes`).
LinearLayout getMmaSyncFragmentLayout(MmaOperand operand, unsigned elementBytes);

/// The registers ldmatrix.sync.aligned.m8n8.x<count>[.trans].b16 fills
/// (count 1, 2 or 4): register i is b16 element i of the thread's result
/// (two per 32-bit register, then one register per matrix), lane l; the
/// outputs are (dim0, dim1) = (row, column) in the 8x8 matrix and `matrix`.
/// Without .trans lane l holds row l / 4, columns 2 (l % 4) + {0, 1};
/// .trans holds the transpose.
LinearLayout getLdmatrixLayout(unsigned count, bool transpose);

/// Which row of which matrix lane l addresses in ldmatrix .x<count>: lanes
/// 8j..8j+7 give rows 0-7 of matrix j; lanes past 8 * count are unused (0).
LinearLayout getLdmatrixAddressLayout(unsigned count);

/// The canonical `width`-byte swizzled shared-memory layout (width 128, 64
/// or 32; SwizzledStaging.h) of `rows` rows of `extent` elements of
/// `elementBytes` along the contiguous dimension: element offset -> (row,
/// column). None unless rows is a power of two of at least 8 (a whole
/// atom) and the row bytes a power-of-two multiple of `width`, where the
/// layout is a bijection.
std::optional<LinearLayout> getSwizzledSharedLayout(int64_t rows, int64_t extent,
                                                    unsigned elementBytes, int64_t width);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_TILEASLINEARLAYOUTS_H
