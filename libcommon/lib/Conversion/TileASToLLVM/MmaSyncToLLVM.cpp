//===- MmaSyncToLLVM.cpp - mmaf/mmai on tensor cores: ldmatrix + mma.sync ===//
//
// The mma.sync path of mmaf and mmai (getMmaSyncForm says which operand
// types take it; MmaSyncKinds.cpp issues the instruction of each kind). The
// comments below describe f16/bf16 (m16n8k16); the other kinds differ only
// in element size, with every distance in bytes the same: a k step is 32
// bytes of K (k16 of f16, k32 of fp8/s8, k8 of tf32), and B is staged
// transposed (see below).
//
// The accumulator arrives in the m16n8 fragment layout (AssignLayouts gave
// its shape getMmaAccumulatorLayout), so its registers already are the C/D
// fragments of mma.sync.m16n8k16 (PTX ISA, "Matrix Fragments for
// mma.m16n8k16"; m16n8k8 and m16n8k32 place C/D alike): lane l holds row l / 4 and columns 2 * (l % 4) + {0, 1} of
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
//
// 8-bit and tf32 B fragments are "col" too (lane l holds k 4 * (l % 4)... of
// column l / 4 for 8-bit, k l % 4 for tf32), but ldmatrix .trans moves only
// 16-bit elements, so these kinds stage B transposed, as [batch][N][chunk]
// rows (K contiguous), and read each B fragment with a plain ldmatrix.x2:
// its two 8x16-byte matrices are the first and second 16 bytes of K of the
// fragment's 8 columns, which is the B fragment exactly. A's ldmatrix.x4
// likewise yields the 8-bit and tf32 A fragments unchanged.
// f16 accumulators accumulate in f32 (as on the FMA path) and are rounded
// once at the end.
//
// A tile_as.mmaf_global (AsyncCopyMmaOperands fused the global load of A,
// of B or of both into it) fills the same staging with cp.async.cg straight
// from global memory, 16 bytes per copy, masked-off bytes zero-filled by the
// copy's source size, while an operand in registers is stored as above;
// each chunk's copies are committed and waited for before the barrier that
// publishes the chunk. The copied tiles then never occupy registers. On sm_90a an mmaf_global whose accumulator has the wgmma layout
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

/// Padding after each staged row, and the most one store or copy moves: 16
/// bytes.
constexpr unsigned kRowPaddingBytes = 16;

/// Where one chunk of A and B lives in the scratch buffer (in elements,
/// except the byte offset of B and the total bytes). B is [batch][chunk][N]
/// or, transposed, [batch][N][chunk].
struct Staging {
  int64_t chunk = 0, aPitch = 0, bPitch = 0, bRows = 0, padding = 0;
  uint64_t bOffset = 0, bytes = 0;

  Staging(const MmaShape &s, int64_t chunk, unsigned elementBytes, bool bTransposed)
      : chunk(chunk) {
    padding = kRowPaddingBytes / elementBytes;
    aPitch = chunk + padding;
    bPitch = (bTransposed ? chunk : s.n) + padding;
    bRows = s.batch * (bTransposed ? s.n : chunk);
    // Each array is followed by a 16-byte trash slot that out-of-chunk
    // register runs are stored to.
    uint64_t aEnd = (s.batch * s.m * aPitch + padding) * elementBytes;
    bOffset = llvm::alignTo(aEnd, 16);
    bytes = bOffset + (bRows * bPitch + padding) * elementBytes;
  }
  int64_t aTrash(const MmaShape &s) const { return s.batch * s.m * aPitch; }
  int64_t bTrash() const { return bRows * bPitch; }
};

Staging getStaging(const MmaShape &s, int64_t chunk, const MmaSyncForm &form) {
  return Staging(s, chunk, form.elementBytes, stagesBTransposed(form));
}

/// The largest multiple of k of K whose staging fits the scratch limit,
/// evened out over the chunks; 0 when not even one k step fits.
int64_t chooseChunk(const MmaShape &s, const MmaSyncForm &form) {
  return chooseKChunk(s.k, form.k, kMaxStaticSharedBytes,
                      [&](int64_t chunk) { return getStaging(s, chunk, form).bytes; });
}

FailureOr<MmaShape> getShape(Type lhs, Type acc) {
  return getMmaShape(cast<RankedTensorType>(lhs).getShape(),
                     cast<RankedTensorType>(acc).getShape());
}

/// Whether the accumulator `acc` has the mma.sync layout and the staging of
/// A (typed like `lhs`) and B fits the scratch limit.
bool hasMmaSyncStaging(Type lhs, Type acc, const MmaSyncForm &form) {
  auto accTensor = cast<RankedTensorType>(acc);
  auto layout = dyn_cast_or_null<BlockedAttr>(accTensor.getEncoding());
  if (!layout || !isMmaAccumulatorLayout(layout, accTensor.getShape()))
    return false;
  FailureOr<MmaShape> shape = getShape(lhs, acc);
  return succeeded(shape) && chooseChunk(*shape, form) > 0;
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
/// type `element` converted to LLVM, `a` typed like `lhsType`) onto the
/// accumulator `acc` (converted; tensor type `accTensorType`) in `arith`'s
/// compute type, for which hasMmaSyncStaging holds with `form`; `issue`
/// emits each mma.sync.
LogicalResult emitMmaSync(Operation *op, const StagedOperand &a, const StagedOperand &b,
                          Type element, Type lhsType, Value acc, Type accTensorType,
                          const MmaSyncForm &form, const Arithmetic &arith,
                          MmaInstructionFn issue, const TypeConverter &converter,
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
  const int64_t kStep = form.k;
  bool bTransposed = stagesBTransposed(form);
  Staging staging = getStaging(s, chooseChunk(s, form), form);

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs c = unpackOperand(e, acc, *accLaid);
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
  // rows 0-7 (j even) or 8-15 (j odd) of the fragment and the first (j < 2)
  // or second 16 bytes of the k step. Fragment row i of the lane's group
  // g = lane / 4 is accumulator row origin - g + i, rows 8-15 lying
  // 8 * warpsM further.
  const int64_t half = kStep / 2; // 16 bytes of elements
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value lane = m.bits(tid, 0, 31);
  Value group = m.bits(lane, 2, 7);
  Value aLaneRow = m.add(m.sub(m.bits(lane, 0, 7), group),
                       m.mul(m.bits(lane, 3, 1), 8 * warpsM));
  Value aLaneK = m.mul(m.bits(lane, 4, 1), half);
  // ldmatrix.x2.trans of B: lanes 0-15 name k rows 0-15 of the 8 columns
  // starting at the fragment's first column, origin - 2 * (lane % 4).
  // Transposed B (plain ldmatrix.x2): lanes 8j..8j+7 name columns 0-7 at the
  // j-th 16 bytes of the k step.
  Value bLaneK = bTransposed ? m.mul(m.bits(lane, 3, 1), half) : m.bits(lane, 0, 15);
  Value bLaneColumn = m.bits(lane, 0, 7);
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
      Value firstColumn = m.sub(c.coords[nDim][reg], columnInPair);
      if (bTransposed) {
        Value column = m.add(m.add(m.mul(batchOf(c, reg), s.n), firstColumn), bLaneColumn);
        bColumnStart.push_back(m.add(m.mul(column, staging.bPitch), bLaneK));
        continue;
      }
      Value kRow = m.add(m.mul(batchOf(c, reg), staging.chunk), bLaneK);
      bColumnStart.push_back(m.add(m.mul(kRow, staging.bPitch), firstColumn));
    }
  }

  auto elementAt = [&](Value base, Value index) {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                               ArrayRef<LLVM::GEPArg>{index});
  };

  bool needsCheck = s.k > staging.chunk;
  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk) {
    int64_t len = std::min(staging.chunk, s.k - k0);
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    if (failed(stageRuns(e, a, aBase, element, /*transposed=*/false, rank - 1, k0, len,
                         needsCheck, staging.aTrash(s), [&](size_t i, Value kLocal) {
                           Value row = m.add(m.mul(batchOf(a.regs, i), s.m),
                                           a.regs.coords[mDim][i]);
                           return m.add(m.mul(row, staging.aPitch), kLocal);
                         })) ||
        failed(stageRuns(e, b, bBase, element, bTransposed, rank - 2, k0, len,
                         needsCheck, staging.bTrash(), [&](size_t i, Value kLocal) {
                           Value column = b.regs.coords[nDim][i];
                           if (bTransposed) {
                             Value row = m.add(m.mul(batchOf(b.regs, i), s.n), column);
                             return m.add(m.mul(row, staging.bPitch), kLocal);
                           }
                           Value row = m.add(m.mul(batchOf(b.regs, i), staging.chunk), kLocal);
                           return m.add(m.mul(row, staging.bPitch), column);
                         })))
      return failure();
    if (a.global || b.global) {
      // This thread's copies have landed; the barrier then publishes them.
      NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    }
    emitCTABarrier(rewriter, loc); // the chunk is complete
    sums = emitCountedLoop(rewriter, loc, len / kStep, sums, [&](Value k, ValueRange carried) {
      Value aStep = m.mul(k, kStep);
      Value bStep = m.mul(k, bTransposed ? kStep : kStep * staging.bPitch);
      // All A fragments first, then per column block its B fragment and the
      // mma.syncs using it: a B fragment lives for one column only.
      SmallVector<SmallVector<Value>> aFragments;
      for (Value start : aRowStart)
        aFragments.push_back(loadMatrices(e, elementAt(aBase, m.add(start, aStep)), 4, false));
      SmallVector<Value> next(carried);
      int64_t rowPairs = rowRegs / 2;
      for (int64_t batch = 0; batch < batchRegs; ++batch)
        for (int64_t col = 0; col < colBlocks; ++col) {
          Value bStart = bColumnStart[batch * colBlocks + col];
          SmallVector<Value> bRegs =
              loadMatrices(e, elementAt(bBase, m.add(bStart, bStep)), 2, !bTransposed);
          for (int64_t pair = 0; pair < rowPairs; ++pair) {
            std::array<int64_t, 4> regs = {
                regOf(batch, 2 * pair, 2 * col), regOf(batch, 2 * pair, 2 * col + 1),
                regOf(batch, 2 * pair + 1, 2 * col), regOf(batch, 2 * pair + 1, 2 * col + 1)};
            SmallVector<Value> cRegs;
            for (int64_t reg : regs)
              cRegs.push_back(next[reg]);
            SmallVector<Value> d = issue(e, aFragments[batch * rowPairs + pair], bRegs, cRegs,
                                         MmaFragmentSite{regs, m.add(aStep, k0)});
            for (auto [i, reg] : llvm::enumerate(regs))
              next[reg] = d[i];
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
    Type lhsType = op.getLhs().getType();
    // AsyncCopyMmaOperands fuses the operands of f16/bf16 mmafs only. A and
    // B have one element type, read from whichever is global.
    Type element = getElementTypeOrSelf(lhsType);
    if (auto ptr = dyn_cast<PtrType>(element))
      element = ptr.getPointeeType();
    MmaSyncForm form{16, 2};
    bool wgmma = canLowerToWgmma(op);
    if (!wgmma && (!(element.isF16() || element.isBF16()) ||
                   !hasMmaSyncStaging(lhsType, op.getAcc().getType(), form)))
      return op.emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<StagedOperand> a =
        getStagedOperand(e, op, op.getLhs(), adaptor.getLhs(), adaptor.getLhsMask());
    FailureOr<StagedOperand> b =
        getStagedOperand(e, op, op.getRhs(), adaptor.getRhs(), adaptor.getRhsMask());
    if (failed(a) || failed(b))
      return failure();
    if (wgmma)
      return emitWgmma(op, *a, *b, element, lhsType, adaptor.getAcc(), op.getAcc().getType(),
                       *getTypeConverter(), rewriter);
    auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                     ArrayRef<Value> cRegs, const MmaFragmentSite &) {
      return emitMmaSyncInstruction(e, element, element, aRegs, bRegs, cRegs);
    };
    return emitMmaSync(op, *a, *b, element, lhsType, adaptor.getAcc(), op.getAcc().getType(),
                       form, getMmaSyncArithmetic(op), issue, *getTypeConverter(), rewriter);
  }
};

} // namespace

bool canLowerToMmaSync(Operation *op) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  return form && hasMmaSyncStaging(op->getOperand(0).getType(), op->getOperand(2).getType(),
                                   *form);
}

LogicalResult lowerMmaSyncWith(Operation *op, Value lhs, Value rhs, Value acc,
                               const MmaSyncForm &form, const Arithmetic &arith,
                               MmaInstructionFn issue, const TypeConverter &converter,
                               ConversionPatternRewriter &rewriter) {
  Type lhsType = op->getOperand(0).getType(), accType = op->getOperand(2).getType();
  if (!hasMmaSyncStaging(lhsType, accType, form))
    return op->emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
  FailureOr<Laid> lhsLaid = Laid::of(op, lhsType);
  FailureOr<Laid> rhsLaid = Laid::of(op, op->getOperand(1).getType());
  Type element = converter.convertType(getElementTypeOrSelf(lhsType));
  if (failed(lhsLaid) || failed(rhsLaid) || !element)
    return failure();
  RegisterEmitter e(rewriter, op->getLoc());
  StagedOperand a{*lhsLaid, unpackOperand(e, lhs, *lhsLaid)};
  StagedOperand b{*rhsLaid, unpackOperand(e, rhs, *rhsLaid)};
  return emitMmaSync(op, a, b, element, lhsType, acc, accType, form, arith, issue, converter,
                     rewriter);
}

LogicalResult lowerMmaSync(Operation *op, Value lhs, Value rhs, Value acc,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  if (!form)
    return op->emitOpError("has no mma.sync form");
  Type a = getElementTypeOrSelf(op->getOperand(0).getType());
  Type b = getElementTypeOrSelf(op->getOperand(1).getType());
  Arithmetic arith = getMmaSyncArithmetic(op);
  auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                   ArrayRef<Value> cRegs, const MmaFragmentSite &) {
    return emitMmaSyncInstruction(e, a, b, aRegs, bRegs, cRegs, arith.lhsSigned,
                                  arith.rhsSigned);
  };
  return lowerMmaSyncWith(op, lhs, rhs, acc, *form, arith, issue, converter, rewriter);
}

void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns) {
  patterns.add<MmaFGlobalLowering>(converter);
}

} // namespace tilepipe::tile_as
