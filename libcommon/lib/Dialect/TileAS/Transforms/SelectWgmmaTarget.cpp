//===- SelectWgmmaTarget.cpp - sm_90 becomes sm_90a where wgmma pays ------===//
//
// `--gpu-name sm_90` asks for code Hopper GPUs run; wgmma, the faster
// tensor-core path for most multiplies, needs the arch-specific sm_90a, which
// every Hopper GPU (compute capability 9.0) runs too; what is lost is only
// that its PTX does not JIT-compile for later GPUs. So plain sm_90 takes
// sm_90a exactly where a multiply gains from wgmma (WgmmaChoice.h has the
// rule and the numbers), and says so in a remark at the multiply: which
// path, and what A and B are (a gathered A, the fused MoE kernel's tokens,
// goes to the swizzled staging by cp.async row copies).
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/WgmmaChoice.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_SELECTWGMMATARGET
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

static constexpr llvm::StringLiteral kHopper = "sm_90", kHopperWgmma = "sm_90a";
static constexpr unsigned kDefaultNumWarps = 4;

static const char *operandName(unsigned index) { return index == 0 ? "A" : "B"; }

namespace {
struct SelectWgmmaTargetPass
    : tilepipe::tile_as::impl::SelectWgmmaTargetBase<SelectWgmmaTargetPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = module->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName);
    if (!target || (target.getValue() != kHopper && target.getValue() != kHopperWgmma))
      return;
    unsigned numWarps = kDefaultNumWarps;
    if (auto attr = module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName))
      numWarps = attr.getInt();
    bool wgmma = false;
    module.walk([&](MmaFOp op) {
      if (!hasWgmmaKind(op))
        return;
      // At the multiply's location, without the op printed after it.
      InFlightDiagnostic remark = emitRemark(op.getLoc()) << target.getValue();
      if (std::optional<unsigned> gathered = findWgmmaBlockingGather(op)) {
        remark << ": mma.sync for this mmaf, not wgmma: " << operandName(*gathered)
               << " is " << describeMmaOperandKind(MmaOperandKind::Gather);
        if (*gathered == 0)
          remark << " that cp.async cannot copy (no weak, zero-padded load as it is with runs "
                    "of 4 bytes or more)";
        return;
      }
      auto acc = cast<RankedTensorType>(op.getAcc().getType());
      BlockedAttr layout = getWgmmaAccumulatorLayout(op.getContext(), acc.getShape(), numWarps);
      if (!layout) {
        remark << ": mma.sync for this mmaf, not wgmma: its accumulator does not tile "
                  "by warpgroups with all "
               << numWarps << " warps along M";
        return;
      }
      wgmma = true;
      if (target.getValue() == kHopper)
        remark << " -> " << kHopperWgmma;
      remark << ": wgmma for this mmaf (";
      for (unsigned index : {0u, 1u}) {
        MmaOperandKind kind = classifyMmaOperand(op->getOperand(index));
        remark << (index ? ", " : "") << operandName(index) << ": "
               << describeMmaOperandKind(kind);
        // (Only A may be one here: findWgmmaBlockingGather.)
        if (kind == MmaOperandKind::Gather)
          remark << " copied into the swizzled staging by cp.async, row runs";
      }
      // Fewer rows than the warpgroups' wgmmas cover (a 32-row tile of one
      // warpgroup): the rest of each 16-row slice is padding.
      int64_t rows = acc.getShape()[acc.getRank() - 2];
      int64_t staged = getWgmmaStagedRows(rows, layout.getWarpsPerCTA()[acc.getRank() - 2]);
      if (staged != rows)
        remark << "; " << rows << " rows at M = " << staged << ", the rest padding";
      remark << ")";
    });
    if (wgmma && target.getValue() == kHopper)
      module->setAttr(TileASDialect::kTargetAttrName,
                      StringAttr::get(module.getContext(), kHopperWgmma));
  }
};
} // namespace
