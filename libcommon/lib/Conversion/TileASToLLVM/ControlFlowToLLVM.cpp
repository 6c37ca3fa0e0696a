//===- ControlFlowToLLVM.cpp - tile_as controlflow ops -> LLVM/NVVM -------------===//
//
// The patterns of this op family; ConvertTileASToLLVMPass registers them
// through populateControlFlowToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateControlFlowToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe::tile_as
