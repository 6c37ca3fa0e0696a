//===- tile-lower.cpp - cuda_tile -> tilepipe's internal tile dialects ----===//
#include "tilepipe/Tools/StageTool.h"

int main(int argc, char **argv) {
  return tilepipe::runStageToolMain(
      argc, argv, tilepipe::Stage::Lower,
      "tile-lower: cuda_tile -> alias-aware and assembler-level tile dialects");
}
