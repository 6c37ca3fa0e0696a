//===- AsyncCopyMmaOperands.cpp - mmaf operands by cp.async ---------------===//
//
// The mma.sync lowering stages A and B in shared memory. When they come from
// global memory, loading them into registers only to store them to shared
// memory keeps a whole tile per operand live in registers; fusing the loads
// into a tile_as.mmaf_global lets the lowering copy global to shared memory
// with cp.async instead. See Passes.td for when a load qualifies.
//
//===----------------------------------------------------------------------===//
#include "TiledViewMatch.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_ASYNCCOPYMMAOPERANDS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Bytes of the longest (cp.async.cg) and the shortest cp.async.
static constexpr int64_t kLongestCopyBytes = 16, kShortestCopyBytes = 4;
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

/// Whether every element of `value` is +0.0: a constant, or a splat of one
/// (cuTile writes a pointer load's padding as a broadcast scalar).
static bool isPositiveZero(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    value = splat.getSrc();
  return matchPattern(value, m_PosZeroFloat());
}

/// An operand of an mmaf that can be read by tile_as.mmaf_global: a load,
/// possibly reshaped to drop leading unit dimensions (a batch of one, as
/// cuTile's 3-D views give, or the [1, 1, S, D] blocks of 4-D views); `layout` is the operand's layout for the
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
    if (!reshape.getResult().hasOneUse() || from.getRank() < 3 ||
        llvm::any_of(from.getShape().drop_back(2), [](int64_t d) { return d != 1; }))
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
  if (Value other = load.getOther(); other && !isPositiveZero(other))
    return std::nullopt;
  // Each thread's registers come in runs along the innermost dimension
  // (sizePerThread there, at most 16 bytes: one cp.async each) that the
  // load's contiguity proves adjacent, aligned and under one mask bit. Runs
  // of 16 bytes copy by cp.async.cg; where only 8 or 4 are proven (a row
  // stride or bound dividing by 4 or 2 elements only), by cp.async.ca.
  auto type = load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  unsigned innermost = type.getRank() - 1;
  int64_t elementBytes = getElementBytes(type.getElementType());
  if (!layout || layout.getOrder().front() != innermost)
    return std::nullopt;
  int64_t run = std::gcd(layout.getSizePerThread()[innermost], kLongestCopyBytes / elementBytes);
  if (run * elementBytes < kShortestCopyBytes || load.getContiguity() % run != 0)
    return std::nullopt;
  fusible.load = load;
  fusible.layout =
      fusible.reshape ? dropLeadingUnitDims(layout, type.getRank() - 2) : layout;
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
      // The mmafs of the mma.sync path, (on sm_90a) of the wgmma path, whose
      // accumulator layout is an mma.sync-shaped one too, and (on sm_100)
      // of the tcgen05 path: all stage their operands with cp.async from an
      // mmaf_global.
      if (layout && ((getMmaSyncForm(op) && isMmaAccumulatorLayout(layout, acc.getShape())) ||
                     hasTcgen05Form(op)))
        candidates.push_back(op);
    });
    for (MmaFOp op : candidates) {
      std::optional<FusibleOperand> lhs = getFusibleOperand(op.getLhs(), op);
      std::optional<FusibleOperand> rhs = getFusibleOperand(op.getRhs(), op);
      // A B that the mma.sync path stages transposed (K contiguous, unlike
      // global memory) has no runs to copy: it stays in registers.
      std::optional<MmaSyncForm> form = getMmaSyncForm(op);
      auto accLayout =
          cast<BlockedAttr>(cast<RankedTensorType>(op.getAcc().getType()).getEncoding());
      if (!hasTcgen05Form(op) && form && stagesMmaSyncBTransposed(*form, accLayout))
        rhs.reset();
      if (!lhs && !rhs)
        continue;
      // An operand that does not qualify stays in registers and is stored
      // to the staging as tile_as.mmaf stores both.
      OpBuilder builder(op);
      auto source = [&](const std::optional<FusibleOperand> &operand, Value value) {
        return operand ? operand->reshaped(builder, operand->load.getPtrs()) : value;
      };
      auto mask = [&](const std::optional<FusibleOperand> &operand) {
        return operand ? operand->reshaped(builder, operand->load.getMask()) : Value();
      };
      // The wgmma path reads a global operand with TMA where its view is
      // known (the load's address arithmetic is a view's, TiledViewMatch)
      // and its runs are 16 bytes: TMA needs a 16-byte aligned base and
      // row strides, which shorter proven runs (cp.async.ca) do not give.
      bool wgmma = hasWgmmaAccumulator(op, op.getAcc().getType());
      auto viewOf = [&](const std::optional<FusibleOperand> &operand) {
        if (wgmma && operand && operand->load.getContiguity() %
                                       (kLongestCopyBytes /
                                        getElementBytes(operand->load.getType().getElementType())) ==
                                   0)
          if (std::optional<TiledView> view =
                  matchTiledView(builder, operand->load.getPtrs(), operand->load.getMask()))
            return *view;
        return TiledView();
      };
      TiledView lhsView = viewOf(lhs), rhsView = viewOf(rhs);
      auto fused = MmaFGlobalOp::create(builder, op.getLoc(), op.getType(),
                                        source(lhs, op.getLhs()), mask(lhs),
                                        source(rhs, op.getRhs()), mask(rhs), op.getAcc(),
                                        lhsView.base, lhsView.flattened(), rhsView.base,
                                        rhsView.flattened());
      op.replaceAllUsesWith(fused.getResult());
      op.erase();
      for (const std::optional<FusibleOperand> &operand : {lhs, rhs}) {
        if (!operand)
          continue;
        if (operand->reshape)
          operand->reshape.erase();
        operand->load.erase();
      }
    }
  }
};
} // namespace
