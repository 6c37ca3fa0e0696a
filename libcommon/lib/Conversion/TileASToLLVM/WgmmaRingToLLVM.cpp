//===- WgmmaRingToLLVM.cpp - the TMA ring of a K loop's wgmmas ------------===//
//
// The ops tilepipe-pipeline-mma-loops leaves in a K loop on the wgmma path
// (TileASPipelineOps.td, "The TMA ring of the wgmma path"). The ring's
// slots and mbarriers: TmaRing.h.
//
// - tma_ring_begin: the tensor maps (TmaToLLVM.cpp, boxes of one slot),
//   thread 0 initializing full[s] for one arrival (its expect_tx) and
//   empty[s] for one per warp, then a CTA barrier (the mbarriers are
//   initialized before anyone waits on them; earlier scratch users done).
// - tma_stage_load: thread 0 waits on empty[slot] (parity phase ^ 1: the
//   release of the slot's previous chunk; a fresh mbarrier passes parity 1),
//   arrives on full[slot] expecting the chunk's bytes and issues the boxes
//   (TMA completes the bytes on full[slot]); on sm_120a/121a into
//   shared::cta (issueTmaBoxes).
// - wgmma_stage: every thread waits on full[slot] (parity phase), the
//   warpgroups issue the chunk's wgmmas (WgmmaChunks.h) between fence and
//   commit, wgmma.wait_group 1 leaves just this group in flight, so the
//   previous chunk's wgmmas have read their slot: lane 0 of each warp then
//   arrives on its empty mbarrier. TMA writes and wgmma reads both go
//   through the async proxy; the mbarriers order them.
// - mmaf_tma_stage (sm_120a/121a): lowered with the mma.sync path
//   (MmaSyncToLLVM.cpp); the slots then hold A's rows in order (TmaRing.h).
// - tcgen05_stage (sm_100a/103a/110a): Tcgen05RingToLLVM.cpp; empty[s]
//   then takes one arrival, tcgen05.commit's (TmaRing::releases).
// - tma_ring_end: wgmma.wait_group 0 (the accumulator tied through it; none
//   after mma.sync; after tcgen05.mma thread 0 commits all its MMAs to one
//   more mbarrier, the kernel's tcgen05 mbarrier 0 that begin initialized,
//   and waits for it, and the barrier below is a tensor-memory one), a
//   CTA barrier, thread 0 invalidating
//   the mbarriers (the scratch may be reused, the ring begun again).
// - A ring carried across an enclosing loop: tma_ring_resume is the
//   barrier alone, a `carried` tma_ring_end the wait alone, and
//   tma_ring_close after the loop the barrier and the invalidation.
//
// Warp-specialized rings (tilepipe-warp-specialize-rings): the producer
// warpgroup follows the accumulator's warps, and its first thread does what
// thread 0 does above (maps, mbarrier init and invalidation, the loads).
// Begin and end meet both roles at the named barrier kTmaRingNamedBarrier
// of all the CTA's threads: begin (producer) with tma_ring_enter
// (consumers), end (consumers) with tma_ring_leave (producer), which then
// invalidates the mbarriers. The consumers' other CTA barriers do not count
// the producer (emitCTABarrier), so the ring cannot use barrier 0.
// tile_as.producer_warpgroup and tile_as.setmaxnreg split the roles.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"
#include "TmaRing.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The suspend-time hint of mbarrier.try_wait.parity, in nanoseconds.
constexpr int32_t kWaitTicks = 1000000;
constexpr int64_t kWarpSize = 32;

} // namespace

void emitBothRolesBarrier(RegisterEmitter &e, int64_t warps) {
  NVVM::BarrierOp::create(e.builder, e.loc, TypeRange{}, e.i32(kTmaRingNamedBarrier),
                          e.i32(kWarpSize * warps + kProducerThreads), {}, Value());
}

int64_t TmaRing::issuer(bool warpSpecialized) const {
  return warpSpecialized ? kWarpSize * warps : 0;
}

void emitRingBarrier(RegisterEmitter &e, int64_t warps, bool warpSpecialized) {
  if (warpSpecialized)
    emitBothRolesBarrier(e, warps);
  else
    emitCTABarrier(e.builder, e.loc);
}

void TmaRing::emitRingBarrier(RegisterEmitter &e, bool warpSpecialized) const {
  if (pair)
    return emitClusterBarrier(e);
  tile_as::emitRingBarrier(e, warps, warpSpecialized);
}

Value TmaRing::fills(RegisterEmitter &e) const {
  if (!pair)
    return e.i32(1);
  return LLVM::SelectOp::create(e.builder, e.loc, isEvenCta(e), e.i32(2), e.i32(1));
}

Value TmaRing::bFirstColumn(RegisterEmitter &e) const {
  return IndexMath{e}.mul(getPairRank(e), s.n / 2);
}

Value TmaRing::drainBarrier(RegisterEmitter &e) const {
  return getTcgen05MBarrier(e, anchor, 0);
}

void TmaRing::invalidate(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                         int64_t issuer) const {
  emitIf(rewriter, e.loc, isThread(e, issuer), [&] {
    for (int64_t slot = 0; slot < stages; ++slot)
      for (bool empty : {false, true})
        NVVM::MBarrierInvalOp::create(rewriter, e.loc, barrier(e, e.i32(slot), empty));
    if (consumer == RingConsumer::Tcgen05)
      NVVM::MBarrierInvalOp::create(rewriter, e.loc, drainBarrier(e));
  });
}

LogicalResult emitParityWait(ConversionPatternRewriter &rewriter, RegisterEmitter &e, Value bar,
                             Value parity) {
  auto wait = NVVM::MBarrierTryWaitParityOp::create(rewriter, e.loc, bar, parity,
                                                    e.i32(kWaitTicks));
  return emitAsInlinePtx(rewriter, wait.getOperation());
}

namespace {

struct TmaRingBeginLowering : ConvertOpToLLVMPattern<TmaRingBeginOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingBeginOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    Type element = cast<PtrType>(op.getLhsBase().getType()).getPointeeType();
    FailureOr<TmaRing> ring =
        TmaRing::locate(rewriter, op, op.getAccType());
    if (failed(ring))
      return failure();
    std::optional<TmaView> a = getTmaView(adaptor.getLhsBase(), adaptor.getLhsView());
    std::optional<TmaView> b = getTmaView(adaptor.getRhsBase(), adaptor.getRhsView());
    int64_t issuer = ring->issuer(op.getWarpSpecialized());
    SmallVector<Value> maps =
        buildTensorMaps(rewriter, e, op, ring->operands(*a, *b), element, issuer);
    emitIf(rewriter, loc, isThread(e, issuer), [&] {
      for (int64_t slot = 0; slot < ring->stages; ++slot) {
        NVVM::MBarrierInitOp::create(rewriter, loc, ring->barrier(e, e.i32(slot), false),
                                     ring->fills(e), Value());
        NVVM::MBarrierInitOp::create(rewriter, loc, ring->barrier(e, e.i32(slot), true),
                                     e.i32(ring->releases()), Value());
      }
      if (ring->consumer == RingConsumer::Tcgen05)
        NVVM::MBarrierInitOp::create(rewriter, loc, ring->drainBarrier(e), e.i32(1), Value());
      // The peer CTA arrives on them after the cluster barrier below.
      if (ring->pair)
        NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    ring->emitRingBarrier(e, op.getWarpSpecialized());
    SmallVector<Value> results;
    for (Value map : maps)
      results.push_back(LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), map));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct TmaStageLoadLowering : ConvertOpToLLVMPattern<TmaStageLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaStageLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, op.getAccType());
    if (failed(ring))
      return failure();
    // Only the starts are read; the maps hold the rest of the views.
    TmaView a, b;
    a.starts = llvm::to_vector(adaptor.getLhsStarts());
    b.starts = llvm::to_vector(adaptor.getRhsStarts());
    // A pair's CTA loads its half of B's columns.
    if (ring->pair)
      b.starts.back() = IndexMath{e}.add(toI32(e, b.starts.back()), ring->bFirstColumn(e));
    SmallVector<TmaOperand, 2> operands = ring->operands(a, b);
    int64_t bytes = 0;
    for (const TmaOperand &operand : operands)
      bytes += operand.boxes.bytes();
    Value slot = adaptor.getSlot();
    Value producer = LLVM::AndOp::create(
        rewriter, loc, isThread(e, ring->issuer(op.getWarpSpecialized())), adaptor.getPred());
    auto generic = LLVM::LLVMPointerType::get(rewriter.getContext());
    LogicalResult result = success();
    emitIf(rewriter, loc, producer, [&] {
      Value released = LLVM::XOrOp::create(rewriter, loc, adaptor.getPhase(), e.i32(1));
      if (failed(emitParityWait(rewriter, e, ring->barrier(e, slot, true), released)))
        result = failure();
      Value full = ring->barrier(e, slot, false);
      NVVM::MBarrierArriveExpectTxOp::create(rewriter, loc, TypeRange(), full, e.i32(bytes),
                                             NVVM::MemScopeKind::CTA, false, Value());
      Value dsts[] = {ring->slotA(e, slot), ring->slotB(e, slot)};
      Value maps[] = {adaptor.getLhsMap(), adaptor.getRhsMap()};
      for (auto [map, operand, dst] : llvm::zip(maps, operands, dsts))
        issueTmaBoxes(e, LLVM::IntToPtrOp::create(rewriter, loc, generic, map), operand, dst,
                      op.getKOffset(), full, /*ctaDestination=*/hasMmaSyncTensorMaps(op));
    });
    if (failed(result))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct WgmmaStageLowering : ConvertOpToLLVMPattern<WgmmaStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(WgmmaStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    FailureOr<Laid> laid = Laid::of(op, accType);
    if (failed(laid))
      return failure();
    if (accType.getRank() != 2 || !accType.getElementType().isF32() ||
        !isWgmmaAccumulatorLayout(laid->layout, accType.getShape()))
      return op.emitOpError("accumulator is not an [M, N] f32 tile in the wgmma layout");
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, accType);
    if (failed(ring))
      return failure();
    Value slot = adaptor.getSlot();
    if (failed(emitParityWait(rewriter, e, ring->barrier(e, slot, false), adaptor.getPhase())))
      return failure();
    Type i64 = rewriter.getI64Type();
    WgmmaChunkIssuer issuer(rewriter, e, ring->s, laid->layout, accType.getShape(), ring->staging,
                            op.getOperandType(), op.getOperandType(), /*bKMajor=*/false);
    OperandRegs acc = unpackOperand(e, adaptor.getAcc(), *laid);
    FailureOr<SmallVector<Value>> sums = issuer.issue(
        LLVM::PtrToIntOp::create(rewriter, loc, i64, ring->slotA(e, slot)),
        LLVM::PtrToIntOp::create(rewriter, loc, i64, ring->slotB(e, slot)), 0, op.getChunk(),
        acc.values);
    if (failed(sums))
      return failure();
    // This group stays in flight; the previous one has read its slot.
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 1);
    IndexMath m{e};
    Value lane = m.rem(NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type()), kWarpSize);
    Value laneZero = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane, e.i32(0));
    emitIf(rewriter, loc, LLVM::AndOp::create(rewriter, loc, laneZero, adaptor.getRelease()), [&] {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(),
                                     ring->barrier(e, adaptor.getReleaseSlot(), true), Value());
    });
    rewriter.replaceOp(op, e.buildVector(cast<VectorType>(adaptor.getAcc().getType()), *sums));
    return success();
  }
};

struct TmaRingEndLowering : ConvertOpToLLVMPattern<TmaRingEndOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingEndOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, op.getAcc().getType());
    if (failed(ring))
      return failure();
    // mma.sync leaves nothing in flight; wgmma's last group completes here,
    // tcgen05's MMAs once thread 0 saw its last commit's mbarrier complete.
    Value acc = adaptor.getAcc();
    if (ring->consumer == RingConsumer::Wgmma)
      acc = emitDrainingWait(e, acc);
    bool tcgen05 = ring->consumer == RingConsumer::Tcgen05;
    if (tcgen05) {
      LogicalResult waited = success();
      if (ring->pair) {
        // The even CTA issued every MMA: it commits them to the drain
        // mbarrier of both CTAs, and each waits for its own.
        emitIf(rewriter, loc, LLVM::AndOp::create(rewriter, loc, isThread(e, 0), isEvenCta(e)),
               [&] {
                 NVVM::Tcgen05CommitOp::create(rewriter, loc, ring->drainBarrier(e),
                                               getPairMulticastMask(e),
                                               NVVM::CTAGroupKind::CTA_2);
               });
        emitIf(rewriter, loc, isThread(e, 0), [&] {
          emitClusterParityWait(rewriter, e, ring->drainBarrier(e), e.i32(0));
        });
      } else {
        emitIf(rewriter, loc, isThread(e, 0), [&] {
          Value done = ring->drainBarrier(e);
          NVVM::Tcgen05CommitOp::create(rewriter, loc, done, /*multicastMask=*/Value());
          waited = emitParityWait(rewriter, e, done, e.i32(0));
        });
      }
      if (failed(waited))
        return failure();
      NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    }
    // A carried ring goes on (tma_ring_resume, tma_ring_close; never a
    // tcgen05 one); the producer invalidates a warp-specialized ring
    // (tma_ring_leave).
    if (!op.getCarried()) {
      ring->emitRingBarrier(e, op.getWarpSpecialized());
      if (tcgen05)
        NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
      if (!op.getWarpSpecialized())
        ring->invalidate(rewriter, e, 0);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }

private:
  /// wgmma.wait_group 0 with the accumulator registers (`acc`, a vector of
  /// f32) tied through it (emitTiedWaitGroup): nothing that reads them (the
  /// epilogue's conversions) is scheduled before the wait.
  static Value emitDrainingWait(RegisterEmitter &e, Value acc) {
    auto vectorType = cast<VectorType>(acc.getType());
    SmallVector<Value> values;
    for (int64_t i = 0; i < vectorType.getNumElements(); ++i)
      values.push_back(e.extract(acc, i));
    return e.buildVector(vectorType, emitTiedWaitGroup(e, 0, values));
  }
};

struct TmaRingResumeLowering : ConvertOpToLLVMPattern<TmaRingResumeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingResumeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RegisterEmitter e(rewriter, op.getLoc());
    auto layout = cast<BlockedAttr>(cast<RankedTensorType>(op.getAccType()).getEncoding());
    emitRingBarrier(e, layout.getWarpsPerCTA()[0], op.getWarpSpecialized());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaRingCloseLowering : ConvertOpToLLVMPattern<TmaRingCloseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingCloseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, op.getAccType());
    if (failed(ring))
      return failure();
    ring->emitRingBarrier(e, op.getWarpSpecialized());
    // The producer invalidates a warp-specialized ring (tma_ring_leave).
    if (!op.getWarpSpecialized())
      ring->invalidate(rewriter, e, 0);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaRingEnterLowering : ConvertOpToLLVMPattern<TmaRingEnterOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingEnterOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RegisterEmitter e(rewriter, op.getLoc());
    auto layout = cast<BlockedAttr>(cast<RankedTensorType>(op.getAccType()).getEncoding());
    emitBothRolesBarrier(e, layout.getWarpsPerCTA()[0]);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaRingLeaveLowering : ConvertOpToLLVMPattern<TmaRingLeaveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(TmaRingLeaveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, op.getAccType());
    if (failed(ring))
      return failure();
    ring->meetBothRoles(e);
    ring->invalidate(rewriter, e, ring->issuer(/*warpSpecialized=*/true));
    rewriter.eraseOp(op);
    return success();
  }
};

struct ProducerWarpgroupLowering : ConvertOpToLLVMPattern<ProducerWarpgroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(ProducerWarpgroupOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RegisterEmitter e(rewriter, op.getLoc());
    Value tid = NVVM::ThreadIdXOp::create(rewriter, op.getLoc(), rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::uge, tid,
                                              e.i32(op.getConsumerThreads()));
    return success();
  }
};

struct SetMaxNRegLowering : ConvertOpToLLVMPattern<SetMaxNRegOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(SetMaxNRegOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::SetMaxRegisterOp>(
        op, op.getCount(),
        op.getIncrease() ? NVVM::SetMaxRegisterAction::increase
                         : NVVM::SetMaxRegisterAction::decrease);
    return success();
  }
};

} // namespace

void populateWgmmaRingToLLVMPatterns(TileLLVMTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<TmaRingBeginLowering, TmaStageLoadLowering, WgmmaStageLowering,
               TmaRingEndLowering, TmaRingResumeLowering, TmaRingCloseLowering,
               TmaRingEnterLowering, TmaRingLeaveLowering,
               ProducerWarpgroupLowering, SetMaxNRegLowering>(converter);
}

} // namespace tilepipe::tile_as
