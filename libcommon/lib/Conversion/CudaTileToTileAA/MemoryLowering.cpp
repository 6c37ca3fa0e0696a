//===- MemoryLowering.cpp - cuda_tile memory ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateMemoryLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "ViewLowering.h"

using namespace mlir;

namespace tilepipe {
namespace ct = cuda_tile;

namespace {

/// get_index_space_shape: tile counts from the view's tensor sizes.
struct IndexSpaceShapeLowering : TilePattern<ct::GetIndexSpaceShapeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::GetIndexSpaceShapeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // The verifier makes all results one scalar integer type.
    auto type = dyn_cast_or_null<IntegerType>(
        convert(op.getResult().front().getType()));
    if (!type)
      return op.emitOpError("result type does not lower to a scalar integer");
    FailureOr<SmallVector<Value>> counts =
        buildIndexSpaceShape(rewriter, op, op.getSrc(), type);
    if (failed(counts))
      return failure();
    rewriter.replaceOp(op, *counts);
    return success();
  }
};

/// make_strided_view: like the other views it only feeds memory ops, which
/// read it from the original IR (ViewLowering.cpp).
struct StridedViewErasure : TilePattern<ct::MakeStridedViewOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MakeStridedViewOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMemoryLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<IndexSpaceShapeLowering, StridedViewErasure>(converter,
                                                            patterns.getContext());
}

} // namespace tilepipe
