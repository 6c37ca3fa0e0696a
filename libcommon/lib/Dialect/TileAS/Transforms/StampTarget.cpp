//===- StampTarget.cpp - Target and kernel-spec facts as module attributes ===//
//
// The stages are separate processes; what tile-lower learns from its command
// line and from the kernels' optimization hints travels in the IR.
//
//===----------------------------------------------------------------------===//
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

/// The hint `name` of `func` for `gpuName` (falling back to `default`).
static std::optional<int64_t> lookupHint(func::FuncOp func,
                                         llvm::StringRef gpuName,
                                         llvm::StringRef name) {
  auto hints = func->getAttrOfType<DictionaryAttr>(kHintsAttrName);
  if (!hints)
    return std::nullopt;
  for (llvm::StringRef key : {gpuName, llvm::StringRef("default")}) {
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
    unsigned numWarps = kDefaultNumWarps;
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
