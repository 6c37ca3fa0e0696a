//===- KeepAccumulatorsInTmem.cpp - tcgen05 accumulators stay in TMEM -----===//
//
// The tcgen05.mma accumulator D lives in tensor memory. A K loop that
// carries it in registers makes every multiply store it there, accumulate
// and load it back, so the whole tile is live in registers across the loop:
// 256 KiB for cuTile's 256x256 block-scaled tile, which ptxas spilled by the
// kilobyte. The tcgen05 design keeps D in tensor memory for the whole loop
// instead:
//
//   r = for k iter(acc = init) { yield mmaf(a, b, acc) }
// ->
//   t = acc_to_tmem init
//   r' = for k iter(acc = t) { yield mmaf(a, b, acc) {tmem_accumulator} }
//   r = acc_from_tmem r'
//
// so registers hold the accumulator only before and after the loop. The
// lowering of a multiply marked `tile_as.tmem_accumulator` issues its
// tcgen05.mma onto D in place (enable-input-d) and waits for them, without
// tcgen05.st or tcgen05.ld.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_KEEPACCUMULATORSINTMEM
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Operand 2 of every multiply kind here is the accumulator except
/// mmaf_global's, whose optional masks come first.
static OpOperand *getAccOperand(Operation *mma) {
  if (auto global = dyn_cast<MmaFGlobalOp>(mma))
    return &global.getAccMutable();
  if (isa<MmaFOp, MmaFScaledOp>(mma))
    return &mma->getOpOperand(2);
  return nullptr;
}

/// Whether `mma` takes the tcgen05 path with an accumulator (and scales)
/// that fit tensor memory.
static bool takesTcgen05InTmem(Operation *mma) {
  auto acc = cast<RankedTensorType>(getAccOperand(mma)->get().getType());
  bool path = isa<MmaFOp>(mma) ? hasTcgen05Form(cast<MmaFOp>(mma))
                               : hasTcgen05Accumulator(mma, acc);
  if (!path)
    return false;
  int64_t k = cast<RankedTensorType>(mma->getOperand(0).getType()).getShape().back();
  return getTcgen05TmemColumns(acc.getShape(), k, getTcgen05ScaleBlock(mma)) <= 512;
}

/// The one multiply (any tile_as matrix op) under `loop`, or null.
static Operation *getOnlyMultiply(scf::ForOp loop) {
  Operation *found = nullptr;
  unsigned count = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<MmaFOp, MmaFGlobalOp, MmaFScaledOp, MmaIOp, MmaFStageOp>(op)) {
      found = op;
      ++count;
    }
  });
  return count == 1 ? found : nullptr;
}

/// Moves the accumulator that iteration argument `index` of `loop` carries
/// into tensor memory where `loop` qualifies (see Passes.td).
static bool keepInTmem(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArg(index);
  Operation *mma = getOnlyMultiply(loop);
  if (!mma || !arg.hasOneUse() || mma->getBlock() != loop.getBody())
    return false;
  OpOperand *acc = getAccOperand(mma);
  if (!acc || acc->get() != arg || !mma->getResult(0).hasOneUse())
    return false;
  OpOperand &yielded = *mma->getResult(0).getUses().begin();
  if (yielded.getOwner() != loop.getBody()->getTerminator() ||
      yielded.getOperandNumber() != index || !takesTcgen05InTmem(mma))
    return false;
  OpBuilder builder(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(AccToTmemOp::create(builder, loop.getLoc(), init.get().getType(), init.get()));
  mma->setAttr(TileASDialect::kTmemAccumulatorAttrName, builder.getUnitAttr());
  Value result = loop.getResult(index);
  if (!result.use_empty()) {
    builder.setInsertionPointAfter(loop);
    auto load = AccFromTmemOp::create(builder, loop.getLoc(), result.getType(), result);
    result.replaceAllUsesExcept(load, load);
  }
  return true;
}

namespace {
struct KeepAccumulatorsInTmemPass
    : tilepipe::tile_as::impl::KeepAccumulatorsInTmemBase<KeepAccumulatorsInTmemPass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForOp loop) {
      if (!targetsTcgen05(loop))
        return;
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        if (keepInTmem(loop, i))
          return;
    });
  }
};
} // namespace
