//===- StageTool.cpp - main() of the MLIR-to-MLIR stage tools -------------===//
#include "tilepipe/Tools/StageTool.h"

#include "tilepipe/Tools/MlirStage.h"

using namespace tilepipe;

int tilepipe::runStageToolMain(int argc, char **argv, Stage stage,
                               const char *description) {
  StageIOOptions io;
  MlirEmitOptions emit;
  TargetOptions target;
  bool printPipeline = false;
  bool verbose = false;
  ToolDriver driver(("tile-" + stageName(stage)).str(), description);
  driver.addStageIO(io);
  driver.addTargetOptions(target);
  addMlirEmitOptions(driver, emit);
  driver.app().add_flag("--print-pipeline", printPipeline,
                        "Print the stage's pass list for the -O level and exit");
  driver.app().add_flag("-v,--verbose", verbose,
                        "Print the passes' remarks: what they chose and why "
                        "(tile-sched: mma.sync or wgmma per mmaf, sm_90 -> sm_90a)");
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  if (auto exit = driver.validateTarget(target))
    return *exit;

  if (printPipeline) {
    for (const std::string &pass :
         stagePassList(stage, target.optLevel, target.gpuName))
      llvm::outs() << pass << "\n";
    return kExitSuccess;
  }
  io.output.binary = emit.emitBytecode;
  return runMlirStage(
      driver, io,
      [&](mlir::PassManager &pm) {
        return buildStagePipeline(pm, stage, target.optLevel, target.gpuName);
      },
      emitMlirTo(driver, io.output, emit),
      /*wrapInBuiltinModule=*/stage == Stage::Lower, /*printRemarks=*/verbose);
}
