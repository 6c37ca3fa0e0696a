//===- TileShapeChecks.cpp - Verifier helpers shared by tile_aa / tile_as -===//
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/StringSwitch.h"
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
                                           Value other, int64_t contiguity,
                                           int64_t transposedContiguity,
                                           int64_t viewAlignment) {
  if (ptrs.getShape() != value.getShape())
    return op->emitOpError("pointer and value shapes differ");
  if (mask && cast<RankedTensorType>(mask.getType()).getShape() !=
                  ptrs.getShape())
    return op->emitOpError("mask shape differs from the pointer shape");
  if (other && other.getType() != value)
    return op->emitOpError("`other` must have the value type");
  if (contiguity < 1 || !llvm::isPowerOf2_64(contiguity))
    return op->emitOpError("contiguity must be a positive power of two");
  if (transposedContiguity < 1 || !llvm::isPowerOf2_64(transposedContiguity))
    return op->emitOpError("transposed contiguity must be a positive power of two");
  if (viewAlignment < 1 || !llvm::isPowerOf2_64(viewAlignment))
    return op->emitOpError("view alignment must be a positive power of two");
  return success();
}

LogicalResult tilepipe::verifyPermuteShapes(Operation *op, RankedTensorType src,
                                            RankedTensorType result,
                                            ArrayRef<int32_t> permutation) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError("element types differ");
  int64_t rank = src.getRank();
  if (result.getRank() != rank || int64_t(permutation.size()) != rank)
    return op->emitOpError("permutation, source and result ranks differ");
  llvm::SmallVector<bool> seen(rank, false);
  for (auto [i, dim] : llvm::enumerate(permutation)) {
    if (dim < 0 || dim >= rank || seen[dim])
      return op->emitOpError("permutation is not a permutation of [0, ")
             << rank << ")";
    seen[dim] = true;
    if (result.getDimSize(i) != src.getDimSize(dim))
      return op->emitOpError("result dimension ")
             << i << " is " << result.getDimSize(i) << ", expected "
             << src.getDimSize(dim);
  }
  return success();
}

LogicalResult tilepipe::verifyReshapeShapes(Operation *op, RankedTensorType src,
                                            RankedTensorType result) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError("element types differ");
  if (src.getNumElements() != result.getNumElements())
    return op->emitOpError("source and result hold different numbers of elements");
  return success();
}

LogicalResult tilepipe::verifyExtractShapes(Operation *op, RankedTensorType src,
                                            RankedTensorType result,
                                            size_t numIndices) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError("element types differ");
  if (src.getRank() != result.getRank() || size_t(src.getRank()) != numIndices)
    return op->emitOpError("source rank, result rank and index count differ");
  for (auto [from, to] : llvm::zip(src.getShape(), result.getShape()))
    if (to <= 0 || from % to)
      return op->emitOpError("result dimension ")
             << to << " does not divide source dimension " << from;
  return success();
}

LogicalResult tilepipe::verifyCatShapes(Operation *op, RankedTensorType lhs,
                                        RankedTensorType rhs,
                                        RankedTensorType result, int64_t dim) {
  if (lhs.getElementType() != result.getElementType() ||
      rhs.getElementType() != result.getElementType())
    return op->emitOpError("element types differ");
  int64_t rank = result.getRank();
  if (lhs.getRank() != rank || rhs.getRank() != rank)
    return op->emitOpError("operand and result ranks differ");
  if (dim < 0 || dim >= rank)
    return op->emitOpError("dim ") << dim << " out of range for rank " << rank;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t expected = d == dim ? lhs.getDimSize(d) + rhs.getDimSize(d)
                                : lhs.getDimSize(d);
    if (result.getDimSize(d) != expected ||
        (d != dim && rhs.getDimSize(d) != expected))
      return op->emitOpError("shapes do not concatenate along dim ") << dim;
  }
  return success();
}

LogicalResult tilepipe::verifyDirectedArith(Operation *op, StringRef kind,
                                            StringRef rounding, bool flushToZero,
                                            Type type, size_t numOperands) {
  size_t expected = llvm::StringSwitch<size_t>(kind)
                        .Cases({"add", "sub", "mul", "div"}, 2)
                        .Case("fma", 3)
                        .Case("sqrt", 1)
                        .Default(0);
  if (!expected)
    return op->emitOpError("unknown kind '") << kind << "'";
  if (numOperands != expected)
    return op->emitOpError("'") << kind << "' takes " << expected
                                << " operands, got " << numOperands;
  if (rounding != "zero" && rounding != "negative_inf" && rounding != "positive_inf")
    return op->emitOpError("rounding must be zero, negative_inf or positive_inf, got '")
           << rounding << "'";
  if (flushToZero && !getElementTypeOrSelf(type).isF32())
    return op->emitOpError("flush_to_zero needs f32, got ") << type;
  return success();
}

int64_t tilepipe::getScaledMmaBlock(Type operand, Type scale) {
  if (isa<Float8E8M0FNUType>(scale) &&
      isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(operand))
    return kScaledMmaBlock;
  if (isa<Float8E4M3FNType>(scale) && isa<Float4E2M1FNType>(operand))
    return kNvf4ScaleBlock;
  return 0;
}

std::string tilepipe::describeScaledMmaMismatch(RankedTensorType lhs, RankedTensorType rhs,
                                                RankedTensorType acc,
                                                RankedTensorType lhsScale,
                                                RankedTensorType rhsScale) {
  int64_t rank = acc.getRank();
  if ((rank != 2 && rank != 3) || lhs.getRank() != rank || rhs.getRank() != rank ||
      lhsScale.getRank() != rank || rhsScale.getRank() != rank)
    return "operands, accumulator and scales must all have rank 2 or all rank 3";
  auto isFp8 = [](Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); };
  Type a = lhs.getElementType(), b = rhs.getElementType();
  bool f4 = isa<Float4E2M1FNType>(a);
  if (f4 ? !isa<Float4E2M1FNType>(b) : !isFp8(a) || !isFp8(b))
    return "operands must be f8E4M3FN or f8E5M2, or both f4E2M1FN";
  if (lhsScale.getElementType() != rhsScale.getElementType())
    return "both scales must have one type";
  int64_t block = getScaledMmaBlock(a, lhsScale.getElementType());
  if (!block)
    return f4 ? "f4E2M1FN scales must be f8E8M0FNU (mxf4) or f8E4M3FN (nvf4)"
              : "scales must be f8E8M0FNU";
  if (!acc.getElementType().isF32())
    return "the accumulator must be f32";
  ArrayRef<int64_t> as = lhs.getShape(), bs = rhs.getShape(), c = acc.getShape();
  int64_t m = c[rank - 2], n = c[rank - 1], k = as[rank - 1];
  if (as.drop_back(2) != c.drop_back(2) || bs.drop_back(2) != c.drop_back(2) ||
      lhsScale.getShape().drop_back(2) != c.drop_back(2) ||
      rhsScale.getShape().drop_back(2) != c.drop_back(2))
    return "batch dimensions differ";
  if (as[rank - 2] != m || bs[rank - 2] != k || bs[rank - 1] != n)
    return "shapes are not [M, K] x [K, N] + [M, N]";
  int64_t step = f4 ? 64 : 32;
  if (k % step != 0)
    return "K must be a multiple of " + std::to_string(step);
  int64_t blocks = k / block;
  if (lhsScale.getShape().take_back(2) != ArrayRef<int64_t>{m, blocks} ||
      rhsScale.getShape().take_back(2) != ArrayRef<int64_t>{blocks, n})
    return "scales must be [M, K/" + std::to_string(block) + "] and [K/" +
           std::to_string(block) + ", N]";
  return {};
}

LogicalResult tilepipe::verifyScaledMmaShapes(Operation *op, RankedTensorType lhs,
                                              RankedTensorType rhs, RankedTensorType acc,
                                              RankedTensorType lhsScale,
                                              RankedTensorType rhsScale) {
  std::string mismatch = describeScaledMmaMismatch(lhs, rhs, acc, lhsScale, rhsScale);
  if (!mismatch.empty())
    return op->emitOpError(mismatch);
  return success();
}
