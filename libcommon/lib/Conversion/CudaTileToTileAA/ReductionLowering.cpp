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

#include "mlir/Dialect/Arith/IR/Arith.h"

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
    if (llvm::any_of(types, [](Type t) { return !isa<RankedTensorType>(t); }))
      return op.emitOpError("scan of a 0-d tile is not lowered");
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

/// True inside a combiner region (already moved into tile_aa.reduce/scan).
static bool isInCombiner(Operation *op) {
  return isa<tile_aa::ReduceOp, tile_aa::ScanOp>(op->getParentOp());
}

// Combiner arithmetic the general arithmetic lowering may not cover yet
// (max/min, float compares, select). Restricted to combiner bodies and of
// benefit 0, so a general pattern for the same op takes precedence.

template <typename SourceOp>
struct CombinerPattern : TilePattern<SourceOp> {
  CombinerPattern(TileTypeConverter &converter, MLIRContext *context)
      : TilePattern<SourceOp>(converter, context, /*benefit=*/0) {}
};

template <typename SourceOp, typename PropagateNaN, typename IgnoreNaN>
struct CombinerMinMaxF : CombinerPattern<SourceOp> {
  using CombinerPattern<SourceOp>::CombinerPattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isInCombiner(op))
      return failure();
    if (op.getPropagateNan())
      rewriter.replaceOpWithNewOp<PropagateNaN>(op, adaptor.getLhs(), adaptor.getRhs());
    else
      rewriter.replaceOpWithNewOp<IgnoreNaN>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

template <typename SourceOp, typename SignedOp, typename UnsignedOp>
struct CombinerMinMaxI : CombinerPattern<SourceOp> {
  using CombinerPattern<SourceOp>::CombinerPattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isInCombiner(op))
      return failure();
    if (op.getSignedness() == ct::Signedness::Signed)
      rewriter.replaceOpWithNewOp<SignedOp>(op, adaptor.getLhs(), adaptor.getRhs());
    else
      rewriter.replaceOpWithNewOp<UnsignedOp>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

static arith::CmpFPredicate getCmpFPredicate(ct::ComparisonPredicate predicate,
                                             bool ordered) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case ct::ComparisonPredicate::EQUAL:
    return ordered ? P::OEQ : P::UEQ;
  case ct::ComparisonPredicate::NOT_EQUAL:
    return ordered ? P::ONE : P::UNE;
  case ct::ComparisonPredicate::LESS_THAN:
    return ordered ? P::OLT : P::ULT;
  case ct::ComparisonPredicate::LESS_THAN_OR_EQUAL:
    return ordered ? P::OLE : P::ULE;
  case ct::ComparisonPredicate::GREATER_THAN:
    return ordered ? P::OGT : P::UGT;
  case ct::ComparisonPredicate::GREATER_THAN_OR_EQUAL:
    return ordered ? P::OGE : P::UGE;
  }
  return P::OEQ;
}

struct CombinerCmpF : CombinerPattern<ct::CmpFOp> {
  using CombinerPattern::CombinerPattern;
  LogicalResult matchAndRewrite(ct::CmpFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isInCombiner(op))
      return failure();
    bool ordered = op.getComparisonOrdering() == ct::ComparisonOrdering::ORDERED;
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(
        op, getCmpFPredicate(op.getComparisonPredicate(), ordered),
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct CombinerSelect : CombinerPattern<ct::SelectOp> {
  using CombinerPattern::CombinerPattern;
  LogicalResult matchAndRewrite(ct::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isInCombiner(op))
      return failure();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCond(),
                                                 adaptor.getValIfTrue(),
                                                 adaptor.getValIfFalse());
    return success();
  }
};

} // namespace

void populateReductionLoweringPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering, CombineYieldLowering>(
      converter, patterns.getContext());
  patterns.add<
      CombinerMinMaxF<ct::MaxFOp, arith::MaximumFOp, arith::MaxNumFOp>,
      CombinerMinMaxF<ct::MinFOp, arith::MinimumFOp, arith::MinNumFOp>,
      CombinerMinMaxI<ct::MaxIOp, arith::MaxSIOp, arith::MaxUIOp>,
      CombinerMinMaxI<ct::MinIOp, arith::MinSIOp, arith::MinUIOp>,
      CombinerCmpF, CombinerSelect>(converter, patterns.getContext());
}

} // namespace tilepipe
