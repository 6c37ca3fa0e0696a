//===- TileShapeChecks.h - Verifier helpers shared by tile_aa / tile_as ---===//
//
// tile_aa and tile_as have ops of the same shape (broadcast, iota, masked
// load/store); their verifiers share these checks.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILESHAPECHECKS_H
#define TILEPIPE_DIALECT_TILESHAPECHECKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace tilepipe {

/// `src` -> `result`: same rank, every source dimension 1 or equal.
mlir::LogicalResult verifyBroadcastShapes(mlir::Operation *op,
                                          mlir::RankedTensorType src,
                                          mlir::RankedTensorType result);

/// The iota axis is a dimension of `type`.
mlir::LogicalResult verifyIotaAxis(mlir::Operation *op, int32_t axis,
                                   mlir::RankedTensorType type);

/// Pointer, value, mask and other tensors have one shape; `other` has the
/// value type; contiguity is a power of two.
mlir::LogicalResult verifyMemoryAccess(mlir::Operation *op,
                                       mlir::RankedTensorType ptrs,
                                       mlir::RankedTensorType value,
                                       mlir::Value mask, mlir::Value other,
                                       int64_t contiguity);

} // namespace tilepipe

#endif // TILEPIPE_DIALECT_TILESHAPECHECKS_H
