//===- MatrixToLLVM.cpp - tile_as matrix ops -> LLVM/NVVM -------------===//
//
// The patterns of this op family; ConvertTileASToLLVMPass registers them
// through populateMatrixToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateMatrixToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe::tile_as
