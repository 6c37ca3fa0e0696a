//===- Tcgen05PairSync.cpp - How a CTA pair shares its tcgen05.mmas -------===//
//
// A kernel marked tile_as.tcgen05_cta_pair (tilepipe-pair-tcgen05-mmas) runs
// each tile block on a cluster of two CTAs whose K loop's TMA ring issues
// one tcgen05.mma.cta_group::2 (M = 256) per k step for both (PTX ISA,
// tcgen05 "cta_group::2", data path Layout A): CTA r holds A rows [128 r,
// 128 r + 128) and B columns [r N/2, r N/2 + N/2) of the chunk in its slot,
// and D lanes 0-127 of its tensor memory, all at the same addresses in both
// CTAs (they run the same code on the same shared-memory layout and
// allocate alike). The ISA wants every tcgen05 instruction of such a kernel
// to be .cta_group::2:
//
// - allocation (finishTensorMemory): warp 0 of each CTA allocates and
//   relinquishes with .cta_group::2, and before the deallocation a cluster
//   barrier makes sure neither CTA frees its columns while the peer may
//   still reach them;
// - the ring's begin (WgmmaRingToLLVM.cpp): each CTA initializes its own
//   full and empty mbarriers, the even CTA's full[s] for two arrivals (its
//   own producer's expect-tx and the odd CTA's below), fences the init for
//   the cluster and a cluster barrier publishes them (and orders both CTAs'
//   tcgen05.st of the initial accumulator before the first MMA) before any
//   thread reaches into the peer;
// - the loads: each CTA's first thread loads its slot (its A rows and its
//   half of B) onto its own full[s], as a single CTA does;
// - the MMAs (Tcgen05RingToLLVM.cpp): the odd CTA's first thread waits for
//   its own full[s] and arrives on the even CTA's full[s] (mapa and a
//   release at cluster scope); the even CTA's first thread waits for its
//   full[s] (acquire at cluster scope: both slots are full), issues the
//   chunk's MMAs and commits them with .multicast::cluster to the empty[s]
//   of both CTAs, which each CTA's producer waits on before refilling;
// - the ring's end: the even CTA commits all its MMAs to the drain mbarrier
//   of both CTAs, each CTA's first thread waits for its own, and a cluster
//   barrier (instead of the CTA's) precedes the mbarriers' invalidation.
//
// Everything the peer does to a CTA (MMAs reading its slots and writing its
// D, arrivals on its mbarriers) happens before that CTA's wait on the drain
// mbarrier completes, so after the ring's end each CTA reads its own D with
// tcgen05.ld as a single CTA does.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace tilepipe::tile_as {

/// The CTAs of a pair (both bits of a multicast mask), and the address
/// space of a shared variable of another CTA of the cluster.
constexpr int16_t kPairMask = 0b11;
constexpr unsigned kSharedClusterAddressSpace = 7;

bool isTcgen05CtaPair(Operation *op) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    func = op->getParentOfType<FunctionOpInterface>();
  return func && func->hasAttr(TileASDialect::kTcgen05CtaPairAttrName);
}

NVVM::CTAGroupKind getTcgen05CtaGroup(Operation *op) {
  return isTcgen05CtaPair(op) ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
}

Value getPairRank(RegisterEmitter &e) {
  return NVVM::ClusterId::create(e.builder, e.loc, e.builder.getI32Type());
}

Value isEvenCta(RegisterEmitter &e) {
  Value bit = LLVM::AndOp::create(e.builder, e.loc, getPairRank(e), e.i32(1));
  return LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::eq, bit, e.i32(0));
}

Value getPairMulticastMask(RegisterEmitter &e) {
  return LLVM::ConstantOp::create(e.builder, e.loc, e.builder.getI16Type(),
                                  e.builder.getI16IntegerAttr(kPairMask));
}

void emitClusterBarrier(RegisterEmitter &e) {
  UnitAttr aligned = e.builder.getUnitAttr();
  NVVM::ClusterArriveOp::create(e.builder, e.loc, aligned);
  NVVM::ClusterWaitOp::create(e.builder, e.loc, aligned);
}

void emitClusterParityWait(ConversionPatternRewriter &rewriter, RegisterEmitter &e, Value bar,
                           Value parity) {
  Location loc = e.loc;
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *poll = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), poll);
  rewriter.setInsertionPointToEnd(poll);
  Value done = NVVM::MBarrierTryWaitOp::create(rewriter, loc, rewriter.getI1Type(), bar, parity,
                                               /*ticks=*/Value(), NVVM::MemScopeKind::CLUSTER);
  LLVM::CondBrOp::create(rewriter, loc, done, after, ValueRange(), poll, ValueRange());
  rewriter.setInsertionPointToStart(after);
}

void arriveOnEvenCta(RegisterEmitter &e, Value bar) {
  Value even = LLVM::AndOp::create(e.builder, e.loc, getPairRank(e), e.i32(~1));
  auto cluster = LLVM::LLVMPointerType::get(e.builder.getContext(), kSharedClusterAddressSpace);
  Value remote = NVVM::MapaOp::create(e.builder, e.loc, cluster, bar, even);
  NVVM::MBarrierArriveOp::create(e.builder, e.loc, Type(), remote, /*count=*/Value(),
                                 NVVM::MemScopeKind::CLUSTER);
}

} // namespace tilepipe::tile_as
