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

/// The load `operand` of `mmaf` comes from, where the load can become part of
/// a tile_as.mmaf_global; null otherwise.
static LoadOp getFusibleLoad(Value operand, MmaFOp mmaf) {
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !load.getResult().hasOneUse() || load->getBlock() != mmaf->getBlock())
    return nullptr;
  auto ptrType = cast<PtrType>(load.getPtrs().getType().getElementType());
  if (ptrType.getAddressSpace() != kGlobalAddressSpace)
    return nullptr;
  // cp.async zero-fills what it does not read: only +0.0 padding matches.
  if (Value other = load.getOther(); other && !matchPattern(other, m_PosZeroFloat()))
    return nullptr;
  // Whole 16-byte runs along the innermost dimension, proven contiguous (and
  // so aligned, as the register path's vector loads also assume).
  auto type = load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  unsigned innermost = type.getRank() - 1;
  if (!layout || layout.getOrder().front() != innermost ||
      layout.getSizePerThread()[innermost] % kCopyElements != 0 ||
      load.getContiguity() % kCopyElements != 0)
    return nullptr;
  for (Operation *op = load->getNextNode(); op != mmaf; op = op->getNextNode())
    if (mayWriteMemory(op))
      return nullptr;
  return load;
}

namespace {
struct AsyncCopyMmaOperandsPass
    : tilepipe::tile_as::impl::AsyncCopyMmaOperandsBase<AsyncCopyMmaOperandsPass> {
  void runOnOperation() override {
    SmallVector<MmaFOp> candidates;
    getOperation().walk([&](MmaFOp op) {
      auto acc = cast<RankedTensorType>(op.getAcc().getType());
      auto layout = dyn_cast_or_null<BlockedAttr>(acc.getEncoding());
      if (hasMmaSyncForm(op) && layout && isMmaAccumulatorLayout(layout, acc.getShape()))
        candidates.push_back(op);
    });
    for (MmaFOp op : candidates) {
      LoadOp lhs = getFusibleLoad(op.getLhs(), op);
      LoadOp rhs = getFusibleLoad(op.getRhs(), op);
      if (!lhs || !rhs)
        continue;
      OpBuilder builder(op);
      auto fused = MmaFGlobalOp::create(builder, op.getLoc(), op.getType(), lhs.getPtrs(),
                                        lhs.getMask(), rhs.getPtrs(), rhs.getMask(),
                                        op.getAcc());
      op.replaceAllUsesWith(fused.getResult());
      op.erase();
      lhs.erase();
      rhs.erase();
    }
  }
};
} // namespace
