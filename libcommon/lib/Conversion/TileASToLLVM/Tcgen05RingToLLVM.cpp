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
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"
#include "TmaRing.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

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
        kind->elementBytes == 4 || !isTcgen05AccumulatorLayout(laid->layout, accType.getShape()) ||
        accType.getShape()[0] % kTcgen05Rows != 0)
      return op.emitOpError("needs an [M, N] f32 accumulator in the tcgen05 layout (M a "
                            "multiple of 128) and f16, bf16 or fp8 operands");
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, accType);
    if (failed(ring))
      return failure();
    Tcgen05RowBlocks blocks = Tcgen05RowBlocks::of(ring->s.m);
    int64_t columns = blocks.blocks * ring->s.n;
    Value tmem = getTensorMemory(rewriter, loc, op, getTmemAllocationColumns(columns));
    Tcgen05ChunkMmas mmas{&ring->staging, ring->s, blocks, element, element, *kind,
                          /*bKMajor=*/false, tmem, /*aTmem=*/Value(), /*aPerWord=*/0};
    Value slot = adaptor.getSlot();
    Type i64 = rewriter.getI64Type();
    LogicalResult result = success();
    emitIf(rewriter, loc, isThread0(e), [&] {
      result = emitParityWait(rewriter, e, ring->barrier(e, slot, false), adaptor.getPhase());
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
};

} // namespace

void populateTcgen05RingToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<Tcgen05StageLowering>(converter);
}

} // namespace tilepipe::tile_as
