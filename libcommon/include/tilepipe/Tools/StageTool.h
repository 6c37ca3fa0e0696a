//===- StageTool.h - main() of the MLIR-to-MLIR stage tools ---------------===//
#ifndef TILEPIPE_TOOLS_STAGETOOL_H
#define TILEPIPE_TOOLS_STAGETOOL_H

#include "tilepipe/Pipeline/StagePipelines.h"

namespace tilepipe {

/// The whole main() of tile-lower and tile-sched: stage I/O, target options,
/// --print-pipeline, then the stage's pipeline for the -O level.
int runStageToolMain(int argc, char **argv, Stage stage,
                     const char *description);

} // namespace tilepipe

#endif // TILEPIPE_TOOLS_STAGETOOL_H
