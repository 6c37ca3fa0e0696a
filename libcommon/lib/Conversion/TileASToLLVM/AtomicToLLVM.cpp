//===- AtomicToLLVM.cpp - tile_as atomic ops -> LLVM/NVVM -------------===//
//
// The patterns of this op family; ConvertTileASToLLVMPass registers them
// through populateAtomicToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateAtomicToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  (void)converter;
  (void)patterns;
}

} // namespace tilepipe::tile_as
