//===- MmaSyncToLLVM.cpp - mmaf on tensor cores: ldmatrix + mma.sync ------===//
//
// The mma.sync path of mmaf for f16/bf16 operands (sm_80 and later).
//
// The accumulator arrives in the m16n8 fragment layout (AssignLayouts gave
// its shape getMmaAccumulatorLayout), so its registers already are the C/D
// fragments of mma.sync.m16n8k16 (PTX ISA, "Matrix Fragments for
// mma.m16n8k16"): lane l holds row l / 4 and columns 2 * (l % 4) + {0, 1} of
// each 8x8 block its warp covers, and two blocks 8 * warpsM rows apart form
// the 16 rows of one fragment. Nothing moves for the accumulator.
//
// A and B are staged through the shared scratch a chunk of K at a time, as
// on the FMA path: A as [batch][M][chunk], B as [batch][chunk][N], each row
// padded by 16 bytes so that the eight 16-byte rows one ldmatrix reads fall
// into eight different bank groups. Per k step of 16 a warp loads each A
// fragment (16 rows) with ldmatrix.x4, each B fragment (8 columns) with
// ldmatrix.x2.trans (B is row-major, mma wants it column-major), and issues
// one mma.sync per 16x8 block. The fragment rows an ldmatrix reads need not
// be adjacent in A: each lane supplies the address of the row it names.
// f16 accumulators accumulate in f32 (as on the FMA path) and are rounded
// once at the end.
//
// A tile_as.mmaf_global (AsyncCopyMmaOperands fused the global loads of A
// and B into it) fills the same staging with cp.async.cg straight from
// global memory, 16 bytes per copy, masked-off bytes zero-filled by the
// copy's source size; each chunk's copies are committed and waited for
// before the barrier that publishes the chunk. The tiles then never occupy
// registers. On sm_90a an mmaf_global whose accumulator has the wgmma layout
// takes the wgmma path instead (emitWgmma), whose staging cp.async fills the
// same way.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The k of mma.sync.m16n8k16.
constexpr int64_t kStepK = 16;
/// Padding after each staged row: 16 bytes of 2-byte elements.
constexpr int64_t kRowPadding = 8;
constexpr unsigned kElementBytes = 2;

/// Where one chunk of A and B lives in the scratch buffer (in elements,
/// except the byte offset of B and the total bytes).
struct Staging {
  int64_t chunk = 0, aPitch = 0, bPitch = 0;
  uint64_t bOffset = 0, bytes = 0;

  Staging(const MmaShape &s, int64_t chunk) : chunk(chunk) {
    aPitch = chunk + kRowPadding;
    bPitch = s.n + kRowPadding;
    // Each array is followed by a 16-byte trash slot that out-of-chunk
    // register runs are stored to.
    uint64_t aEnd = (s.batch * s.m * aPitch + kRowPadding) * kElementBytes;
    bOffset = llvm::alignTo(aEnd, 16);
    bytes = bOffset + (s.batch * chunk * bPitch + kRowPadding) * kElementBytes;
  }
  int64_t aTrash(const MmaShape &s) const { return s.batch * s.m * aPitch; }
  int64_t bTrash(const MmaShape &s) const { return s.batch * chunk * bPitch; }
};

/// The largest multiple of 16 of K whose staging fits the scratch limit,
/// evened out over the chunks; 0 when not even 16 fit.
int64_t chooseChunk(const MmaShape &s) {
  return chooseKChunk(s.k, kStepK, kMaxStaticSharedBytes,
                      [&](int64_t chunk) { return Staging(s, chunk).bytes; });
}

FailureOr<MmaShape> getShape(Type lhs, Type acc) {
  return getMmaShape(cast<RankedTensorType>(lhs).getShape(),
                     cast<RankedTensorType>(acc).getShape());
}

/// Whether the accumulator `acc` has the mma.sync layout and the staging of
/// A (typed like `lhs`) and B fits the scratch limit.
bool hasMmaSyncStaging(Type lhs, Type acc) {
  auto accTensor = cast<RankedTensorType>(acc);
  auto layout = dyn_cast_or_null<BlockedAttr>(accTensor.getEncoding());
  if (!layout || !isMmaAccumulatorLayout(layout, accTensor.getShape()))
    return false;
  FailureOr<MmaShape> shape = getShape(lhs, acc);
  return succeeded(shape) && chooseChunk(*shape) > 0;
}

/// The i32 registers of `count` 8x8 b16 matrices ldmatrix reads at `address`
/// (`transpose`: .trans).
SmallVector<Value> loadMatrices(RegisterEmitter &e, Value address, unsigned count,
                                bool transpose) {
  MLIRContext *context = e.builder.getContext();
  Type i32 = e.builder.getI32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      e.builder, e.loc, resultType, address, count,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(context, 8, 8), NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> regs;
  for (unsigned i = 0; i < count; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(e.builder, e.loc, loaded, i));
  return regs;
}

/// Lowers the multiply `op` of the staged operands `a` and `b` (element
/// type `element`, `a` typed like `lhsType`) onto the accumulator `acc`
/// (converted; tensor type `accTensorType`), for which hasMmaSyncStaging
/// holds.
LogicalResult emitMmaSync(Operation *op, const StagedOperand &a, const StagedOperand &b,
                          Type element, Type lhsType, Value acc, Type accTensorType,
                          const TypeConverter &converter,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  FailureOr<Laid> accLaid = Laid::of(op, accTensorType);
  FailureOr<MmaShape> shape = getShape(lhsType, accTensorType);
  if (failed(accLaid) || failed(shape))
    return failure();
  const MmaShape &s = *shape;
  unsigned rank = accLaid->shape.size();
  unsigned mDim = rank - 2, nDim = rank - 1;
  Type accElement = getElementTypeOrSelf(accTensorType);
  Type accType = converter.convertType(accElement);
  if (!accType)
    return op->emitOpError("accumulator element type has no LLVM form");
  Staging staging(s, chooseChunk(s));

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs c = unpackOperand(e, acc, *accLaid);
  Arithmetic arith{/*isFloat=*/true};
  arith.computeType = rewriter.getF32Type();
  SmallVector<Value> sums = widenAccumulator(e, c, accElement, arith);

  FailureOr<OperandStaging> staged = getOperandStaging(rewriter, loc, op, staging.bytes, staging.bOffset);
  if (failed(staged))
    return failure();
  Value aBase = staged->aBase, bBase = staged->bBase;
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };

  // The accumulator registers as [batch][row block][column]: rows r and
  // r + 1 (an even r) of a thread are the two halves of one m16n8 fragment.
  BlockedAttr layout = accLaid->layout;
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, accLaid->shape);
  int64_t batchRegs = s.batched ? regsPerDim[0] : 1;
  int64_t rowRegs = regsPerDim[mDim], colBlocks = regsPerDim[nDim] / 2;
  int64_t warpsM = layout.getWarpsPerCTA()[mDim];
  auto regOf = [&](int64_t batch, int64_t row, int64_t col) {
    SmallVector<int64_t> perDim{row, col};
    if (s.batched)
      perDim.insert(perDim.begin(), batch);
    return linearizeRegister(layout, accLaid->shape, perDim);
  };

  // ldmatrix.x4 of A: lanes 8j..8j+7 name the rows of matrix j, which holds
  // rows 0-7 (j even) or 8-15 (j odd) of the fragment and k 0-7 (j < 2) or
  // 8-15. Fragment row i of the lane's group g = lane / 4 is accumulator row
  // origin - g + i, rows 8-15 lying 8 * warpsM further.
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value lane = m.bits(tid, 0, 31);
  Value group = m.bits(lane, 2, 7);
  Value aLaneRow = m.add(m.sub(m.bits(lane, 0, 7), group),
                       m.mul(m.bits(lane, 3, 1), 8 * warpsM));
  Value aLaneK = m.mul(m.bits(lane, 4, 1), 8);
  // ldmatrix.x2.trans of B: lanes 0-15 name k rows 0-15 of the 8 columns
  // starting at the fragment's first column, origin - 2 * (lane % 4).
  Value bLaneK = m.bits(lane, 0, 15);
  Value columnInPair = m.mul(m.bits(lane, 0, 3), 2);

  SmallVector<Value> aRowStart, bColumnStart; // element offsets in a chunk
  for (int64_t batch = 0; batch < batchRegs; ++batch) {
    for (int64_t row = 0; row < rowRegs; row += 2) {
      int64_t reg = regOf(batch, row, 0);
      Value fullRow = m.add(m.add(m.mul(batchOf(c, reg), s.m), c.coords[mDim][reg]),
                          aLaneRow);
      aRowStart.push_back(m.add(m.mul(fullRow, staging.aPitch), aLaneK));
    }
    for (int64_t col = 0; col < colBlocks; ++col) {
      int64_t reg = regOf(batch, 0, 2 * col);
      Value kRow = m.add(m.mul(batchOf(c, reg), staging.chunk), bLaneK);
      bColumnStart.push_back(m.add(m.mul(kRow, staging.bPitch),
                                 m.sub(c.coords[nDim][reg], columnInPair)));
    }
  }

  bool isBF16 = element.isBF16();
  NVVM::MMATypes ptxType = isBF16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  Type pairType = VectorType::get({2}, element);
  auto asOperand = [&](Value reg) -> Value {
    // The NVVM op takes f16 pairs as vector<2xf16>, bf16 pairs as i32.
    return isBF16 ? reg : LLVM::BitcastOp::create(rewriter, loc, pairType, reg).getResult();
  };
  Type f32 = rewriter.getF32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(), {f32, f32, f32, f32});
  auto elementAt = [&](Value base, Value index) {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                               ArrayRef<LLVM::GEPArg>{index});
  };

  bool needsCheck = s.k > staging.chunk;
  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk) {
    int64_t len = std::min(staging.chunk, s.k - k0);
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    if (failed(stageRuns(e, a, aBase, element, rank - 1, k0, len, needsCheck,
                         staging.aTrash(s), [&](size_t i, Value kLocal) {
                           Value row = m.add(m.mul(batchOf(a.regs, i), s.m),
                                           a.regs.coords[mDim][i]);
                           return m.add(m.mul(row, staging.aPitch), kLocal);
                         })) ||
        failed(stageRuns(e, b, bBase, element, rank - 2, k0, len, needsCheck,
                         staging.bTrash(s), [&](size_t i, Value kLocal) {
                           Value row = m.add(m.mul(batchOf(b.regs, i), staging.chunk), kLocal);
                           return m.add(m.mul(row, staging.bPitch), b.regs.coords[nDim][i]);
                         })))
      return failure();
    if (a.global || b.global) {
      // This thread's copies have landed; the barrier then publishes them.
      NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    }
    emitCTABarrier(rewriter, loc); // the chunk is complete
    sums = emitCountedLoop(rewriter, loc, len / kStepK, sums, [&](Value k, ValueRange carried) {
      Value aStep = m.mul(k, kStepK), bStep = m.mul(k, kStepK * staging.bPitch);
      // All A fragments first, then per column block its B fragment and the
      // mma.syncs using it: a B fragment lives for one column only.
      SmallVector<SmallVector<Value>> aFragments;
      for (Value start : aRowStart) {
        aFragments.emplace_back();
        for (Value reg : loadMatrices(e, elementAt(aBase, m.add(start, aStep)), 4, false))
          aFragments.back().push_back(asOperand(reg));
      }
      SmallVector<Value> next(carried);
      int64_t rowPairs = rowRegs / 2;
      for (int64_t batch = 0; batch < batchRegs; ++batch)
        for (int64_t col = 0; col < colBlocks; ++col) {
          SmallVector<Value> bRegs;
          Value bStart = bColumnStart[batch * colBlocks + col];
          for (Value reg : loadMatrices(e, elementAt(bBase, m.add(bStart, bStep)), 2, true))
            bRegs.push_back(asOperand(reg));
          for (int64_t pair = 0; pair < rowPairs; ++pair) {
            int64_t regs[4] = {regOf(batch, 2 * pair, 2 * col), regOf(batch, 2 * pair, 2 * col + 1),
                               regOf(batch, 2 * pair + 1, 2 * col),
                               regOf(batch, 2 * pair + 1, 2 * col + 1)};
            SmallVector<Value> cRegs;
            for (int64_t reg : regs)
              cRegs.push_back(next[reg]);
            Value d = NVVM::MmaOp::create(
                rewriter, loc, resultType, aFragments[batch * rowPairs + pair], bRegs, cRegs,
                ArrayRef<int64_t>{16, 8, kStepK}, std::nullopt, std::nullopt,
                std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
            for (auto [i, reg] : llvm::enumerate(regs))
              next[reg] = LLVM::ExtractValueOp::create(rewriter, loc, d, i);
          }
        }
      return next;
    });
  }
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it

  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

struct MmaFGlobalLowering : ConvertOpToLLVMPattern<MmaFGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFGlobalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type lhsType = op.getLhsPtrs().getType();
    bool wgmma = canLowerToWgmma(op);
    if (!wgmma && !hasMmaSyncStaging(lhsType, op.getAcc().getType()))
      return op.emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<StagedOperand> a =
        getGlobalOperand(e, op, lhsType, adaptor.getLhsPtrs(), adaptor.getLhsMask());
    FailureOr<StagedOperand> b = getGlobalOperand(e, op, op.getRhsPtrs().getType(),
                                                  adaptor.getRhsPtrs(), adaptor.getRhsMask());
    if (failed(a) || failed(b))
      return failure();
    Type element = cast<PtrType>(getElementTypeOrSelf(lhsType)).getPointeeType();
    if (wgmma)
      return emitWgmma(op, *a, *b, element, lhsType, adaptor.getAcc(), op.getAcc().getType(),
                       *getTypeConverter(), rewriter);
    return emitMmaSync(op, *a, *b, element, lhsType, adaptor.getAcc(), op.getAcc().getType(),
                       *getTypeConverter(), rewriter);
  }
};

} // namespace

bool canLowerToMmaSync(MmaFOp op) {
  return hasMmaSyncForm(op) &&
         hasMmaSyncStaging(op.getLhs().getType(), op.getAcc().getType());
}

LogicalResult lowerMmaSync(MmaFOp op, Value lhs, Value rhs, Value acc,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter) {
  FailureOr<Laid> lhsLaid = Laid::of(op, op.getLhs().getType());
  FailureOr<Laid> rhsLaid = Laid::of(op, op.getRhs().getType());
  if (failed(lhsLaid) || failed(rhsLaid))
    return failure();
  RegisterEmitter e(rewriter, op.getLoc());
  StagedOperand a{*lhsLaid, unpackOperand(e, lhs, *lhsLaid)};
  StagedOperand b{*rhsLaid, unpackOperand(e, rhs, *rhsLaid)};
  return emitMmaSync(op, a, b, getElementTypeOrSelf(op.getLhs().getType()),
                     op.getLhs().getType(), acc, op.getAcc().getType(), converter, rewriter);
}

void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns) {
  patterns.add<MmaFGlobalLowering>(converter);
}

} // namespace tilepipe::tile_as
