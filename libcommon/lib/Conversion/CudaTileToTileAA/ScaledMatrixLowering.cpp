//===- ScaledMatrixLowering.cpp - cuda_tile.mmaf_scaled -> tile_aa --------===//
//
// Block-scaled matrix multiply: result = acc + (lhs * lhs_scale) x
// (rhs * rhs_scale), where lhs is [B x] M x K with scales [B x] M x (K/S)
// and rhs is [B x] K x N with scales [B x] (K/S) x N: every run of S
// consecutive k shares one scale. The simple, correct path: widen operands
// and scales to f32, repeat each scale over its block of k (reshape,
// broadcast, reshape), multiply elementwise and hand the f32 operands to
// tile_aa.mmaf. Scales are exact powers of two (f8E8M0FNU) or other floats,
// so the scaled f32 operands are exact whenever the products fit in f32.
// Targets with block-scaled mma.sync (sm_120/121, plain or `a`) instead get
// tile_aa.mmaf_scaled, which keeps operands and scales in their own formats,
// for the forms that instruction runs and the mma.sync accumulator layout
// tiles (see emitsScaledMma). ConvertCudaTileToTileAAPass registers this
// through populateScaledMatrixLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "tilepipe/Dialect/TileShapeChecks.h"
#include "tilepipe/Support/GpuTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

RankedTensorType withElement(Value value, Type element) {
  return cast<RankedTensorType>(value.getType()).clone(element);
}

/// Bits of f32 from an i32 constant, splat over `type`.
Value splatI32(OpBuilder &b, Location loc, RankedTensorType type, int64_t value) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(int32_t(value))));
}

/// f8E8M0FNU holds a biased exponent only (2^(bits - 127)); its f32 value
/// puts those bits in f32's exponent field. Bits 0 (2^-127, an f32
/// denormal) and 0xFF (NaN) do not fit that rule and are selected.
Value decodeE8M0(OpBuilder &b, Location loc, Value scale) {
  RankedTensorType i8 = withElement(scale, b.getI8Type());
  RankedTensorType i32 = withElement(scale, b.getI32Type());
  RankedTensorType i1 = withElement(scale, b.getI1Type());
  Value bits = arith::BitcastOp::create(b, loc, i8, scale);
  Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
  Value f32Bits = arith::ShLIOp::create(b, loc, wide, splatI32(b, loc, i32, 23));
  auto pick = [&](int64_t when, int64_t result, Value otherwise) {
    Value is = arith::CmpIOp::create(b, loc, i1, arith::CmpIPredicate::eq, wide,
                                     splatI32(b, loc, i32, when));
    return arith::SelectOp::create(b, loc, is, splatI32(b, loc, i32, result),
                                   otherwise)
        .getResult();
  };
  f32Bits = pick(0, 0x00400000, f32Bits);
  f32Bits = pick(0xFF, 0x7FC00000, f32Bits);
  return arith::BitcastOp::create(b, loc, withElement(scale, b.getF32Type()), f32Bits);
}

/// `value` as f32 (every float element type widens exactly).
Value toF32(OpBuilder &b, Location loc, Value value) {
  Type element = cast<RankedTensorType>(value.getType()).getElementType();
  if (element.isF32())
    return value;
  if (isa<Float8E8M0FNUType>(element))
    return decodeE8M0(b, loc, value);
  return arith::ExtFOp::create(b, loc, withElement(value, b.getF32Type()), value);
}

/// Repeats each scale `block` times along dimension `dim` (the k dimension
/// of the scale tile): [.., Ks, ..] -> [.., Ks, block, ..] (broadcast of a
/// unit dimension) -> [.., Ks * block, ..].
Value repeatAlong(OpBuilder &b, Location loc, Value scale, unsigned dim, int64_t block) {
  auto type = cast<RankedTensorType>(scale.getType());
  if (block == 1)
    return scale;
  SmallVector<int64_t> unit(type.getShape()), repeated(type.getShape()),
      merged(type.getShape());
  unit.insert(unit.begin() + dim + 1, 1);
  repeated.insert(repeated.begin() + dim + 1, block);
  merged[dim] *= block;
  Type element = type.getElementType();
  Value expanded = tile_aa::ReshapeOp::create(
      b, loc, RankedTensorType::get(unit, element), scale);
  Value broadcast = tile_aa::BroadcastOp::create(
      b, loc, RankedTensorType::get(repeated, element), expanded);
  return tile_aa::ReshapeOp::create(b, loc, RankedTensorType::get(merged, element),
                                    broadcast);
}

/// Whether `gpuName` has block-scaled mma.sync: sm_120a/121a, and plain
/// sm_120/121, which tile-ptx then assembles as their `a` variant. The
/// family targets (sm_120f) are left to the decomposition.
bool hasBlockScaledMmaSync(llvm::StringRef gpuName) {
  if (gpuName.empty())
    return false;
  llvm::Expected<GpuTarget> target = parseGpuTarget(gpuName);
  if (!target) {
    llvm::consumeError(target.takeError());
    return false;
  }
  return (target->sm == 120 || target->sm == 121) && target->suffix != 'f';
}

/// Whether a block-scaled multiply of these types becomes mmaf_scaled: the
/// form the op takes (fp8 operands, e8m0 scales, block 32, f32 accumulator),
/// with M a multiple of 16 and N eight times a power of two, so that
/// getMmaAccumulatorLayout tiles the accumulator for every power-of-two warp
/// count (one warp row, the warps along N or wrapping around it) and the
/// lowering never needs another path.
bool emitsScaledMma(RankedTensorType lhs, RankedTensorType rhs, RankedTensorType acc,
                    RankedTensorType lhsScale, RankedTensorType rhsScale) {
  if (!describeScaledMmaMismatch(lhs, rhs, acc, lhsScale, rhsScale).empty())
    return false;
  int64_t m = acc.getShape()[acc.getRank() - 2], n = acc.getShape().back();
  return m % 16 == 0 && n % 8 == 0 && llvm::isPowerOf2_64(n / 8);
}

struct MmaFScaledLowering : TilePattern<ct::MmaFScaledOp> {
  MmaFScaledLowering(TileTypeConverter &converter, MLIRContext *context,
                     bool blockScaledMma)
      : TilePattern(converter, context), blockScaledMma(blockScaledMma) {}

  LogicalResult matchAndRewrite(ct::MmaFScaledOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto lhsType = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
    auto rhsType = dyn_cast<RankedTensorType>(adaptor.getRhs().getType());
    auto lhsScaleType = dyn_cast<RankedTensorType>(adaptor.getLhsScale().getType());
    auto rhsScaleType = dyn_cast<RankedTensorType>(adaptor.getRhsScale().getType());
    if (!lhsType || !rhsType || !lhsScaleType || !rhsScaleType)
      return op.emitOpError("expected tile operands and scales");
    unsigned rank = lhsType.getRank();
    if (lhsScaleType.getRank() != rank || rhsScaleType.getRank() != rank)
      return op.emitOpError("scales must have the rank of the operands");
    // lhs [B x] M x K, lhs_scale [B x] M x Ks; rhs [B x] K x N, rhs_scale
    // [B x] Ks x N; the batch and M/N dimensions must match exactly.
    ArrayRef<int64_t> lhs = lhsType.getShape(), rhs = rhsType.getShape();
    ArrayRef<int64_t> lhsScale = lhsScaleType.getShape(), rhsScale = rhsScaleType.getShape();
    int64_t k = lhs[rank - 1], scaleK = lhsScale[rank - 1];
    bool lhsOk = lhs.drop_back() == lhsScale.drop_back();
    bool rhsOk = rhs.take_front(rank - 2) == rhsScale.take_front(rank - 2) &&
                 rhs[rank - 1] == rhsScale[rank - 1];
    if (!lhsOk || !rhsOk || rhsScale[rank - 2] != scaleK || scaleK == 0 || k % scaleK != 0)
      return op.emitOpError("scale tiles must be [B x] M x Ks and [B x] Ks x N with Ks "
                            "dividing K; got ")
             << op.getLhsScale().getType() << " and " << op.getRhsScale().getType();
    int64_t block = k / scaleK;
    auto accType = cast<RankedTensorType>(adaptor.getAcc().getType());
    if (blockScaledMma &&
        emitsScaledMma(lhsType, rhsType, accType, lhsScaleType, rhsScaleType)) {
      rewriter.replaceOpWithNewOp<tile_aa::MmaFScaledOp>(
          op, accType, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
          adaptor.getLhsScale(), adaptor.getRhsScale());
      return success();
    }

    Location loc = op.getLoc();
    Value lhsF32 = toF32(rewriter, loc, adaptor.getLhs());
    Value rhsF32 = toF32(rewriter, loc, adaptor.getRhs());
    Value lhsScales =
        repeatAlong(rewriter, loc, toF32(rewriter, loc, adaptor.getLhsScale()), rank - 1, block);
    Value rhsScales =
        repeatAlong(rewriter, loc, toF32(rewriter, loc, adaptor.getRhsScale()), rank - 2, block);
    Value scaledLhs = arith::MulFOp::create(rewriter, loc, lhsF32, lhsScales);
    Value scaledRhs = arith::MulFOp::create(rewriter, loc, rhsF32, rhsScales);
    rewriter.replaceOpWithNewOp<tile_aa::MmaFOp>(op, adaptor.getAcc().getType(), scaledLhs,
                                                 scaledRhs, adaptor.getAcc());
    return success();
  }

private:
  bool blockScaledMma;
};

} // namespace

void populateScaledMatrixLoweringPatterns(TileTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          llvm::StringRef gpuName) {
  patterns.add<MmaFScaledLowering>(converter, patterns.getContext(),
                                   hasBlockScaledMmaSync(gpuName));
}

} // namespace tilepipe
