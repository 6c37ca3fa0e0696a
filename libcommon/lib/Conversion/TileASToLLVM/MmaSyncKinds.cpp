//===- MmaSyncKinds.cpp - The mma.sync instruction of each operand kind ---===//
//
// What the mma.sync path (MmaSyncToLLVM.cpp) issues per 16x8 block and k
// step, by operand types (getMmaSyncForm picks the k):
//   f16, bf16:   m16n8k16, f32 accumulator
//   tf32:        m16n8k8,  f32 accumulator
//   s8/u8:       m16n8k32, s32 accumulator, wrapping (no .satfinite: mmai's
//                adds wrap, as the FMA path's do)
//   e4m3/e5m2:   m16n8k32, f32 accumulator (sm_89 and later)
// f16 accumulators accumulate in f32 and are rounded once at the end, as on
// the FMA path, rather than after every k step.
//
// MLIR 22's nvvm.mma.sync rejects the fp8 types ("invalid shape or
// multiplicand type: e4m3"), so those are the LLVM intrinsic
// llvm.nvvm.mma.m16n8k32.row.col.f32.<a>.<b>.f32 called directly; the
// NVPTX backend selects it from PTX ISA 8.4 and sm_89 on.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace tilepipe::tile_as {

Arithmetic getMmaSyncArithmetic(Operation *op) {
  OpBuilder builder(op->getContext());
  if (auto mmai = dyn_cast<MmaIOp>(op)) {
    Arithmetic arith{/*isFloat=*/false, mmai.getLhsSigned(), mmai.getRhsSigned()};
    arith.computeType = builder.getI32Type();
    return arith;
  }
  Arithmetic arith{/*isFloat=*/true};
  arith.computeType = builder.getF32Type();
  return arith;
}

StringRef getFloat8Name(Type type) {
  return isa<Float8E4M3FNType>(type) ? "e4m3" : "e5m2";
}

SmallVector<Value> emitMmaSyncInstruction(RegisterEmitter &e, Type a, Type b,
                                          ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                                          ArrayRef<Value> cRegs, bool aSigned, bool bSigned) {
  OpBuilder &builder = e.builder;
  Location loc = e.loc;
  bool isInteger = a.isInteger(8);
  Type compute = isInteger ? Type(builder.getI32Type()) : Type(builder.getF32Type());
  Type resultType = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                     SmallVector<Type>(4, compute));
  Value d;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(a)) {
    std::string name = ("llvm.nvvm.mma.m16n8k32.row.col.f32." + getFloat8Name(a) + "." +
                        getFloat8Name(b) + ".f32")
                           .str();
    SmallVector<Value> operands;
    llvm::append_range(operands, aRegs);
    llvm::append_range(operands, bRegs);
    llvm::append_range(operands, cRegs);
    d = LLVM::CallIntrinsicOp::create(builder, loc, resultType, builder.getStringAttr(name),
                                      operands)
            .getResult(0);
  } else {
    NVVM::MMATypes aType, bType;
    int64_t k = 16;
    std::optional<NVVM::MMAIntOverflow> overflow;
    SmallVector<Value> aOperands(aRegs), bOperands(bRegs);
    if (isInteger) {
      aType = aSigned ? NVVM::MMATypes::s8 : NVVM::MMATypes::u8;
      bType = bSigned ? NVVM::MMATypes::s8 : NVVM::MMATypes::u8;
      k = 32;
      overflow = NVVM::MMAIntOverflow::wrapped;
    } else if (isa<FloatTF32Type>(a)) {
      aType = bType = NVVM::MMATypes::tf32;
      k = 8;
    } else if (a.isBF16()) {
      aType = bType = NVVM::MMATypes::bf16;
    } else {
      // The NVVM op takes f16 pairs as vector<2xf16> (bf16 pairs as i32).
      aType = bType = NVVM::MMATypes::f16;
      Type pair = VectorType::get({2}, builder.getF16Type());
      for (Value &reg : aOperands)
        reg = LLVM::BitcastOp::create(builder, loc, pair, reg);
      for (Value &reg : bOperands)
        reg = LLVM::BitcastOp::create(builder, loc, pair, reg);
    }
    d = NVVM::MmaOp::create(builder, loc, resultType, aOperands, bOperands, cRegs,
                            ArrayRef<int64_t>{16, 8, k}, std::nullopt, overflow,
                            std::array<NVVM::MMATypes, 2>{aType, bType},
                            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                           NVVM::MMALayout::col});
  }
  SmallVector<Value> results;
  for (int64_t i = 0; i < 4; ++i)
    results.push_back(LLVM::ExtractValueOp::create(builder, loc, d, i));
  return results;
}

} // namespace tilepipe::tile_as
