//===- ArithmeticLowering.cpp - cuda_tile arithmetic ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateArithmeticLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe {

void populateArithmeticLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe
