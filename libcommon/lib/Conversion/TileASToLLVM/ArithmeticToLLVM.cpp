//===- ArithmeticToLLVM.cpp - tile_as arithmetic ops -> LLVM/NVVM -------------===//
//
// Arithmetic that upstream's arith-to-llvm patterns cannot lower. So far: the
// conversions to and from the 8-bit floats f8E4M3FN and f8E5M2 and the 4-bit
// f4E2M1FN, which LLVM has no type for (they live in i8 and i4). They are
// computed with integer and f32 operations, the same on every target, with
// the semantics of PTX's `cvt.rn.satfinite.{e4m3x2,e5m2x2,e2m1x2}.f32`:
// round to nearest even, anything beyond the largest finite value
// (infinities included) saturates to it, NaN stays NaN (e2m1, which has no
// NaN, takes the largest finite value). Decoding is exact. And the OCP MX
// scale f8E8M0FNU (an exponent only, 0xFF NaN), rounded as truncf says
// (ftof allows zero and positive_inf for it). And f32 -> tf32, rounded
// rather than left to the tensor cores' truncation.
// Scalars and vectors (a thread's registers) alike: every op is elementwise.
// ConvertTileASToLLVMPass registers these through
// populateArithmeticToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// A small float format (8 bits or f4E2M1FN's 4) with 1 sign bit.
struct F8Format {
  unsigned bits;
  unsigned mantissaBits;
  int bias;
  /// Largest finite value (1.75 * 2^emax for the 8-bit formats, 6 for e2m1).
  float maxFinite;
  /// e5m2 has IEEE infinities and NaNs (exponent all ones); e4m3fn only the
  /// NaN S.1111.111 and no infinity; e2m1 neither (OCP MX).
  bool ieeeSpecials;
  bool hasNaN;
  unsigned exponentBits() const { return bits - 1 - mantissaBits; }
  unsigned signBit() const { return bits - 1; }
  /// What NaN encodes to: the canonical NaN S.1111.111, or for e2m1 (no
  /// NaN) the largest finite value, as PTX cvt.satfinite to e2m1 does.
  unsigned nanCode() const { return (1u << (bits - 1)) - 1; }
};

static std::optional<F8Format> getF8Format(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<Float8E4M3FNType>(type))
    return F8Format{8, 3, 7, 448.0f, false, true};
  if (isa<Float8E5M2Type>(type))
    return F8Format{8, 2, 15, 57344.0f, true, true};
  if (isa<Float4E2M1FNType>(type))
    return F8Format{4, 1, 1, 6.0f, false, false};
  return std::nullopt;
}

/// Builds elementwise LLVM ops on scalars or vectors of one register count.
class ElementwiseBuilder {
public:
  ElementwiseBuilder(OpBuilder &b, Location loc, Type shapeOf)
      : b(b), loc(loc), shape(dyn_cast<VectorType>(shapeOf)) {}

  Type like(Type element) const {
    return shape ? Type(VectorType::get(shape.getShape(), element)) : element;
  }
  Value i32(int64_t value) {
    Type type = like(b.getI32Type());
    Attribute attr = b.getI32IntegerAttr(value);
    if (shape)
      attr = SplatElementsAttr::get(cast<ShapedType>(type), attr);
    return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(attr));
  }
  Value f32(float value) {
    Type type = like(b.getF32Type());
    Attribute attr = b.getF32FloatAttr(value);
    if (shape)
      attr = SplatElementsAttr::get(cast<ShapedType>(type), attr);
    return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(attr));
  }
  Value bitcast(Value v, Type element) {
    return LLVM::BitcastOp::create(b, loc, like(element), v);
  }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return LLVM::SubOp::create(b, loc, x, y); }
  Value band(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return LLVM::OrOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return LLVM::ShlOp::create(b, loc, x, y); }
  Value lshr(Value x, Value y) { return LLVM::LShrOp::create(b, loc, x, y); }
  Value icmp(LLVM::ICmpPredicate p, Value x, Value y) {
    return LLVM::ICmpOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) { return LLVM::SelectOp::create(b, loc, c, x, y); }

  OpBuilder &b;
  Location loc;
  VectorType shape;
};

/// f32 -> small float bits (i8 or i4), PTX cvt.rn.satfinite semantics.
static Value encodeF8(ElementwiseBuilder &e, Value value, const F8Format &f) {
  using P = LLVM::ICmpPredicate;
  Type i32 = e.b.getI32Type(), f32 = e.b.getF32Type();
  Value bits = e.bitcast(value, i32);
  Value sign = e.shl(e.lshr(bits, e.i32(31)), e.i32(f.signBit()));
  Value magnitude = e.band(bits, e.i32(0x7fffffff));
  Value isNaN = e.icmp(P::ugt, magnitude, e.i32(0x7f800000));
  // Saturate first: no value at or below the largest finite one rounds past it.
  Value maxBits = e.bitcast(e.f32(f.maxFinite), i32);
  Value clamped = LLVM::UMinOp::create(e.b, e.loc, magnitude, maxBits);

  // Normal results: drop the low mantissa bits rounding to nearest even (a
  // carry into the exponent is the right answer), then rebias the exponent.
  unsigned shift = 23 - f.mantissaBits;
  Value odd = e.band(e.lshr(clamped, e.i32(shift)), e.i32(1));
  Value rounded = e.add(e.add(clamped, e.i32((1 << (shift - 1)) - 1)), odd);
  Value normal = e.sub(e.lshr(rounded, e.i32(shift)),
                       e.i32(int64_t(127 - f.bias) << f.mantissaBits));

  // Subnormal results are multiples of 2^(1 - bias - mantissaBits): scale by
  // its inverse (exact) and round to an integer; 2^mantissaBits is the
  // smallest normal's encoding, so rounding up into it needs nothing more.
  Value scaled = LLVM::FMulOp::create(
      e.b, e.loc, e.bitcast(clamped, f32),
      e.f32(std::ldexp(1.0f, f.bias + int(f.mantissaBits) - 1)));
  Value subnormal = LLVM::FPToUIOp::create(
      e.b, e.loc, e.like(i32), LLVM::RoundEvenOp::create(e.b, e.loc, scaled));
  Value minNormalBits = e.bitcast(e.f32(std::ldexp(1.0f, 1 - f.bias)), i32);
  Value isSubnormal = e.icmp(P::ult, clamped, minNormalBits);

  Value result = e.bor(e.select(isSubnormal, subnormal, normal), sign);
  result = e.select(isNaN, e.i32(f.nanCode()), result);
  return LLVM::TruncOp::create(e.b, e.loc, e.like(e.b.getIntegerType(f.bits)), result);
}

/// Small float bits (i8 or i4) -> f32, exactly.
static Value decodeF8(ElementwiseBuilder &e, Value byte, const F8Format &f) {
  using P = LLVM::ICmpPredicate;
  Type i32 = e.b.getI32Type(), f32 = e.b.getF32Type();
  unsigned m = f.mantissaBits;
  Value word = LLVM::ZExtOp::create(e.b, e.loc, e.like(i32), byte);
  Value sign = e.shl(e.band(word, e.i32(1 << f.signBit())), e.i32(31 - f.signBit()));
  Value exponent = e.band(e.lshr(word, e.i32(m)), e.i32((1 << f.exponentBits()) - 1));
  Value mantissa = e.band(word, e.i32((1 << m) - 1));
  // value = significand * 2^(exponent - bias - m), subnormals with exponent 1
  // and no implicit bit; the power of two is built from its f32 bits.
  Value isSubnormal = e.icmp(P::eq, exponent, e.i32(0));
  Value significand = e.select(isSubnormal, mantissa, e.bor(mantissa, e.i32(1 << m)));
  Value scale = e.select(isSubnormal, e.i32(1), exponent);
  Value power = e.bitcast(
      e.shl(e.add(scale, e.i32(127 - f.bias - int(m))), e.i32(23)), f32);
  Value magnitude = LLVM::FMulOp::create(
      e.b, e.loc, LLVM::UIToFPOp::create(e.b, e.loc, e.like(f32), significand), power);
  Value result = e.bor(e.bitcast(magnitude, i32), sign);

  Value nan = e.bor(e.i32(0x7fc00000), sign);
  if (f.ieeeSpecials) {
    Value allOnes = e.icmp(P::eq, exponent, e.i32((1 << f.exponentBits()) - 1));
    Value isInf = e.icmp(P::eq, mantissa, e.i32(0));
    Value special = e.select(isInf, e.bor(e.i32(0x7f800000), sign), nan);
    result = e.select(allOnes, special, result);
  } else if (f.hasNaN) {
    Value isNaN = e.icmp(P::eq, e.band(word, e.i32(f.nanCode())), e.i32(f.nanCode()));
    result = e.select(isNaN, nan, result);
  }
  return e.bitcast(result, f32);
}

/// f32 -> f8E8M0FNU bits (i8): the scale 2^(E - 127) for the f32 magnitude
/// (a scale has no sign, so a negative value, -0 and -inf included, gets its
/// magnitude's scale: CUDA documents its e8m0 conversions, cvt.rz/rp
/// .ue8m0x2, as rounding the input's absolute value, and cuda_fp8.hpp's
/// reference code drops the sign bit), E rounded by `mode` (toward zero, upward or to
/// nearest even between 2^E and 2^(E+1), i.e. at 1.5 * 2^E), saturating to
/// 0xFE = 2^127 (infinities included); NaN is 0xFF. f32 subnormals lie
/// between 2^-127 (E = 0, an f32 mantissa of 0x400000 there) and 2^-126.
static Value encodeE8M0(ElementwiseBuilder &e, Value value, arith::RoundingMode mode) {
  using P = LLVM::ICmpPredicate;
  Value magnitude = e.band(e.bitcast(value, e.b.getI32Type()), e.i32(0x7fffffff));
  Value exponent = e.lshr(magnitude, e.i32(23));
  Value mantissa = e.band(magnitude, e.i32(0x7fffff));
  Value isSubnormal = e.icmp(P::eq, exponent, e.i32(0));
  // Whether E goes one past the exponent field, for normals and subnormals.
  Value upNormal, upSubnormal;
  switch (mode) {
  case arith::RoundingMode::toward_zero:
  case arith::RoundingMode::downward:
    upNormal = upSubnormal = e.icmp(P::ne, e.i32(0), e.i32(0));
    break;
  case arith::RoundingMode::upward:
    upNormal = e.icmp(P::ne, mantissa, e.i32(0));
    upSubnormal = e.icmp(P::ugt, mantissa, e.i32(0x400000));
    break;
  default: {
    Value odd = e.icmp(P::ne, e.band(exponent, e.i32(1)), e.i32(0));
    Value tie = e.icmp(P::eq, mantissa, e.i32(0x400000));
    upNormal = e.bor(e.icmp(P::ugt, mantissa, e.i32(0x400000)), e.band(tie, odd));
    upSubnormal = e.icmp(P::ugt, mantissa, e.i32(0x600000));
    break;
  }
  }
  Value up = e.select(isSubnormal, upSubnormal, upNormal);
  Value code = e.add(exponent, LLVM::ZExtOp::create(e.b, e.loc, e.like(e.b.getI32Type()), up));
  code = LLVM::UMinOp::create(e.b, e.loc, code, e.i32(0xfe));
  Value isNaN = e.icmp(P::ugt, magnitude, e.i32(0x7f800000));
  code = e.select(isNaN, e.i32(0xff), code);
  return LLVM::TruncOp::create(e.b, e.loc, e.like(e.b.getI8Type()), code);
}

/// f8E8M0FNU bits (i8) -> f32: the code is f32's exponent field, but for
/// 0 (2^-127, an f32 subnormal) and 0xFF (NaN).
static Value decodeE8M0(ElementwiseBuilder &e, Value byte) {
  using P = LLVM::ICmpPredicate;
  Value code = LLVM::ZExtOp::create(e.b, e.loc, e.like(e.b.getI32Type()), byte);
  Value bits = e.shl(code, e.i32(23));
  bits = e.select(e.icmp(P::eq, code, e.i32(0)), e.i32(0x00400000), bits);
  bits = e.select(e.icmp(P::eq, code, e.i32(0xff)), e.i32(0x7fc00000), bits);
  return e.bitcast(bits, e.b.getF32Type());
}

/// f32 <-> the float type `to` (same register count), exact for the types
/// fp8 values meet (f16, bf16, f64 hold every fp8 value).
static Value castFloat(ElementwiseBuilder &e, Value value, Type to) {
  Type from = getElementTypeOrSelf(value.getType());
  if (from == to)
    return value;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return LLVM::FPExtOp::create(e.b, e.loc, e.like(to), value);
  return LLVM::FPTruncOp::create(e.b, e.loc, e.like(to), value);
}

/// arith.truncf to an 8-bit float. An f64 source is rounded to f32 first
/// (PTX converts from f32 only; the double rounding can differ from a direct
/// one in the last fp8 bit for f64 values within 2^-29 of a tie).
struct TruncFToF8 : ConvertOpToLLVMPattern<arith::TruncFOp> {
  TruncFToF8(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<F8Format> format = getF8Format(op.getType());
    bool toScale = isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getType()));
    if (!format && !toScale)
      return rewriter.notifyMatchFailure(op, "not a conversion to fp8");
    ElementwiseBuilder e(rewriter, op.getLoc(), adaptor.getIn().getType());
    Value wide = castFloat(e, adaptor.getIn(), rewriter.getF32Type());
    if (toScale)
      rewriter.replaceOp(op, encodeE8M0(e, wide,
                                        op.getRoundingmode().value_or(
                                            arith::RoundingMode::to_nearest_even)));
    else
      rewriter.replaceOp(op, encodeF8(e, wide, *format));
    return success();
  }
};

} // namespace

Value roundToTF32(OpBuilder &builder, Location loc, Value value) {
  using P = LLVM::ICmpPredicate;
  ElementwiseBuilder e(builder, loc, value.getType());
  Value bits = e.bitcast(value, builder.getI32Type());
  Value mask = e.i32(int32_t(0xffffe000u));
  Value odd = e.band(e.lshr(bits, e.i32(13)), e.i32(1));
  Value result = e.band(e.add(e.add(bits, e.i32(0xfff)), odd), mask);
  Value isNaN = e.icmp(P::ugt, e.band(bits, e.i32(0x7fffffff)), e.i32(0x7f800000));
  result = e.select(isNaN, e.bor(e.band(bits, mask), e.i32(0x00400000)), result);
  return e.bitcast(result, builder.getF32Type());
}

namespace {

/// arith.truncf f32 -> tf32: tf32 values live in f32 registers, and the
/// tensor cores ignore the low 13 mantissa bits (truncating), so the
/// conversion rounds here (roundToTF32).
struct TruncFToTF32 : ConvertOpToLLVMPattern<arith::TruncFOp> {
  TruncFToTF32(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<FloatTF32Type>(getElementTypeOrSelf(op.getType())) ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not a conversion from f32 to tf32");
    if (op.getRoundingmode().value_or(arith::RoundingMode::to_nearest_even) !=
        arith::RoundingMode::to_nearest_even)
      return op.emitOpError("f32 to tf32 rounds to nearest even only");
    rewriter.replaceOp(op, roundToTF32(rewriter, op.getLoc(), adaptor.getIn()));
    return success();
  }
};

/// arith.extf from an 8-bit float.
struct ExtFFromF8 : ConvertOpToLLVMPattern<arith::ExtFOp> {
  ExtFFromF8(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<F8Format> format = getF8Format(op.getIn().getType());
    bool fromScale = isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getIn().getType()));
    if (!format && !fromScale)
      return rewriter.notifyMatchFailure(op, "not a conversion from fp8");
    Type to = getElementTypeOrSelf(typeConverter->convertType(op.getType()));
    ElementwiseBuilder e(rewriter, op.getLoc(), adaptor.getIn().getType());
    Value value = fromScale ? decodeE8M0(e, adaptor.getIn())
                            : decodeF8(e, adaptor.getIn(), *format);
    rewriter.replaceOp(op, castFloat(e, value, to));
    return success();
  }
};

} // namespace

Value decodeFloat8(OpBuilder &builder, Location loc, Value bits, Type type) {
  ElementwiseBuilder e(builder, loc, bits.getType());
  return decodeF8(e, bits, *getF8Format(type));
}

void populateArithmeticToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<TruncFToF8, TruncFToTF32, ExtFFromF8>(converter);
}

} // namespace tilepipe::tile_as
