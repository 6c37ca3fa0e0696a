//===- ControlFlowToLLVM.cpp - cf branches over laid-out tensors -> LLVM --===//
//
// tile-llvm runs convert-scf-to-cf first (pipeline/StagePipelines.cpp), so
// loops and ifs arrive here as cf branches whose block arguments are
// laid-out tensors: retyped to per-thread register vectors they are plain
// llvm.br/llvm.cond_br operands. Upstream's cf-to-LLVM patterns do it; the
// block signatures follow from the function conversion. The other patterns
// that must branch (one thread prints, an atomic runs once per element)
// build their blocks with emitIf/emitIfElse below.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {

/// before -> then? -> rest, the values reaching `rest` (none or one) given by
/// `thenValues` and `elseValues`. The insertion point ends at rest's start.
static SmallVector<Value> emitBranch(RewriterBase &rewriter, Location loc,
                                     Value condition, ValueRange elseValues,
                                     function_ref<SmallVector<Value>()> thenBody) {
  Block *before = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *merge = rewriter.createBlock(
      rest, elseValues.getTypes(), SmallVector<Location>(elseValues.size(), loc));
  Block *then = rewriter.createBlock(merge);
  SmallVector<Value> thenValues = thenBody();
  LLVM::BrOp::create(rewriter, loc, thenValues, merge);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, condition, then, ValueRange(), merge, elseValues);
  rewriter.setInsertionPointToEnd(merge);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
  rewriter.setInsertionPointToStart(rest);
  return SmallVector<Value>(merge->getArguments());
}

void emitIf(RewriterBase &rewriter, Location loc, Value condition,
            function_ref<void()> thenBody) {
  emitBranch(rewriter, loc, condition, ValueRange(), [&] {
    thenBody();
    return SmallVector<Value>();
  });
}

Value emitIfElse(RewriterBase &rewriter, Location loc, Value condition, Value otherwise,
                 function_ref<Value()> thenBody) {
  return emitBranch(rewriter, loc, condition, otherwise, [&] {
    return SmallVector<Value>{thenBody()};
  }).front();
}

void populateControlFlowToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
}

} // namespace tilepipe::tile_as
