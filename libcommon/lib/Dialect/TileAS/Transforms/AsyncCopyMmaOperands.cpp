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

/// Bytes of one cp.async.cg.
static constexpr int64_t kCopyBytes = 16;
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
  if (Value other = load.getOther(); other && !matchPattern(other, m_PosZeroFloat()))
    return std::nullopt;
  // Whole 16-byte runs along the innermost dimension, proven contiguous (and
  // so aligned, as the register path's vector loads also assume).
  auto type = load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  unsigned innermost = type.getRank() - 1;
  // tf32 (19 bits) is stored in 4 bytes; the other operand types fill theirs.
  Type element = type.getElementType();
  int64_t elementBytes =
      isa<FloatTF32Type>(element) ? 4 : llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  int64_t copyElements = kCopyBytes / elementBytes;
  if (!layout || layout.getOrder().front() != innermost ||
      layout.getSizePerThread()[innermost] % copyElements != 0 ||
      load.getContiguity() % copyElements != 0)
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
      if (layout && ((hasMmaSyncForm(op) && isMmaAccumulatorLayout(layout, acc.getShape())) ||
                     hasTcgen05Form(op)))
        candidates.push_back(op);
    });
    for (MmaFOp op : candidates) {
      std::optional<FusibleOperand> lhs = getFusibleOperand(op.getLhs(), op);
      std::optional<FusibleOperand> rhs = getFusibleOperand(op.getRhs(), op);
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
      auto fused = MmaFGlobalOp::create(builder, op.getLoc(), op.getType(),
                                        source(lhs, op.getLhs()), mask(lhs),
                                        source(rhs, op.getRhs()), mask(rhs), op.getAcc());
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
