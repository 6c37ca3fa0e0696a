//===- CudaTileArithVerifiers.cpp - Verifiers of the elementwise ops ------===//
//
// Op verifiers of CudaTileArithOps.td with NVIDIA's diagnostics. Type and
// shape agreement is mostly checked by ODS traits; these add the rules ODS
// cannot express: rounding modes allowed per op, f32-only modifiers,
// conversion widths, and the shape rules of the shape ops.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithSyntax.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace tilepipe::cuda_tile {
namespace {

Type elementTypeOf(Value value) {
  return llvm::cast<TileType>(value.getType()).getElementType();
}

/// `rounding_mode` must be one of `allowed`; the message lists them as
/// `[a, b, ...]`.
LogicalResult verifyRoundingAmong(Operation *op, RoundingMode mode,
                                  llvm::ArrayRef<RoundingMode> allowed) {
  if (llvm::is_contained(allowed, mode))
    return success();
  InFlightDiagnostic diag =
      op->emitOpError("invalid rounding mode specified, expect one of [");
  llvm::interleaveComma(allowed, diag, [&](RoundingMode allowedMode) {
    diag << stringifyRoundingMode(allowedMode);
  });
  return diag << "]";
}

/// A modifier that only f32 results support (`flush_to_zero`, `approx`,
/// `full`).
LogicalResult verifyF32Modifier(Operation *op, bool present,
                                llvm::StringRef modifier) {
  Type elementType = elementTypeOf(op->getResult(0));
  if (!present || elementType.isF32())
    return success();
  return op->emitOpError() << modifier
                           << " modifier only supported for f32 data type, "
                              "but got: "
                           << elementType;
}

LogicalResult verifyFtz(Operation *op, bool flushToZero) {
  return verifyF32Modifier(op, flushToZero, "flush_to_zero");
}

constexpr RoundingMode kIEEEModes[] = {
    RoundingMode::NEAREST_EVEN, RoundingMode::ZERO, RoundingMode::NEGATIVE_INF,
    RoundingMode::POSITIVE_INF};

/// addf, subf, mulf, fma: an IEEE rounding mode, `flush_to_zero` on f32 only.
template <typename OpT>
LogicalResult verifyIEEEArith(OpT op) {
  if (failed(verifyRoundingAmong(op, op.getRoundingMode(), kIEEEModes)))
    return failure();
  return verifyFtz(op, op.getFlushToZero());
}

/// divf and sqrt: `approx`/`full` are rounding modes of their own that only
/// f32 supports, as does `flush_to_zero`.
LogicalResult verifyApproxOrFull(Operation *op, RoundingMode mode,
                                 bool flushToZero) {
  if (failed(verifyFtz(op, flushToZero)) ||
      failed(verifyF32Modifier(op, mode == RoundingMode::APPROX, "approx")))
    return failure();
  return verifyF32Modifier(op, mode == RoundingMode::FULL, "full");
}

unsigned widthOf(Type elementType) {
  return elementType.getIntOrFloatBitWidth();
}

} // namespace

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

LogicalResult AddFOp::verify() { return verifyIEEEArith(*this); }
LogicalResult SubFOp::verify() { return verifyIEEEArith(*this); }
LogicalResult MulFOp::verify() { return verifyIEEEArith(*this); }
LogicalResult FmaOp::verify() { return verifyIEEEArith(*this); }

LogicalResult DivFOp::verify() {
  constexpr RoundingMode allowed[] = {
      RoundingMode::NEAREST_EVEN, RoundingMode::ZERO,
      RoundingMode::NEGATIVE_INF, RoundingMode::POSITIVE_INF,
      RoundingMode::APPROX,       RoundingMode::FULL};
  if (failed(verifyRoundingAmong(*this, getRoundingMode(), allowed)))
    return failure();
  return verifyApproxOrFull(*this, getRoundingMode(), getFlushToZero());
}

LogicalResult SqrtOp::verify() {
  constexpr RoundingMode allowed[] = {
      RoundingMode::NEAREST_EVEN, RoundingMode::ZERO,
      RoundingMode::NEGATIVE_INF, RoundingMode::POSITIVE_INF,
      RoundingMode::APPROX};
  if (failed(verifyRoundingAmong(*this, getRoundingMode(), allowed)))
    return failure();
  return verifyApproxOrFull(*this, getRoundingMode(), getFlushToZero());
}

namespace {
/// exp and tanh: `full` (default) or `approx`, the latter for f32 only.
LogicalResult verifyTranscendentalRounding(Operation *op, RoundingMode mode) {
  constexpr RoundingMode allowed[] = {RoundingMode::APPROX, RoundingMode::FULL};
  if (failed(verifyRoundingAmong(op, mode, allowed)))
    return failure();
  return verifyF32Modifier(op, mode == RoundingMode::APPROX, "approx");
}
} // namespace

LogicalResult ExpOp::verify() {
  return verifyTranscendentalRounding(*this, getRoundingMode());
}
LogicalResult TanHOp::verify() {
  return verifyTranscendentalRounding(*this, getRoundingMode());
}

LogicalResult Exp2Op::verify() { return verifyFtz(*this, getFlushToZero()); }
LogicalResult RsqrtOp::verify() { return verifyFtz(*this, getFlushToZero()); }
LogicalResult MaxFOp::verify() { return verifyFtz(*this, getFlushToZero()); }
LogicalResult MinFOp::verify() { return verifyFtz(*this, getFlushToZero()); }

//===----------------------------------------------------------------------===//
// Integer
//===----------------------------------------------------------------------===//

LogicalResult NegIOp::verify() {
  // negi is signed: an unsigned no-wrap promise has no meaning.
  if (getOverflow() == IntegerOverflow::NUW)
    return emitOpError("'no_unsigned_wrap' overflow flag is not supported");
  return success();
}

LogicalResult DivIOp::verify() {
  constexpr RoundingMode allowed[] = {RoundingMode::ZERO,
                                      RoundingMode::NEGATIVE_INF,
                                      RoundingMode::POSITIVE_INF};
  if (failed(verifyRoundingAmong(*this, getRounding(), allowed)))
    return failure();
  if (getRounding() == RoundingMode::NEGATIVE_INF &&
      getSignedness() == Signedness::Unsigned)
    return emitOpError(
        "rounding mode 'negative_inf' is not allowed with 'unsigned' flag");
  return success();
}

LogicalResult SelectOp::verify() {
  if (llvm::isa<Float4E2M1FNType>(elementTypeOf(getResult())))
    return emitOpError("cannot operate on sub-byte type F4E2M1FN");
  return success();
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  unsigned from = widthOf(elementTypeOf(getSource()));
  unsigned to = widthOf(elementTypeOf(getResult()));
  if (from == to)
    return success();
  return emitOpError("types must be equal width")
         << ", cannot convert " << getSource().getType() << " of width "
         << from << " to type " << getResult().getType() << " of width "
         << to;
}

LogicalResult ExtIOp::verify() {
  if (widthOf(elementTypeOf(getTo())) <= widthOf(elementTypeOf(getFrom())))
    return emitOpError("extending to smaller or identical integer");
  return success();
}

LogicalResult TruncIOp::verify() {
  if (widthOf(elementTypeOf(getTo())) >= widthOf(elementTypeOf(getFrom())))
    return emitOpError("truncating to larger or identical integer");
  return success();
}

LogicalResult FToFOp::verify() {
  if (getFrom().getType() == getTo().getType())
    return emitOpError("converting tiles must not be a no-op");
  RoundingMode mode = getRoundingMode();
  if (mode == RoundingMode::NEAREST_EVEN)
    return success();
  // f8E8M0FNU (an exponent) is produced by truncation or rounding up.
  bool toExponent = llvm::isa<Float8E8M0FNUType>(elementTypeOf(getTo()));
  if (toExponent &&
      (mode == RoundingMode::ZERO || mode == RoundingMode::POSITIVE_INF))
    return success();
  return emitOpError("invalid rounding mode specified for ftof. Only "
                     "'nearest_even' is supported");
}

LogicalResult FToIOp::verify() {
  if (getRoundingMode() != RoundingMode::NEAREST_INT_TO_ZERO)
    return emitOpError("invalid rounding mode specified. Only "
                       "'nearest_int_to_zero' is supported");
  return success();
}

LogicalResult IToFOp::verify() {
  if (getRoundingMode() != RoundingMode::NEAREST_EVEN)
    return emitOpError("invalid rounding mode specified. Only "
                       "'nearest_even' is supported");
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  TileType source = getSource().getType();
  TileType result = getResult().getType();
  for (auto [sourceDim, resultDim] :
       llvm::zip_equal(source.getShape(), result.getShape()))
    if (sourceDim != resultDim && sourceDim != 1)
      return emitOpError("expects the shape of source tile to be compatible "
                         "with that of the result tile")
             << ", but got: " << source.getShape() << " and "
             << result.getShape();
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getSource().getType().getNumElements() !=
      getResult().getType().getNumElements())
    return emitOpError("expected source tile and result tile to have the "
                       "same number of elements");
  return success();
}

namespace {
/// pack/unpack reinterpret the bits of a whole tile: both sides must hold
/// the same number of bits.
LogicalResult verifySameBitCount(Operation *op, TileType source,
                                 TileType result) {
  int64_t sourceBits =
      source.getNumElements() * widthOf(source.getElementType());
  int64_t resultBits =
      result.getNumElements() * widthOf(result.getElementType());
  if (sourceBits == resultBits)
    return success();
  return op->emitOpError("expected source and result tiles to have the same "
                         "number of bits, but got: ")
         << sourceBits << " and " << resultBits;
}
} // namespace

LogicalResult PackOp::verify() {
  return verifySameBitCount(*this, getSource().getType(),
                            getResult().getType());
}

LogicalResult UnpackOp::verify() {
  return verifySameBitCount(*this, getSource().getType(),
                            getResult().getType());
}

LogicalResult CatOp::verify() {
  TileType lhs = getLhs().getType();
  TileType rhs = getRhs().getType();
  TileType result = getResult().getType();
  int64_t dim = getDim();
  int64_t rank = lhs.getRank();
  if (dim < 0 || dim >= rank)
    return emitOpError("expect dim to be [0, ") << rank << "), but got: " << dim;
  llvm::ArrayRef<int64_t> lhsShape = lhs.getShape();
  llvm::ArrayRef<int64_t> rhsShape = rhs.getShape();
  llvm::ArrayRef<int64_t> resultShape = result.getShape();
  if (lhsShape[dim] + rhsShape[dim] != resultShape[dim])
    return emitOpError("invalid concat at position ")
           << dim << ", expected: " << lhsShape[dim] + rhsShape[dim]
           << " but got: " << resultShape[dim];
  for (int64_t idx = 0; idx < rank; ++idx) {
    if (idx == dim)
      continue;
    if (lhsShape[idx] != resultShape[idx] || rhsShape[idx] != resultShape[idx])
      return emitOpError("expect {lhs, rhs, and result} shape to match at "
                         "non-concat position ")
             << idx << ", expected: " << lhsShape[idx]
             << " but got: " << resultShape[idx];
  }
  return success();
}

LogicalResult ExtractOp::verify() {
  TileType source = getSource().getType();
  TileType result = getResult().getType();
  if (source.getElementType() != result.getElementType())
    return emitOpError("source and result element type do not match");
  for (auto [sourceDim, resultDim] :
       llvm::zip_equal(source.getShape(), result.getShape()))
    if (sourceDim % resultDim != 0)
      return emitOpError("result dim size must divide source dim size evenly");
  if (static_cast<int64_t>(getIndices().size()) != source.getRank())
    return emitOpError("incorrect number of indices, expected ")
           << source.getRank() << ", but found " << getIndices().size();
  return success();
}

LogicalResult IotaOp::verify() {
  TileType result = getResult().getType();
  if (result.getRank() != 1)
    return emitOpError("expects result type to be 1-d tile");
  // The values 0 .. n-1 must be representable (as unsigned) in the element.
  uint64_t numElements = result.getShape()[0];
  unsigned width = widthOf(result.getElementType());
  if (width < 64 && numElements > (uint64_t(1) << width))
    return emitOpError("the number of elements ")
           << numElements << " exceeds the maximum value of element type "
           << result.getElementType();
  return success();
}

LogicalResult PermuteOp::verify() {
  TileType source = getSource().getType();
  int64_t rank = source.getRank();
  llvm::ArrayRef<int32_t> permutation = getPermutation();
  if (rank < 2)
    return emitOpError("expects at least rank 2, but got: ") << rank;
  if (static_cast<int64_t>(permutation.size()) != rank)
    return emitOpError() << "expect permutation size (" << permutation.size()
                         << ") to equal the rank of the source (" << rank
                         << ")";
  llvm::DenseSet<int32_t> unique(permutation.begin(), permutation.end());
  if (unique.size() != permutation.size())
    return emitOpError() << "expect permutation elements to be unique";
  for (auto [idx, dim] : llvm::enumerate(permutation))
    if (dim < 0 || dim >= rank)
      return emitOpError() << "permutation element at index " << idx << " ("
                           << dim << ") is out of bound [0, " << rank << ")";
  llvm::ArrayRef<int64_t> sourceShape = source.getShape();
  llvm::ArrayRef<int64_t> resultShape = getResult().getType().getShape();
  for (auto [idx, dim] : llvm::enumerate(permutation))
    if (resultShape[idx] != sourceShape[dim])
      return emitOpError() << "result shape invalid at index " << idx
                           << ", expected: " << sourceShape[dim]
                           << ", but got: " << resultShape[idx];
  return success();
}

} // namespace tilepipe::cuda_tile
