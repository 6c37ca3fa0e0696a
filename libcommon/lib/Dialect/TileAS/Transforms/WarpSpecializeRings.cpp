//===- WarpSpecializeRings.cpp - a producer warpgroup for TMA rings -------===//
//
// tilepipe-pipeline-mma-loops leaves a TMA ring in which thread 0 of the
// multiplying warps also issues the loads: it waits on a slot's empty
// mbarrier between its own wgmmas, and every warp holds the registers the
// whole CTA got at launch. Warp specialization (issue #9) moves the loads
// to one more warpgroup, which needs few registers and gives the rest to
// the multiplying warpgroups by setmaxnreg.
//
// The kernel splits at its start, so that each role's code holds only its
// own live registers: with both roles walking one body, the producer would
// carry the accumulator's registers through the loop too, which its
// lowered register limit cannot hold. The producer's body is a copy of the
// kernel pruned to the ring: multiplies and ring ends dropped (a
// tma_ring_leave meets the consumers instead), every op whose results
// nothing reads then erased, and canonicalization drops the accumulator
// that the loops still carry. What is left must be loops, ring ops and
// scalar arithmetic; a kernel whose ring coordinates come from memory (or
// from tensors) stays single-role. The consumers keep the kernel with its
// loads dropped and each begin replaced by a tma_ring_enter.
//
// A ring carried across an enclosing loop (the persistent matmul's tile
// loop, tilepipe-pipeline-mma-loops) meets both roles once per iteration
// (tma_ring_resume: the consumers' epilogue is done with the scratch) and
// once after the loop (the consumers' tma_ring_close, the producer's
// tma_ring_leave); its mbarriers are set up once, before the loop.
//
// The producer is the warpgroup after the consumers: their thread ids and
// every layout stay as they were (tile_as.num_warps is still theirs). The
// rings' begin and end meet both roles at a named barrier of all threads;
// every other CTA barrier of the tile code counts the consumers alone, and
// the kernel's entry and exit both (emitCTABarrier, SharedScratch.h).
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_WARPSPECIALIZERINGS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

namespace {
/// The register split of a specialized CTA (see Passes.td).
struct RegisterSplit {
  int64_t launch = 0, producer = 0, consumer = 0;
};
} // namespace

/// The registers per consumer thread once a producer warpgroup with
/// `producer` registers per thread has given back the rest of its launch
/// budget.
static RegisterSplit splitRegisters(int64_t consumerThreads, int64_t producer) {
  RegisterSplit split;
  split.launch = getLaunchRegisters(consumerThreads + kProducerThreads);
  split.producer = producer;
  int64_t freed = (split.launch - producer) * kProducerThreads;
  split.consumer = std::min<int64_t>(256, (split.launch + freed / consumerThreads) / 8 * 8);
  return split;
}

static bool isRingOp(Operation *op) {
  return isa<TmaRingBeginOp, TmaStageLoadOp, TmaRingLeaveOp, TmaRingResumeOp, TmaRingCloseOp,
             SetMaxNRegOp>(op);
}

/// Erases from `region` every op whose results nothing reads (side effects
/// or not: the producer does nothing but the ring), except ring ops and
/// control flow, until none is left.
static void eraseUnread(Region &region) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    region.walk<WalkOrder::PostOrder>([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops)) {
      if (isRingOp(op) || op->hasTrait<OpTrait::IsTerminator>() || op->getNumRegions() != 0 ||
          !op->use_empty())
        continue;
      op->erase();
      changed = true;
    }
  }
}

/// Why the pruned producer body cannot run in a producer warpgroup: the
/// first op that is neither a loop, a branch, a ring op nor scalar
/// arithmetic; empty where it can.
static std::string checkProducer(Region &region) {
  std::string why;
  region.walk([&](Operation *op) {
    if (isRingOp(op) || isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op))
      return WalkResult::advance();
    bool scalar = llvm::none_of(op->getResultTypes(), [](Type t) { return isa<ShapedType>(t); });
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op) && scalar)
      return WalkResult::advance();
    why = ("its ring coordinates need " + op->getName().getStringRef()).str();
    return WalkResult::interrupt();
  });
  return why;
}

namespace {
struct WarpSpecializeRingsPass
    : tilepipe::tile_as::impl::WarpSpecializeRingsBase<WarpSpecializeRingsPass> {
  using WarpSpecializeRingsBase::WarpSpecializeRingsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (producerRegisters < 24 || producerRegisters > 256 || producerRegisters % 8 != 0) {
      module.emitError("producer-registers must be a multiple of 8 from 24 to 256, not ")
          << static_cast<int64_t>(producerRegisters);
      return signalPassFailure();
    }
    int64_t numWarps = 4;
    if (auto attr = module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName))
      numWarps = attr.getInt();
    bool specialized = false;
    for (auto function : module.getOps<func::FuncOp>())
      specialized |= specialize(function, 32 * numWarps);
    if (specialized)
      module->setAttr(kProducerWarpsAttrName,
                      IntegerAttr::get(IntegerType::get(module.getContext(), 32),
                                       kProducerThreads / 32));
  }

private:
  /// Specializes `function` where it has rings and the rule allows it;
  /// says why at its first ring either way.
  bool specialize(func::FuncOp function, int64_t consumerThreads) {
    SmallVector<TmaRingBeginOp> begins;
    function.walk([&](TmaRingBeginOp op) { begins.push_back(op); });
    if (begins.empty())
      return false;
    InFlightDiagnostic remark = emitRemark(begins.front().getLoc());
    if (!warpSpecialize) {
      remark << "TMA ring not warp-specialized: warp-specialize=false";
      return false;
    }
    std::string why = checkRule(function, begins, consumerThreads);
    RegisterSplit split = splitRegisters(consumerThreads, producerRegisters);
    if (why.empty())
      why = buildRoles(function, consumerThreads, split);
    if (!why.empty()) {
      remark << "TMA ring not warp-specialized: " << why;
      return false;
    }
    remark << "TMA ring warp-specialized: a producer warpgroup (" << kProducerThreads
           << " threads after the " << consumerThreads
           << " of the accumulator, setmaxnreg.dec to " << split.producer
           << " registers) issues the loads; the consumers (setmaxnreg.inc from "
           << split.launch << " to " << split.consumer
           << ") wait on the full mbarriers, multiply and release slots";
    return true;
  }

  /// The cost rule and the body's shape (Passes.td); empty where they hold.
  std::string checkRule(func::FuncOp function, ArrayRef<TmaRingBeginOp> begins,
                        int64_t consumerThreads) {
    std::string why;
    llvm::raw_string_ostream os(why);
    Block &body = function.getBody().front();
    if (!function.getBody().hasOneBlock() ||
        cast<func::ReturnOp>(body.getTerminator()).getNumOperands() != 0) {
      os << "the kernel body is not one block returning nothing";
      return why;
    }
    if (consumerThreads % 128 != 0 || consumerThreads + kProducerThreads > 1024) {
      os << "no room for a producer warpgroup after " << consumerThreads << " threads";
      return why;
    }
    RegisterSplit split = splitRegisters(consumerThreads, producerRegisters);
    if (split.consumer <= split.launch) {
      os << "the consumers would gain no registers (" << split.launch << " per thread at launch, "
         << split.consumer << " after setmaxnreg)";
      return why;
    }
    // Measured, not modelled (Passes.td): a ring in a tile loop ran slower
    // warp-specialized than single-role on an H200.
    bool inTileLoop = false;
    function.walk([&](TmaRingResumeOp) { inTileLoop = true; });
    for (TmaRingBeginOp begin : begins)
      inTileLoop |= bool(begin->getParentOfType<scf::ForOp>());
    if (inTileLoop && !specializeTileLoops) {
      os << "its ring runs inside a loop around the K loop (persistent tiles), which "
            "measured slower warp-specialized (specialize-tile-loops=true overrides)";
      return why;
    }
    for (TmaRingBeginOp begin : begins) {
      auto acc = cast<RankedTensorType>(begin.getAccType());
      auto layout = cast<BlockedAttr>(acc.getEncoding());
      // sm_100a's ring has one thread issue loads and MMAs alike: no
      // consumer warps to specialize.
      if (isTcgen05AccumulatorLayout(layout, acc.getShape())) {
        os << "its consumer is tcgen05.mma, issued by the same thread as the loads";
        return why;
      }
      // sm_120a's ring (ldmatrix + mma.sync consumers, tile_as.mmaf_tma_stage)
      // has no setmaxnreg-balanced form yet. (The target decides: an
      // [8, 1] mma.sync layout of 128 rows is also wgmma's.)
      if (hasMmaSyncTensorMaps(begin) || !isWgmmaAccumulatorLayout(layout, acc.getShape())) {
        os << "its consumers are mma.sync, not wgmma";
        return why;
      }
      if (32 * layout.getWarpsPerCTA()[0] != consumerThreads) {
        os << "the accumulator's warps are not the CTA's";
        return why;
      }
      int64_t accRegisters = getElemsPerThread(layout, acc.getShape());
      if (accRegisters + minConsumerHeadroom > split.consumer) {
        os << accRegisters << " accumulator registers plus min-consumer-headroom = "
           << minConsumerHeadroom << " exceed the consumers' " << split.consumer;
        return why;
      }
    }
    return why;
  }

  /// Splits the body (see the header); leaves `function` as it was and
  /// returns why where the producer's copy is not ring-only.
  std::string buildRoles(func::FuncOp function, int64_t consumerThreads,
                     const RegisterSplit &split) {
    Block &body = function.getBody().front();
    Operation *ret = body.getTerminator();
    Location loc = function.getLoc();
    OpBuilder builder(ret);
    auto role = ProducerWarpgroupOp::create(builder, loc, builder.getI1Type(), consumerThreads);
    auto branch = scf::IfOp::create(builder, loc, TypeRange{}, role, /*withElseRegion=*/true);

    // The consumers' side first, so that nothing the producer's
    // canonicalization creates lands among the ops being moved.
    Block *consumer = branch.elseBlock();
    consumer->getOperations().splice(consumer->begin(), body.getOperations(), body.begin(),
                                     role->getIterator());

    // The producer: a copy of the body, pruned to the ring.
    Block *producer = branch.thenBlock();
    builder.setInsertionPoint(producer->getTerminator());
    SetMaxNRegOp::create(builder, loc, split.producer, /*increase=*/false);
    IRMapping mapping;
    for (Operation &op : llvm::make_range(consumer->begin(), std::prev(consumer->end())))
      builder.clone(op, mapping);
    pruneProducer(branch.getThenRegion());
    if (std::string why = checkProducer(branch.getThenRegion()); !why.empty()) {
      body.getOperations().splice(role->getIterator(), consumer->getOperations(),
                                  consumer->begin(), std::prev(consumer->end()));
      branch.erase();
      role.erase();
      return why;
    }

    // The consumers: without loads.
    builder.setInsertionPointToStart(consumer);
    SetMaxNRegOp::create(builder, loc, split.consumer, /*increase=*/true);
    SmallVector<Operation *> dropped;
    branch.getElseRegion().walk([&](Operation *op) {
      if (auto load = dyn_cast<TmaStageLoadOp>(op))
        dropped.push_back(load);
      else if (auto end = dyn_cast<TmaRingEndOp>(op))
        end.setWarpSpecialized(true);
      else if (auto resume = dyn_cast<TmaRingResumeOp>(op))
        resume.setWarpSpecialized(true);
      else if (auto close = dyn_cast<TmaRingCloseOp>(op))
        close.setWarpSpecialized(true);
    });
    for (Operation *op : dropped)
      op->erase();
    branch.getElseRegion().walk([&](TmaRingBeginOp begin) {
      OpBuilder at(begin);
      TmaRingEnterOp::create(at, begin.getLoc(), begin.getAccType());
      begin.erase();
    });
    return "";
  }

  /// Turns the producer's copy of the body into the ring's producer side.
  void pruneProducer(Region &region) {
    SmallVector<Operation *> replaced;
    region.walk([&](Operation *op) {
      if (auto begin = dyn_cast<TmaRingBeginOp>(op)) {
        begin.setWarpSpecialized(true);
      } else if (auto load = dyn_cast<TmaStageLoadOp>(op)) {
        load.setWarpSpecialized(true);
      } else if (auto stage = dyn_cast<WgmmaStageOp>(op)) {
        stage.getResult().replaceAllUsesWith(stage.getAcc());
        replaced.push_back(stage);
      } else if (auto end = dyn_cast<TmaRingEndOp>(op)) {
        // A carried ring's producer meets the consumers once per iteration
        // (tma_ring_resume) and leaves after the loop (tma_ring_close).
        if (!end.getCarried()) {
          OpBuilder at(end);
          TmaRingLeaveOp::create(at, end.getLoc(), end.getAcc().getType(), end.getChunk(),
                                 end.getStages());
        }
        end.getResult().replaceAllUsesWith(end.getAcc());
        replaced.push_back(end);
      } else if (auto resume = dyn_cast<TmaRingResumeOp>(op)) {
        resume.setWarpSpecialized(true);
      } else if (auto close = dyn_cast<TmaRingCloseOp>(op)) {
        OpBuilder at(close);
        TmaRingLeaveOp::create(at, close.getLoc(), close.getAccType(), close.getChunk(),
                               close.getStages());
        replaced.push_back(close);
      }
    });
    for (Operation *op : replaced)
      op->erase();
    eraseUnread(region);
    // The accumulators the loops still carry, unchanged now, and the
    // constants they start from.
    RewritePatternSet patterns(region.getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, region.getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, region.getContext());
    // Constants stay where they are (CSE would hoist them out of the region).
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    (void)applyPatternsGreedily(region, std::move(patterns), config);
    eraseUnread(region);
  }
};
} // namespace
