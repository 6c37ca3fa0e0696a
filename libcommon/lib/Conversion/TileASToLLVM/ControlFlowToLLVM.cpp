//===- ControlFlowToLLVM.cpp - cf branches over laid-out tensors -> LLVM --===//
//
// tile-llvm runs convert-scf-to-cf first (pipeline/StagePipelines.cpp), so
// loops and ifs arrive here as cf branches whose block arguments are
// laid-out tensors: retyped to per-thread register vectors they are plain
// llvm.br/llvm.cond_br operands. Upstream's cf-to-LLVM patterns do it; the
// block signatures follow from the function conversion.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"

using namespace mlir;

namespace tilepipe::tile_as {

void populateControlFlowToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
}

} // namespace tilepipe::tile_as
