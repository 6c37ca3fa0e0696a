//===- ShapeLowering.cpp - cuda_tile shape ops -> tile_aa -----------------===//
//
// broadcast, reshape, permute, extract and cat keep their meaning one level
// down; what changes is that 0-d tiles are scalars in tile_aa, so shape ops
// touching them become splats or disappear. Trivial ops (same type, identity
// permutation) fold away here so no data movement is ever emitted for them.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

/// reshape: a scalar becomes a splat; a tensor a tile_aa.reshape.
struct ReshapeLowering : TilePattern<ct::ReshapeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = convert(op.getType());
    Value source = adaptor.getSource();
    if (source.getType() == type) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (!isa<RankedTensorType>(source.getType())) {
      rewriter.replaceOpWithNewOp<tile_aa::SplatOp>(op, type, source);
      return success();
    }
    if (!isa<RankedTensorType>(type))
      return op.emitOpError("reshape of a tile to a 0-d tile is not lowered yet");
    if (auto splat = source.getDefiningOp<tile_aa::SplatOp>()) {
      rewriter.replaceOpWithNewOp<tile_aa::SplatOp>(op, type, splat.getSrc());
      return success();
    }
    // Reshapes compose (each relabels the same row-major order): a chain
    // moves the elements once, or not at all when it returns to the start.
    // The inner reshape dies with its last user.
    if (auto inner = source.getDefiningOp<tile_aa::ReshapeOp>())
      source = inner.getSrc();
    if (source.getType() == type)
      rewriter.replaceOp(op, source);
    else
      rewriter.replaceOpWithNewOp<tile_aa::ReshapeOp>(op, type, source);
    return success();
  }
};

/// broadcast of a splat is a bigger splat; otherwise tile_aa.broadcast.
struct BroadcastLowering : TilePattern<ct::BroadcastOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = convert(op.getType());
    Value source = adaptor.getSource();
    if (source.getType() == type)
      rewriter.replaceOp(op, source);
    else if (auto splat = source.getDefiningOp<tile_aa::SplatOp>())
      rewriter.replaceOpWithNewOp<tile_aa::SplatOp>(op, type, splat.getSrc());
    else
      rewriter.replaceOpWithNewOp<tile_aa::BroadcastOp>(op, type, source);
    return success();
  }
};

struct PermuteLowering : TilePattern<ct::PermuteOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::PermuteOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int32_t> permutation = op.getPermutation();
    bool identity = llvm::all_of(llvm::enumerate(permutation), [](auto pair) {
      return int64_t(pair.index()) == pair.value();
    });
    Value source = adaptor.getSource();
    if (identity) {
      rewriter.replaceOp(op, source);
      return success();
    }
    Type type = convert(op.getType());
    if (auto splat = source.getDefiningOp<tile_aa::SplatOp>())
      rewriter.replaceOpWithNewOp<tile_aa::SplatOp>(op, type, splat.getSrc());
    else
      rewriter.replaceOpWithNewOp<tile_aa::PermuteOp>(op, type, source, permutation);
    return success();
  }
};

struct ExtractLowering : TilePattern<ct::ExtractOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ExtractOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = convert(op.getType());
    Value source = adaptor.getSource();
    if (source.getType() == type) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (!isa<RankedTensorType>(type))
      return op.emitOpError("extract of a 0-d tile is not lowered yet");
    rewriter.replaceOpWithNewOp<tile_aa::ExtractOp>(op, type, source,
                                                    adaptor.getIndices());
    return success();
  }
};

struct CatLowering : TilePattern<ct::CatOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::CatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::CatOp>(op, convert(op.getType()),
                                                adaptor.getLhs(), adaptor.getRhs(),
                                                op.getDimAttr());
    return success();
  }
};

} // namespace

void populateShapeLoweringPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<ReshapeLowering, BroadcastLowering, PermuteLowering,
               ExtractLowering, CatLowering>(converter, patterns.getContext());
}

} // namespace tilepipe
