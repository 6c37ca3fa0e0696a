//===- tile-sched.cpp - layouts, pipelines, scheduling, buffers -----------===//
#include "tilepipe/Tools/StageTool.h"

int main(int argc, char **argv) {
  return tilepipe::runStageToolMain(
      argc, argv, tilepipe::Stage::Sched,
      "tile-sched: layout assignment, async pipelines, scheduling and buffer "
      "assignment");
}
