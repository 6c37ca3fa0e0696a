//===- StagePipelines.cpp - Each stage's pass pipeline per -O level -------===//
//
// Read this file to know what each stage does. A row is one pipeline element
// with the lowest -O level that runs it. The stages fill up as the lowering
// issues land; until then a stage verifies its input and passes it on.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Pipeline/StagePipelines.h"

#include "tilepipe/InitAll.h"

#include "mlir/Pass/PassRegistry.h"

using namespace tilepipe;

namespace {
struct PipelineRow {
  unsigned minOptLevel;
  const char *element;
};
} // namespace

// tile-read: bytecode/text -> verified cuda_tile. Verification is the parser's.
static const PipelineRow kReadPipeline[] = {
    {0, ""},
};

// tile-lower: cuda_tile -> alias-aware tile dialect -> assembler-level tile
// dialect; the target and kernel-spec facts are stamped on the module for
// the later stages. `{gpu-name}` and `{opt-level}` are the tool's options.
static const PipelineRow kLowerPipeline[] = {
    {0, "tilepipe-convert-cuda-tile-to-tile-aa{gpu-name={gpu-name}}"},
    {1, "canonicalize"},
    {1, "cse"},
    {0, "tilepipe-convert-tile-aa-to-tile-as"},
    {0, "tilepipe-stamp-target{gpu-name={gpu-name} opt-level={opt-level}}"},
};

// tile-sched: layouts, async pipelines, scheduling, buffer assignment.
static const PipelineRow kSchedPipeline[] = {
    // num_cta_in_cga = 2: each tile block on a CTA pair, each computing half
    // of it (the launch contract, so at every -O level; first, as it changes
    // the tiles every later pass sizes).
    {0, "tilepipe-split-tile-blocks-across-cta-pair"},
    // sm_90 becomes sm_90a where a multiply gains from wgmma.
    {0, "tilepipe-select-wgmma-target"},
    {1, "tilepipe-split-mma-accumulators"},
    // Narrowing elementwise ops before the unit reshapes of batched views.
    {1, "tilepipe-hoist-elementwise-over-unit-reshapes"},
    {0, "tilepipe-assign-layouts"},
    {0, "tilepipe-async-copy-mma-operands"},
    // sm_90a: partition-view stores of 16-bit tiles through shared memory by TMA.
    {1, "tilepipe-store-tiles-by-tma"},
    {1, "tilepipe-pipeline-mma-loops"},
    // sm_90a: a producer warpgroup issues the TMA rings' loads.
    {1, "tilepipe-warp-specialize-rings"},
    // A tcgen05 K loop's accumulator stays in tensor memory.
    {1, "tilepipe-keep-accumulators-in-tmem"},
    // An M-split CTA pair issues its tcgen05 multiplies together
    // (cta_group::2), each CTA loading half of B.
    {1, "tilepipe-pair-tcgen05-mmas"},
    // sm_90a: fp8 wgmma sums promoted into the f32 accumulator every few
    // k steps (numerics, so at every -O level).
    {0, "tilepipe-promote-fp8-accumulation"},
};

// tile-llvm: -> LLVM + NVVM dialects. Cleanups run before translation.
static const PipelineRow kLLVMPipeline[] = {
    // Loops and ifs become branches between blocks of register vectors;
    // floor/ceil division and NaN-aware min/max become plain arith.
    {0, "convert-scf-to-cf"},
    {0, "arith-expand"},
    {0, "tilepipe-convert-tile-as-to-llvm"},
    {0, "reconcile-unrealized-casts"},
    {1, "canonicalize"},
    {1, "cse"},
    // Line tables from the kernels' source locations (cuTile's Python lines);
    // tile-ptx keeps or strips them per --lineinfo / --device-debug.
    {0, "ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly}"},
};

llvm::StringRef tilepipe::stageName(Stage stage) {
  switch (stage) {
  case Stage::Read:
    return "read";
  case Stage::Lower:
    return "lower";
  case Stage::Sched:
    return "sched";
  case Stage::LLVM:
    return "llvm";
  }
  return "";
}

static llvm::ArrayRef<PipelineRow> stageRows(Stage stage) {
  switch (stage) {
  case Stage::Read:
    return kReadPipeline;
  case Stage::Lower:
    return kLowerPipeline;
  case Stage::Sched:
    return kSchedPipeline;
  case Stage::LLVM:
    return kLLVMPipeline;
  }
  return {};
}

/// Replaces every `{name}` in `element` by `value`.
static void substitute(std::string &element, llvm::StringRef name,
                       llvm::StringRef value) {
  std::string key = ("{" + name + "}").str();
  for (size_t at = element.find(key); at != std::string::npos;
       at = element.find(key, at + value.size()))
    element.replace(at, key.size(), value.str());
}

std::vector<std::string> tilepipe::stagePassList(Stage stage,
                                                 unsigned optLevel,
                                                 llvm::StringRef gpuName) {
  std::vector<std::string> passes;
  for (const PipelineRow &row : stageRows(stage)) {
    if (!*row.element || optLevel < row.minOptLevel)
      continue;
    std::string element = row.element;
    substitute(element, "gpu-name", gpuName);
    substitute(element, "opt-level", std::to_string(optLevel));
    passes.push_back(element);
  }
  return passes;
}

mlir::LogicalResult tilepipe::buildStagePipeline(mlir::OpPassManager &pm,
                                                 Stage stage,
                                                 unsigned optLevel,
                                                 llvm::StringRef gpuName) {
  // The textual pipeline elements name registered passes.
  static const bool registered = (registerTilepipePasses(), true);
  (void)registered;
  for (const std::string &element : stagePassList(stage, optLevel, gpuName))
    if (mlir::failed(mlir::parsePassPipeline(element, pm, llvm::errs())))
      return mlir::failure();
  return mlir::success();
}
