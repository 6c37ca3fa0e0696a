//===- AsyncCopyMmaOperands.cpp - mmaf operands by cp.async ---------------===//
//
// The mma.sync lowering stages A and B in shared memory. When they come from
// global memory, loading them into registers only to store them to shared
// memory keeps a whole tile per operand live in registers; fusing the loads
// into a tile_as.mmaf_global lets the lowering copy global to shared memory
// with cp.async instead. See Passes.td for when a load qualifies.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_ASYNCCOPYMMAOPERANDS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Elements of one 16-byte cp.async of 2-byte elements.
static constexpr int64_t kCopyElements = 8;
static constexpr unsigned kGlobalAddressSpace = 1;

/// Whether `op` (or an op nested in it) may write memory.
static bool mayWriteMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    return mightHaveEffect<MemoryEffects::Write>(nested) ? WalkResult::interrupt()
                                                         : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// `layout` without its dimension 0, where that dimension is a single
/// element held by every thread (as a leading unit dimension is); null
/// otherwise.
static BlockedAttr dropLeadingUnitDim(BlockedAttr layout) {
  if (layout.getSizePerThread()[0] != 1 || layout.getThreadsPerWarp()[0] != 1 ||
      layout.getWarpsPerCTA()[0] != 1 || layout.getOrder().back() != 0)
    return nullptr;
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder().drop_back())
    order.push_back(d - 1);
  return BlockedAttr::get(layout.getContext(), layout.getSizePerThread().drop_front(),
                          layout.getThreadsPerWarp().drop_front(),
                          layout.getWarpsPerCTA().drop_front(), order);
}

/// An operand of an mmaf that can be read by tile_as.mmaf_global: a load,
/// possibly reshaped to drop a leading unit dimension (a batch of one, as
/// cuTile's 3-D views give); `layout` is the operand's layout for the
/// pointers and mask.
struct FusibleOperand {
  // Op handles are non-const so that reshaped() and erasing can use them.
  mutable LoadOp load;
  mutable ReshapeOp reshape;
  BlockedAttr layout;

  /// `value` (the load's pointers or mask) in the operand's shape.
  Value reshaped(OpBuilder &builder, Value value) const {
    if (!value || !reshape)
      return value;
    auto type = cast<RankedTensorType>(value.getType());
    auto shape = cast<RankedTensorType>(reshape.getType()).getShape();
    return ReshapeOp::create(builder, reshape.getLoc(),
                             RankedTensorType::get(shape, type.getElementType(), layout),
                             value);
  }
};

/// How `operand` of `mmaf` comes from a load that can become part of a
/// tile_as.mmaf_global; nullopt where it cannot.
static std::optional<FusibleOperand> getFusibleOperand(Value operand, MmaFOp mmaf) {
  FusibleOperand fusible;
  if (auto reshape = operand.getDefiningOp<ReshapeOp>()) {
    auto from = cast<RankedTensorType>(reshape.getSrc().getType());
    if (!reshape.getResult().hasOneUse() || from.getRank() != 3 || from.getShape()[0] != 1)
      return std::nullopt;
    fusible.reshape = reshape;
    operand = reshape.getSrc();
  }
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !load.getResult().hasOneUse() || load->getBlock() != mmaf->getBlock())
    return std::nullopt;
  // An ordered (relaxed/acquire) load keeps its ld qualifier: no cp.async.
  if (load->hasAttr("memory_order"))
    return std::nullopt;
  auto ptrType = cast<PtrType>(load.getPtrs().getType().getElementType());
  if (ptrType.getAddressSpace() != kGlobalAddressSpace)
    return std::nullopt;
  // cp.async zero-fills what it does not read: only +0.0 padding matches.
  if (Value other = load.getOther(); other && !matchPattern(other, m_PosZeroFloat()))
    return std::nullopt;
  // Whole 16-byte runs along the innermost dimension, proven contiguous (and
  // so aligned, as the register path's vector loads also assume).
  auto type = load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  unsigned innermost = type.getRank() - 1;
  if (!layout || layout.getOrder().front() != innermost ||
      layout.getSizePerThread()[innermost] % kCopyElements != 0 ||
      load.getContiguity() % kCopyElements != 0)
    return std::nullopt;
  fusible.load = load;
  fusible.layout = fusible.reshape ? dropLeadingUnitDim(layout) : layout;
  if (!fusible.layout)
    return std::nullopt;
  for (Operation *op = load->getNextNode(); op != mmaf; op = op->getNextNode())
    if (mayWriteMemory(op))
      return std::nullopt;
  return fusible;
}

namespace {
struct AsyncCopyMmaOperandsPass
    : tilepipe::tile_as::impl::AsyncCopyMmaOperandsBase<AsyncCopyMmaOperandsPass> {
  void runOnOperation() override {
    SmallVector<MmaFOp> candidates;
    getOperation().walk([&](MmaFOp op) {
      auto acc = cast<RankedTensorType>(op.getAcc().getType());
      auto layout = dyn_cast_or_null<BlockedAttr>(acc.getEncoding());
      // The mmafs of the mma.sync path and (on sm_90a) of the wgmma path,
      // whose accumulator layout is an mma.sync-shaped one too: both stage
      // their operands with cp.async from an mmaf_global.
      if (layout && hasMmaSyncForm(op) && isMmaAccumulatorLayout(layout, acc.getShape()))
        candidates.push_back(op);
    });
    for (MmaFOp op : candidates) {
      std::optional<FusibleOperand> lhs = getFusibleOperand(op.getLhs(), op);
      std::optional<FusibleOperand> rhs = getFusibleOperand(op.getRhs(), op);
      if (!lhs || !rhs)
        continue;
      OpBuilder builder(op);
      auto fused = MmaFGlobalOp::create(
          builder, op.getLoc(), op.getType(), lhs->reshaped(builder, lhs->load.getPtrs()),
          lhs->reshaped(builder, lhs->load.getMask()),
          rhs->reshaped(builder, rhs->load.getPtrs()),
          rhs->reshaped(builder, rhs->load.getMask()), op.getAcc());
      op.replaceAllUsesWith(fused.getResult());
      op.erase();
      for (const FusibleOperand &operand : {*lhs, *rhs}) {
        if (operand.reshape)
          operand.reshape.erase();
        operand.load.erase();
      }
    }
  }
};
} // namespace
