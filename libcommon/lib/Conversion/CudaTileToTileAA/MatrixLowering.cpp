//===- MatrixLowering.cpp - cuda_tile matrix ops -> tile_aa -----------===//
//
// cuda_tile.mmaf/mmai become tile_aa.mmaf/mmai on the converted tensors; the
// operand signedness of mmai becomes two booleans. ConvertCudaTileToTileAAPass
// registers these through populateMatrixLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

struct MmaFLowering : TilePattern<ct::MmaFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MmaFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::MmaFOp>(op, adaptor.getAcc().getType(),
                                                 adaptor.getLhs(),
                                                 adaptor.getRhs(), adaptor.getAcc());
    return success();
  }
};

struct MmaILowering : TilePattern<ct::MmaIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MmaIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::MmaIOp>(
        op, adaptor.getAcc().getType(), adaptor.getLhs(), adaptor.getRhs(),
        adaptor.getAcc(), op.getSignednessLhs() == ct::Signedness::Signed,
        op.getSignednessRhs() == ct::Signedness::Signed);
    return success();
  }
};

} // namespace

void populateMatrixLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<MmaFLowering, MmaILowering>(converter, patterns.getContext());
}

} // namespace tilepipe
