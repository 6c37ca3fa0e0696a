//===- Tcgen05ToLLVM.cpp - mmaf on Blackwell tensor cores: tcgen05.mma ----===//
//
// The tcgen05 path of mmaf and mmaf_global on sm_100/103/110 (PTX ISA,
// "TensorCore 5th Generation Family Instructions"; tile-ptx turns the
// target into sm_100a etc., which tcgen05 needs): f16/bf16 operands as
// kind::f16, tf32 ones as kind::tf32 and e4m3/e5m2 ones (mixed too) as
// kind::f8f6f4, all accumulating in f32.
//
// The accumulator D of a cta_group::1 tcgen05.mma with M = 128 lives in
// tensor memory: row i in lane i, column j (f32) in column j. Each kernel
// that has such a multiply gets one tensor-memory allocation: warp 0
// allocates it on entry (tcgen05.alloc writes its address to shared memory,
// then relinquish_alloc_permit) and frees it before returning
// (finishTensorMemory). Every (batch, 128-row block) of the tile's
// accumulator gets its own N columns of it; more than the 512 columns there
// are is the diagnostic autotuners parse (`allocated tmem out of resource:
// U vs M`).
//
// The accumulator arrives in registers in the layout AssignLayouts gave it
// (getTcgen05AccumulatorLayout), which is tcgen05.ld/st.32x32b's: lane l of
// warp w holds row 32 * (w % 4) + l of each row block, a run of N / (W / 4)
// columns starting at (w / 4) times that. Each warp stores its part to
// tensor memory (tcgen05.st, then tcgen05.wait::st), every MMA accumulates
// onto it (enable-input-d), and it is loaded back into the same registers at
// the end, 32 columns at a time: while the operands are staged and
// multiplied the accumulator occupies no registers. A multiply marked
// `tile_as.tmem_accumulator` (a K loop's, KeepAccumulatorsInTmem.cpp) skips
// both: its D stays in tensor memory from tile_as.acc_to_tmem before the
// loop to tile_as.acc_from_tmem after it (Tcgen05AccumulatorToLLVM.cpp).
//
// A (as [batch * M][K], K-major) and B (as [batch * K][N], N-major) are
// staged a K chunk at a time in the swizzled layouts of SwizzledStaging.h,
// by st.shared from registers (tile_as.mmaf) or by cp.async straight from
// global memory (tile_as.mmaf_global), and published with
// fence.proxy.async and a CTA barrier. Thread 0 issues one tcgen05.mma per
// (k step of 32 bytes, batch, row block, at most 256 columns) from
// shared-memory descriptors and a 32-bit instruction descriptor (the kind's
// types, f32 D, A K-major, B MN-major), then tcgen05.commit makes the
// chunk's buffer's mbarrier track their completion. When K takes several
// chunks two buffers alternate: chunk i + 1 is staged while the MMAs of
// chunk i run, and every thread waits for chunk i - 2's phase
// (mbarrier.try_wait.parity) before buffer i % 2 is rewritten, so no
// mbarrier is ever two phases ahead of its waiters. Where the operands have
// views (an mmaf_global's, kept by AsyncCopyMmaOperands for this: B N-major
// and A too or in tensor memory, unbatched) TMA loads them instead
// (TmaToLLVM.cpp; docs/hopper-tma.md, issue #10): thread 0 alone waits for
// the commit of chunk i - 2, arrives on buffer i % 2's full mbarrier with
// the boxes' bytes, issues them, waits for that phase and issues the MMAs;
// at the end it waits for the last commits and a tensor-memory barrier
// hands their completion to every thread (the other threads wait on no
// commit mbarrier, so none can be two phases ahead of one). f32 loads to
// round to tf32 land raw, and every thread waits for the full mbarrier and
// rounds its part in place before a barrier hands the chunk to thread 0's
// MMAs (that barrier precedes the chunk's commit, so the full mbarrier's
// next phase cannot complete before every thread waited for this one). A
// 32-row tile's A lands in boxes of 8 rows, one per 16-row slice of its M =
// 64 form (getTcgen05TmaOperands).
// (A K loop of such a multiply becomes a TMA ring across its iterations
// instead where tilepipe-pipeline-mma-loops can build one: tcgen05_stage,
// Tcgen05RingToLLVM.cpp.)
// f16 accumulators
// accumulate in f32 and are rounded once at the end, as on the other
// tensor-core paths.
//
// An A in registers in the accumulator layout of its own M x K shape (an
// attention kernel's probabilities P, the converted D of the multiply
// before) is not staged: it goes to tensor memory as the accumulator does,
// after the accumulator's columns, its K elements packed into 32-bit
// columns, and tcgen05.mma reads it there (`[a]`; PTX ISA, tcgen05 "Matrix
// A in tensor memory"), so only B passes through shared memory. (Staged in
// shared memory, such an A stayed live in registers across every K chunk.)
//
//===----------------------------------------------------------------------===//
#include "SwizzledStaging.h"
#include "Tcgen05Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

constexpr int64_t kRows = kTcgen05Rows, kMaxN = kTcgen05MaxN, kLanesPerWarp = kTmemLanesPerWarp;
/// The smallest tensor-memory allocation (columns).
constexpr int64_t kMinAllocColumns = 32;
/// Columns one tcgen05.ld/st.32x32b moves (.x32): a load's registers are
/// defined only after tcgen05.wait::ld, so each waits before its values
/// are used, and 32 at a time keep the registers in flight few.
constexpr int64_t kAccessColumns = 32;
/// The shared memory the staging may take: static shared memory less 1 KiB
/// for the tensor-memory address word and the mbarriers, which ptxas places
/// before the 1024-byte aligned scratch (the kernel stays within the 48 KiB
/// of static shared memory).
constexpr uint64_t kStagingLimit = kMaxStaticSharedBytes - kSwizzleAlignment;
/// The suspend-time hint of the mbarrier wait (ns), as CUTLASS uses.
constexpr int32_t kWaitTicks = 10000000;

/// The shared word tcgen05.alloc writes the tensor-memory address to, and
/// the attribute on it that records the columns the kernels need.
constexpr llvm::StringLiteral kTmemAddressName = "__tile_tmem_address";
constexpr llvm::StringLiteral kTmemColumnsAttr = "tilepipe.tmem_columns";
/// The two mbarriers tcgen05.commit signals, one per staging buffer.
constexpr llvm::StringLiteral kMBarrierName = "__tile_tmem_mbarrier";
constexpr int64_t kMBarriers = 2;


/// A !llvm.ptr<3> to the shared global `name` of `type`, created on first use.
Value getSharedGlobal(OpBuilder &builder, Location loc, ModuleOp module,
                      llvm::StringRef name, Type type, unsigned alignment) {
  MLIRContext *context = builder.getContext();
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/false,
                           LLVM::Linkage::Internal, name, /*value=*/Attribute(),
                           alignment, kSharedAddressSpace);
  }
  return LLVM::AddressOfOp::create(builder, loc,
                                   LLVM::LLVMPointerType::get(context, kSharedAddressSpace),
                                   name);
}

/// Whether the calling thread is in warp 0 (i1), read at `builder`'s point.
Value isWarpZero(OpBuilder &builder, Location loc) {
  Type i32 = builder.getI32Type();
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, i32);
  Value limit = LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(32));
  return LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult, tid, limit);
}

} // namespace

int64_t getTmemAllocationColumns(int64_t columns) {
  return std::max<int64_t>(kMinAllocColumns, llvm::PowerOf2Ceil(columns));
}

Value getTensorMemory(OpBuilder &builder, Location loc, Operation *anchor, int64_t columns) {
  ModuleOp module = getTopModule(anchor);
  Type i32 = builder.getI32Type();
  Value slot = getSharedGlobal(builder, loc, module, kTmemAddressName, i32, 4);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kTmemAddressName);
  int64_t recorded = 0;
  if (auto attr = global->getAttrOfType<IntegerAttr>(kTmemColumnsAttr))
    recorded = attr.getInt();
  global->setAttr(kTmemColumnsAttr, builder.getI64IntegerAttr(std::max(recorded, columns)));
  return LLVM::LoadOp::create(builder, loc, i32, slot);
}

Value getTensorPointer(RegisterEmitter &e, Value address) {
  return LLVM::IntToPtrOp::create(e.builder, e.loc,
                                  LLVM::LLVMPointerType::get(e.builder.getContext(), 6),
                                  address);
}

void emitTensorMemoryBarrier(OpBuilder &builder, Location loc) {
  NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  emitCTABarrier(builder, loc);
  NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
}

Value getTcgen05MBarrier(RegisterEmitter &e, Operation *anchor, int64_t index) {
  Type i64 = e.builder.getI64Type();
  Value pair = getSharedGlobal(e.builder, e.loc, getTopModule(anchor), kMBarrierName,
                               LLVM::LLVMArrayType::get(i64, kMBarriers), 8);
  return LLVM::GEPOp::create(e.builder, e.loc, pair.getType(), i64, pair,
                             ArrayRef<LLVM::GEPArg>{int32_t(index)});
}

Value Tcgen05RowBlocks::stagedRow(const IndexMath &m, Value t) const {
  if (!padded())
    return t;
  return m.add(m.mul(m.div(t, kCoreRows), 2 * kCoreRows), m.rem(t, kCoreRows));
}

SmallVector<TmaOperand, 2> getTcgen05TmaOperands(const SwizzledStaging &staging,
                                                 const MmaShape &s, const TmaView *aView,
                                                 const TmaView &bView) {
  SmallVector<TmaOperand, 2> operands;
  if (aView) {
    Tcgen05RowBlocks blocks = Tcgen05RowBlocks::of(s.m);
    SmallVector<int64_t> rows;
    for (int64_t t = 0; blocks.padded() && t < s.m; t += Tcgen05RowBlocks::kCoreRows)
      rows.push_back(blocks.stagedRow(t));
    operands.push_back({*aView,
                        blocks.padded()
                            ? getTmaBoxes(staging.a, Tcgen05RowBlocks::kCoreRows, std::move(rows))
                            : getRowBoxes(staging.a, s.m),
                        /*kContiguous=*/true});
  }
  operands.push_back({bView, getRowBoxes(staging.b, staging.chunk), /*kContiguous=*/false});
  return operands;
}

namespace {


/// The shared address (i64) `bytes` (i32) after `address` (i64).
Value addBytes(RegisterEmitter &e, Value address, Value bytes) {
  Value wide = LLVM::ZExtOp::create(e.builder, e.loc, e.builder.getI64Type(), bytes);
  return LLVM::AddOp::create(e.builder, e.loc, address, wide);
}

/// Waits (every thread) until phase `phase` of `barrier` completed.
LogicalResult waitForPhase(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                           Value barrier, int64_t phase) {
  auto wait = NVVM::MBarrierTryWaitParityOp::create(rewriter, e.loc, barrier,
                                                    e.i32(phase % 2), e.i32(kWaitTicks));
  return emitAsInlinePtx(rewriter, wait.getOperation());
}

/// A register that a tcgen05.ld/st.16x256b piece moves for a padding row
/// (Tcgen05RowBlocks): stored as zero, dropped when loaded.
constexpr int64_t kPaddingRegister = -1;

/// Registers one tcgen05.ld/st.16x256b repetition moves per thread (8
/// columns), and the most repetitions one access takes.
constexpr int64_t kRegsPer16x256b = 4, kMax16x256bRepetitions = 8;

/// forEachTmemPiece for the M = 64 form (Tcgen05RowBlocks): warp w moves its
/// lanes 0-15 with tcgen05.ld/st.16x256b; its column register c is
/// register 4 (c / 2) + c % 2 of the pieces, the padding rows' registers
/// kPaddingRegister.
void forEachPaddedTmemPiece(RegisterEmitter &e, const Laid &laid, const MmaShape &s, Value tmem,
                            Value tid,
                            llvm::function_ref<void(Value, ArrayRef<int64_t>,
                                                    NVVM::Tcgen05LdStShape)> fn) {
  IndexMath m{e};
  BlockedAttr layout = laid.layout;
  Value warp = m.div(tid, kLanesPerWarp);
  Value warpBase = m.add(tmem, LLVM::ShlOp::create(e.builder, e.loc,
                                                   m.mul(m.rem(warp, 4), kLanesPerWarp),
                                                   e.i32(16)));
  int64_t repetitions = s.n / 8;
  for (int64_t batch = 0; batch < s.batch; ++batch)
    for (int64_t q = 0; q < repetitions;) {
      int64_t count = std::min<int64_t>(kMax16x256bRepetitions,
                                        llvm::bit_floor(uint64_t(repetitions - q)));
      SmallVector<int64_t> regs;
      for (int64_t j = q; j < q + count; ++j)
        for (int64_t r = 0; r < kRegsPer16x256b; ++r) {
          if (r >= 2) {
            regs.push_back(kPaddingRegister);
            continue;
          }
          SmallVector<int64_t> perDim{0, 2 * j + r};
          if (s.batched)
            perDim.insert(perDim.begin(), batch);
          regs.push_back(linearizeRegister(layout, laid.shape, perDim));
        }
      fn(getTensorPointer(e, m.add(warpBase, batch * s.n + 8 * q)), regs,
         NVVM::Tcgen05LdStShape::SHAPE_16X256B);
      q += count;
    }
}

/// The pieces in which a thread moves its registers of a tile in the
/// tcgen05 accumulator layout (`laid`: the accumulator, or an A operand laid
/// out like one) between registers and tensor memory with
/// tcgen05.ld/st.32x32b, `perWord` elements packed into each 32-bit column:
/// `fn(address, regs, shape)` per piece, `regs` the registers of consecutive
/// columns (at most kAccessColumns columns, a power of two) at
/// tensor-memory address `address`. Each (batch, 128-row block) of the tile
/// is a region of its last extent / `perWord` columns, the regions one after
/// another from `tmem`. A 32-row tile (the M = 64 form) goes through
/// forEachPaddedTmemPiece instead.
void forEachTmemPiece(RegisterEmitter &e, const Laid &laid, const MmaShape &s, Value tmem,
                      Value tid, int64_t perWord,
                      llvm::function_ref<void(Value, ArrayRef<int64_t>,
                                              NVVM::Tcgen05LdStShape)> fn) {
  if (Tcgen05RowBlocks::of(s.m).padded()) {
    assert(perWord == 1 && "an A in tensor memory has no padded form");
    return forEachPaddedTmemPiece(e, laid, s, tmem, tid, fn);
  }
  IndexMath m{e};
  BlockedAttr layout = laid.layout;
  unsigned rank = laid.shape.size();
  int64_t wordsPerThread = layout.getSizePerThread()[rank - 1] / perWord;
  int64_t regionWords = laid.shape[rank - 1] / perWord;
  int64_t rowBlocks = s.m / kRows;
  // Warp w reads lanes 32 * (w % 4) on, from column (w / 4) *
  // wordsPerThread of each region.
  Value warp = m.div(tid, kLanesPerWarp);
  Value laneBase = LLVM::ShlOp::create(e.builder, e.loc, m.mul(m.rem(warp, 4), kLanesPerWarp),
                                       e.i32(16));
  Value warpBase = m.add(m.add(tmem, laneBase), m.mul(m.div(warp, 4), wordsPerThread));
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, laid.shape);
  int64_t batchRegs = s.batched ? regsPerDim[0] : 1;
  for (int64_t batch = 0; batch < batchRegs; ++batch)
    for (int64_t block = 0; block < rowBlocks; ++block)
      for (int64_t word = 0; word < wordsPerThread;) {
        int64_t width =
            std::min<int64_t>(kAccessColumns, llvm::bit_floor(uint64_t(wordsPerThread - word)));
        SmallVector<int64_t> regs;
        for (int64_t j = 0; j < width * perWord; ++j) {
          SmallVector<int64_t> perDim{block, word * perWord + j};
          if (s.batched)
            perDim.insert(perDim.begin(), batch);
          regs.push_back(linearizeRegister(layout, laid.shape, perDim));
        }
        int64_t region = (batch * rowBlocks + block) * regionWords;
        fn(getTensorPointer(e, m.add(warpBase, region + word)), regs,
           NVVM::Tcgen05LdStShape::SHAPE_32X32B);
        word += width;
      }
}

/// The type tcgen05.ld/st.32x32b moves `width` columns as.
Type accessType(RegisterEmitter &e, int64_t width) {
  Type i32 = e.builder.getI32Type();
  return width == 1 ? i32 : Type(VectorType::get({width}, i32));
}

/// Stores a thread's registers `values` of a tile laid out as `laid` (see
/// forEachTmemPiece) to tensor memory from `tmem` with tcgen05.st.32x32b,
/// `perWord` elements packed into each 32-bit column (the first in the low
/// bits, as tcgen05.mma reads an A operand there). Not waited for.
void storeToTensorMemory(RegisterEmitter &e, const Laid &laid, const MmaShape &s, Value tmem,
                         Value tid, ArrayRef<Value> values, int64_t perWord) {
  OpBuilder &builder = e.builder;
  Type i32 = builder.getI32Type();
  Value zero;
  forEachTmemPiece(e, laid, s, tmem, tid, perWord, [&](Value address, ArrayRef<int64_t> regs,
                                                       NVVM::Tcgen05LdStShape shape) {
    SmallVector<Value> words;
    for (size_t j = 0; j < regs.size(); j += perWord) {
      Value word;
      if (regs[j] == kPaddingRegister) {
        if (!zero)
          zero = e.i32(0);
        words.push_back(zero);
        continue;
      }
      if (perWord == 1) {
        word = values[regs[j]];
      } else {
        SmallVector<Value> packed;
        for (int64_t p = 0; p < perWord; ++p)
          packed.push_back(values[regs[j + p]]);
        word = e.buildVector(VectorType::get({perWord}, packed.front().getType()), packed);
      }
      words.push_back(LLVM::BitcastOp::create(builder, e.loc, i32, word));
    }
    Value value = words.size() == 1
                      ? words.front()
                      : e.buildVector(cast<VectorType>(accessType(e, words.size())), words);
    NVVM::Tcgen05StOp::create(builder, e.loc, /*unpack=*/false, shape, address, value,
                              /*offset=*/Value());
  });
}

/// Elements of A per tensor-memory column when A of a tcgen05.mma with
/// `elementBytes`-byte elements may come from tensor memory: when it is in
/// registers in the accumulator layout of its own shape (M x K), as the
/// softmax probabilities P of an attention kernel are (the first multiply's
/// D, converted), each thread's run of a row packs into whole columns and
/// goes there with tcgen05.st as a D would (PTX ISA, tcgen05 "Matrix A in
/// tensor memory": row i in lane i, K packed along the columns), instead of
/// through the swizzled shared-memory staging; 0 otherwise.
int64_t getTensorMemoryAPacking(const StagedOperand &a, unsigned elementBytes) {
  unsigned rank = a.laid.shape.size();
  if (a.global || !isTcgen05AccumulatorLayout(a.laid.layout, a.laid.shape) ||
      Tcgen05RowBlocks::of(a.laid.shape[rank - 2]).padded())
    return 0;
  int64_t run = a.laid.layout.getSizePerThread().back();
  int64_t perWord = 4 / elementBytes;
  return run % perWord == 0 ? perWord : 0;
}

/// Whether a multiply of `lhs` (tensor type, elements `a`) by elements `b`
/// into `acc` fits the tcgen05 path: it has a kind and the staging fits
/// shared memory (the tensor-memory limit is a diagnostic of the lowering).
bool fitsTcgen05(Type a, Type b, Type lhs, Type acc) {
  std::optional<Tcgen05Kind> kind = Tcgen05Kind::of(a, b);
  FailureOr<MmaShape> shape = getMmaShape(cast<RankedTensorType>(lhs).getShape(),
                                          cast<RankedTensorType>(acc).getShape());
  if (!kind || failed(shape))
    return false;
  // A with its padding rows (Tcgen05RowBlocks).
  shape->m = Tcgen05RowBlocks::of(shape->m).stagedRows();
  return SwizzledStaging::chooseChunk(*shape, kind->elementBytes, /*stageA=*/true,
                                      kStagingLimit) > 0;
}

} // namespace

void Tcgen05ChunkMmas::issue(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                             Value aAddress, Value bAddress, int64_t k0, int64_t len,
                             Value barrier) const {
  Location loc = e.loc;
  IndexMath m{e};
  struct Issue {
    int64_t batch, block, n0, width;
  };
  SmallVector<Issue> issues;
  for (int64_t batch = 0; batch < s.batch; ++batch)
    for (int64_t block = 0; block < blocks.blocks; ++block)
      for (int64_t n0 = 0; n0 < s.n; n0 += kMaxN)
        issues.push_back({batch, block, n0, std::min(kMaxN, s.n - n0)});
  const SwizzledArray &aArray = staging->a, &bArray = staging->b;
  uint64_t aLayoutBits =
      getDescriptorLayoutBits(aArray, /*kMajor=*/true, DescriptorFormat::Tcgen05);
  uint64_t bLayoutBits = getDescriptorLayoutBits(bArray, bKMajor, DescriptorFormat::Tcgen05);
  Value accumulate = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                              rewriter.getBoolAttr(true));
  int64_t stepElements = kMmaStepBytes / kind.elementBytes;
  NVVM::CTAGroupKind group = pair ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
  NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  emitCountedLoop(rewriter, loc, len / stepElements, {}, [&](Value k, ValueRange) {
    // A k step is 32 bytes along A's rows (and a K-major B's) and 16
    // (tf32: 8, fp8: 32) of an N-major B's rows.
    Value kBytes = m.mul(k, kMmaStepBytes);
    Value bStep =
        bKMajor ? bArray.kStepOffset(m, kBytes) : m.mul(k, stepElements * bArray.width);
    for (const Issue &issue : issues) {
      int64_t region = issue.batch * blocks.blocks + issue.block;
      int64_t bOrigin = staging->bRowOffset(issue.batch, issue.n0);
      // A in tensor memory: the k step's 32 bytes are 8 columns of its
      // region; in shared memory: a descriptor of its rows.
      Value matrixA =
          aPerWord ? getTensorPointer(e, m.add(m.add(aTmem, (region * s.k + k0) / aPerWord),
                                               m.mul(k, kMmaStepBytes / 4)))
                   : emitMatrixDescriptor(
                         e,
                         addBytes(e, aAddress,
                                  m.add(aArray.kStepOffset(m, kBytes),
                                        (issue.batch * blocks.stagedRows() +
                                         issue.block * blocks.mmaRows) *
                                            aArray.width)),
                         aLayoutBits);
      Value descB =
          emitMatrixDescriptor(e, addBytes(e, bAddress, m.add(bStep, bOrigin)), bLayoutBits);
      Value d = getTensorPointer(e, m.add(tmem, region * s.n + issue.n0));
      // The pair's MMA covers both CTAs' rows (Layout A: 128 in each).
      int64_t rows = pair ? 2 * blocks.mmaRows : blocks.mmaRows;
      Value idesc = e.i32(int32_t(
          Tcgen05Kind::instructionDescriptor(aElement, bElement, rows, issue.width, bKMajor)));
      NVVM::Tcgen05MMAOp::create(rewriter, loc, kind.kind, group,
                                 NVVM::Tcgen05MMACollectorOp::DISCARD,
                                 /*aShift=*/false, d, matrixA, descB, idesc, accumulate,
                                 /*scaleInputD=*/Value(), /*disableOutputLane=*/Value());
    }
    return SmallVector<Value>{};
  });
  NVVM::Tcgen05CommitOp::create(rewriter, loc, barrier,
                                /*multicastMask=*/pair ? getPairMulticastMask(e) : Value(),
                                group);
}

void storeAccumulator(RegisterEmitter &e, const Laid &accLaid, const MmaShape &s, Value tmem,
                      ArrayRef<Value> sums) {
  Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
  storeToTensorMemory(e, accLaid, s, tmem, tid, sums, /*perWord=*/1);
  NVVM::Tcgen05WaitOp::create(e.builder, e.loc, NVVM::Tcgen05WaitKind::STORE);
  NVVM::Tcgen05FenceOp::create(e.builder, e.loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
}

void loadAccumulator(RegisterEmitter &e, const Laid &accLaid, const MmaShape &s, Value tmem,
                     SmallVectorImpl<Value> &sums) {
  OpBuilder &builder = e.builder;
  Value tid = NVVM::ThreadIdXOp::create(builder, e.loc, builder.getI32Type());
  forEachTmemPiece(e, accLaid, s, tmem, tid, /*perWord=*/1,
                   [&](Value address, ArrayRef<int64_t> regs, NVVM::Tcgen05LdStShape shape) {
                     Value loaded = NVVM::Tcgen05LdOp::create(
                         builder, e.loc, accessType(e, regs.size()), /*pack=*/false, shape,
                         address, /*offset=*/Value());
                     NVVM::Tcgen05WaitOp::create(builder, e.loc, NVVM::Tcgen05WaitKind::LOAD);
                     for (auto [j, reg] : llvm::enumerate(regs)) {
                       if (reg == kPaddingRegister)
                         continue;
                       Value word = regs.size() == 1 ? loaded : e.extract(loaded, j);
                       sums[reg] =
                           LLVM::BitcastOp::create(builder, e.loc, builder.getF32Type(), word);
                     }
                   });
}

bool hasTmemAccumulator(Operation *op) {
  return op->hasAttr(TileASDialect::kTmemAccumulatorAttrName);
}

LogicalResult replaceWithTmemAccumulator(ConversionPatternRewriter &rewriter, Operation *op,
                                         Type accVector) {
  rewriter.replaceOp(op, LLVM::PoisonOp::create(rewriter, op->getLoc(), accVector));
  return success();
}

bool canLowerToTcgen05(MmaFOp op) {
  return hasTcgen05Form(op) && fitsTcgen05(getElementTypeOrSelf(op.getLhs().getType()),
                                           getElementTypeOrSelf(op.getRhs().getType()),
                                           op.getLhs().getType(), op.getAcc().getType());
}

bool canLowerToTcgen05(MmaFGlobalOp op, Type a, Type b) {
  return hasTcgen05Accumulator(op, op.getAcc().getType()) &&
         fitsTcgen05(a, b, op.getLhs().getType(), op.getAcc().getType());
}

LogicalResult lowerTcgen05(MmaFOp op, Value lhs, Value rhs, Value acc,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter) {
  RegisterEmitter e(rewriter, op.getLoc());
  // In a K loop (its accumulator stays in tensor memory there) the staging
  // addresses are recomputed each iteration rather than hoisted.
  if (hasTmemAccumulator(op))
    e.makeThreadIdUnhoistable();
  FailureOr<StagedOperand> a = getStagedOperand(e, op, op.getLhs(), lhs, /*mask=*/{});
  FailureOr<StagedOperand> b = getStagedOperand(e, op, op.getRhs(), rhs, /*mask=*/{});
  if (failed(a) || failed(b))
    return failure();
  return emitTcgen05(op, *a, *b, getElementTypeOrSelf(op.getLhs().getType()),
                     getElementTypeOrSelf(op.getRhs().getType()), op.getLhs().getType(), acc,
                     op.getAcc().getType(), converter, rewriter);
}

LogicalResult emitTcgen05(Operation *op, const StagedOperand &a, const StagedOperand &b,
                          Type aElement, Type bElement, Type lhsType, Value acc, Type accTensorType,
                          const TypeConverter &converter, ConversionPatternRewriter &rewriter,
                          bool roundToTf32, const std::optional<TmaView> &aView,
                          const std::optional<TmaView> &bView) {
  Location loc = op->getLoc();
  FailureOr<Laid> accLaid = Laid::of(op, accTensorType);
  if (failed(accLaid))
    return failure();
  FailureOr<MmaShape> shape =
      getMmaShape(cast<RankedTensorType>(lhsType).getShape(), accLaid->shape);
  if (failed(shape))
    return failure();
  const MmaShape &s = *shape;
  // One accumulator region of N columns per (batch, row block): 128 rows
  // each, or the one M = 64 block of a 32-row tile.
  Tcgen05RowBlocks blocks = Tcgen05RowBlocks::of(s.m);
  int64_t rowBlocks = blocks.blocks;
  // The staging's shape: A with its padding rows.
  MmaShape staged = s;
  staged.m = blocks.stagedRows();
  int64_t columns = s.batch * rowBlocks * s.n;
  if (columns > kTmemColumns)
    return op->emitError("allocated tmem out of resource: ")
           << getTmemAllocationColumns(columns) << " vs " << kTmemColumns << " (the " << s.m
           << "x" << s.n << " f32 accumulator"
           << (s.batched ? " of each of " + std::to_string(s.batch) + " batches" : "")
           << " takes " << columns << " tensor-memory columns)";
  Type accElement = getElementTypeOrSelf(accTensorType);
  Type accType = converter.convertType(accElement);
  if (!accType)
    return op->emitOpError("accumulator element type has no LLVM form");
  std::optional<Tcgen05Kind> kind = Tcgen05Kind::of(aElement, bElement);
  if (!kind)
    return op->emitOpError("has no tcgen05.mma kind for its operand types");
  unsigned elementBytes = kind->elementBytes;
  // What the staging stores and copies: the operands' LLVM type (f32 for
  // tf32, i8 for fp8). Mixed fp8 types share it.
  Type element = converter.convertType(aElement);
  if (!element)
    return op->emitOpError("operand element type has no LLVM form");
  unsigned rank = accLaid->shape.size();
  unsigned mDim = rank - 2;
  // A in tensor memory (getTensorMemoryAPacking) after the accumulator's
  // columns, one region of K / aPerWord columns per (batch, 128-row block),
  // where that fits; else A is staged in shared memory with B.
  int64_t aPerWord = getTensorMemoryAPacking(a, elementBytes);
  int64_t aColumns = aPerWord ? s.batch * rowBlocks * s.k / aPerWord : 0;
  if (columns + aColumns > kTmemColumns)
    aPerWord = aColumns = 0;
  bool aInTmem = aPerWord != 0;

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  // An accumulator kept in tensor memory (KeepAccumulatorsInTmem) has no
  // registers here.
  bool inTmem = hasTmemAccumulator(op);
  Arithmetic arith{/*isFloat=*/true};
  arith.computeType = rewriter.getF32Type();
  SmallVector<Value> sums;
  if (!inTmem)
    sums = widenAccumulator(e, unpackOperand(e, acc, *accLaid), accElement, arith);

  // B is staged K-major where its copies run along K (a transposed view's
  // B: rhs_k_runs), else N-major.
  bool bKMajor = b.kRuns;
  auto chooseChunk = [&](uint64_t extraBytes) {
    return SwizzledStaging::chooseChunk(staged, elementBytes, /*stageA=*/!aInTmem,
                                        kStagingLimit - extraBytes, bKMajor);
  };
  // TMA (TmaToLLVM.cpp) where B has a view (N-major) and A one too or sits
  // in tensor memory, the multiply is unbatched and the staging leaves room
  // for the loads' mbarriers after it. A 32-row tile's A lands in boxes of
  // 8 rows between its padding rows (getTcgen05TmaOperands); f32 operands
  // to round to tf32 are rounded where they landed by every thread.
  bool useTma = bView && !bView->transposed && !bKMajor && (aInTmem || aView) && !s.batched &&
                chooseChunk(kTmaBarrierBytes) > 0;
  uint64_t extraBytes = useTma ? kTmaBarrierBytes : 0;
  int64_t chunkLength = chooseChunk(extraBytes);
  if (chunkLength == 0)
    return op->emitOpError("has no tcgen05 staging that fits shared memory");
  SwizzledStaging staging(staged, chunkLength, elementBytes, /*stageA=*/!aInTmem, bKMajor);
  FailureOr<Value> scratch =
      getSharedScratch(rewriter, loc, op, staging.bytes + extraBytes, kSwizzleAlignment);
  if (failed(scratch))
    return failure();
  auto bytesAt = [&](uint64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, scratch->getType(), rewriter.getI8Type(), *scratch,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };
  Value tmem =
      getTensorMemory(rewriter, loc, op, getTmemAllocationColumns(columns + aColumns));
  Value aTmem = m.add(tmem, columns);
  SmallVector<Value> barriers;
  for (int64_t i = 0; i < kMBarriers; ++i)
    barriers.push_back(getTcgen05MBarrier(e, op, i));
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
  Value leader = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
  // The barrier opening the first chunk's staging publishes the init.
  emitIf(rewriter, loc, leader, [&] {
    for (Value barrier : barriers)
      NVVM::MBarrierInitOp::create(rewriter, loc, barrier, e.i32(1), Value());
  });

  // The accumulator (and A, where it goes there) into tensor memory, where
  // the MMAs read it; the barrier opening the first chunk orders the stores
  // before them.
  if (!inTmem) // (else it is there already)
    storeToTensorMemory(e, *accLaid, s, tmem, tid, sums, /*perWord=*/1);
  if (aInTmem)
    storeToTensorMemory(e, a.laid, s, aTmem, tid, a.regs.values, aPerWord);
  NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::STORE);
  NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);

  // The TMA loads: A's rows (staged in order, or 8-row groups into the M =
  // 64 form's slices) and B's chunk rows, in boxes of up to 256 rows per
  // swizzle block; their mbarriers follow the staging. Thread 0 alone
  // loads, waits and multiplies, so only it waits on them: the other
  // threads, which never wait there, cannot fall a phase behind. Operands
  // rounded to tf32 once landed are the exception: every thread waits for
  // the chunk and rounds its part, and the barrier after that orders its
  // next wait after the refill it waits for (the refill follows the commit
  // of MMAs issued after the barrier).
  std::optional<TmaLoads> tma;
  if (useTma) {
    tma.emplace(rewriter, e, op,
                getTcgen05TmaOperands(staging, s, aInTmem ? nullptr : &*aView, *bView),
                element, bytesAt(staging.bytes), staging.buffers);
    // No staging barrier opens the chunks: this one publishes the
    // mbarriers' init and orders the tensor-memory stores before the MMAs
    // and earlier readers of the scratch before the loads.
    emitTensorMemoryBarrier(rewriter, loc);
  }

  Tcgen05ChunkMmas mmas{&staging, s, blocks, aElement, bElement, *kind, bKMajor, tmem, aTmem,
                        aPerWord};
  Value scratchAddress = LLVM::PtrToIntOp::create(rewriter, loc, i64, *scratch);
  // Thread 0 issues the MMAs of the chunk from K offset k0 (`len` of it)
  // staged in buffer `buffer`, and tcgen05.commit makes its mbarrier track
  // them.
  auto issueChunk = [&](int64_t k0, int64_t len, int64_t buffer) {
    mmas.issue(rewriter, e, addBytes(e, scratchAddress, e.i32(staging.aStart(buffer))),
               addBytes(e, scratchAddress, e.i32(staging.bStart(buffer))), k0, len,
               barriers[buffer]);
  };

  int64_t chunks = llvm::divideCeil(s.k, staging.chunk);
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    int64_t k0 = chunk * staging.chunk, len = std::min(staging.chunk, s.k - k0);
    int64_t buffer = chunk % staging.buffers;
    if (tma) {
      // Thread 0: once the MMAs of chunk - 2 have read the buffer, TMA
      // refills it; once the boxes have landed (the full mbarrier's phase)
      // it multiplies. TMA writes through the async proxy the MMAs read
      // through: no proxy fence.
      bool failedWait = false;
      emitIf(rewriter, loc, leader, [&] {
        if (chunk >= kMBarriers)
          failedWait |=
              failed(waitForPhase(rewriter, e, barriers[buffer], chunk / kMBarriers - 1));
        SmallVector<Value> dsts;
        if (!aInTmem)
          dsts.push_back(bytesAt(staging.aStart(buffer)));
        dsts.push_back(bytesAt(staging.bStart(buffer)));
        tma->issue(chunk, k0, dsts);
        if (roundToTf32)
          return;
        failedWait |= failed(tma->wait(chunk));
        issueChunk(k0, len, buffer);
      });
      if (roundToTf32) {
        failedWait |= failed(tma->wait(chunk));
        finishLandedChunk(e, rewriter, staging, buffer, *scratch, element,
                          kLanesPerWarp * getWarpsInLayout(accLaid->layout), /*transposeB=*/false,
                          /*roundA=*/!aInTmem, /*roundB=*/false, /*roundBInPlace=*/true,
                          /*aRowsPadded=*/blocks.padded());
        emitIf(rewriter, loc, leader, [&] { issueChunk(k0, len, buffer); });
      }
      if (failedWait)
        return failure();
      continue;
    }
    // Buffer `buffer` was last read by the MMAs of chunk - 2.
    if (chunk >= kMBarriers &&
        failed(waitForPhase(rewriter, e, barriers[buffer], chunk / kMBarriers - 1)))
      return failure();
    if (failed(stageSwizzledChunk(e, rewriter, staging, buffer, *scratch,
                                  aInTmem ? nullptr : &a, &b, element, s, k0, len, [&](size_t i) {
                                    Value batch = s.batched ? a.regs.coords[0][i] : e.i32(0);
                                    return m.add(m.mul(batch, staged.m),
                                                 blocks.stagedRow(m, a.regs.coords[mDim][i]));
                                  },
                                  roundToTf32)))
      return failure();
    emitIf(rewriter, loc, leader, [&] { issueChunk(k0, len, buffer); });
  }
  // The last chunks' commits (each tracks the MMAs before it too, but every
  // phase is waited for, so that the mbarriers are idle when invalidated).
  auto waitForLastChunks = [&]() -> LogicalResult {
    for (int64_t chunk = std::max<int64_t>(0, chunks - kMBarriers); chunk < chunks; ++chunk)
      if (failed(waitForPhase(rewriter, e, barriers[chunk % kMBarriers], chunk / kMBarriers)))
        return failure();
    return success();
  };
  if (tma) {
    // Only thread 0 waited for the earlier phases: another thread could
    // reach a wait two phases ahead of an mbarrier (whose parity then reads
    // as complete). Thread 0 waits, and the barrier passes on to the others
    // what it saw complete.
    bool failedWait = false;
    emitIf(rewriter, loc, leader, [&] { failedWait = failed(waitForLastChunks()); });
    if (failedWait)
      return failure();
    emitTensorMemoryBarrier(rewriter, loc);
  } else {
    if (failed(waitForLastChunks()))
      return failure();
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  }

  // The sums back into the accumulator registers (unless they stay in
  // tensor memory for the next multiply).
  if (!inTmem)
    loadAccumulator(e, *accLaid, s, tmem, sums);
  // Every thread is past its waits and loads: the mbarriers may go, and
  // later users of the scratch and of the tensor memory may overwrite them.
  emitTensorMemoryBarrier(rewriter, loc);
  emitIf(rewriter, loc, leader, [&] {
    for (Value barrier : barriers)
      NVVM::MBarrierInvalOp::create(rewriter, loc, barrier);
  });
  if (tma)
    tma->finish();

  if (inTmem)
    return replaceWithTmemAccumulator(rewriter, op, acc.getType());
  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

LogicalResult finishTensorMemory(ModuleOp module) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kTmemAddressName);
  if (!global)
    return success();
  auto columnsAttr = global->getAttrOfType<IntegerAttr>(kTmemColumnsAttr);
  if (!columnsAttr)
    return global.emitOpError("lacks the tensor-memory columns its users need");
  int64_t columns = columnsAttr.getInt();
  global->removeAttr(kTmemColumnsAttr);
  IRRewriter builder(module.getContext());
  // Kernels may sit in a nested (GPU) module below the global's.
  SmallVector<LLVM::LLVMFuncOp> funcs;
  module.walk([&](LLVM::LLVMFuncOp func) { funcs.push_back(func); });
  for (LLVM::LLVMFuncOp func : funcs) {
    if (func.isExternal())
      continue;
    bool uses = false;
    func.walk([&](LLVM::AddressOfOp address) {
      uses |= address.getGlobalName() == kTmemAddressName;
    });
    if (!uses)
      continue;
    Location loc = func.getLoc();
    Type i32 = builder.getI32Type();
    auto constant = [&](int64_t value) {
      return LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(value));
    };
    auto slot = [&] {
      return LLVM::AddressOfOp::create(
          builder, loc, LLVM::LLVMPointerType::get(module.getContext(), kSharedAddressSpace),
          kTmemAddressName);
    };
    // A CTA pair's kernel allocates, relinquishes and frees with
    // .cta_group::2, as all its tcgen05 instructions are (Tcgen05PairSync.cpp).
    bool pair = isTcgen05CtaPair(func);
    NVVM::CTAGroupKind group = getTcgen05CtaGroup(func);
    func->removeAttr(TileASDialect::kTcgen05CtaPairAttrName);
    // Entry: warp 0 allocates (and gives up the right to allocate again, so
    // that other CTAs on the SM may), then everyone may read the address.
    builder.setInsertionPointToStart(&func.getBody().front());
    emitIf(builder, loc, isWarpZero(builder, loc), [&] {
      NVVM::Tcgen05AllocOp::create(builder, loc, slot(), constant(columns), group);
      NVVM::Tcgen05RelinquishAllocPermitOp::create(builder, loc, group);
    });
    emitTensorMemoryBarrier(builder, loc);
    // Each return: once every warp is done with it, warp 0 frees it; in a
    // pair once every warp of both CTAs is.
    SmallVector<LLVM::ReturnOp> returns;
    func.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
    for (LLVM::ReturnOp ret : returns) {
      builder.setInsertionPoint(ret);
      if (pair) {
        RegisterEmitter e(builder, loc);
        NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
        emitClusterBarrier(e);
        NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
      } else {
        emitTensorMemoryBarrier(builder, loc);
      }
      emitIf(builder, loc, isWarpZero(builder, loc), [&] {
        Value address = LLVM::LoadOp::create(builder, loc, i32, slot());
        Value pointer = LLVM::IntToPtrOp::create(
            builder, loc, LLVM::LLVMPointerType::get(module.getContext(), 6), address);
        NVVM::Tcgen05DeallocOp::create(builder, loc, pointer, constant(columns), group);
      });
    }
  }
  return success();
}

} // namespace tilepipe::tile_as
