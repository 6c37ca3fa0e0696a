//===- ShapeLowering.cpp - cuda_tile shape ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateShapeLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe {

void populateShapeLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe
