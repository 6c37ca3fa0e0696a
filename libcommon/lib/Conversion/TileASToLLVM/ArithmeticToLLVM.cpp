//===- ArithmeticToLLVM.cpp - tile_as arithmetic ops -> LLVM/NVVM -------------===//
//
// The patterns of this op family; ConvertTileASToLLVMPass registers them
// through populateArithmeticToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateArithmeticToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe::tile_as
