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
// A tile_as.mmaf_global (AsyncCopyMmaOperands fused the global load of A,
// of B or of both into it) fills the same staging with cp.async.cg straight
// from global memory, 16 bytes per copy, masked-off bytes zero-filled by the
// copy's source size, while an operand in registers is stored as above;
// each chunk's copies are committed and waited for before the barrier that
// publishes the chunk. The copied tiles then never occupy registers.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"

#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The k of mma.sync.m16n8k16.
constexpr int64_t kStepK = 16;
constexpr int64_t kRowPadding = MmaSyncStaging::kRowPadding;
constexpr unsigned kElementBytes = MmaSyncStaging::kElementBytes;

MmaSyncStaging getStaging(const MmaShape &s, int64_t chunk) {
  return MmaSyncStaging(s.batch, s.m, s.n, chunk);
}

/// The largest multiple of 16 of K whose staging fits the scratch limit,
/// evened out over the chunks; 0 when not even 16 fit.
int64_t chooseChunk(const MmaShape &s) {
  return chooseKChunk(s.k, kStepK, kMaxStaticSharedBytes,
                      [&](int64_t chunk) { return getStaging(s, chunk).bytes; });
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
  /// An i1 that, when false, makes every copy read nothing (null: always
  /// read).
  Value enabled;
};

/// Bytes cp.async reads of the run of `count` elements from `first`: all of
/// them or, where the run's mask bit (one per run, see mmaf_global) is
/// false, none (the copy zero-fills them).
Value getRunSourceBytes(RegisterEmitter &e, const StagedOperand &operand, size_t first,
                        int64_t count) {
  Value bytes = e.i32(count * kElementBytes);
  if (!operand.mask.empty())
    bytes = LLVM::SelectOp::create(e.builder, e.loc, operand.mask[first], bytes, e.i32(0));
  if (operand.enabled)
    bytes = LLVM::SelectOp::create(e.builder, e.loc, operand.enabled, bytes, e.i32(0));
  return bytes;
}

/// Puts an operand into its staged chunk, one 16-byte (at most) access per
/// run of elements adjacent along the innermost dimension (the staged rows
/// run along it too, and both the runs and the padded rows are 16-byte
/// multiples, so a run is one aligned st.shared or cp.async). Registers are
/// stored; a global operand is copied with cp.async.cg, which reads only the
/// run's unmasked bytes and zero-fills the rest. A run whose K coordinate
/// (dimension `kDim`) lies outside [k0, k0 + len) goes to the trash slot
/// (and a copy then reads nothing); runs never straddle a chunk (chunks are
/// multiples of 16, runs at most 8 elements).
template <typename SlotFn>
LogicalResult stageRuns(RegisterEmitter &e, const StagedOperand &operand, Value base,
                        Type element, unsigned kDim, int64_t k0, int64_t len,
                        bool needsCheck, int64_t trash, SlotFn slotOf) {
  const Laid &laid = operand.laid;
  const OperandRegs &regs = operand.regs;
  unsigned innermost = laid.shape.size() - 1;
  int64_t run = 1;
  if (laid.layout.getOrder().front() == innermost)
    run = std::min<int64_t>(laid.layout.getSizePerThread()[innermost], kRowPadding);
  if (operand.global && run != kRowPadding)
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
      Value sourceBytes = getRunSourceBytes(e, operand, i, run);
      if (inside)
        sourceBytes = LLVM::SelectOp::create(e.builder, e.loc, inside, sourceBytes, e.i32(0));
      NVVM::CpAsyncOp::create(e.builder, e.loc, address, source,
                              e.builder.getI32IntegerAttr(run * kElementBytes),
                              NVVM::LoadCacheModifierKindAttr::get(
                                  e.builder.getContext(), NVVM::LoadCacheModifierKind::CG),
                              sourceBytes);
      continue;
    }
    Value value = run == 1 ? regs.values[i]
                           : e.buildVector(cast<VectorType>(runType),
                                           ArrayRef<Value>(regs.values).slice(i, run));
    LLVM::StoreOp::create(e.builder, e.loc, value, address, run * kElementBytes);
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

/// Stages the K chunk [k0, k0 + len) of `a` and `b` (of the multiply of
/// shape `s`, layout `staging`) at `aBase` and `bBase`; `needsCheck`: some
/// runs may lie outside the chunk (they go to the trash slots).
LogicalResult stageChunk(RegisterEmitter &e, const MmaShape &s, const MmaSyncStaging &staging,
                         const StagedOperand &a, const StagedOperand &b, Type element,
                         Value aBase, Value bBase, int64_t k0, int64_t len, bool needsCheck) {
  IndexMath m{e};
  unsigned rank = a.laid.shape.size(), mDim = rank - 2, nDim = rank - 1;
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };
  if (failed(stageRuns(e, a, aBase, element, rank - 1, k0, len, needsCheck, staging.aTrash(),
                       [&](size_t i, Value kLocal) {
                         Value row = m.add(m.mul(batchOf(a.regs, i), s.m), a.regs.coords[mDim][i]);
                         return m.add(m.mul(row, staging.aPitch), kLocal);
                       })))
    return failure();
  return stageRuns(e, b, bBase, element, rank - 2, k0, len, needsCheck, staging.bTrash(),
                   [&](size_t i, Value kLocal) {
                     Value row = m.add(m.mul(batchOf(b.regs, i), staging.chunk), kLocal);
                     return m.add(m.mul(row, staging.bPitch), b.regs.coords[nDim][i]);
                   });
}

/// Where one staged chunk of A and B starts.
struct ChunkBases {
  Value a, b;
};
/// Makes the chunk [k0, k0 + len) of A and B ready in shared memory for
/// every thread and says where it is.
using PrepareChunkFn = llvm::function_ref<FailureOr<ChunkBases>(int64_t k0, int64_t len)>;

/// Lowers the multiply `op` of shape `s` (element type `element`) onto the
/// accumulator `acc` (converted; tensor type `accTensorType`, in the
/// mma.sync layout), reading A and B a chunk at a time, laid out as
/// `staging`, from where `prepareChunk` puts them.
LogicalResult emitMmaSync(Operation *op, const MmaShape &s, const MmaSyncStaging &staging,
                          Type element, Value acc, Type accTensorType,
                          const TypeConverter &converter, ConversionPatternRewriter &rewriter,
                          PrepareChunkFn prepareChunk) {
  Location loc = op->getLoc();
  FailureOr<Laid> accLaid = Laid::of(op, accTensorType);
  if (failed(accLaid))
    return failure();
  unsigned rank = accLaid->shape.size();
  unsigned mDim = rank - 2, nDim = rank - 1;
  Type accElement = getElementTypeOrSelf(accTensorType);
  Type accType = converter.convertType(accElement);
  if (!accType)
    return op->emitOpError("accumulator element type has no LLVM form");

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs c = unpackOperand(e, acc, *accLaid);
  Arithmetic arith{/*isFloat=*/true};
  arith.computeType = rewriter.getF32Type();
  SmallVector<Value> sums = widenAccumulator(e, c, accElement, arith);
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

  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk) {
    int64_t len = std::min(staging.chunk, s.k - k0);
    FailureOr<ChunkBases> bases = prepareChunk(k0, len);
    if (failed(bases))
      return failure();
    Value aBase = bases->a, bBase = bases->b;
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
  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

/// Lowers the multiply `op` of `a` and `b` (element type `element`, `a`
/// typed like `lhsType`) onto `acc` (converted; tensor type
/// `accTensorType`), for which hasMmaSyncStaging holds, staging them a chunk
/// at a time in the shared scratch.
LogicalResult emitStagedMmaSync(Operation *op, const StagedOperand &a, const StagedOperand &b,
                                Type element, Type lhsType, Value acc, Type accTensorType,
                                const TypeConverter &converter,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  FailureOr<MmaShape> shape = getShape(lhsType, accTensorType);
  if (failed(shape))
    return failure();
  const MmaShape &s = *shape;
  MmaSyncStaging staging = getStaging(s, chooseChunk(s));
  FailureOr<OperandStaging> staged =
      getOperandStaging(rewriter, loc, op, staging.bytes, staging.bOffset);
  if (failed(staged))
    return failure();
  RegisterEmitter e(rewriter, loc);
  auto prepare = [&](int64_t k0, int64_t len) -> FailureOr<ChunkBases> {
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    if (failed(stageChunk(e, s, staging, a, b, element, staged->aBase, staged->bBase, k0, len,
                          /*needsCheck=*/s.k > staging.chunk)))
      return failure();
    if (a.global || b.global) {
      // This thread's copies have landed; the barrier then publishes them.
      NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    }
    emitCTABarrier(rewriter, loc); // the chunk is complete
    return ChunkBases{staged->aBase, staged->bBase};
  };
  if (failed(emitMmaSync(op, s, staging, element, acc, accTensorType, converter, rewriter,
                         prepare)))
    return failure();
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it
  return success();
}

/// The staged form of the converted tensor `converted` laid out as `laid`:
/// registers, or (`global`) addresses with the mask bits of `mask`
/// (converted; null for none), read only where `enabled` (null: always).
StagedOperand getStagedOperand(RegisterEmitter &e, const Laid &laid, Value converted,
                               bool global, Value mask, Value enabled = {}) {
  StagedOperand operand{laid, unpackOperand(e, converted, laid), {}, global, enabled};
  if (mask)
    for (int64_t i = 0, count = operand.regs.values.size(); i < count; ++i)
      operand.mask.push_back(e.extract(mask, i));
  return operand;
}

/// The staged form of operand `value` (converted: `converted`) of mmaf_global
/// `op`, with its converted `mask` (null for none).
FailureOr<StagedOperand> getStagedOperand(RegisterEmitter &e, MmaFGlobalOp op, Value value,
                                          Value converted, Value mask) {
  FailureOr<Laid> laid = Laid::of(op, value.getType());
  if (failed(laid))
    return failure();
  return getStagedOperand(e, *laid, converted, MmaFGlobalOp::isGlobal(value), mask);
}

struct MmaFGlobalLowering : ConvertOpToLLVMPattern<MmaFGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFGlobalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type lhsType = op.getLhs().getType();
    if (!hasMmaSyncStaging(lhsType, op.getAcc().getType()))
      return op.emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<StagedOperand> a =
        getStagedOperand(e, op, op.getLhs(), adaptor.getLhs(), adaptor.getLhsMask());
    FailureOr<StagedOperand> b =
        getStagedOperand(e, op, op.getRhs(), adaptor.getRhs(), adaptor.getRhsMask());
    if (failed(a) || failed(b))
      return failure();
    Type element = getElementTypeOrSelf(lhsType);
    if (auto ptr = dyn_cast<PtrType>(element))
      element = ptr.getPointeeType();
    return emitStagedMmaSync(op, *a, *b, element, lhsType, adaptor.getAcc(),
                             op.getAcc().getType(), *getTypeConverter(), rewriter);
  }
};

/// The multiply shape of a ring chunk of `kLen` K for the accumulator type
/// `acc`.
FailureOr<MmaShape> getChunkShape(Type acc, int64_t kLen) {
  SmallVector<int64_t> lhs(cast<RankedTensorType>(acc).getShape());
  lhs.back() = kLen;
  return getMmaShape(lhs, cast<RankedTensorType>(acc).getShape());
}

/// The A and B bases of ring slot `slot` (an i32) of a ring of `stages`
/// slots laid out as `staging`, at the start of the shared scratch.
FailureOr<ChunkBases> getRingSlot(RegisterEmitter &e, Operation *op,
                                  const MmaSyncStaging &staging, int64_t stages, Value slot) {
  FailureOr<Value> ring = getSharedScratch(e.builder, e.loc, op, stages * staging.slotBytes());
  if (failed(ring))
    return failure();
  IndexMath m{e};
  Type i8 = e.builder.getI8Type();
  Value a = LLVM::GEPOp::create(e.builder, e.loc, ring->getType(), i8, *ring,
                                ArrayRef<LLVM::GEPArg>{m.mul(slot, staging.slotBytes())});
  Value b = LLVM::GEPOp::create(e.builder, e.loc, a.getType(), i8, a,
                                ArrayRef<LLVM::GEPArg>{(int32_t)staging.bOffset});
  return ChunkBases{a, b};
}

/// The copies of one chunk into a ring slot, then one commit_group.
struct MmaStageCopyLowering : ConvertOpToLLVMPattern<MmaStageCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaStageCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    FailureOr<Laid> aLaid = Laid::of(op, op.getLhs().getType());
    FailureOr<Laid> bLaid = Laid::of(op, op.getRhs().getType());
    if (failed(aLaid) || failed(bLaid))
      return failure();
    StagedOperand a = getStagedOperand(e, *aLaid, adaptor.getLhs(), /*global=*/true,
                                       adaptor.getLhsMask(), adaptor.getPred());
    StagedOperand b = getStagedOperand(e, *bLaid, adaptor.getRhs(), /*global=*/true,
                                       adaptor.getRhsMask(), adaptor.getPred());
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    // The accumulator A x B would have: A's shape with B's N.
    SmallVector<int64_t> accShape(lhsType.getShape());
    accShape.back() = cast<RankedTensorType>(op.getRhs().getType()).getShape().back();
    FailureOr<MmaShape> shape = getMmaShape(lhsType.getShape(), accShape);
    if (failed(shape))
      return op.emitOpError("operands are not [M, K] x [K, N] or batched");
    const MmaShape &s = *shape;
    MmaSyncStaging staging = getStaging(s, op.getChunk());
    FailureOr<ChunkBases> slot = getRingSlot(e, op, staging, op.getStages(), adaptor.getSlot());
    if (failed(slot))
      return failure();
    Type element = cast<PtrType>(lhsType.getElementType()).getPointeeType();
    if (failed(stageChunk(e, s, staging, a, b, element, slot->a, slot->b, op.getKOffset(),
                          op.getKLen(), /*needsCheck=*/true)))
      return failure();
    // One group per slot, also where nothing was copied: async_wait counts
    // groups.
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitLowering : ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    emitCTABarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// ldmatrix + mma.sync over one chunk already in a ring slot.
struct MmaFStageLowering : ConvertOpToLLVMPattern<MmaFStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<MmaShape> shape = getChunkShape(op.getAcc().getType(), op.getKLen());
    if (failed(shape))
      return op.emitOpError("accumulator is not [M, N] or [batch, M, N]");
    MmaSyncStaging staging = getStaging(*shape, op.getChunk());
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<ChunkBases> slot = getRingSlot(e, op, staging, op.getStages(), adaptor.getSlot());
    if (failed(slot))
      return failure();
    return emitMmaSync(op, *shape, staging, op.getOperandType(), adaptor.getAcc(),
                       op.getAcc().getType(), *getTypeConverter(), rewriter,
                       [&](int64_t, int64_t) -> FailureOr<ChunkBases> { return *slot; });
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
  return emitStagedMmaSync(op, a, b, getElementTypeOrSelf(op.getLhs().getType()),
                           op.getLhs().getType(), acc, op.getAcc().getType(), converter,
                           rewriter);
}

void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns) {
  patterns.add<MmaFGlobalLowering, MmaStageCopyLowering, AsyncWaitLowering, MmaFStageLowering>(
      converter);
}

} // namespace tilepipe::tile_as
