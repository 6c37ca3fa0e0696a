//===- DirectedArithToLLVM.cpp - tile_as.directed_arith -> NVVM -----------===//
//
// Float arithmetic rounded toward zero, -inf or +inf. PTX has add, mul, div,
// fma and sqrt with .rz/.rm/.rp for f32 and f64 (the llvm.nvvm.<op>.<rnd>.f/d
// intrinsics); sub is add of the negated operand (negation is exact).
//
// f16 and bf16 are computed in f32 with the same rounding and then narrowed
// with it once more. Rounding twice in one direction is exact when the narrow
// format's values are all values of the wide one (true of f16 and bf16 in
// f32, subnormals included): with D the narrow and W the wide rounding down,
// D(x) <= W(x) <= x gives D(W(x)) = D(x), and rounding up and toward zero
// follow alike. (Nearest-even rounding has no such property; it is not used
// here.) PTX converts f32 to f16/bf16 with .rm/.rp on sm_90 alone, so the
// narrowing starts from a neighbouring value every target computes (f16: the
// nearest-even conversion; bf16: the truncated bits) and steps one unit in
// the last place where that lies on the wrong side.
//
// Registers are computed one by one: the intrinsics are scalar.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "RegisterEmitter.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// Emits one directed-rounding op on scalars.
class DirectedEmitter {
public:
  DirectedEmitter(OpBuilder &b, Location loc, StringRef kind, StringRef rounding,
                  bool flushToZero)
      : b(b), loc(loc), kind(kind), rounding(rounding), flushToZero(flushToZero) {}

  Value emit(ValueRange operands) {
    Type type = operands.front().getType();
    if (type.isF32() || type.isF64())
      return emitNative(operands);
    // f16/bf16: exact in f32, computed there, narrowed in the same direction.
    Type f32 = b.getF32Type();
    SmallVector<Value> wide;
    for (Value operand : operands)
      wide.push_back(LLVM::FPExtOp::create(b, loc, f32, operand));
    return narrow(emitNative(wide), type);
  }

private:
  StringRef getPtxRounding() const {
    return llvm::StringSwitch<StringRef>(rounding)
        .Case("zero", "rz")
        .Case("negative_inf", "rm")
        .Default("rp");
  }

  /// The f32/f64 op as its llvm.nvvm intrinsic.
  Value emitNative(ValueRange operands) {
    Type type = operands.front().getType();
    SmallVector<Value> args(operands);
    StringRef op = kind;
    if (kind == "sub") {
      args[1] = LLVM::FNegOp::create(b, loc, args[1]);
      op = "add";
    }
    // .ftz exists for f32 only (cuda_tile's verifier allows it there alone).
    std::string name = ("llvm.nvvm." + op + "." + getPtxRounding() +
                        (type.isF64() ? ".d" : flushToZero ? ".ftz.f" : ".f"))
                           .str();
    return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name), args)
        .getResult(0);
  }

  Value f32(float value) {
    return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(value));
  }
  Value i16(int64_t value) {
    return LLVM::ConstantOp::create(b, loc, b.getI16Type(), b.getI16IntegerAttr(value));
  }
  Value fcmp(LLVM::FCmpPredicate predicate, Value x, Value y) {
    return LLVM::FCmpOp::create(b, loc, predicate, x, y);
  }
  Value both(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }

  /// A value of f16/bf16 `type` next to f32 `x` (on one side or the other,
  /// or x itself): for f16 the nearest-even conversion; for bf16 the top
  /// half of x's bits (toward zero), which needs no conversion at all, with
  /// NaN kept NaN (its top half could read as infinity).
  Value getNeighbour(Value x, Type type) {
    if (type.isF16())
      return LLVM::FPTruncOp::create(b, loc, type, x);
    Type i32 = b.getI32Type();
    Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
    Value high = LLVM::LShrOp::create(
        b, loc, bits, LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(16)));
    Value truncated = LLVM::TruncOp::create(b, loc, b.getI16Type(), high);
    Value isNaN = fcmp(LLVM::FCmpPredicate::uno, x, x);
    Value result = LLVM::SelectOp::create(b, loc, isNaN, i16(0x7fff), truncated);
    return LLVM::BitcastOp::create(b, loc, type, result);
  }

  /// f32 `x` rounded in this direction to f16/bf16 `type`. The wanted
  /// result is a neighbour of x, or the value next to that on the other side
  /// of x; comparing the neighbour with x (exact in f32) tells which. NaN
  /// compares false everywhere and stays NaN.
  Value narrow(Value x, Type type) {
    using P = LLVM::FCmpPredicate;
    Value neighbour = getNeighbour(x, type);
    Value back = LLVM::FPExtOp::create(b, loc, b.getF32Type(), neighbour);
    Value below = fcmp(P::olt, back, x), above = fcmp(P::ogt, back, x);
    Value needUp, needDown; // the result must be the next value up / down
    if (rounding == "positive_inf") {
      needUp = below;
      needDown = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false));
    } else if (rounding == "negative_inf") {
      needUp = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false));
      needDown = above;
    } else { // toward zero
      needUp = both(below, fcmp(P::olt, x, f32(0)));
      needDown = both(above, fcmp(P::ogt, x, f32(0)));
    }
    // One step in value is one unit of the sign-magnitude bits: +1 on the
    // magnitude away from zero (carrying into the exponent, up to infinity),
    // -1 toward it. Going down from -0 or up from +0 adds to the magnitude.
    Value bits = LLVM::BitcastOp::create(b, loc, b.getI16Type(), neighbour);
    Value negative = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, bits, i16(0));
    Value step = LLVM::SelectOp::create(
        b, loc, needUp, i16(1), LLVM::SelectOp::create(b, loc, needDown, i16(-1), i16(0)));
    Value delta = LLVM::SelectOp::create(
        b, loc, negative, LLVM::SubOp::create(b, loc, i16(0), step), step);
    return LLVM::BitcastOp::create(b, loc, type, LLVM::AddOp::create(b, loc, bits, delta));
  }

  OpBuilder &b;
  Location loc;
  StringRef kind, rounding;
  bool flushToZero;
};

struct DirectedArithLowering : ConvertOpToLLVMPattern<DirectedArithOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(DirectedArithOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return op.emitOpError("tensor without a blocked layout (run tile-sched)");
    DirectedEmitter directed(rewriter, op.getLoc(), op.getKind(), op.getRounding(),
                             op.getFlushToZero());
    auto vector = dyn_cast<VectorType>(type);
    if (!vector) {
      rewriter.replaceOp(op, directed.emit(adaptor.getOperands()));
      return success();
    }
    RegisterEmitter e(rewriter, op.getLoc());
    SmallVector<Value> results;
    for (int64_t i = 0, n = vector.getNumElements(); i < n; ++i) {
      SmallVector<Value> elements;
      for (Value operand : adaptor.getOperands())
        elements.push_back(e.extract(operand, i));
      results.push_back(directed.emit(elements));
    }
    rewriter.replaceOp(op, e.buildVector(vector, results));
    return success();
  }
};

} // namespace

void populateDirectedArithToLLVMPatterns(TileLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<DirectedArithLowering>(converter);
}

} // namespace tilepipe::tile_as
