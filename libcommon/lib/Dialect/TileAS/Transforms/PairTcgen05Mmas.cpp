//===- PairTcgen05Mmas.cpp - tcgen05.mma.cta_group::2 for M-split pairs ---===//
//
// tilepipe-split-tile-blocks-across-cta-pair splits a 256-row tile program
// by M: CTA r of the pair multiplies A rows [128 r, 128 r + 128) by the
// whole B, both CTAs loading all of B and issuing their own cta_group::1
// MMAs. That is the form of the pair's own MMA (PTX ISA, tcgen05
// "cta_group::2", data path Layout A): one thread of the pair issues an
// M = 256 tcgen05.mma that reads each CTA's A rows and D lanes 0-127 at the
// same addresses in each CTA, and B split by columns, N / 2 of them in each
// CTA's shared memory. Each CTA then loads only its half of B.
//
// This pass decides, per kernel, whether the tcgen05 lowering issues the
// pair's MMAs together; it marks the function tile_as.tcgen05_cta_pair and
// the TMA ring lowering does the rest (Tcgen05RingToLLVM.cpp). The ISA wants
// one .cta_group for every tcgen05 instruction of a kernel, so the choice is
// all or nothing: every multiply of the kernel must be a TMA ring's
// tcgen05_stage (no unpipelined, block-scaled or register-A multiply, which
// lower to cta_group::1 only) of a plain kind (f16, bf16, tf32, e4m3,
// e5m2), with M = 128 rows in each CTA and N / 2 a multiple of 32 up to 128
// (N <= 256 is one MMA).
// -v says which form each such kernel runs and why.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_PAIRTCGEN05MMAS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

namespace {

/// Rows of D each CTA of the pair holds, and the widest pair MMA.
constexpr int64_t kRowsPerCta = 128, kMaxPairN = 256;
/// B's columns in each CTA come in multiples of this.
constexpr int64_t kHalfNStep = 32;

/// Why `stage` cannot run as the pair's MMA, or an empty string.
std::string whyNotPaired(Tcgen05StageOp stage) {
  // The plain kinds: f16 (f16, bf16), tf32 (f32 loads rounded in the slots)
  // and f8f6f4 (e4m3, e5m2); ring slots hold nothing else.
  Type element = stage.getOperandType();
  if (!element.isF16() && !element.isBF16() && !isa<FloatTF32Type>(element) &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(element))
    return "its operands are not f16, bf16, tf32 or fp8";
  auto acc = cast<RankedTensorType>(stage.getAcc().getType());
  if (acc.getRank() != 2 || acc.getDimSize(0) != kRowsPerCta)
    return "its accumulator is not 128 rows per CTA";
  int64_t n = acc.getDimSize(1);
  if (n > kMaxPairN || n % (2 * kHalfNStep))
    return "N = " + std::to_string(n) + " is not a multiple of 64 up to 256";
  return "";
}

/// Why `func`'s multiplies cannot all be the pair's MMAs (the op to blame
/// in `culprit`), or an empty string; `n` gets the first multiply's N.
std::string whyNotPaired(func::FuncOp func, Operation *&culprit, int64_t &n) {
  std::string why;
  bool any = false;
  func.walk([&](Operation *op) {
    if (!why.empty())
      return WalkResult::interrupt();
    if (auto stage = dyn_cast<Tcgen05StageOp>(op)) {
      why = whyNotPaired(stage);
      if (!any)
        n = cast<RankedTensorType>(stage.getAcc().getType()).getDimSize(1);
      any = true;
    } else if (isa<MmaFScaledOp>(op)) {
      why = "its block-scaled multiply has no cta_group::2 form here";
    } else if (isa<MmaFOp, MmaFGlobalOp, MmaIOp, MmaFStageOp>(op)) {
      why = "a multiply outside a tcgen05 TMA ring lowers to cta_group::1 only";
    } else if (auto end = dyn_cast<TmaRingEndOp>(op); end && end.getCarried()) {
      why = "its TMA ring is carried across a loop";
    }
    if (!why.empty())
      culprit = op;
    return WalkResult::advance();
  });
  if (why.empty() && !any) {
    culprit = func;
    return "no multiply runs on a tcgen05 TMA ring";
  }
  return why;
}

struct PairTcgen05MmasPass
    : tilepipe::tile_as::impl::PairTcgen05MmasBase<PairTcgen05MmasPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr(TileASDialect::kCtaPairRowsAttrName) || !targetsTcgen05(func))
        continue;
      Operation *culprit = nullptr;
      int64_t n = 0;
      std::string why = whyNotPaired(func, culprit, n);
      if (!why.empty()) {
        InFlightDiagnostic remark =
            emitRemark(func.getLoc())
            << "the CTA pair keeps one tcgen05.mma.cta_group::1 per CTA (each CTA loads all "
               "of B): "
            << why;
        if (culprit != func.getOperation())
          remark.attachNote(culprit->getLoc()) << "the pair's MMA stops here";
        continue;
      }
      func->setAttr(TileASDialect::kTcgen05CtaPairAttrName, UnitAttr::get(func.getContext()));
      emitRemark(func.getLoc()) << "tcgen05.mma.cta_group::2: the even CTA of the pair issues "
                                   "each M = 256, N = "
                                << n << " MMA; CTA rank r loads B columns [r*" << n / 2
                                << ", r*" << n / 2 << "+" << n / 2 << ")";
    }
  }
};

} // namespace
