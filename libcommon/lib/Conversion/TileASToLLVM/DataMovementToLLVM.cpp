//===- DataMovementToLLVM.cpp - tile_as datamovement ops -> LLVM/NVVM -------------===//
//
// The patterns of this op family; ConvertTileASToLLVMPass registers them
// through populateDataMovementToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateDataMovementToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe::tile_as
