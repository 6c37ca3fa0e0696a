//===- Tcgen05RingToLLVM.cpp - tcgen05.mma consumers of a TMA ring --------===//
//
// tile_as.tcgen05_stage, the consumer of a K loop's TMA ring on
// sm_100a/103a/110a (tilepipe-pipeline-mma-loops; the ring's slots and
// mbarriers: TmaRing.h, its begin, loads and end: WgmmaRingToLLVM.cpp).
// Thread 0 alone consumes: it waits for the slot's full mbarrier, issues
// the chunk's tcgen05.mmas from the swizzled slot onto D in tensor memory
// (Tcgen05ChunkMmas, as the unpipelined staging issues them) and
// tcgen05.commit makes the slot's empty mbarrier track them. It does not
// wait for them: the MMAs complete asynchronously while the same thread
// issues the loads of the next chunks, and it waits on an empty mbarrier
// only before refilling that slot. TMA writes the slots through the async
// proxy that tcgen05.mma reads through: no proxy fence. The other threads
// have nothing to do until tma_ring_end.
//
// tf32 (f32 loads rounded by cuTile's ftof; the maps move f32): the tensor
// cores would truncate the low 13 bits of each f32, where ftof rounds to
// nearest even, so the chunk is rounded where it landed before the MMAs
// read it, as the unpipelined staging rounds it (finishLandedChunk): every
// thread waits for the full mbarrier, rounds its 16-byte pieces of the
// slot in place, fences them for the async proxy, and a CTA barrier hands
// the slot to thread 0, which issues the MMAs. No thread can wait on a
// full mbarrier a phase early: its next phase's loads wait for the commit
// of MMAs issued after that barrier. The rounding costs every thread a
// pass over the slot and a CTA barrier per chunk; MMAs of earlier chunks
// still run while it goes on.
//
// A 32-row tile of 4 warps multiplies in the M = 64 form (Tcgen05RowBlocks):
// its slots stage A with padding rows, which TMA's boxes of 8 rows skip
// (getTcgen05TmaOperands) and the tf32 rounding too; their D rows are never
// read.
//
// In a CTA pair's kernel (tile_as.tcgen05_cta_pair; Tcgen05PairSync.cpp)
// the even CTA's first thread alone issues, one tcgen05.mma.cta_group::2 of
// M = 256 and the whole N per k step, once the odd CTA's first thread has
// seen its own slot full and arrived on the even CTA's full mbarrier; the
// commit releases the slot of both CTAs (.multicast::cluster).
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"
#include "TmaRing.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

constexpr int64_t kWarpSize = 32;
/// A CTA pair's N: each CTA's half a multiple of 32 columns.
constexpr int64_t kPairNStep = 64;

struct Tcgen05StageLowering : ConvertOpToLLVMPattern<Tcgen05StageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(Tcgen05StageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    FailureOr<Laid> laid = Laid::of(op, accType);
    if (failed(laid))
      return failure();
    Type element = op.getOperandType();
    std::optional<Tcgen05Kind> kind = Tcgen05Kind::of(element, element);
    if (accType.getRank() != 2 || !accType.getElementType().isF32() || !kind ||
        !hasTcgen05Accumulator(op, accType))
      return op.emitOpError("needs an [M, N] f32 accumulator in the tcgen05 layout and f16, "
                            "bf16, tf32 or fp8 operands");
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, accType);
    if (failed(ring))
      return failure();
    Tcgen05RowBlocks blocks = Tcgen05RowBlocks::of(ring->s.m);
    // The pair's MMA (tilepipe-pair-tcgen05-mmas checks the same): M = 256
    // over both CTAs, one MMA of N per k step, N / 2 a multiple of 32.
    if (ring->pair && (blocks.padded() || blocks.blocks != 1 || ring->s.n % kPairNStep ||
                       ring->s.n > kTcgen05MaxN))
      return op.emitOpError("in a CTA pair's kernel (tile_as.tcgen05_cta_pair) needs 128 "
                            "accumulator rows and N a multiple of 64 up to 256");
    int64_t columns = blocks.blocks * ring->s.n;
    Value tmem = getTensorMemory(rewriter, loc, op, getTmemAllocationColumns(columns));
    Tcgen05ChunkMmas mmas{&ring->staging, ring->s, blocks, element, element, *kind,
                          /*bKMajor=*/false, tmem, /*aTmem=*/Value(), /*aPerWord=*/0,
                          ring->pair};
    Value slot = adaptor.getSlot();
    // In a pair the even CTA's full mbarrier also counts the odd CTA's
    // release at cluster scope.
    auto waitForChunk = [&]() -> LogicalResult {
      Value full = ring->barrier(e, slot, false);
      if (!ring->pair)
        return emitParityWait(rewriter, e, full, adaptor.getPhase());
      emitClusterParityWait(rewriter, e, full, adaptor.getPhase());
      return success();
    };
    bool roundToTf32 = isa<FloatTF32Type>(element);
    // tf32: every thread rounds the landed chunk (see the header).
    if (roundToTf32) {
      if (failed(waitForChunk()))
        return failure();
      finishLandedChunk(e, rewriter, ring->staging, /*buffer=*/0, ring->slotA(e, slot),
                        rewriter.getF32Type(), ring->warps * kWarpSize,
                        /*transposeB=*/false, /*roundA=*/true, /*roundB=*/false,
                        /*roundBInPlace=*/true, /*aRowsPadded=*/blocks.padded());
    }
    if (ring->pair)
      return lowerPair(op, rewriter, e, *ring, mmas, slot, adaptor.getPhase(), adaptor.getAcc(),
                       /*waited=*/roundToTf32);
    Type i64 = rewriter.getI64Type();
    LogicalResult result = success();
    emitIf(rewriter, loc, isThread0(e), [&] {
      if (!roundToTf32)
        result = waitForChunk();
      mmas.issue(rewriter, e, LLVM::PtrToIntOp::create(rewriter, loc, i64, ring->slotA(e, slot)),
                 LLVM::PtrToIntOp::create(rewriter, loc, i64, ring->slotB(e, slot)), 0,
                 op.getChunk(), ring->barrier(e, slot, true));
    });
    if (failed(result))
      return failure();
    // D stays in tensor memory: the result is its (register-less) copy.
    rewriter.replaceOp(op, adaptor.getAcc());
    return success();
  }

private:
  /// A CTA pair's chunk (Tcgen05PairSync.cpp): the odd CTA's first thread
  /// hands its full slot to the even CTA's full mbarrier, whose first thread
  /// waits for both, issues the MMAs of M = 256 and releases both slots.
  /// With `waited` (tf32) every thread of both CTAs has waited for its full
  /// slot and rounded it, and met its CTA's threads at a barrier: the odd
  /// CTA's arrival then also says its slot is rounded.
  static LogicalResult lowerPair(Tcgen05StageOp op, ConversionPatternRewriter &rewriter,
                                 RegisterEmitter &e, const TmaRing &ring,
                                 const Tcgen05ChunkMmas &mmas, Value slot, Value phase,
                                 Value acc, bool waited) {
    Location loc = op.getLoc();
    Value full = ring.barrier(e, slot, false);
    Value even = isEvenCta(e), thread0 = isThread0(e);
    LogicalResult result = success();
    emitIf(rewriter, loc, LLVM::AndOp::create(rewriter, loc, thread0, even), [&] {
      if (!waited)
        emitClusterParityWait(rewriter, e, full, phase);
      Type i64 = rewriter.getI64Type();
      mmas.issue(rewriter, e, LLVM::PtrToIntOp::create(rewriter, loc, i64, ring.slotA(e, slot)),
                 LLVM::PtrToIntOp::create(rewriter, loc, i64, ring.slotB(e, slot)), 0,
                 op.getChunk(), ring.barrier(e, slot, true));
    });
    Value odd = LLVM::XOrOp::create(
        rewriter, loc, even,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true)));
    emitIf(rewriter, loc, LLVM::AndOp::create(rewriter, loc, thread0, odd), [&] {
      if (!waited)
        result = emitParityWait(rewriter, e, full, phase);
      arriveOnEvenCta(e, full);
    });
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, acc);
    return success();
  }
};

} // namespace

void populateTcgen05RingToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<Tcgen05StageLowering>(converter);
}

} // namespace tilepipe::tile_as
