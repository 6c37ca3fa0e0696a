//===- TiledViewMatch.h - a load's view from its address arithmetic -------===//
//
// tile-lower turns a partition-view load into a tensor of pointers and a
// mask (CudaTileToTileAA's ViewLowering): base + sum_d (start_d + iota_d) *
// stride_d, masked by start_d + iota_d < size_d. matchTiledView reads base,
// sizes, strides and starts back from exactly that arithmetic, for
// tile_as.mmaf_global's `view` operands (TMA needs the view, not pointers).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_TILEDVIEWMATCH_H
#define TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_TILEDVIEWMATCH_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace tilepipe::tile_as {

/// A rank-r tile of a strided tensor, outermost dimension first; the
/// innermost stride is 1 and not listed (mmaf_global's `view` order).
/// `transposed`: the tile's last two dimensions are swapped relative to the
/// lists, which go in memory order: the tile's innermost dimension is the
/// lists' next-innermost (a dim_map'd view such as FMHA's K^T).
struct TiledView {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> sizes, strides, starts;
  bool transposed = false;

  /// sizes, strides, starts: the `view` operand list.
  llvm::SmallVector<mlir::Value> flattened() const;
};

/// The view whose pointers are `ptrs` and bounds `mask`, when both are the
/// arithmetic above with one term and one bound per dimension and a unit
/// stride on the innermost dimension (or, transposed, on the next-innermost
/// one); nullopt otherwise. Scalars that the arithmetic holds as
/// splat constants are rebuilt with `builder`.
std::optional<TiledView> matchTiledView(mlir::OpBuilder &builder, mlir::Value ptrs,
                                        mlir::Value mask);

} // namespace tilepipe::tile_as

#endif
