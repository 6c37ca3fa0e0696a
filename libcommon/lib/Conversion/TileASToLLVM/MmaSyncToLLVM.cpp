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
// A tile_as.mmaf_global (AsyncCopyMmaOperands fused the global loads of A
// and B into it) fills the same staging with cp.async.cg straight from
// global memory, 16 bytes per copy, masked-off bytes zero-filled by the
// copy's source size; each chunk's copies are committed and waited for
// before the barrier that publishes the chunk. The tiles then never occupy
// registers.
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

/// One operand of the multiply as it reaches shared memory: registers to
/// store, or (tile_as.mmaf_global) global addresses to copy from with their
/// mask bits.
struct StagedOperand {
  Laid laid;
  /// The registers, or the i64 addresses of the elements, with coordinates.
  OperandRegs regs;
  /// Per element of a global operand with a mask: whether it is read.
  SmallVector<Value> mask;
  bool global = false;
};

/// Bytes cp.async reads of the run of `count` elements from `first`: all of
/// them or, where the run's mask bit (one per run, see mmaf_global) is
/// false, none (the copy zero-fills them).
Value getRunSourceBytes(RegisterEmitter &e, const StagedOperand &operand, size_t first,
                        int64_t count, unsigned elementBytes) {
  Value all = e.i32(count * elementBytes);
  if (operand.mask.empty())
    return all;
  return LLVM::SelectOp::create(e.builder, e.loc, operand.mask[first], all, e.i32(0));
}

/// Puts an operand into its staged chunk, one 16-byte (at most) access per
/// run of elements adjacent along the innermost dimension (the staged rows
/// run along it too unless `transposed`, and both the runs and the padded
/// rows are 16-byte multiples, so a run is one aligned st.shared or
/// cp.async; a transposed operand is stored an element at a time). Registers are
/// stored; a global operand is copied with cp.async.cg, which reads only the
/// run's unmasked bytes and zero-fills the rest. A run whose K coordinate
/// (dimension `kDim`) lies outside [k0, k0 + len) goes to the trash slot
/// (and a copy then reads nothing); runs never straddle a chunk (chunks are
/// multiples of 16, runs at most 8 elements).
template <typename SlotFn>
LogicalResult stageRuns(RegisterEmitter &e, const StagedOperand &operand, Value base,
                        Type element, unsigned elementBytes, bool transposed,
                        unsigned kDim, int64_t k0, int64_t len, bool needsCheck,
                        int64_t trash, SlotFn slotOf) {
  const Laid &laid = operand.laid;
  const OperandRegs &regs = operand.regs;
  unsigned innermost = laid.shape.size() - 1;
  int64_t maxRun = kRowPaddingBytes / elementBytes;
  int64_t run = 1;
  if (!transposed && laid.layout.getOrder().front() == innermost)
    run = std::min<int64_t>(laid.layout.getSizePerThread()[innermost], maxRun);
  if (operand.global && run != maxRun)
    return emitError(e.loc, "cp.async staging needs runs of 16 bytes");
  Type runType = run == 1 ? element : Type(VectorType::get({run}, element));
  auto globalPtr = LLVM::LLVMPointerType::get(e.builder.getContext(), 1);
  for (size_t i = 0; i < regs.values.size(); i += run) {
    Value kLocal = regs.coords[kDim][i];
    if (k0)
      kLocal = LLVM::SubOp::create(e.builder, e.loc, kLocal, e.i32(k0));
    Value slot = slotOf(i, kLocal);
    Value inside;
    if (needsCheck) {
      inside = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ult, kLocal,
                                    e.i32(len));
      slot = LLVM::SelectOp::create(e.builder, e.loc, inside, slot, e.i32(trash));
    }
    Value address = LLVM::GEPOp::create(e.builder, e.loc, base.getType(), element, base,
                                        ArrayRef<LLVM::GEPArg>{slot});
    if (operand.global) {
      Value source = LLVM::IntToPtrOp::create(e.builder, e.loc, globalPtr, regs.values[i]);
      Value sourceBytes = getRunSourceBytes(e, operand, i, run, elementBytes);
      if (inside)
        sourceBytes = LLVM::SelectOp::create(e.builder, e.loc, inside, sourceBytes, e.i32(0));
      NVVM::CpAsyncOp::create(e.builder, e.loc, address, source,
                              e.builder.getI32IntegerAttr(run * elementBytes),
                              NVVM::LoadCacheModifierKindAttr::get(
                                  e.builder.getContext(), NVVM::LoadCacheModifierKind::CG),
                              sourceBytes);
      continue;
    }
    Value value = run == 1 ? regs.values[i]
                           : e.buildVector(cast<VectorType>(runType),
                                           ArrayRef<Value>(regs.values).slice(i, run));
    LLVM::StoreOp::create(e.builder, e.loc, value, address, run * elementBytes);
  }
  return success();
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
  unsigned bytes = form.elementBytes;
  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk) {
    int64_t len = std::min(staging.chunk, s.k - k0);
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    if (failed(stageRuns(e, a, aBase, element, bytes, /*transposed=*/false, rank - 1, k0, len,
                         needsCheck, staging.aTrash(s), [&](size_t i, Value kLocal) {
                           Value row = m.add(m.mul(batchOf(a.regs, i), s.m),
                                           a.regs.coords[mDim][i]);
                           return m.add(m.mul(row, staging.aPitch), kLocal);
                         })) ||
        failed(stageRuns(e, b, bBase, element, bytes, bTransposed, rank - 2, k0, len,
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

/// The operand a tensor `type` of pointers (`ptrs`, converted) and its mask
/// (`mask`, converted; null for none) give.
FailureOr<StagedOperand> getGlobalOperand(RegisterEmitter &e, Operation *op, Type type,
                                          Value ptrs, Value mask) {
  FailureOr<Laid> laid = Laid::of(op, type);
  if (failed(laid))
    return failure();
  StagedOperand operand{*laid, unpackOperand(e, ptrs, *laid), {}, /*global=*/true};
  if (mask)
    for (int64_t i = 0, count = operand.regs.values.size(); i < count; ++i)
      operand.mask.push_back(e.extract(mask, i));
  return operand;
}

struct MmaFGlobalLowering : ConvertOpToLLVMPattern<MmaFGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFGlobalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type lhsType = op.getLhsPtrs().getType();
    // AsyncCopyMmaOperands fuses the operands of f16/bf16 mmafs only.
    Type element = cast<PtrType>(getElementTypeOrSelf(lhsType)).getPointeeType();
    MmaSyncForm form{16, 2};
    if (!(element.isF16() || element.isBF16()) ||
        !hasMmaSyncStaging(lhsType, op.getAcc().getType(), form))
      return op.emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<StagedOperand> a =
        getGlobalOperand(e, op, lhsType, adaptor.getLhsPtrs(), adaptor.getLhsMask());
    FailureOr<StagedOperand> b = getGlobalOperand(e, op, op.getRhsPtrs().getType(),
                                                  adaptor.getRhsPtrs(), adaptor.getRhsMask());
    if (failed(a) || failed(b))
      return failure();
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
