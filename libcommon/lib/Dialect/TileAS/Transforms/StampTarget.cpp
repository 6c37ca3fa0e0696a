//===- StampTarget.cpp - Target and kernel-spec facts as module attributes ===//
//
// The stages are separate processes; what tile-lower learns from its command
// line and from the kernels' optimization hints travels in the IR.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_STAMPTARGET
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Attribute where CudaTileToTileAA keeps an entry's optimization hints (a
/// dictionary keyed by `sm_NN` / `default`).
static constexpr llvm::StringLiteral kHintsAttrName = "tile_aa.optimization_hints";
static constexpr unsigned kDefaultNumWarps = 4;
/// Accumulator registers one thread may hold: ptxas allows 255 registers, and
/// the operand fragments, addresses and epilogue need the rest.
static constexpr int64_t kMaxAccumulatorRegs = 64;
static constexpr unsigned kMaxDefaultNumWarps = 8;

/// The warps (a power of two from kDefaultNumWarps to kMaxDefaultNumWarps)
/// that keep the accumulators of the module's matrix multiplies (taken as
/// live together, as attention's two are) within kMaxAccumulatorRegs per
/// thread where possible: a 128x256 f32 accumulator on 4 warps is 256
/// registers per thread and spills; on 8 warps it is 128.
static unsigned getNumWarpsForAccumulators(ModuleOp module) {
  int64_t elements = 0;
  module.walk([&](Operation *op) {
    if (isa<MmaFOp, MmaIOp, MmaFScaledOp>(op))
      elements += cast<RankedTensorType>(op->getOperand(2).getType()).getNumElements();
  });
  unsigned warps = kDefaultNumWarps;
  while (warps < kMaxDefaultNumWarps && elements > kMaxAccumulatorRegs * 32 * warps)
    warps *= 2;
  return warps;
}

/// The hint `name` of `func` for `gpuName` (falling back to `default`).
static std::optional<int64_t> lookupHint(func::FuncOp func,
                                         llvm::StringRef gpuName,
                                         llvm::StringRef name) {
  auto hints = func->getAttrOfType<DictionaryAttr>(kHintsAttrName);
  if (!hints)
    return std::nullopt;
  // An arch-specific name (sm_90a, sm_100f) falls back to its base target's
  // hints: cuTile keys them by the base name.
  llvm::StringRef base = gpuName;
  if (base.ends_with("a") || base.ends_with("f"))
    base = base.drop_back();
  for (llvm::StringRef key : {gpuName, base, llvm::StringRef("default")}) {
    auto perTarget = hints.getAs<DictionaryAttr>(key);
    if (!perTarget)
      continue;
    if (auto value = perTarget.getAs<IntegerAttr>(name))
      return value.getInt();
  }
  return std::nullopt;
}

namespace {
struct StampTargetPass
    : public tilepipe::tile_as::impl::StampTargetBase<StampTargetPass> {
  using StampTargetBase::StampTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    unsigned numWarps = getNumWarpsForAccumulators(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      std::optional<int64_t> hinted =
          lookupHint(func, gpuName, "num_worker_warps");
      if (!hinted)
        continue;
      if (*hinted < 1 || *hinted > 32 || (*hinted & (*hinted - 1))) {
        func.emitError("num_worker_warps must be a power of two in [1, 32], got ")
            << *hinted;
        return signalPassFailure();
      }
      numWarps = *hinted;
    }
    // cuTile asks for clusters of 2 on sm_100 matmuls (num_cta_in_cga):
    // tile-sched's tilepipe-split-tile-blocks-across-cta-pair decides whether
    // the kernel's tile blocks can run on CTA pairs, and says why not.
    for (auto func : module.getOps<func::FuncOp>())
      if (std::optional<int64_t> ctas = lookupHint(func, gpuName, "num_cta_in_cga");
          ctas && *ctas > 1)
        func->setAttr(TileASDialect::kRequestedCtasPerClusterAttrName,
                      builder.getI32IntegerAttr(*ctas));
    // The hints are consumed here; LLVM translation has no use for them.
    for (auto func : module.getOps<func::FuncOp>())
      func->removeAttr(kHintsAttrName);
    module->setAttr(TileASDialect::kTargetAttrName,
                    builder.getStringAttr(gpuName));
    module->setAttr(TileASDialect::kOptLevelAttrName,
                    builder.getI32IntegerAttr(optLevel));
    module->setAttr(TileASDialect::kThreadsPerWarp, builder.getI32IntegerAttr(32));
    module->setAttr(TileASDialect::kNumWarpsAttrName,
                    builder.getI32IntegerAttr(numWarps));
  }
};
} // namespace
