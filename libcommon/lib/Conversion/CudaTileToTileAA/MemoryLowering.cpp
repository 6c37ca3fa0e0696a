//===- MemoryLowering.cpp - cuda_tile memory ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateMemoryLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe {

void populateMemoryLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe
