//===- ArithmeticLowering.cpp - cuda_tile arithmetic ops -> arith/math ----===//
//
// The elementwise arithmetic, math and conversion ops of cuda_tile become
// upstream arith/math ops on the converted scalars and tensors; LLVM lowering
// (arith-to-llvm, math through libdevice) is upstream's from there on.
// Semantics follow NVIDIA's Tile IR spec:
//  - divi rounds toward zero, negative_inf (floor) or positive_inf (ceil);
//  - minf/maxf return the other operand when one is NaN unless
//    `propagate_nan` is set (then NaN wins, and -0 < +0);
//  - ftoi saturates: out-of-range values clamp to the integer range and NaN
//    becomes 0 (arith's fptosi/fptoui alone would be poison there);
//  - ftz and approximate rounding are refinements the upstream ops may skip;
//  - directed rounding (zero, negative_inf, positive_inf) of addf, subf,
//    mulf, divf, fma and sqrt becomes tile_aa.directed_arith, which the
//    TileAS->LLVM lowering emits with PTX's .rz/.rm/.rp forms.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

/// A scalar or splat-tensor constant of `type` holding `value`.
Value createConstant(OpBuilder &b, Location loc, Type type, TypedAttr value) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc, shaped,
                                     DenseElementsAttr::get(shaped, value));
  return arith::ConstantOp::create(b, loc, type, value);
}

Value createIntConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return createConstant(b, loc, type,
                        b.getIntegerAttr(getElementTypeOrSelf(type), value));
}

/// `value` (a power of two, or +-inf beyond the range) in `type`'s floats.
Value createFloatConstant(OpBuilder &b, Location loc, Type type, double value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  APFloat converted(value);
  bool lostInfo;
  converted.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lostInfo);
  return createConstant(b, loc, type, b.getFloatAttr(element, converted));
}

/// Ops that map one to one onto an upstream op on converted operands.
template <typename SourceOp, typename TargetOp>
struct ElementwiseLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->convert(op->getResult(0).getType());
    rewriter.replaceOpWithNewOp<TargetOp>(op, type, adaptor.getOperands());
    return success();
  }
};

/// Integer ops whose upstream op depends on the signedness attribute.
template <typename SourceOp, typename SignedOp, typename UnsignedOp>
struct SignedIntLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->convert(op.getType());
    if (op.getSignedness() == ct::Signedness::Signed)
      rewriter.replaceOpWithNewOp<SignedOp>(op, type, adaptor.getOperands());
    else
      rewriter.replaceOpWithNewOp<UnsignedOp>(op, type, adaptor.getOperands());
    return success();
  }
};

/// The tile_aa.directed_arith rounding of `mode`; nothing for the modes the
/// IEEE round-to-nearest ops serve (nearest_even, and approx/full, which
/// allow any result at least as accurate).
std::optional<StringRef> getDirectedRounding(ct::RoundingMode mode) {
  switch (mode) {
  case ct::RoundingMode::ZERO:
    return StringRef("zero");
  case ct::RoundingMode::NEGATIVE_INF:
    return StringRef("negative_inf");
  case ct::RoundingMode::POSITIVE_INF:
    return StringRef("positive_inf");
  default:
    return std::nullopt;
  }
}

StringRef getDirectedKind(ct::AddFOp) { return "add"; }
StringRef getDirectedKind(ct::SubFOp) { return "sub"; }
StringRef getDirectedKind(ct::MulFOp) { return "mul"; }
StringRef getDirectedKind(ct::DivFOp) { return "div"; }
StringRef getDirectedKind(ct::FmaOp) { return "fma"; }
StringRef getDirectedKind(ct::SqrtOp) { return "sqrt"; }

/// Replaces `op` by the tile_aa.directed_arith of its kind when its rounding
/// mode is directed (keeping flush_to_zero, which cuda_tile allows on f32
/// alone); false (nothing done) otherwise. The TileAS->LLVM
/// lowering covers f16, bf16, f32 and f64; other types are diagnosed.
template <typename SourceOp>
FailureOr<bool> replaceWithDirectedArith(SourceOp op, ValueRange operands,
                                         ConversionPatternRewriter &rewriter) {
  std::optional<StringRef> rounding = getDirectedRounding(op.getRoundingMode());
  if (!rounding)
    return false;
  Type element = getElementTypeOrSelf(operands.front().getType());
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element)) {
    op.emitOpError("rounding '") << *rounding << "' of " << element
                                 << " is not supported (only f16, bf16, f32 and f64)";
    return failure();
  }
  rewriter.replaceOpWithNewOp<tile_aa::DirectedArithOp>(
      op, operands.front().getType(), getDirectedKind(op), *rounding,
      op.getFlushToZero(), operands);
  return true;
}

template <typename SourceOp, typename TargetOp>
struct FloatBinaryLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<bool> directed = replaceWithDirectedArith(op, adaptor.getOperands(), rewriter);
    if (failed(directed) || *directed)
      return directed;
    rewriter.replaceOpWithNewOp<TargetOp>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct FmaLowering : TilePattern<ct::FmaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::FmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<bool> directed = replaceWithDirectedArith(op, adaptor.getOperands(), rewriter);
    if (failed(directed) || *directed)
      return directed;
    rewriter.replaceOpWithNewOp<math::FmaOp>(op, adaptor.getLhs(), adaptor.getRhs(),
                                             adaptor.getAcc());
    return success();
  }
};

struct SqrtLowering : TilePattern<ct::SqrtOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::SqrtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<bool> directed = replaceWithDirectedArith(op, adaptor.getOperands(), rewriter);
    if (failed(directed) || *directed)
      return directed;
    rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getSource());
    return success();
  }
};

/// maxf/minf: maximumf/minimumf propagate NaN; maxnumf/minnumf return the
/// number when one operand is NaN (the spec's default).
template <typename SourceOp, typename PropagatingOp, typename NumberOp>
struct MinMaxFLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getPropagateNan())
      rewriter.replaceOpWithNewOp<PropagatingOp>(op, adaptor.getLhs(), adaptor.getRhs());
    else
      rewriter.replaceOpWithNewOp<NumberOp>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

template <typename SourceOp, typename TargetOp>
struct FloatUnaryLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<TargetOp>(op, adaptor.getSource());
    return success();
  }
};

/// powi: x^n as powf(x, float(n)); an integral exponent keeps the sign of a
/// negative base right, and NVPTX has no powi libcall.
struct PowILowering : TilePattern<ct::PowIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::PowIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value exponent = arith::SIToFPOp::create(rewriter, op.getLoc(),
                                             adaptor.getSource().getType(),
                                             adaptor.getExponent());
    rewriter.replaceOpWithNewOp<math::PowFOp>(op, adaptor.getSource(), exponent);
    return success();
  }
};

struct NegILowering : TilePattern<ct::NegIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::NegIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getSource();
    Value zero = createIntConstant(rewriter, op.getLoc(), source.getType(),
                                   APInt(getElementTypeOrSelf(source.getType())
                                             .getIntOrFloatBitWidth(), 0));
    rewriter.replaceOpWithNewOp<arith::SubIOp>(op, zero, source);
    return success();
  }
};

/// mulhii: the high half of the signed double-width product.
struct MulhiILowering : TilePattern<ct::MulhiIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MulhiIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto product = arith::MulSIExtendedOp::create(rewriter, op.getLoc(),
                                                  adaptor.getX(), adaptor.getY());
    rewriter.replaceOp(op, product.getHigh());
    return success();
  }
};

struct DivILowering : TilePattern<ct::DivIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::DivIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    bool isSigned = op.getSignedness() == ct::Signedness::Signed;
    switch (op.getRounding()) {
    case ct::RoundingMode::ZERO:
      if (isSigned)
        rewriter.replaceOpWithNewOp<arith::DivSIOp>(op, lhs, rhs);
      else
        rewriter.replaceOpWithNewOp<arith::DivUIOp>(op, lhs, rhs);
      return success();
    case ct::RoundingMode::NEGATIVE_INF:
      // Unsigned quotients are never negative: floor is truncation.
      if (isSigned)
        rewriter.replaceOpWithNewOp<arith::FloorDivSIOp>(op, lhs, rhs);
      else
        rewriter.replaceOpWithNewOp<arith::DivUIOp>(op, lhs, rhs);
      return success();
    case ct::RoundingMode::POSITIVE_INF:
      if (isSigned)
        rewriter.replaceOpWithNewOp<arith::CeilDivSIOp>(op, lhs, rhs);
      else
        rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, lhs, rhs);
      return success();
    default:
      return op.emitOpError("integer division rounding '")
             << ct::stringifyRoundingMode(op.getRounding()) << "' has no meaning";
    }
  }
};

arith::CmpIPredicate getCmpIPredicate(ct::ComparisonPredicate predicate,
                                      bool isSigned) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case ct::ComparisonPredicate::EQUAL:
    return P::eq;
  case ct::ComparisonPredicate::NOT_EQUAL:
    return P::ne;
  case ct::ComparisonPredicate::LESS_THAN:
    return isSigned ? P::slt : P::ult;
  case ct::ComparisonPredicate::LESS_THAN_OR_EQUAL:
    return isSigned ? P::sle : P::ule;
  case ct::ComparisonPredicate::GREATER_THAN:
    return isSigned ? P::sgt : P::ugt;
  case ct::ComparisonPredicate::GREATER_THAN_OR_EQUAL:
    return isSigned ? P::sge : P::uge;
  }
  return P::eq;
}

/// Ordered predicates are false when an operand is NaN, unordered ones true.
arith::CmpFPredicate getCmpFPredicate(ct::ComparisonPredicate predicate,
                                      bool ordered) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case ct::ComparisonPredicate::EQUAL:
    return ordered ? P::OEQ : P::UEQ;
  case ct::ComparisonPredicate::NOT_EQUAL:
    return ordered ? P::ONE : P::UNE;
  case ct::ComparisonPredicate::LESS_THAN:
    return ordered ? P::OLT : P::ULT;
  case ct::ComparisonPredicate::LESS_THAN_OR_EQUAL:
    return ordered ? P::OLE : P::ULE;
  case ct::ComparisonPredicate::GREATER_THAN:
    return ordered ? P::OGT : P::UGT;
  case ct::ComparisonPredicate::GREATER_THAN_OR_EQUAL:
    return ordered ? P::OGE : P::UGE;
  }
  return P::OEQ;
}

struct CmpILowering : TilePattern<ct::CmpIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::CmpIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool isSigned = op.getSignedness() == ct::Signedness::Signed;
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(
        op, getCmpIPredicate(op.getComparisonPredicate(), isSigned),
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct CmpFLowering : TilePattern<ct::CmpFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::CmpFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool ordered = op.getComparisonOrdering() == ct::ComparisonOrdering::ORDERED;
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(
        op, getCmpFPredicate(op.getComparisonPredicate(), ordered),
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct SelectLowering : TilePattern<ct::SelectOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCond(),
                                                 adaptor.getValIfTrue(),
                                                 adaptor.getValIfFalse());
    return success();
  }
};

struct ExtILowering : TilePattern<ct::ExtIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ExtIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = convert(op.getTo().getType());
    if (op.getSignedness() == ct::Signedness::Signed)
      rewriter.replaceOpWithNewOp<arith::ExtSIOp>(op, type, adaptor.getFrom());
    else
      rewriter.replaceOpWithNewOp<arith::ExtUIOp>(op, type, adaptor.getFrom());
    return success();
  }
};

struct TruncILowering : TilePattern<ct::TruncIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::TruncIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, convert(op.getTo().getType()),
                                                 adaptor.getFrom());
    return success();
  }
};

struct BitcastLowering : TilePattern<ct::BitcastOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::BitcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, convert(op.getType()),
                                                  adaptor.getSource());
    return success();
  }
};

struct FToFLowering : TilePattern<ct::FToFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::FToFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // The verifier allows zero and positive_inf only for f8E8M0FNU results
    // (truncf's rounding mode, read by tile-llvm's e8m0 encoder).
    std::optional<arith::RoundingMode> rounding;
    switch (op.getRoundingMode()) {
    case ct::RoundingMode::NEAREST_EVEN:
      break;
    case ct::RoundingMode::ZERO:
      rounding = arith::RoundingMode::toward_zero;
      break;
    case ct::RoundingMode::POSITIVE_INF:
      rounding = arith::RoundingMode::upward;
      break;
    default:
      return op.emitOpError("ftof rounding ")
             << ct::stringifyRoundingMode(op.getRoundingMode()) << " is not lowered";
    }
    Type type = convert(op.getTo().getType());
    Value from = adaptor.getFrom();
    unsigned fromBits = getElementTypeOrSelf(from.getType()).getIntOrFloatBitWidth();
    unsigned toBits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    arith::RoundingModeAttr mode;
    if (rounding)
      mode = arith::RoundingModeAttr::get(op.getContext(), *rounding);
    if (toBits > fromBits) {
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, type, from);
    } else if (toBits < fromBits) {
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, from, mode,
                                                   arith::FastMathFlagsAttr());
    } else if (from.getType() == type) {
      rewriter.replaceOp(op, from);
    } else {
      // Same width (f16 <-> bf16, between 8-bit formats): exact through f32,
      // then one rounding.
      Type f32 = rewriter.getF32Type();
      Type wide = f32;
      if (auto shaped = dyn_cast<ShapedType>(type))
        wide = shaped.clone(f32);
      Value ext = arith::ExtFOp::create(rewriter, op.getLoc(), wide, from);
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, ext, mode,
                                                   arith::FastMathFlagsAttr());
    }
    return success();
  }
};

struct IToFLowering : TilePattern<ct::IToFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::IToFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getRoundingMode() != ct::RoundingMode::NEAREST_EVEN)
      return op.emitOpError("itof rounding other than nearest_even is not lowered yet");
    Type type = convert(op.getTo().getType());
    if (op.getSignedness() == ct::Signedness::Signed)
      rewriter.replaceOpWithNewOp<arith::SIToFPOp>(op, type, adaptor.getFrom());
    else
      rewriter.replaceOpWithNewOp<arith::UIToFPOp>(op, type, adaptor.getFrom());
    return success();
  }
};

/// ftoi: rounds per the mode, converts, and saturates. Comparisons against
/// the powers of two bounding the integer range (exact in every float type
/// or +-inf) pick INT_MAX/INT_MIN; NaN picks 0.
struct FToILowering : TilePattern<ct::FToIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::FToIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = convert(op.getTo().getType());
    Value x = adaptor.getFrom();
    switch (op.getRoundingMode()) {
    case ct::RoundingMode::NEAREST_INT_TO_ZERO:
    case ct::RoundingMode::ZERO:
      break; // fptosi/fptoui truncate.
    case ct::RoundingMode::NEAREST_EVEN:
      x = math::RoundEvenOp::create(rewriter, loc, x);
      break;
    case ct::RoundingMode::NEGATIVE_INF:
      x = math::FloorOp::create(rewriter, loc, x);
      break;
    case ct::RoundingMode::POSITIVE_INF:
      x = math::CeilOp::create(rewriter, loc, x);
      break;
    default:
      return op.emitOpError("ftoi rounding '")
             << ct::stringifyRoundingMode(op.getRoundingMode()) << "' has no meaning";
    }
    bool isSigned = op.getSignedness() == ct::Signedness::Signed;
    unsigned bits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Value converted = isSigned ? arith::FPToSIOp::create(rewriter, loc, type, x).getResult()
                               : arith::FPToUIOp::create(rewriter, loc, type, x).getResult();
    APInt maxInt = isSigned ? APInt::getSignedMaxValue(bits) : APInt::getMaxValue(bits);
    APInt minInt = isSigned ? APInt::getSignedMinValue(bits) : APInt::getZero(bits);
    double upper = std::ldexp(1.0, isSigned ? bits - 1 : bits);
    double lower = isSigned ? -upper : 0.0;
    Value tooBig = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGE, x,
        createFloatConstant(rewriter, loc, x.getType(), upper));
    Value tooSmall = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x,
        createFloatConstant(rewriter, loc, x.getType(), lower));
    Value isNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    Value result = arith::SelectOp::create(
        rewriter, loc, tooBig, createIntConstant(rewriter, loc, type, maxInt), converted);
    result = arith::SelectOp::create(
        rewriter, loc, tooSmall, createIntConstant(rewriter, loc, type, minInt), result);
    result = arith::SelectOp::create(
        rewriter, loc, isNaN,
        createIntConstant(rewriter, loc, type, APInt::getZero(bits)), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateArithmeticLoweringPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      // Integer arithmetic, logic and shifts.
      ElementwiseLowering<ct::AddIOp, arith::AddIOp>,
      ElementwiseLowering<ct::SubIOp, arith::SubIOp>,
      ElementwiseLowering<ct::MulIOp, arith::MulIOp>,
      ElementwiseLowering<ct::ShLIOp, arith::ShLIOp>,
      ElementwiseLowering<ct::AndIOp, arith::AndIOp>,
      ElementwiseLowering<ct::OrIOp, arith::OrIOp>,
      ElementwiseLowering<ct::XOrIOp, arith::XOrIOp>,
      ElementwiseLowering<ct::AbsIOp, math::AbsIOp>,
      SignedIntLowering<ct::MaxIOp, arith::MaxSIOp, arith::MaxUIOp>,
      SignedIntLowering<ct::MinIOp, arith::MinSIOp, arith::MinUIOp>,
      SignedIntLowering<ct::RemIOp, arith::RemSIOp, arith::RemUIOp>,
      SignedIntLowering<ct::ShRIOp, arith::ShRSIOp, arith::ShRUIOp>,
      NegILowering, MulhiILowering, DivILowering, CmpILowering, SelectLowering,
      // Floating-point arithmetic and math.
      FloatBinaryLowering<ct::AddFOp, arith::AddFOp>,
      FloatBinaryLowering<ct::SubFOp, arith::SubFOp>,
      FloatBinaryLowering<ct::MulFOp, arith::MulFOp>,
      FloatBinaryLowering<ct::DivFOp, arith::DivFOp>,
      ElementwiseLowering<ct::RemFOp, arith::RemFOp>,
      ElementwiseLowering<ct::PowOp, math::PowFOp>,
      ElementwiseLowering<ct::Atan2Op, math::Atan2Op>,
      MinMaxFLowering<ct::MaxFOp, arith::MaximumFOp, arith::MaxNumFOp>,
      MinMaxFLowering<ct::MinFOp, arith::MinimumFOp, arith::MinNumFOp>,
      FmaLowering, SqrtLowering, PowILowering, CmpFLowering,
      FloatUnaryLowering<ct::NegFOp, arith::NegFOp>,
      FloatUnaryLowering<ct::AbsFOp, math::AbsFOp>,
      FloatUnaryLowering<ct::CeilOp, math::CeilOp>,
      FloatUnaryLowering<ct::FloorOp, math::FloorOp>,
      FloatUnaryLowering<ct::CosOp, math::CosOp>,
      FloatUnaryLowering<ct::CosHOp, math::CoshOp>,
      FloatUnaryLowering<ct::SinOp, math::SinOp>,
      FloatUnaryLowering<ct::SinHOp, math::SinhOp>,
      FloatUnaryLowering<ct::TanOp, math::TanOp>,
      FloatUnaryLowering<ct::TanHOp, math::TanhOp>,
      FloatUnaryLowering<ct::LogOp, math::LogOp>,
      FloatUnaryLowering<ct::Log2Op, math::Log2Op>,
      FloatUnaryLowering<ct::ExpOp, math::ExpOp>,
      FloatUnaryLowering<ct::Exp2Op, math::Exp2Op>,
      FloatUnaryLowering<ct::RsqrtOp, math::RsqrtOp>,
      // Conversions.
      ExtILowering, TruncILowering, BitcastLowering, FToFLowering,
      IToFLowering, FToILowering,
      // Grid queries.
      GridQueryLowering<ct::GetNumTileBlocksOp, tile_aa::NumBlocksOp>>(
      converter, context);
}

} // namespace tilepipe
