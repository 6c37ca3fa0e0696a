//===- ViewLowering.cpp - cuda_tile views -> tile_aa pointer tensors ------===//
#include "ViewLowering.h"

#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe;
namespace ct = tilepipe::cuda_tile;

/// Divisor recorded for values known to be zero.
static constexpr uint64_t kZeroDivisor = uint64_t(1) << 32;

static uint64_t powerOfTwoFactor(int64_t value) {
  if (value == 0)
    return kZeroDivisor;
  return uint64_t(1) << llvm::countr_zero(uint64_t(value));
}

uint64_t tilepipe::getKnownDivisor(Value value) {
  if (auto assume = value.getDefiningOp<ct::AssumeOp>()) {
    uint64_t divisor = getKnownDivisor(assume.getValue());
    auto divBy = dyn_cast<ct::DivByAttr>(assume.getPredicate());
    if (divBy && !divBy.getEvery() && llvm::isPowerOf2_64(divBy.getDivisor()))
      divisor = std::max<uint64_t>(divisor, divBy.getDivisor());
    return divisor;
  }
  if (auto constant = value.getDefiningOp<ct::ConstantOp>()) {
    auto elements = constant.getValue();
    if (elements.isSplat() && elements.getElementType().isInteger())
      return powerOfTwoFactor(elements.getSplatValue<APInt>().getSExtValue());
  }
  return 1;
}

namespace {
/// One dimension of a tensor_view: a static size/stride or a converted value.
struct Extent {
  int64_t constant = ShapedType::kDynamic;
  Value value;    // converted scalar when dynamic
  Value original; // cuda_tile scalar when dynamic (for divisibility)

  uint64_t divisor() const {
    return constant != ShapedType::kDynamic ? powerOfTwoFactor(constant)
                                            : getKnownDivisor(original);
  }
};

/// Builds index math in one integer type.
class IndexBuilder {
public:
  IndexBuilder(ConversionPatternRewriter &rewriter, Location loc,
               IntegerType type, ArrayRef<int64_t> shape)
      : rewriter(rewriter), loc(loc), type(type),
        tensorType(RankedTensorType::get(shape, type)) {}

  Value toIndexType(Value value) {
    auto from = llvm::cast<IntegerType>(value.getType());
    if (from == type)
      return value;
    if (from.getWidth() < type.getWidth())
      return arith::ExtSIOp::create(rewriter, loc, type, value);
    return arith::TruncIOp::create(rewriter, loc, type, value);
  }
  Value scalar(const Extent &extent) {
    if (extent.constant != ShapedType::kDynamic)
      return constant(extent.constant);
    return toIndexType(extent.value);
  }
  Value constant(int64_t value) {
    return arith::ConstantOp::create(rewriter, loc, type,
                                     rewriter.getIntegerAttr(type, value));
  }
  Value splat(Value scalar) {
    return tile_aa::SplatOp::create(rewriter, loc, tensorType, scalar);
  }
  Value iota(unsigned axis) {
    return tile_aa::IotaOp::create(rewriter, loc, tensorType, axis);
  }

  ConversionPatternRewriter &rewriter;
  Location loc;
  IntegerType type;
  RankedTensorType tensorType;
};
} // namespace

static SmallVector<Extent> getExtents(ArrayRef<int64_t> statics,
                                      ValueRange originals,
                                      ConversionPatternRewriter &rewriter) {
  SmallVector<Extent> extents;
  unsigned next = 0;
  for (int64_t size : statics) {
    Extent extent;
    if (size == ShapedType::kDynamic) {
      extent.original = originals[next++];
      extent.value = rewriter.getRemappedValue(extent.original);
    } else {
      extent.constant = size;
    }
    extents.push_back(extent);
  }
  return extents;
}

namespace {
/// A partition view traced back to the ops that made it.
struct TracedView {
  ct::PartitionViewType type;
  ct::MakeTensorViewOp tensorView;
};
} // namespace

/// The make_partition_view / make_tensor_view pair behind `view`; the lowering
/// reads sizes, strides and the base pointer from them.
static FailureOr<TracedView> traceView(Operation *op, Value view) {
  auto partition = view.getDefiningOp<ct::MakePartitionViewOp>();
  auto viewType = dyn_cast<ct::PartitionViewType>(view.getType());
  if (!partition || !viewType)
    return op->emitOpError("only views made by make_partition_view are lowered");
  auto tensorView = partition.getTensorView().getDefiningOp<ct::MakeTensorViewOp>();
  if (!tensorView)
    return op->emitOpError("only tensor_views made by make_tensor_view are lowered");
  return TracedView{viewType, tensorView};
}

FailureOr<TileAccess> tilepipe::buildTileAccess(ConversionPatternRewriter &rewriter,
                                                Operation *op, Value view,
                                                ValueRange indices) {
  FailureOr<TracedView> traced = traceView(op, view);
  if (failed(traced))
    return failure();
  ct::PartitionViewType viewType = traced->type;
  ct::MakeTensorViewOp tensorView = traced->tensorView;
  if (viewType.getPaddingValue())
    return op->emitOpError("padded partition views are not lowered yet");
  ArrayRef<int32_t> dimMap = viewType.getDimMap();
  for (auto [i, dim] : llvm::enumerate(dimMap))
    if (int64_t(i) != dim)
      return op->emitOpError("partition views with a permuted dim_map are not lowered yet");

  ct::TensorViewType tensorType = viewType.getTensorView();
  ArrayRef<int32_t> tileShape32 = viewType.getTileShape();
  SmallVector<int64_t> tileShape(tileShape32.begin(), tileShape32.end());
  unsigned rank = tileShape.size();
  if (indices.size() != rank || tensorType.getRank() != rank)
    return op->emitOpError("view rank and index count differ");

  SmallVector<Extent> sizes = getExtents(
      tensorType.getShape(), tensorView.getDynamicShape(), rewriter);
  SmallVector<Extent> strides = getExtents(
      tensorType.getStrides(), tensorView.getDynamicStrides(), rewriter);

  auto indexType = cast<IntegerType>(indices.front().getType());
  IndexBuilder b(rewriter, op->getLoc(), indexType, tileShape);
  Value offsets, mask;
  for (unsigned dim = 0; dim < rank; ++dim) {
    Value start = arith::MulIOp::create(rewriter, b.loc, b.toIndexType(indices[dim]),
                                        b.constant(tileShape[dim]));
    Value coord = arith::AddIOp::create(rewriter, b.loc, b.splat(start), b.iota(dim));
    Value inBounds = arith::CmpIOp::create(rewriter, b.loc, arith::CmpIPredicate::slt,
                                           coord, b.splat(b.scalar(sizes[dim])));
    mask = mask ? arith::AndIOp::create(rewriter, b.loc, mask, inBounds).getResult()
                : inBounds;
    Value term = coord;
    if (strides[dim].constant != 1)
      term = arith::MulIOp::create(rewriter, b.loc, coord,
                                   b.splat(b.scalar(strides[dim])));
    offsets = offsets ? arith::AddIOp::create(rewriter, b.loc, offsets, term).getResult()
                      : term;
  }

  Value base = rewriter.getRemappedValue(tensorView.getBase());
  auto ptrType = cast<tile_aa::PtrType>(base.getType());
  auto ptrTensorType = RankedTensorType::get(tileShape, ptrType);
  Value ptrs = tile_aa::AddPtrOp::create(
      rewriter, b.loc, ptrTensorType, tile_aa::SplatOp::create(rewriter, b.loc, ptrTensorType, base),
      offsets);

  // Contiguity: innermost elements are adjacent when its stride is 1; a
  // group stays aligned and under one mask bit while the base address, the
  // innermost size and every outer stride are multiples of it.
  int64_t contiguity = 1;
  if (strides[rank - 1].constant == 1) {
    Type pointee = ptrType.getPointeeType();
    unsigned elementBytes = isa<FloatTF32Type>(pointee) // stored as 32-bit f32
                                ? 4
                                : std::max<unsigned>(1, pointee.getIntOrFloatBitWidth() / 8);
    uint64_t group = tileShape[rank - 1];
    group = std::min(group, sizes[rank - 1].divisor());
    group = std::min<uint64_t>(group, getKnownDivisor(tensorView.getBase()) / elementBytes);
    for (unsigned dim = 0; dim + 1 < rank; ++dim)
      group = std::min(group, strides[dim].divisor());
    contiguity = group ? int64_t(llvm::bit_floor(group)) : 1;
  }
  return TileAccess{ptrs, mask, contiguity};
}

FailureOr<SmallVector<Value>>
tilepipe::buildIndexSpaceShape(ConversionPatternRewriter &rewriter, Operation *op,
                               Value view, IntegerType type) {
  FailureOr<TracedView> traced = traceView(op, view);
  if (failed(traced))
    return failure();
  ct::PartitionViewType viewType = traced->type;
  ct::MakeTensorViewOp tensorView = traced->tensorView;

  SmallVector<Extent> sizes = getExtents(viewType.getTensorView().getShape(),
                                         tensorView.getDynamicShape(), rewriter);
  IndexBuilder b(rewriter, op->getLoc(), type, {});
  SmallVector<Value> counts;
  for (auto [indexDim, tensorDim] : llvm::enumerate(viewType.getDimMap())) {
    int64_t tile = viewType.getTileShape()[indexDim];
    const Extent &size = sizes[tensorDim];
    if (size.constant != ShapedType::kDynamic) {
      counts.push_back(b.constant(llvm::divideCeil(size.constant, tile)));
      continue;
    }
    // Sizes are non-negative, so the unsigned ceiling division is exact.
    Value rounded = arith::AddIOp::create(rewriter, b.loc, b.scalar(size),
                                          b.constant(tile - 1));
    counts.push_back(
        arith::DivUIOp::create(rewriter, b.loc, rounded, b.constant(tile)));
  }
  return counts;
}
