//===- StoreAddressSlice.h - a store's own pointer and mask arithmetic ----===//
//
// tile-lower's CSE merges the index arithmetic of accesses through views of
// one tile shape at the same block coordinates (FMHA's Q load and Out store:
// both 1 x 1 x 128 x 64 tiles at [batch, head, block, 0]). Layout assignment
// then ties the store to the load through those shared tensors, and the
// store has to take the load's layout even where its value comes in
// another one. These helpers give such a store its own copy of that
// arithmetic, so that layout assignment can decide its layout on its own.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_STOREADDRESSSLICE_H
#define TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_STOREADDRESSSLICE_H

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

namespace tilepipe::tile_as {

/// The ops computing `store`'s pointers and mask in the store's tile shape,
/// in program order: index arithmetic (arith ops, tile_as.iota, splat,
/// broadcast, addptr) followed back to its scalars and to tensors of other
/// shapes, which tie no layout to the store. Failure where a tensor of the
/// store's shape comes from anything else (a load, as a gathered index; a
/// block argument), which a copy would not untie.
mlir::FailureOr<llvm::SmallVector<mlir::Operation *>> getStoreAddressSlice(StoreOp store);

/// Replaces `store`'s pointers and mask by a copy of `slice`
/// (getStoreAddressSlice) placed right before the store, and erases the
/// original ops that nothing uses any more.
void cloneStoreAddressSlice(StoreOp store, llvm::ArrayRef<mlir::Operation *> slice);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_STOREADDRESSSLICE_H
