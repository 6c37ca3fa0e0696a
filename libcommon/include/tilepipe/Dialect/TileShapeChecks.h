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

#include <string>

namespace tilepipe {

/// `src` -> `result`: same rank, every source dimension 1 or equal.
mlir::LogicalResult verifyBroadcastShapes(mlir::Operation *op,
                                          mlir::RankedTensorType src,
                                          mlir::RankedTensorType result);

/// The iota axis is a dimension of `type`.
mlir::LogicalResult verifyIotaAxis(mlir::Operation *op, int32_t axis,
                                   mlir::RankedTensorType type);

/// Pointer, value, mask and other tensors have one shape; `other` has the
/// value type; contiguity (and a load's transposed contiguity) is a power
/// of two.
mlir::LogicalResult verifyMemoryAccess(mlir::Operation *op,
                                       mlir::RankedTensorType ptrs,
                                       mlir::RankedTensorType value,
                                       mlir::Value mask, mlir::Value other,
                                       int64_t contiguity,
                                       int64_t transposedContiguity = 1,
                                       int64_t viewAlignment = 1);

/// permute: `permutation` reorders the dimensions of `src` (result dimension
/// i is source dimension permutation[i]), element types equal.
mlir::LogicalResult verifyPermuteShapes(mlir::Operation *op,
                                        mlir::RankedTensorType src,
                                        mlir::RankedTensorType result,
                                        llvm::ArrayRef<int32_t> permutation);

/// reshape: same element type and number of elements.
mlir::LogicalResult verifyReshapeShapes(mlir::Operation *op,
                                        mlir::RankedTensorType src,
                                        mlir::RankedTensorType result);

/// extract: same rank and element type, every result dimension divides the
/// source dimension, one index per dimension.
mlir::LogicalResult verifyExtractShapes(mlir::Operation *op,
                                        mlir::RankedTensorType src,
                                        mlir::RankedTensorType result,
                                        size_t numIndices);

/// cat: lhs and rhs joined along `dim`; every other dimension equal.
mlir::LogicalResult verifyCatShapes(mlir::Operation *op,
                                    mlir::RankedTensorType lhs,
                                    mlir::RankedTensorType rhs,
                                    mlir::RankedTensorType result, int64_t dim);

/// directed_arith: `kind` names an op taking `numOperands` operands
/// (add/sub/mul/div 2, fma 3, sqrt 1); `rounding` is a directed mode;
/// `flushToZero` only with f32 `type` elements.
mlir::LogicalResult verifyDirectedArith(mlir::Operation *op,
                                        llvm::StringRef kind,
                                        llvm::StringRef rounding,
                                        bool flushToZero, mlir::Type type,
                                        size_t numOperands);

/// The k elements one scale of mmaf_scaled covers in the MX formats.
inline constexpr int64_t kScaledMmaBlock = 32;
/// The k elements one scale covers in NVFP4 (f4E2M1FN with f8E4M3FN scales).
inline constexpr int64_t kNvf4ScaleBlock = 16;

/// The block (k elements per scale) of an mmaf_scaled with `operand`
/// elements and `scale` elements, the block-scaled kinds of the tensor
/// cores: fp8 (f8E4M3FN/f8E5M2) or f4E2M1FN with f8E8M0FNU scales, 32
/// (mxf8f6f4, mxf4); f4E2M1FN with f8E4M3FN scales, 16 (nvf4, the
/// instructions' kind::mxf4nvf4 with ue4m3 scales). 0 for other types.
int64_t getScaledMmaBlock(mlir::Type operand, mlir::Type scale);

/// What makes lhs/rhs/acc/scales not an mmaf_scaled form, empty when they
/// are one: rank 2 or 3 with equal batch, lhs M x K and rhs K x N of one
/// of getScaledMmaBlock's kinds (fp8 A and B may mix e4m3 and e5m2; f4
/// takes f4 on both sides), acc M x N f32, scales M x K/block and
/// K/block x N, K a multiple of the instruction's k (32 bytes of operand
/// elements: 32 for fp8, 64 for f4).
std::string describeScaledMmaMismatch(mlir::RankedTensorType lhs,
                                      mlir::RankedTensorType rhs,
                                      mlir::RankedTensorType acc,
                                      mlir::RankedTensorType lhsScale,
                                      mlir::RankedTensorType rhsScale);

/// mmaf_scaled: describeScaledMmaMismatch finds nothing.
mlir::LogicalResult verifyScaledMmaShapes(mlir::Operation *op,
                                          mlir::RankedTensorType lhs,
                                          mlir::RankedTensorType rhs,
                                          mlir::RankedTensorType acc,
                                          mlir::RankedTensorType lhsScale,
                                          mlir::RankedTensorType rhsScale);

} // namespace tilepipe

#endif // TILEPIPE_DIALECT_TILESHAPECHECKS_H
