//===- StagePipelines.h - Each stage's pass pipeline per -O level ---------===//
//
// The pass lists live in pipeline/StagePipelines.cpp as plain lists of textual
// pass pipeline elements, one table per stage, so that what a stage runs at a
// given -O level can be read (and diffed) at a glance. `tile-<stage>
// --print-pipeline` prints the list in force.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_PIPELINE_STAGEPIPELINES_H
#define TILEPIPE_PIPELINE_STAGEPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace tilepipe {

enum class Stage { Read, Lower, Sched, LLVM };

/// The stage's name as in `tile-<name>`.
llvm::StringRef stageName(Stage stage);

/// The pass pipeline elements the stage runs at `optLevel` (0..3), in order,
/// in MLIR's textual pipeline syntax, with the target GPU (`sm_NN`) filled in
/// where a pass takes it.
std::vector<std::string> stagePassList(Stage stage, unsigned optLevel,
                                       llvm::StringRef gpuName = "sm_100");

/// Parses the stage's list into `pm` (nested on the module root).
mlir::LogicalResult buildStagePipeline(mlir::OpPassManager &pm, Stage stage,
                                       unsigned optLevel,
                                       llvm::StringRef gpuName = "sm_100");

} // namespace tilepipe

#endif // TILEPIPE_PIPELINE_STAGEPIPELINES_H
