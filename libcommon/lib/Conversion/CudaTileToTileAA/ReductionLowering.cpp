//===- ReductionLowering.cpp - cuda_tile reduction ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateReductionLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe {

void populateReductionLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe
