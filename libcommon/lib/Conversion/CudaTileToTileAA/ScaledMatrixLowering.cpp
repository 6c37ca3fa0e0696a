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
// Targets with block-scaled tensor-core instructions instead get
// tile_aa.mmaf_scaled, which keeps operands and scales in their own formats:
// block-scaled mma.sync on sm_120/121 (kind::mxf8f6f4 for fp8, kind::mxf4
// and kind::mxf4nvf4 for e2m1 with e8m0 and e4m3 scales) and tcgen05.mma
// block_scale on sm_100/103/110 (plain, `a` or `f`: kind::mxf8f6f4, kind::mxf4,
// kind::mxf4nvf4 for the same operand and scale types), for the forms the
// instruction runs and its accumulator layout tiles (see emitsScaledMma). ConvertCudaTileToTileAAPass registers this
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

/// A block scale as f32. NVFP4's f8E4M3FN scales are read as the tensor
/// cores read them, unsigned (ue4m3: the PTX ISA's kind::mxf4nvf4 scale
/// type), so that the decomposition and block-scaled mma.sync agree on a
/// scale with its sign bit set; the other scale types widen as values do.
Value scaleToF32(OpBuilder &b, Location loc, Value scale) {
  auto type = cast<RankedTensorType>(scale.getType());
  if (isa<Float8E4M3FNType>(type.getElementType())) {
    RankedTensorType i8 = withElement(scale, b.getI8Type());
    Value bits = arith::BitcastOp::create(b, loc, i8, scale);
    Value magnitude = arith::AndIOp::create(
        b, loc, bits,
        arith::ConstantOp::create(b, loc, DenseElementsAttr::get(i8, b.getI8IntegerAttr(0x7F))));
    scale = arith::BitcastOp::create(b, loc, type, magnitude);
  }
  return toF32(b, loc, scale);
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

/// The block-scaled tensor-core instruction a target has.
enum class ScaledMma { None, MmaSync, Tcgen05 };

/// The block-scaled instruction of `gpuName`: mma.sync on sm_120/121,
/// tcgen05.mma on sm_100/103/110. Their `a` and `f` forms both have it
/// (ptxas 13 assembles kind::mxf8f6f4, mxf4 and mxf4nvf4 block_scale for
/// sm_120f/121f, and tcgen05.mma block_scale for sm_100f/103f/110f: they
/// are family features); on the plain forms tile-ptx emits the `a` target.
ScaledMma getScaledMma(llvm::StringRef gpuName) {
  if (gpuName.empty())
    return ScaledMma::None;
  llvm::Expected<GpuTarget> target = parseGpuTarget(gpuName);
  if (!target) {
    llvm::consumeError(target.takeError());
    return ScaledMma::None;
  }
  if (target->sm == 120 || target->sm == 121)
    return ScaledMma::MmaSync;
  if (target->sm == 100 || target->sm == 103 || target->sm == 110)
    return ScaledMma::Tcgen05;
  return ScaledMma::None;
}

/// Limits of the tcgen05 lowering (BlockScaledTcgen05ToLLVM.cpp): rows of
/// one cta_group::1 block-scaled tcgen05.mma, the shared memory A and B of
/// one k step of 32 bytes stage in (48 KiB, less the staging's padding; an
/// fp4 step of 64 elements stages 64 bytes and packs them into 32 more),
/// tensor-memory columns, and k blocks per scale column word.
constexpr int64_t kTcgen05Rows = 128, kTcgen05StepBytes = 32, kTcgen05Fp4StepBytes = 96;
constexpr int64_t kTcgen05StagingBytes = 48 * 1024 - 256, kTmemColumns = 512;
constexpr int64_t kScaleBlocksPerWord = 4;

/// Whether a block-scaled multiply of these types becomes mmaf_scaled: a
/// form the op takes (fp8 operands with e8m0 scales per 32 k; e2m1 operands
/// with e8m0 scales per 32 k or e4m3 per 16; an f32 accumulator),
/// with a shape the target's lowering tiles. mma.sync: M a multiple of 16
/// and N eight times a power of two, so that getMmaAccumulatorLayout tiles
/// the accumulator for every power-of-two warp count (one warp row, the
/// warps along N or wrapping around it). tcgen05: M a multiple of 128 and N
/// of 16 (getTcgen05AccumulatorLayout for 4 or 8 warps), one k step of A
/// and B fitting shared memory, and the scales with one 128-row block of D
/// fitting tensor memory. The lowerings never need another path.
bool emitsScaledMma(ScaledMma kind, RankedTensorType lhs, RankedTensorType rhs,
                    RankedTensorType acc, RankedTensorType lhsScale, RankedTensorType rhsScale) {
  if (kind == ScaledMma::None ||
      !describeScaledMmaMismatch(lhs, rhs, acc, lhsScale, rhsScale).empty())
    return false;
  unsigned rank = acc.getRank();
  int64_t m = acc.getShape()[rank - 2], n = acc.getShape().back();
  if (kind == ScaledMma::MmaSync)
    return m % 16 == 0 && n % 8 == 0 && llvm::isPowerOf2_64(n / 8);
  bool f4 = isa<Float4E2M1FNType>(lhs.getElementType());
  int64_t batch = rank == 3 ? acc.getShape()[0] : 1;
  int64_t k = lhs.getShape().back();
  int64_t block = getScaledMmaBlock(lhs.getElementType(), lhsScale.getElementType());
  int64_t words = llvm::divideCeil(k / block, kScaleBlocksPerWord);
  int64_t scaleColumns = batch * (m / 32 + llvm::divideCeil(n, 32)) * words;
  int64_t stepBytes = f4 ? kTcgen05Fp4StepBytes : kTcgen05StepBytes;
  return m % kTcgen05Rows == 0 && n % 16 == 0 &&
         batch * (m + n) * stepBytes <= kTcgen05StagingBytes &&
         scaleColumns + n <= kTmemColumns;
}

struct MmaFScaledLowering : TilePattern<ct::MmaFScaledOp> {
  MmaFScaledLowering(TileTypeConverter &converter, MLIRContext *context, ScaledMma scaledMma)
      : TilePattern(converter, context), scaledMma(scaledMma) {}

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
    if (emitsScaledMma(scaledMma, lhsType, rhsType, accType, lhsScaleType, rhsScaleType)) {
      rewriter.replaceOpWithNewOp<tile_aa::MmaFScaledOp>(
          op, accType, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
          adaptor.getLhsScale(), adaptor.getRhsScale());
      return success();
    }

    Location loc = op.getLoc();
    Value lhsF32 = toF32(rewriter, loc, adaptor.getLhs());
    Value rhsF32 = toF32(rewriter, loc, adaptor.getRhs());
    Value lhsScales =
        repeatAlong(rewriter, loc, scaleToF32(rewriter, loc, adaptor.getLhsScale()), rank - 1, block);
    Value rhsScales =
        repeatAlong(rewriter, loc, scaleToF32(rewriter, loc, adaptor.getRhsScale()), rank - 2, block);
    Value scaledLhs = arith::MulFOp::create(rewriter, loc, lhsF32, lhsScales);
    Value scaledRhs = arith::MulFOp::create(rewriter, loc, rhsF32, rhsScales);
    rewriter.replaceOpWithNewOp<tile_aa::MmaFOp>(op, adaptor.getAcc().getType(), scaledLhs,
                                                 scaledRhs, adaptor.getAcc());
    return success();
  }

private:
  ScaledMma scaledMma;
};

} // namespace

void populateScaledMatrixLoweringPatterns(TileTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          llvm::StringRef gpuName) {
  patterns.add<MmaFScaledLowering>(converter, patterns.getContext(),
                                   getScaledMma(gpuName));
}

} // namespace tilepipe
