//===- PromoteFp8Accumulation.cpp - fp8 wgmma sums promoted to f32 --------===//
//
// Marks the fp8 multiplies of the wgmma path with the promotion interval
// their lowering sums in a temporary before adding it into the f32
// accumulator (Passes.td has why; WgmmaChunks.h how), and says so at each
// multiply in a remark.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/Fp8Promotion.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_PROMOTEFP8ACCUMULATION
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// The k of one fp8 wgmma (m64nNk32).
static constexpr int64_t kFp8StepK = 32;

/// The element type of a multiply operand: its pointees where it is a tile
/// of pointers (an mmaf_global's fused load).
static Type getOperandElement(Value operand) {
  Type element = getElementTypeOrSelf(operand.getType());
  if (auto ptr = dyn_cast<PtrType>(element))
    return ptr.getPointeeType();
  return element;
}

static bool isFp8(Type element) { return isa<Float8E4M3FNType, Float8E5M2Type>(element); }

/// Whether `op` is an fp8 multiply the wgmma lowering takes (as far as the
/// layouts tell: the lowering may still fall back to mma.sync where its
/// staging does not fit, and then ignores the mark).
static bool isFp8Wgmma(Operation *op) {
  if (!isFp8(getOperandElement(op->getOperand(0))) && !isFp8(getOperandElement(op->getOperand(1))))
    return false;
  if (auto mmaf = dyn_cast<MmaFOp>(op))
    return hasWgmmaForm(mmaf);
  auto global = cast<MmaFGlobalOp>(op);
  return hasWgmmaAccumulator(op, global.getAcc().getType());
}

namespace {
struct PromoteFp8AccumulationPass
    : tilepipe::tile_as::impl::PromoteFp8AccumulationBase<PromoteFp8AccumulationPass> {
  using Base::Base;

  void runOnOperation() override {
    if (interval < 0) {
      getOperation().emitError() << "tilepipe-promote-fp8-accumulation: interval " << int64_t(interval)
                                 << " is negative";
      return signalPassFailure();
    }
    Builder builder(&getContext());
    getOperation().walk([&](Operation *op) {
      if (!isa<MmaFOp, MmaFGlobalOp>(op) || !isFp8Wgmma(op))
        return;
      InFlightDiagnostic remark = emitRemark(op->getLoc());
      if (fastAccumulation || interval == 0) {
        op->removeAttr(kFp8PromotionIntervalAttrName);
        remark << "fp8 wgmma fast accumulation: the wgmmas sum K into the accumulator "
                  "itself, at the tensor cores' reduced fp8 accumulation precision ("
               << (fastAccumulation ? "fast-accumulation=true" : "interval=0") << ")";
        return;
      }
      op->setAttr(kFp8PromotionIntervalAttrName,
                  builder.getI64IntegerAttr(int64_t(interval)));
      remark << "fp8 wgmma accumulation promoted to f32: every " << int64_t(interval) << " k steps (K "
             << int64_t(interval) * kFp8StepK
             << ") of wgmmas into a temporary (scale-d 0 first), added into the f32 "
                "accumulator by add.f32 after wgmma.wait_group (N pieces, two in flight; "
                "fast-accumulation=true turns it off)";
    });
  }
};
} // namespace
