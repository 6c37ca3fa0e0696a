//===- ControlFlowLowering.cpp - cuda_tile controlflow ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateControlFlowLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe {

void populateControlFlowLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe
