//===- TileShapeChecks.cpp - Verifier helpers shared by tile_aa / tile_as -===//
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

LogicalResult tilepipe::verifyBroadcastShapes(Operation *op,
                                              RankedTensorType src,
                                              RankedTensorType result) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError("element types differ");
  if (src.getRank() != result.getRank())
    return op->emitOpError("source and result ranks differ");
  for (auto [from, to] : llvm::zip(src.getShape(), result.getShape()))
    if (from != 1 && from != to)
      return op->emitOpError("dimension of size ")
             << from << " cannot be broadcast to " << to;
  return success();
}

LogicalResult tilepipe::verifyIotaAxis(Operation *op, int32_t axis,
                                       RankedTensorType type) {
  if (axis < 0 || axis >= type.getRank())
    return op->emitOpError("axis ") << axis << " out of range for rank "
                                    << type.getRank();
  return success();
}

LogicalResult tilepipe::verifyMemoryAccess(Operation *op, RankedTensorType ptrs,
                                           RankedTensorType value, Value mask,
                                           Value other, int64_t contiguity) {
  if (ptrs.getShape() != value.getShape())
    return op->emitOpError("pointer and value shapes differ");
  if (mask && cast<RankedTensorType>(mask.getType()).getShape() !=
                  ptrs.getShape())
    return op->emitOpError("mask shape differs from the pointer shape");
  if (other && other.getType() != value)
    return op->emitOpError("`other` must have the value type");
  if (contiguity < 1 || !llvm::isPowerOf2_64(contiguity))
    return op->emitOpError("contiguity must be a positive power of two");
  return success();
}
