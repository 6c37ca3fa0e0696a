//===- TmaRing.h - the slots and mbarriers of a K loop's TMA ring ---------===//
//
// Where the TMA ring of tilepipe-pipeline-mma-loops (TileASPipelineOps.td)
// keeps its K chunks: at the start of the shared scratch, `stages` slots,
// each one buffer of the swizzled staging of one K chunk (SwizzledStaging.h:
// A then B N-major, 1024-byte aligned), then the mbarriers full[0..S) and
// empty[0..S). Three consumers read the slots: wgmma (WgmmaRingToLLVM.cpp, an
// accumulator in the wgmma layout: A's rows in wgmma fragment order, boxes
// of 8 rows, all warps along M), on sm_120a/121a ldmatrix + mma.sync
// (MmaSyncToLLVM.cpp, the mma.sync accumulator layout: A's rows in order)
// and on sm_100a/103a/110a tcgen05.mma (Tcgen05RingToLLVM.cpp, the tcgen05
// accumulator layout: A's rows in order, or a 32-row tile's 8-row groups
// in the 16-row slices of its M = 64 form, padding rows between; the one
// issuing thread releasing a slot through tcgen05.commit). The target says
// who reads the ring (consumerOf), not the accumulator's layout: a 4-warp
// [4, 1] mma.sync layout of 64 rows is also wgmma's, and read as wgmma's it
// staged A's rows out of the order ldmatrix reads; a 32-row tile of 4
// warps has wgmma's layout, which is also tcgen05's. wgmma's rings are
// 16-bit, tcgen05's and mma.sync's also 4-byte (tf32, f32 in memory) and
// 1-byte (fp8) operands, in the same swizzled layouts of their element
// width. A CTA pair's tcgen05 ring (tile_as.tcgen05_cta_pair,
// Tcgen05PairSync.cpp) stages only the CTA's N / 2 columns of B, and the
// even CTA's full mbarriers also count the odd CTA's arrival.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TMARING_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TMARING_H

#include "SharedScratch.h"
#include "Tcgen05Lowering.h"
#include "WgmmaChunks.h"

namespace tilepipe::tile_as {

/// Waits at the named barrier of both roles of a warp-specialized ring whose
/// consumers are `warps` warps.
void emitBothRolesBarrier(RegisterEmitter &e, int64_t warps);
/// Waits at the barrier of a ring's begin, end and resume: both roles'
/// named one where it is warp-specialized, else the CTA's.
void emitRingBarrier(RegisterEmitter &e, int64_t warps, bool warpSpecialized);

/// What reads a TMA ring's slots (TmaRing::consumerOf says which).
enum class RingConsumer { Wgmma, MmaSync, Tcgen05 };

struct TmaRing {
  MmaShape s;
  SwizzledStaging staging;
  int64_t stages;
  RingConsumer consumer;
  /// The accumulator's warps (the CTA's threads besides a producer).
  int64_t warps;
  /// A CTA pair's tcgen05 ring: the slots hold this CTA's half of B's
  /// columns, and one tcgen05.mma.cta_group::2 reads both CTAs' slots.
  bool pair;
  Value scratch;
  /// The ring op being lowered (it finds the kernel's module).
  mlir::Operation *anchor = nullptr;

  TmaRing(mlir::RankedTensorType accType, int64_t chunk, int64_t stages, unsigned elementBytes,
          RingConsumer consumer, bool pair = false)
      : s(getChunkShape(accType.getShape(), chunk)),
        staging(getStagedShape(s, consumer, pair), chunk, elementBytes), stages(stages),
        consumer(consumer), pair(pair) {
    warps = getWarpsInLayout(mlir::cast<BlockedAttr>(accType.getEncoding()));
  }

  /// The consumer of ring op `op`'s slots for an accumulator of type
  /// `accType`: mma.sync on the targets that read the ring with it
  /// (hasMmaSyncTensorMaps), tcgen05.mma where the accumulator has the
  /// tcgen05 layout on a tcgen05 target (a 32-row tile of 4 warps has it on
  /// every target: it is wgmma's too), else wgmma.
  static RingConsumer consumerOf(mlir::Operation *op, mlir::RankedTensorType accType) {
    if (hasMmaSyncTensorMaps(op))
      return RingConsumer::MmaSync;
    return hasTcgen05Accumulator(op, accType) ? RingConsumer::Tcgen05 : RingConsumer::Wgmma;
  }
  /// The shape a slot stages for the multiply of shape `s`: tcgen05's M = 64
  /// form of a 32-row tile stages A with its padding rows (Tcgen05RowBlocks),
  /// a CTA pair's half of B's columns.
  static MmaShape getStagedShape(MmaShape s, RingConsumer consumer, bool pair) {
    if (consumer == RingConsumer::Tcgen05)
      s.m = Tcgen05RowBlocks::of(s.m).stagedRows();
    if (pair)
      s.n /= 2;
    return s;
  }

  /// The arrivals that release a slot (the empty mbarriers' count): one per
  /// warp that read it, or tcgen05.commit's one.
  int64_t releases() const { return consumer == RingConsumer::Tcgen05 ? 1 : warps; }
  /// The arrivals that fill a slot (the full mbarriers' count, i32): the
  /// producer's expect-tx, and in the even CTA of a pair the odd CTA's
  /// arrival once its own slot is full.
  Value fills(RegisterEmitter &e) const;
  /// The column of B's tile where this CTA's slots start (i32, a pair's):
  /// rank * N / 2.
  Value bFirstColumn(RegisterEmitter &e) const;

  /// The thread that builds the maps, sets up the mbarriers and issues the
  /// loads: the producer warpgroup's first where the ring is
  /// warp-specialized (tilepipe-warp-specialize-rings), else the CTA's first.
  int64_t issuer(bool warpSpecialized) const;
  void meetBothRoles(RegisterEmitter &e) const { emitBothRolesBarrier(e, warps); }
  /// The barrier of a ring's begin and end: both roles' named one where it
  /// is warp-specialized, the cluster's in a pair (Tcgen05PairSync.cpp),
  /// else the CTA's.
  void emitRingBarrier(RegisterEmitter &e, bool warpSpecialized) const;
  /// Thread `issuer` invalidates the ring's mbarriers.
  void invalidate(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                  int64_t issuer) const;

  /// The ring of ring op `op` (its chunk and stages) for an accumulator of
  /// type `accType` and operands of `elementBytes` (2: f16/bf16, the wgmma
  /// and mma.sync rings'; 1: a tcgen05 ring's fp8), placed at the start of
  /// the shared scratch; fails (with a diagnostic) where it does not fit.
  template <typename RingOp>
  static mlir::FailureOr<TmaRing> locate(mlir::OpBuilder &builder, RingOp op,
                                         mlir::Type accType) {
    auto acc = mlir::cast<mlir::RankedTensorType>(accType);
    RingConsumer consumer = consumerOf(op.getOperation(), acc);
    TmaRing ring(acc, op.getChunk(), op.getStages(), elementBytesOf(op), consumer,
                 consumer == RingConsumer::Tcgen05 && isTcgen05CtaPair(op.getOperation()));
    uint64_t bytes = ring.stages * (ring.staging.bufferBytes + kTmaRingBarrierBytes);
    mlir::FailureOr<Value> at =
        getSharedScratch(builder, op.getLoc(), op, bytes, kSwizzleAlignment);
    if (mlir::failed(at))
      return mlir::failure();
    ring.scratch = *at;
    ring.anchor = op.getOperation();
    return ring;
  }
  Value gep(RegisterEmitter &e, Value base, Value bytes) const {
    return mlir::LLVM::GEPOp::create(e.builder, e.loc, base.getType(), e.builder.getI8Type(),
                                     base, ArrayRef<mlir::LLVM::GEPArg>{bytes});
  }
  /// Slot `slot`'s A and B (!llvm.ptr<3>).
  Value slotA(RegisterEmitter &e, Value slot) const {
    return gep(e, scratch, IndexMath{e}.mul(slot, staging.bufferBytes));
  }
  Value slotB(RegisterEmitter &e, Value slot) const {
    return gep(e, slotA(e, slot), e.i32(staging.bOffset));
  }
  /// The full (`empty` false) or empty mbarrier of `slot`.
  Value barrier(RegisterEmitter &e, Value slot, bool empty) const {
    IndexMath m{e};
    uint64_t first = stages * staging.bufferBytes + (empty ? stages * 8 : 0);
    return gep(e, scratch, m.add(m.mul(slot, 8), first));
  }
  /// A tcgen05 ring's drain mbarrier: tma_ring_end's tcgen05.commit of all
  /// the MMAs signals it (the kernel's tcgen05 mbarrier 0, idle in a ring).
  Value drainBarrier(RegisterEmitter &e) const;
  /// The TMA operands of a slot (views as given).
  SmallVector<TmaOperand, 2> operands(const TmaView &a, const TmaView &b) const {
    if (consumer == RingConsumer::Tcgen05)
      return getTcgen05TmaOperands(staging, s, &a, b);
    if (consumer == RingConsumer::MmaSync)
      return getInOrderTmaOperands(staging, s, a, b);
    return getWgmmaTmaOperands(staging, s, warps, &a, b, /*bTransposed=*/false);
  }

private:
  /// The bytes of a ring op's operand elements: its operand_type's (tf32
  /// is 4), the pointee's of tma_ring_begin's A. tma_ring_leave ends a
  /// warp-specialized ring, which only wgmma's 16-bit rings are.
  template <typename RingOp> static unsigned elementBytesOf(RingOp op) {
    return getElementBytes(op.getOperandType());
  }
  static unsigned elementBytesOf(TmaRingBeginOp op) {
    return getElementBytes(mlir::cast<PtrType>(op.getLhsBase().getType()).getPointeeType());
  }
  static unsigned elementBytesOf(TmaRingLeaveOp) { return 2; }
};

/// A blocking wait for `bar`'s phase of parity `parity` (an i32) to
/// complete (NVVM's exists only as PTX).
mlir::LogicalResult emitParityWait(mlir::ConversionPatternRewriter &rewriter,
                                   RegisterEmitter &e, Value bar, Value parity);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TMARING_H
