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
// - tma_ring_end: wgmma.wait_group 0 (the accumulator tied through it; none
//   after mma.sync), a
//   CTA barrier, thread 0 invalidating
//   the mbarriers (the scratch may be reused, the ring begun again).
//
// Warp-specialized rings (tilepipe-warp-specialize-rings): the producer
// warpgroup follows the accumulator's warps, and its first thread does what
// thread 0 does above (maps, mbarrier init and invalidation, the loads).
// Begin and end meet both roles at the named barrier kTmaRingNamedBarrier
// of all the CTA's threads: begin (producer) with tma_ring_enter
// (consumers), end (consumers) with tma_ring_leave (producer), which then
// invalidates the mbarriers. The consumers' other CTA barriers do not count
// the producer (TileASToLLVM.cpp), so the ring cannot use barrier 0.
// tile_as.producer_warpgroup and tile_as.setmaxnreg split the roles.
//
//===----------------------------------------------------------------------===//
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

void TmaRing::emitRingBarrier(RegisterEmitter &e, bool warpSpecialized) const {
  if (warpSpecialized)
    meetBothRoles(e);
  else
    emitCTABarrier(e.builder, e.loc);
}

void TmaRing::invalidate(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                         int64_t issuer) const {
  emitIf(rewriter, e.loc, isThread(e, issuer), [&] {
    for (int64_t slot = 0; slot < stages; ++slot)
      for (bool empty : {false, true})
        NVVM::MBarrierInvalOp::create(rewriter, e.loc, barrier(e, e.i32(slot), empty));
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
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, op.getAccType());
    if (failed(ring))
      return failure();
    std::optional<TmaView> a = getTmaView(adaptor.getLhsBase(), adaptor.getLhsView());
    std::optional<TmaView> b = getTmaView(adaptor.getRhsBase(), adaptor.getRhsView());
    Type element = cast<PtrType>(op.getLhsBase().getType()).getPointeeType();
    int64_t issuer = ring->issuer(op.getWarpSpecialized());
    SmallVector<Value> maps =
        buildTensorMaps(rewriter, e, op, ring->operands(*a, *b), element, issuer);
    emitIf(rewriter, loc, isThread(e, issuer), [&] {
      for (int64_t slot = 0; slot < ring->stages; ++slot) {
        NVVM::MBarrierInitOp::create(rewriter, loc, ring->barrier(e, e.i32(slot), false), e.i32(1),
                                     Value());
        NVVM::MBarrierInitOp::create(rewriter, loc, ring->barrier(e, e.i32(slot), true),
                                     e.i32(ring->warps), Value());
      }
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
    // mma.sync leaves nothing in flight; wgmma's last group completes here.
    Value acc = ring->mmaSync ? adaptor.getAcc() : emitDrainingWait(e, adaptor.getAcc());
    ring->emitRingBarrier(e, op.getWarpSpecialized());
    // The producer invalidates a warp-specialized ring (tma_ring_leave).
    if (!op.getWarpSpecialized())
      ring->invalidate(rewriter, e, 0);
    rewriter.replaceOp(op, acc);
    return success();
  }

private:
  /// wgmma.wait_group 0 as inline PTX that passes the accumulator registers
  /// (`acc`, a vector of f32) through, tied: the values after it are its
  /// results, so nothing that reads them (the epilogue's conversions) can be
  /// scheduled before the wait, which NVVM's op (no operands) would allow.
  static Value emitDrainingWait(RegisterEmitter &e, Value acc) {
    OpBuilder &b = e.builder;
    auto vectorType = cast<VectorType>(acc.getType());
    int64_t count = vectorType.getNumElements();
    SmallVector<Value> values;
    std::string constraints;
    llvm::raw_string_ostream c(constraints);
    for (int64_t i = 0; i < count; ++i)
      c << (i ? "," : "") << "=f";
    for (int64_t i = 0; i < count; ++i) {
      c << "," << i;
      values.push_back(e.extract(acc, i));
    }
    auto type = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, vectorType.getElementType()));
    Value drained =
        LLVM::InlineAsmOp::create(b, e.loc, type, values, "wgmma.wait_group.sync.aligned 0;",
                                  constraints, /*has_side_effects=*/true,
                                  /*is_align_stack=*/false,
                                  LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                                  ArrayAttr())
            .getResult(0);
    for (int64_t i = 0; i < count; ++i)
      values[i] = LLVM::ExtractValueOp::create(b, e.loc, drained, i);
    return e.buildVector(vectorType, values);
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
               TmaRingEndLowering, TmaRingEnterLowering, TmaRingLeaveLowering,
               ProducerWarpgroupLowering, SetMaxNRegLowering>(converter);
}

} // namespace tilepipe::tile_as
