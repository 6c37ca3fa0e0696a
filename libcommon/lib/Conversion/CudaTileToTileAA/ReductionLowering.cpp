//===- ReductionLowering.cpp - cuda_tile reduction ops -> tile_aa -----------===//
//
// cuda_tile.reduce/scan become tile_aa.reduce/scan with the combiner region
// moved over: its 0-d tile arguments become scalars and its yield a
// tile_aa.combine_yield. The combiner's body ops are lowered by the ordinary
// (scalar) arithmetic patterns. ConvertCudaTileToTileAAPass registers these
// through populateReductionLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"


using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

/// Moves the combiner region of `from` into `to`, converting its argument
/// types (0-d tiles -> scalars).
static LogicalResult moveCombiner(Region &from, Region &to,
                                  const TypeConverter &converter,
                                  ConversionPatternRewriter &rewriter) {
  rewriter.inlineRegionBefore(from, to, to.end());
  return rewriter.convertRegionTypes(&to, converter);
}

struct ReduceLowering : TilePattern<ct::ReduceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto reduce = tile_aa::ReduceOp::create(
        rewriter, op.getLoc(), types, adaptor.getOperands(), op.getDim(),
        op.getIdentities());
    if (failed(moveCombiner(op.getBody(), reduce.getCombiner(),
                            *getTypeConverter(), rewriter)))
      return failure();
    rewriter.replaceOp(op, reduce.getResults());
    return success();
  }
};

struct ScanLowering : TilePattern<ct::ScanOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    // A 0-d tile (a scalar here) has one element, its own running
    // combination. The cuda_tile verifier rejects such a scan (no dimension
    // to scan along); this keeps the lowering total for unverified input.
    if (llvm::any_of(types, [](Type t) { return !isa<RankedTensorType>(t); })) {
      rewriter.replaceOp(op, adaptor.getOperands());
      return success();
    }
    auto scan = tile_aa::ScanOp::create(rewriter, op.getLoc(), types,
                                        adaptor.getOperands(), op.getDim(),
                                        op.getReverse(), op.getIdentities());
    if (failed(moveCombiner(op.getBody(), scan.getCombiner(),
                            *getTypeConverter(), rewriter)))
      return failure();
    rewriter.replaceOp(op, scan.getResults());
    return success();
  }
};

/// The yield ending a combiner (already moved into tile_aa.reduce/scan).
/// Benefit 2: wins over a general yield lowering for if/loop bodies.
struct CombineYieldLowering : TilePattern<ct::YieldOp> {
  CombineYieldLowering(TileTypeConverter &converter, MLIRContext *context)
      : TilePattern(converter, context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(ct::YieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<tile_aa::ReduceOp, tile_aa::ScanOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not the end of a combiner");
    rewriter.replaceOpWithNewOp<tile_aa::CombineYieldOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateReductionLoweringPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering, CombineYieldLowering>(
      converter, patterns.getContext());
}

} // namespace tilepipe
