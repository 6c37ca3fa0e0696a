//===- BFloatRounding.cpp - bf16 results rounded in integer arithmetic ----===//
//
// The x86 backend's f32 -> bf16 rounding (an fptrunc, and every bf16
// operation it promotes to f32 and truncates back) flushes subnormal results
// to zero, and its f64 -> bf16 and int -> bf16 round twice, through f32
// (2^24 + 2^16 + 1 becomes 2^24, not 2^24 + 2^17). The GPU does neither:
// cvt.rn.bf16.f32 has no .ftz modifier (PTX ISA, "cvt"), so a subnormal bf16
// result is kept, and cvt.rn.bf16.{f64,s32,...} round once. So every
// bf16-producing rounding is done here in IR that the backend cannot change:
// the f32 bits rounded to nearest even by integer addition. (f16 needs no
// such care: the backend's f32/f64 -> f16 rounding is exact, see
// FloatConversionTest.cpp.)
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

bool isBFloat(Type *type) { return type->getScalarType()->isBFloatTy(); }

/// `type` with its (vector) element type replaced by `element`.
Type *withElement(Type *type, Type *element) {
  if (auto *vector = dyn_cast<VectorType>(type))
    return VectorType::get(element, vector->getElementCount());
  return element;
}

/// f32 -> bf16, round to nearest even: add 0x7fff plus the kept LSB to the
/// bits and keep the upper half. The carry runs into the exponent where it
/// must (up to infinity); subnormals are just small integers here. NaNs keep
/// sign and upper payload and get the quiet bit, as in cvt.rn.bf16.f32.
Value *roundFloatToBFloat(IRBuilder<> &b, Value *value) {
  Type *type = value->getType();
  Type *i32 = withElement(type, b.getInt32Ty()), *i16 = withElement(type, b.getInt16Ty());
  auto splat = [&](uint32_t v) { return ConstantInt::get(i32, v); };
  Value *bits = b.CreateBitCast(value, i32);
  Value *lsb = b.CreateAnd(b.CreateLShr(bits, splat(16)), splat(1));
  Value *rounded = b.CreateAdd(bits, b.CreateAdd(lsb, splat(0x7fff)));
  Value *upper = b.CreateTrunc(b.CreateLShr(rounded, splat(16)), i16);
  Value *quietNaN = b.CreateTrunc(b.CreateLShr(b.CreateOr(bits, splat(0x400000)), splat(16)), i16);
  Value *isNaN = b.CreateFCmpUNO(value, value);
  return b.CreateBitCast(b.CreateSelect(isNaN, quietNaN, upper), withElement(type, b.getBFloatTy()));
}

/// f64 -> f32 rounded to odd: truncate toward zero, then set the LSB when
/// inexact. Rounding that to bf16 (8 bits, f32 has 24 >= 8 + 2) is the
/// correctly rounded f64 -> bf16, which a plain f64 -> f32 -> bf16 is not
/// (a double just above a bf16 tie would become the tie and round to even).
Value *roundDoubleToOddFloat(IRBuilder<> &b, Value *value) {
  Type *type = value->getType();
  Type *f32 = withElement(type, b.getFloatTy()), *i32 = withElement(type, b.getInt32Ty());
  Value *nearest = b.CreateFPTrunc(value, f32);
  Value *bits = b.CreateBitCast(nearest, i32);
  Value *wide = b.CreateFPExt(nearest, type);
  // Rounded away from zero: step the magnitude back by one ulp (infinity
  // becomes the largest finite value, the LSB set below puts it back on an
  // odd code).
  Value *awayFromZero = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(Intrinsic::fabs, wide),
                                        b.CreateUnaryIntrinsic(Intrinsic::fabs, value));
  Value *truncated = b.CreateSelect(awayFromZero, b.CreateSub(bits, ConstantInt::get(i32, 1)), bits);
  Value *inexact = b.CreateFCmpONE(wide, value);
  Value *odd = b.CreateSelect(inexact, b.CreateOr(truncated, ConstantInt::get(i32, 1)), truncated);
  return b.CreateBitCast(odd, f32);
}

/// The value widened to f32 where it is bf16 (exact: a shift of the bits).
Value *widen(IRBuilder<> &b, Value *value) {
  if (!isBFloat(value->getType()))
    return value;
  return b.CreateFPExt(value, withElement(value->getType(), b.getFloatTy()));
}

/// Intrinsics on bf16 that the backend evaluates in f32 and truncates back.
bool isPromotedIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::sqrt:
  case Intrinsic::minnum: case Intrinsic::maxnum: case Intrinsic::minimum:
  case Intrinsic::maximum: case Intrinsic::minimumnum: case Intrinsic::maximumnum:
  case Intrinsic::fabs: case Intrinsic::copysign: case Intrinsic::floor:
  case Intrinsic::ceil: case Intrinsic::trunc: case Intrinsic::rint:
  case Intrinsic::nearbyint: case Intrinsic::round: case Intrinsic::roundeven:
  case Intrinsic::canonicalize:
    return true;
  default:
    return false;
  }
}

/// The f32 (or f64 source) value whose rounding is `inst`'s bf16 result, or
/// nullptr when `inst` needs no rounding of its own.
Value *unroundedResult(IRBuilder<> &b, Instruction &inst) {
  if (auto *trunc = dyn_cast<FPTruncInst>(&inst)) {
    Value *source = trunc->getOperand(0);
    Type *scalar = source->getType()->getScalarType();
    if (scalar->isFloatTy())
      return source;
    if (scalar->isDoubleTy())
      return roundDoubleToOddFloat(b, source);
    return nullptr;
  }
  if (isa<SIToFPInst, UIToFPInst>(&inst)) {
    // Through f64, exact for integers of up to 53 bits (wider ones round
    // there first), then rounded once as an f64 source.
    Value *source = inst.getOperand(0);
    Type *f64 = withElement(inst.getType(), b.getDoubleTy());
    Value *wide = isa<SIToFPInst>(&inst) ? b.CreateSIToFP(source, f64) : b.CreateUIToFP(source, f64);
    return roundDoubleToOddFloat(b, wide);
  }
  if (auto *op = dyn_cast<BinaryOperator>(&inst)) {
    if (!op->getType()->isFPOrFPVectorTy())
      return nullptr;
    Value *result = b.CreateBinOp(op->getOpcode(), widen(b, op->getOperand(0)), widen(b, op->getOperand(1)));
    if (auto *math = dyn_cast<Instruction>(result))
      math->copyFastMathFlags(op);
    return result;
  }
  auto *call = dyn_cast<IntrinsicInst>(&inst);
  if (!call || !isPromotedIntrinsic(call->getIntrinsicID()))
    return nullptr;
  SmallVector<Value *, 3> operands;
  for (Value *operand : call->args())
    operands.push_back(widen(b, operand));
  Type *f32 = withElement(call->getType(), b.getFloatTy());
  return b.CreateIntrinsic(f32, call->getIntrinsicID(), operands);
}

} // namespace

void tilepipe::emu::lowerBFloatRounding(Function &fn) {
  std::vector<Instruction *> candidates;
  for (Instruction &inst : instructions(fn))
    if (isBFloat(inst.getType()))
      candidates.push_back(&inst);
  for (Instruction *inst : candidates) {
    IRBuilder<> b(inst);
    Value *unrounded = unroundedResult(b, *inst);
    if (!unrounded)
      continue;
    Value *rounded = roundFloatToBFloat(b, unrounded);
    rounded->takeName(inst);
    inst->replaceAllUsesWith(rounded);
    inst->eraseFromParent();
  }
}
