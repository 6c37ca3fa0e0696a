//===- MatrixToLLVM.cpp - tile_as matrix ops -> LLVM/NVVM -------------===//
//
// The simple, layout-agnostic matrix multiply: A and B are staged through the
// CTA's shared-memory scratch buffer, a chunk of K at a time (so each chunk
// fits the static shared-memory limit), and every thread computes the
// accumulator elements it holds with FMAs (f32, or f64 for an f64
// accumulator) or multiply-adds (i32), in a loop over the chunk's k (not
// unrolled: a 128x64 by 64x256 multiply would be 16K FMAs). fp8 operands are
// staged as their bytes and decoded after each load. Barriers separate the
// writes of a chunk from its reads and from the next chunk's writes.
// The tensor-core paths take the f16/bf16 mmafs whose accumulator got a
// fragment layout: wgmma (WgmmaToLLVM.cpp) on Hopper, else mma.sync
// (MmaSyncToLLVM.cpp).
// ConvertTileASToLLVMPass registers these through populateMatrixToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;

namespace tilepipe::tile_as {

FailureOr<MmaShape> getMmaShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> acc) {
  unsigned rank = acc.size();
  if ((rank != 2 && rank != 3) || lhs.size() != rank)
    return failure();
  MmaShape s;
  s.batched = rank == 3;
  s.batch = s.batched ? acc[0] : 1;
  s.m = acc[rank - 2];
  s.n = acc[rank - 1];
  s.k = lhs[rank - 1];
  return s;
}

FailureOr<MmaShape> getMmaShape(MmaFOp op) {
  return getMmaShape(cast<RankedTensorType>(op.getLhs().getType()).getShape(),
                     cast<RankedTensorType>(op.getAcc().getType()).getShape());
}

SmallVector<Value> widenAccumulator(RegisterEmitter &e, const OperandRegs &acc,
                                    Type accElement, const Arithmetic &arith) {
  SmallVector<Value> sums;
  for (Value v : acc.values)
    sums.push_back(arith.widen(e, v, accElement, /*isSigned=*/true));
  return sums;
}

LogicalResult replaceWithSums(ConversionPatternRewriter &rewriter, Operation *op,
                              RegisterEmitter &e, ArrayRef<Value> sums,
                              const Arithmetic &arith, Type accType, Type accVector) {
  auto vectorType = dyn_cast<VectorType>(accVector);
  if (!vectorType)
    return op->emitOpError("accumulator did not convert to a register vector");
  SmallVector<Value> results;
  for (Value v : sums)
    results.push_back(arith.narrow(e, v, accType));
  rewriter.replaceOp(op, e.buildVector(vectorType, results));
  return success();
}

FailureOr<OperandStaging> getOperandStaging(OpBuilder &builder, Location loc,
                                            Operation *op, uint64_t bytes,
                                            uint64_t bOffset) {
  FailureOr<Value> scratch = getSharedScratch(builder, loc, op, bytes);
  if (failed(scratch))
    return failure();
  Value bBase = LLVM::GEPOp::create(builder, loc, scratch->getType(), builder.getI8Type(),
                                    *scratch, ArrayRef<LLVM::GEPArg>{(int32_t)bOffset});
  return OperandStaging{*scratch, bBase};
}

FailureOr<Value> emitAsInlinePtx(ConversionPatternRewriter &rewriter, Operation *op) {
  SmallVector<std::pair<Value, NVVM::PTXRegisterMod>> operands;
  auto builderOp = cast<NVVM::BasicPtxBuilderInterface>(op);
  bool manualMapping = builderOp.getAsmValues(rewriter, operands);
  NVVM::PtxBuilder ptx(builderOp, rewriter, manualMapping);
  for (auto &[value, modifier] : operands)
    if (failed(ptx.insertValue(value, modifier)))
      return op->emitOpError("has an operand inline PTX cannot take");
  LLVM::InlineAsmOp inlineAsm = ptx.build();
  rewriter.eraseOp(op);
  return inlineAsm.getNumResults() ? inlineAsm.getResult(0) : Value();
}

FailureOr<StagedOperand> getStagedOperand(RegisterEmitter &e, Operation *op, Value value,
                                          Value converted, Value mask, Value enabled) {
  FailureOr<Laid> laid = Laid::of(op, value.getType());
  if (failed(laid))
    return failure();
  bool global = isa<PtrType>(getElementTypeOrSelf(value.getType()));
  StagedOperand operand{*laid, unpackOperand(e, converted, *laid), {}, global, enabled};
  if (mask)
    for (int64_t i = 0, count = operand.regs.values.size(); i < count; ++i)
      operand.mask.push_back(e.extract(mask, i));
  return operand;
}

void stageScaleBytes(RegisterEmitter &e, OpBuilder &builder, const MmaShape &s, Value lhsScale,
                     const Laid &lhsScaleLaid, Value rhsScale, const Laid &rhsScaleLaid,
                     Value aBase, Value bBase, int64_t pitch) {
  Location loc = e.loc;
  IndexMath m{e};
  unsigned rank = lhsScaleLaid.shape.size(), mDim = rank - 2, nDim = rank - 1;
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };
  auto storeByte = [&](Value base, Value value, Value line, Value block) {
    Value address = LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(), base,
                                        ArrayRef<LLVM::GEPArg>{m.add(m.mul(line, pitch), block)});
    LLVM::StoreOp::create(builder, loc, value, address);
  };
  emitCTABarrier(builder, loc); // earlier readers of the scratch are done
  OperandRegs sa = unpackOperand(e, lhsScale, lhsScaleLaid);
  OperandRegs sb = unpackOperand(e, rhsScale, rhsScaleLaid);
  for (auto [i, value] : llvm::enumerate(sa.values))
    storeByte(aBase, value, m.add(m.mul(batchOf(sa, i), s.m), sa.coords[mDim][i]),
              sa.coords[nDim][i]);
  for (auto [i, value] : llvm::enumerate(sb.values))
    storeByte(bBase, value, m.add(m.mul(batchOf(sb, i), s.n), sb.coords[nDim][i]),
              sb.coords[mDim][i]);
  emitCTABarrier(builder, loc); // the scales are complete
}

OperandRegs unpackOperand(RegisterEmitter &e, Value vector, const Laid &laid) {
  OperandRegs regs;
  int64_t count = getElemsPerThread(laid.layout, laid.shape);
  for (int64_t i = 0; i < count; ++i)
    regs.values.push_back(e.extract(vector, i));
  for (unsigned d = 0; d < laid.shape.size(); ++d)
    regs.coords.push_back(e.coordinates(laid.layout, laid.shape, d));
  return regs;
}

SmallVector<Value>
emitCountedLoop(ConversionPatternRewriter &rewriter, Location loc, int64_t count,
                ValueRange init,
                llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body,
                bool keepRolled) {
  Type i32 = rewriter.getI32Type();
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i32, rewriter.getI32IntegerAttr(value));
  };
  if (count == 1)
    return body(constant(0), init);
  // before -> loop(k, carried...) -> loop | exit(carried...) -> after. The
  // loop runs at least once, so it tests at the bottom.
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  SmallVector<Type> carriedTypes(init.getTypes());
  SmallVector<Type> loopTypes{i32};
  loopTypes.append(carriedTypes);
  Block *loop = rewriter.createBlock(after, loopTypes,
                                     SmallVector<Location>(loopTypes.size(), loc));
  Block *exit = rewriter.createBlock(after, carriedTypes,
                                     SmallVector<Location>(carriedTypes.size(), loc));

  rewriter.setInsertionPointToEnd(before);
  SmallVector<Value> entry{constant(0)};
  entry.append(init.begin(), init.end());
  LLVM::BrOp::create(rewriter, loc, entry, loop);

  rewriter.setInsertionPointToStart(loop);
  SmallVector<Value> next = body(loop->getArgument(0), loop->getArguments().drop_front());
  Value k = LLVM::AddOp::create(rewriter, loc, loop->getArgument(0), constant(1));
  Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, k,
                                    constant(count));
  SmallVector<Value> backedge{k};
  backedge.append(next);
  auto branch = LLVM::CondBrOp::create(rewriter, loc, more, loop, backedge, exit, next);
  if (keepRolled) {
    MLIRContext *context = rewriter.getContext();
    auto noUnroll = LLVM::LoopUnrollAttr::get(context, rewriter.getBoolAttr(true), {}, {}, {},
                                              {}, {}, {});
    branch.setLoopAnnotationAttr(LLVM::LoopAnnotationAttr::get(
        context, {}, {}, {}, noUnroll, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
  }

  rewriter.setInsertionPointToEnd(exit);
  LLVM::BrOp::create(rewriter, loc, ValueRange{}, after);
  rewriter.setInsertionPointToStart(after);
  return SmallVector<Value>(exit->getArguments());
}

namespace {

/// Bytes of one staged element: tf32 lives in 32-bit registers and memory.
static unsigned getStagedBytes(Type type) {
  if (isa<FloatTF32Type>(type))
    return 4;
  return getByteSize(type);
}

/// (batch, row) or (batch, column) register index of an accumulator register.
using RegKey = std::pair<int64_t, int64_t>;


/// Shared-memory bytes of one K chunk: A as [batch][M][chunk], then (16-byte
/// aligned, at `bOffset`) B as [batch][chunk][N]; each array is followed by a
/// trash slot that registers outside the chunk are stored to.
static uint64_t getChunkBytes(const MmaShape &s, int64_t chunk, unsigned aBytes,
                              unsigned bBytes, uint64_t *bOffset = nullptr) {
  uint64_t aEnd = (s.batch * s.m * chunk + 1) * aBytes;
  uint64_t bStart = llvm::alignTo(aEnd, 16);
  if (bOffset)
    *bOffset = bStart;
  return bStart + (s.batch * chunk * s.n + 1) * bBytes;
}

/// Loads element `index` of `type` from shared `base` and widens it to the
/// compute type.
static Value loadWidened(RegisterEmitter &e, Value base, Type type, Type element,
                         Value index, const Arithmetic &arith, bool isSigned) {
  Value address = LLVM::GEPOp::create(e.builder, e.loc, base.getType(), type, base,
                                      ArrayRef<LLVM::GEPArg>{index});
  return arith.widen(e, LLVM::LoadOp::create(e.builder, e.loc, type, address), element,
                     isSigned);
}

/// Lowers one multiply-accumulate op (mmaf or mmai).
static LogicalResult lowerMma(Operation *op, Value lhsValue, Value rhsValue,
                              Value accValue, Value lhs, Value rhs, Value acc,
                              Arithmetic arith, const TypeConverter &converter,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  FailureOr<Laid> lhsLaid = Laid::of(op, lhsValue.getType());
  FailureOr<Laid> rhsLaid = Laid::of(op, rhsValue.getType());
  FailureOr<Laid> accLaid = Laid::of(op, accValue.getType());
  if (failed(lhsLaid) || failed(rhsLaid) || failed(accLaid))
    return failure();
  unsigned rank = accLaid->shape.size();
  FailureOr<MmaShape> shape = getMmaShape(lhsLaid->shape, accLaid->shape);
  if (failed(shape))
    return op->emitOpError("expects 2-D or batched 3-D operands");
  MmaShape s = *shape;

  auto elementOf = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); };
  Type aType = converter.convertType(elementOf(lhsValue));
  Type bType = converter.convertType(elementOf(rhsValue));
  Type accType = converter.convertType(elementOf(accValue));
  if (!aType || !bType || !accType)
    return op->emitOpError("element types have no LLVM form");
  unsigned aBytes = getStagedBytes(elementOf(lhsValue));
  unsigned bBytes = getStagedBytes(elementOf(rhsValue));

  // The largest K chunk that fits, then evened out over the chunks.
  int64_t chunk = s.k;
  while (chunk > 0 && getChunkBytes(s, chunk, aBytes, bBytes) > kMaxStaticSharedBytes)
    --chunk;
  if (chunk == 0)
    return op->emitOpError("operands too large to stage one K column in shared memory");
  int64_t numChunks = llvm::divideCeil(s.k, chunk);
  chunk = llvm::divideCeil(s.k, numChunks);
  uint64_t bOffset = 0;
  uint64_t bytes = getChunkBytes(s, chunk, aBytes, bBytes, &bOffset);

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs a = unpackOperand(e, lhs, *lhsLaid);
  OperandRegs b = unpackOperand(e, rhs, *rhsLaid);
  OperandRegs c = unpackOperand(e, acc, *accLaid);
  SmallVector<Value> sums = widenAccumulator(e, c, elementOf(accValue), arith);

  FailureOr<OperandStaging> staged = getOperandStaging(rewriter, loc, op, bytes, bOffset);
  if (failed(staged))
    return failure();
  Value aBase = staged->aBase, bBase = staged->bBase;
  unsigned bDim = 0, mDim = rank - 2, nDim = rank - 1;
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[bDim][i] : e.i32(0);
  };

  // Per accumulator register, the thread-dependent row of A and column of B;
  // registers sharing them share the loads (keyed by register index per dim).
  SmallVector<RegKey> rowKey, colKey;
  std::map<RegKey, Value> rowBase, colBase;
  for (size_t i = 0; i < c.values.size(); ++i) {
    SmallVector<int64_t> perDim = delinearizeRegister(accLaid->layout, accLaid->shape, i);
    int64_t batchReg = s.batched ? perDim[bDim] : 0;
    rowKey.push_back({batchReg, perDim[mDim]});
    colKey.push_back({batchReg, perDim[nDim]});
    if (!rowBase.count(rowKey.back()))
      rowBase[rowKey.back()] = m.mul(m.add(m.mul(batchOf(c, i), s.m), c.coords[mDim][i]), chunk);
    if (!colBase.count(colKey.back()))
      colBase[colKey.back()] = m.add(m.mul(batchOf(c, i), chunk * s.n), c.coords[nDim][i]);
  }

  bool needsCheck = numChunks > 1;
  for (int64_t k0 = 0; k0 < s.k; k0 += chunk) {
    int64_t len = std::min(chunk, s.k - k0);
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    stageOperand(e, a, aBase, aType, rank - 1, k0, len, needsCheck,
                 s.batch * s.m * chunk, [&](size_t i, Value kLocal) {
                   Value row = m.add(m.mul(batchOf(a, i), s.m), a.coords[mDim][i]);
                   return m.add(m.mul(row, chunk), kLocal);
                 });
    stageOperand(e, b, bBase, bType, rank - 2, k0, len, needsCheck,
                 s.batch * chunk * s.n, [&](size_t i, Value kLocal) {
                   Value row = m.add(m.mul(batchOf(b, i), chunk), kLocal);
                   return m.add(m.mul(row, s.n), b.coords[nDim][i]);
                 });
    emitCTABarrier(rewriter, loc); // the chunk is complete
    sums = emitCountedLoop(rewriter, loc, len, sums, [&](Value k, ValueRange carried) {
      // Registers sharing a row of A (column of B) share its load.
      std::map<RegKey, Value> aLoaded, bLoaded;
      Value kTimesN = m.mul(k, s.n);
      SmallVector<Value> next;
      for (auto [i, sum] : llvm::enumerate(carried)) {
        Value &av = aLoaded[rowKey[i]];
        if (!av)
          av = loadWidened(e, aBase, aType, elementOf(lhsValue),
                           m.add(rowBase[rowKey[i]], k), arith, arith.lhsSigned);
        Value &bv = bLoaded[colKey[i]];
        if (!bv)
          bv = loadWidened(e, bBase, bType, elementOf(rhsValue),
                           m.add(colBase[colKey[i]], kTimesN), arith, arith.rhsSigned);
        next.push_back(arith.multiplyAdd(e, av, bv, sum));
      }
      return next;
    });
  }
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it

  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

struct MmaFLowering : ConvertOpToLLVMPattern<MmaFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (canLowerToTcgen05(op))
      return lowerTcgen05(op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
                          *getTypeConverter(), rewriter);
    if (hasTmemAccumulator(op))
      return op.emitOpError("keeps its accumulator in tensor memory but does not take the "
                            "tcgen05 path");
    if (canLowerToWgmma(op))
      return lowerWgmma(op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
                        *getTypeConverter(), rewriter);
    if (canLowerToMmaSync(op))
      return lowerMmaSync(op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
                          *getTypeConverter(), rewriter);
    Arithmetic arith{/*isFloat=*/true};
    // f64 accumulates in f64; every narrower accumulator in f32.
    Type accElement = getElementTypeOrSelf(op.getAcc().getType());
    arith.computeType = accElement.isF64() ? Type(rewriter.getF64Type())
                                           : Type(rewriter.getF32Type());
    return lowerMma(op, op.getLhs(), op.getRhs(), op.getAcc(), adaptor.getLhs(),
                    adaptor.getRhs(), adaptor.getAcc(), arith,
                    *getTypeConverter(), rewriter);
  }
};

struct MmaILowering : ConvertOpToLLVMPattern<MmaIOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (canLowerToMmaSync(op))
      return lowerMmaSync(op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(),
                          *getTypeConverter(), rewriter);
    Arithmetic arith{/*isFloat=*/false, op.getLhsSigned(), op.getRhsSigned()};
    arith.computeType = rewriter.getI32Type();
    return lowerMma(op, op.getLhs(), op.getRhs(), op.getAcc(), adaptor.getLhs(),
                    adaptor.getRhs(), adaptor.getAcc(), arith,
                    *getTypeConverter(), rewriter);
  }
};

} // namespace

void populateMatrixToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<MmaFLowering, MmaILowering>(converter);
  populateMmaFGlobalToLLVMPatterns(converter, patterns);
  populateWgmmaRingToLLVMPatterns(converter, patterns);
  populateTcgen05RingToLLVMPatterns(converter, patterns);
}

} // namespace tilepipe::tile_as
