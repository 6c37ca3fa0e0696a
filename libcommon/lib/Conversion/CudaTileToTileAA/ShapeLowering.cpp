//===- ShapeLowering.cpp - cuda_tile shape ops -> tile_aa -----------------===//
//
// broadcast, reshape, permute, extract and cat keep their meaning one level
// down; what changes is that 0-d tiles are scalars in tile_aa, so shape ops
// touching them become splats or disappear. Trivial ops (same type, identity
// permutation) fold away here so no data movement is ever emitted for them.
// insert has no tile_aa counterpart: it becomes a broadcast and a select;
// pack/unpack (numbers <-> their bytes) become shifts between reshapes
// (PackedBits.h).
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "PackedBits.h"

#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {

/// The one element of a single-element tensor as a scalar: a splat gives its
/// source; otherwise tile_aa.to_scalar, since a blocked layout replicates a
/// one-element tensor over every thread (register 0 everywhere).
Value scalarOfSingleElement(ConversionPatternRewriter &rewriter, Location loc,
                            Value tensor) {
  if (auto splat = tensor.getDefiningOp<tile_aa::SplatOp>())
    return splat.getSrc();
  auto type = cast<RankedTensorType>(tensor.getType());
  return tile_aa::ToScalarOp::create(rewriter, loc, type.getElementType(), tensor)
      .getResult();
}

namespace {

/// reshape: a scalar becomes a splat, a one-element tensor to a 0-d tile
/// a scalar (scalarOfSingleElement); a tensor a tile_aa.reshape.
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
    if (!isa<RankedTensorType>(type)) {
      rewriter.replaceOp(op, scalarOfSingleElement(rewriter, op.getLoc(), source));
      return success();
    }
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
    // A block as large as the tile (always so for a 0-d tile, a scalar here:
    // no indices, one block) is the tile itself.
    if (source.getType() == type || !isa<RankedTensorType>(type)) {
      rewriter.replaceOp(op, source);
      return success();
    }
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

/// insert: `destination` seen as a grid of source-shaped blocks with the
/// source written over block `indices`. Built from ops that already lower:
/// the source repeated over the whole grid (dimension d of shape S_d becomes
/// B_d x S_d, B_d = N_d / S_d, by a reshape to [1, S_0, 1, S_1, ..], a
/// broadcast and a reshape back, which keeps the row-major order), then a
/// select between it and the destination on "the element's block is
/// `indices`". Inside that block the repeated source is the source itself.
struct InsertLowering : TilePattern<ct::InsertOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::InsertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getSource();
    Value destination = adaptor.getDestination();
    if (source.getType() == destination.getType()) {
      rewriter.replaceOp(op, source);
      return success();
    }
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto type = cast<RankedTensorType>(destination.getType());
    Location loc = op.getLoc();
    Type element = type.getElementType();
    SmallVector<int64_t> interleaved, blocks;
    for (auto [sourceDim, dim] : llvm::zip(sourceType.getShape(), type.getShape())) {
      interleaved.append({1, sourceDim});
      blocks.append({dim / sourceDim, sourceDim});
    }
    Value spread = tile_aa::ReshapeOp::create(
        rewriter, loc, RankedTensorType::get(interleaved, element), source);
    Value grid = tile_aa::BroadcastOp::create(
        rewriter, loc, RankedTensorType::get(blocks, element), spread);
    Value repeated = tile_aa::ReshapeOp::create(rewriter, loc, type, grid);

    auto i32 = type.clone(rewriter.getI32Type());
    auto i1 = type.clone(rewriter.getI1Type());
    Value inBlock;
    for (auto [dim, index] : llvm::enumerate(adaptor.getIndices())) {
      int64_t extent = sourceType.getDimSize(dim);
      if (extent == type.getDimSize(dim))
        continue;
      Value coord = tile_aa::IotaOp::create(rewriter, loc, i32, int32_t(dim));
      Value block = arith::DivUIOp::create(
          rewriter, loc, coord,
          arith::ConstantOp::create(
              rewriter, loc, DenseElementsAttr::get(i32, rewriter.getI32IntegerAttr(extent))));
      Value wanted = tile_aa::SplatOp::create(rewriter, loc, i32, index);
      Value same = arith::CmpIOp::create(rewriter, loc, i1, arith::CmpIPredicate::eq, block, wanted);
      inBlock = inBlock ? arith::AndIOp::create(rewriter, loc, inBlock, same).getResult() : same;
    }
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, inBlock, repeated, destination);
    return success();
  }
};

/// pack: the tile's numbers as the bit fields they occupy in memory (low
/// bits first, PackedBits.h), read as bytes.
struct PackLowering : TilePattern<ct::PackOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::PackOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto sourceType = cast<RankedTensorType>(adaptor.getSource().getType());
    auto type = cast<RankedTensorType>(convert(op.getType()));
    ByteView v{rewriter, op.getLoc()};
    Value flat = v.reshape(adaptor.getSource(), {sourceType.getNumElements()});
    Value bytes = v.toBytes(v.asBitFields(flat), getPackedBits(sourceType.getElementType()));
    rewriter.replaceOp(op, v.reshape(bytes, type.getShape()));
    return success();
  }
};

/// unpack: the inverse of pack.
struct UnpackLowering : TilePattern<ct::UnpackOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::UnpackOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(convert(op.getType()));
    auto sourceType = cast<RankedTensorType>(adaptor.getSource().getType());
    Type element = type.getElementType();
    ByteView v{rewriter, op.getLoc()};
    Value bytes = v.reshape(adaptor.getSource(), {sourceType.getNumElements()});
    Value numbers = v.asElements(v.fromBytes(bytes, getPackedBits(element)), element);
    rewriter.replaceOp(op, v.reshape(numbers, type.getShape()));
    return success();
  }
};

} // namespace

void populateShapeLoweringPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<ReshapeLowering, BroadcastLowering, PermuteLowering,
               ExtractLowering, CatLowering, InsertLowering, PackLowering,
               UnpackLowering>(converter, patterns.getContext());
}

} // namespace tilepipe
