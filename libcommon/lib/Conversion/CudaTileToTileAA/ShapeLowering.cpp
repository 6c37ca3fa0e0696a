//===- ShapeLowering.cpp - cuda_tile shape ops -> tile_aa -----------------===//
//
// broadcast, reshape, permute, extract and cat keep their meaning one level
// down; what changes is that 0-d tiles are scalars in tile_aa, so shape ops
// touching them become splats or disappear. Trivial ops (same type, identity
// permutation) fold away here so no data movement is ever emitted for them.
// insert has no tile_aa counterpart: it becomes a broadcast and a select;
// pack/unpack (numbers <-> their bytes) become shifts between reshapes.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

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

/// Helpers for pack/unpack: tensors as flat rows of little-endian parts
/// (bytes, or for 4-bit elements two nibbles per byte, low nibble first),
/// the order in which the numbers lie in memory.
struct ByteView {
  OpBuilder &b;
  Location loc;

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) const {
    return RankedTensorType::get(shape, element);
  }
  Value reshape(Value value, ArrayRef<int64_t> shape) const {
    auto type = tensor(shape, cast<RankedTensorType>(value.getType()).getElementType());
    if (value.getType() == type)
      return value;
    return tile_aa::ReshapeOp::create(b, loc, type, value);
  }
  /// iota along dimension 1 of [n, parts], times partBits: each part's bit
  /// offset in its number.
  Value bitOffsets(int64_t n, int64_t parts, IntegerType type, unsigned partBits) const {
    auto offsets = tensor({n, parts}, type);
    Value index = tile_aa::IotaOp::create(b, loc, tensor({n, parts}, b.getI32Type()), 1);
    if (type.getWidth() > 32)
      index = arith::ExtUIOp::create(b, loc, offsets, index);
    else if (type.getWidth() < 32)
      index = arith::TruncIOp::create(b, loc, offsets, index);
    Value scale = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(offsets, b.getIntegerAttr(type, partBits)));
    return arith::MulIOp::create(b, loc, index, scale);
  }
  /// [n] integers -> [n, parts] integers of partBits, low part first.
  Value split(Value numbers, int64_t parts, unsigned partBits) const {
    auto type = cast<RankedTensorType>(numbers.getType());
    auto intType = cast<IntegerType>(type.getElementType());
    int64_t n = type.getNumElements();
    Value column = reshape(numbers, {n, 1});
    Value spread = tile_aa::BroadcastOp::create(b, loc, tensor({n, parts}, intType), column);
    Value shifted = arith::ShRUIOp::create(b, loc, spread,
                                           bitOffsets(n, parts, intType, partBits));
    return arith::TruncIOp::create(b, loc, tensor({n, parts}, b.getIntegerType(partBits)),
                                   shifted);
  }
  /// [n, parts] integers of partBits, low part first -> [n] integers.
  Value join(Value partRows, unsigned partBits) const {
    auto type = cast<RankedTensorType>(partRows.getType());
    int64_t n = type.getDimSize(0), parts = type.getDimSize(1);
    auto intType = b.getIntegerType(parts * partBits);
    Value wide = arith::ExtUIOp::create(b, loc, tensor({n, parts}, intType), partRows);
    Value placed = arith::ShLIOp::create(b, loc, wide, bitOffsets(n, parts, intType, partBits));
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Value number;
    for (int64_t k = 0; k < parts; ++k) {
      Value index = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(k));
      Value column = tile_aa::ExtractOp::create(b, loc, tensor({n, 1}, intType), placed,
                                                ValueRange{zero, index});
      Value part = reshape(column, {n});
      number = number ? arith::OrIOp::create(b, loc, number, part).getResult() : part;
    }
    return number;
  }
  /// `value` ([n]) as integers of its width, or back to `element`.
  Value asIntegers(Value value) const {
    auto type = cast<RankedTensorType>(value.getType());
    Type element = type.getElementType();
    if (element.isInteger())
      return value;
    return arith::BitcastOp::create(
        b, loc, type.clone(b.getIntegerType(element.getIntOrFloatBitWidth())), value);
  }
  Value asElements(Value integers, Type element) const {
    auto type = cast<RankedTensorType>(integers.getType());
    if (type.getElementType() == element)
      return integers;
    return arith::BitcastOp::create(b, loc, type.clone(element), integers);
  }
};

/// Bits per element of `type`: whole bytes or 4 (i4, f4E2M1FN); failure for
/// other widths and tf32.
FailureOr<unsigned> packedBits(Operation *op, Type element) {
  unsigned bits = element.getIntOrFloatBitWidth();
  if (isa<FloatTF32Type>(element) || (bits % 8 != 0 && bits != 4))
    return op->emitOpError("on ") << element << " elements is not lowered";
  return bits;
}

/// pack: each number's bits, low byte first, as i8; 4-bit numbers two to a
/// byte, the first in the low nibble.
struct PackLowering : TilePattern<ct::PackOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::PackOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto sourceType = cast<RankedTensorType>(adaptor.getSource().getType());
    auto type = cast<RankedTensorType>(convert(op.getType()));
    FailureOr<unsigned> bits = packedBits(op, sourceType.getElementType());
    if (failed(bits))
      return failure();
    ByteView v{rewriter, op.getLoc()};
    int64_t n = sourceType.getNumElements();
    Value flat = v.asIntegers(v.reshape(adaptor.getSource(), {n}));
    Value bytes;
    if (*bits == 4)
      bytes = v.join(v.reshape(flat, {n / 2, 2}), 4);
    else if (*bits == 8)
      bytes = flat;
    else
      bytes = v.split(flat, *bits / 8, 8);
    rewriter.replaceOp(op, v.reshape(bytes, type.getShape()));
    return success();
  }
};

/// unpack: every `bytes` consecutive i8, low byte first, make one number;
/// a byte two 4-bit numbers, the low nibble first.
struct UnpackLowering : TilePattern<ct::UnpackOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::UnpackOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(convert(op.getType()));
    Type element = type.getElementType();
    FailureOr<unsigned> bits = packedBits(op, element);
    if (failed(bits))
      return failure();
    ByteView v{rewriter, op.getLoc()};
    int64_t n = type.getNumElements();
    Value source = adaptor.getSource();
    Value number;
    if (*bits == 4)
      number = v.split(v.reshape(source, {n / 2}), 2, 4);
    else if (*bits == 8)
      number = source;
    else
      number = v.join(v.reshape(source, {n, *bits / 8}), 8);
    number = v.asElements(v.reshape(number, {n}), element);
    rewriter.replaceOp(op, v.reshape(number, type.getShape()));
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
