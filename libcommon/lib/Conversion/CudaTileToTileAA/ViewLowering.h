//===- ViewLowering.h - cuda_tile views -> tile_aa pointer tensors --------===//
//
// load_view_tko / store_view_tko address one tile of a partition_view,
// strided_view or gather_scatter_view. Here that becomes what the hardware needs: a tensor of
// pointers, an in-bounds mask, the value a load reads outside the tensor,
// and the proven contiguity of the access (from the `assume` facts on
// the base pointer, shape and strides).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_VIEWLOWERING_H
#define TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_VIEWLOWERING_H

#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/Transforms/DialectConversion.h"

namespace tilepipe {

/// Pointers, mask and contiguity of one tile of a view.
struct TileAccess {
  mlir::Value ptrs;
  mlir::Value mask;
  int64_t contiguity = 1;
  /// What `ptrs` is made of: the element offset of each element (an integer
  /// tensor of the tile's shape, tensor<1xi32> for a rank-0 view) from the
  /// view's base pointer `base`.
  mlir::Value offsets;
  mlir::Value base;
  /// The contiguity along the next-innermost dimension where that one, not
  /// the innermost, has unit stride (tile_aa.load's transposed_contiguity).
  int64_t transposedContiguity = 1;
  /// The alignment (elements) of the view's base and non-unit strides where
  /// the innermost dimension has unit stride (tile_aa.load's view_alignment).
  int64_t viewAlignment = 1;
};

/// `value` unchanged when it is a tensor (or null); a scalar as the one
/// element of a tensor<1xT>. Scalar accesses (pointer loads and stores of
/// 0-d tiles, rank-0 views) go through the tensor path that way: every
/// thread loads the element, the first copy alone stores.
mlir::Value asOneElement(mlir::ConversionPatternRewriter &rewriter,
                         mlir::Location loc, mlir::Value value);

/// Builds the access for tile `indices` (already converted; the original
/// cuda_tile values are `originalIndices`, read for divisibility facts) of
/// the view `view` (an original cuda_tile value, made by make_partition_view,
/// make_strided_view or make_gather_scatter_view of make_tensor_view). The
/// mask is false exactly for the elements outside the tensor. Fails with a
/// diagnostic on views this slice does not lower.
/// With `order` (a permutation, dimension d of the access tile being
/// dimension order[d] of the view's tile), builds the access of the tile so
/// transposed.
mlir::FailureOr<TileAccess>
buildTileAccess(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
                mlir::Value view, mlir::ValueRange originalIndices,
                mlir::ValueRange indices, llvm::ArrayRef<int32_t> order = {});

/// For a view of 1-byte elements whose tile's innermost dimension is not
/// the tensor's unit stride one but another tile dimension (longer than
/// one) is (BlockScaledMatMul's column-major fp8 B and its scales, cuTile's
/// `strides=[1, ?]`): the order that swaps that dimension innermost, so
/// that a load of the transposed tile reads runs of adjacent elements (with
/// a contiguity) rather than one byte at a time. Nullopt otherwise. (On
/// 2-byte elements the transposed read measured mixed: MoE's dim_map'd
/// weights spilled less, FMHA's K spilled more, so they keep the plain
/// access.)
std::optional<llvm::SmallVector<int32_t>> getUnitStrideInnermostOrder(mlir::Value view);

/// What a load of `view` reads outside the tensor: its padding_value splat
/// to `type` (zero when it has none). Null, after a diagnostic, when the
/// element type cannot encode it.
mlir::Value buildPaddingValue(mlir::ConversionPatternRewriter &rewriter,
                              mlir::Operation *op, mlir::Value view,
                              mlir::RankedTensorType type);

/// Loads and stores of tiles whose elements lie below a byte (i4,
/// f4E2M1FN: two to a byte, the first in the low nibble; SubByteAccess.cpp).
/// A load reads each element's byte and shifts its nibble out; out-of-bounds
/// elements read `padding` (a tensor of the tile's type). It returns the
/// tile (of `type`) and the load's token.
std::pair<mlir::Value, mlir::Value>
loadSubByteTile(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
                const TileAccess &access, mlir::RankedTensorType type,
                mlir::Value padding, mlir::Value token);
/// A store writes whole bytes where the access pairs the elements of each
/// byte in one tile row (contiguity of two or more), and otherwise each
/// nibble with an atomic and/or on its 32-bit word (the other nibble of its
/// byte may belong to another thread or another tile block). Returns the
/// token ordered after it.
mlir::Value storeSubByteTile(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
                             const TileAccess &access, mlir::Value tile, mlir::Value token);

/// The number of tiles of view `view` along each index dimension:
/// ceil(tensor size / step), the tensor dimension picked by dim_map, the step
/// the tile size (partition views) or traversal stride (strided views).
/// Each count is a scalar of `type`. Fails with a diagnostic on views this
/// slice does not lower.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
buildIndexSpaceShape(mlir::ConversionPatternRewriter &rewriter,
                     mlir::Operation *op, mlir::Value view,
                     mlir::IntegerType type);

/// The largest power of two known to divide `value` (an original cuda_tile
/// scalar): from `assume div_by` chains and constants.
uint64_t getKnownDivisor(mlir::Value value);

} // namespace tilepipe

#endif // TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_VIEWLOWERING_H
