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
/// A tile view traced back to the ops that made it. Tile dimension d covers
/// tensor dimension dimMap[d]; index i along d starts the tile at element
/// i * step[d] of that dimension (the tile size for partition views, the
/// traversal stride for strided views, 1 for the dense dimensions of a
/// gather_scatter_view, whose indices are element offsets). Along a gather
/// view's sparse dimension the index is a tile holding each row's element
/// index instead.
struct TracedView {
  ArrayRef<int32_t> tileShape;
  SmallVector<int32_t> dimMap;
  SmallVector<int64_t> step;
  std::optional<unsigned> sparseDim;
  ct::PaddingValueAttr padding;
  ct::TensorViewType tensorType;
  ct::MakeTensorViewOp tensorView;
};
} // namespace

/// The parameters all tile view types share.
template <typename ViewType>
static TracedView readViewType(ViewType type) {
  TracedView traced;
  traced.tileShape = type.getTileShape();
  traced.padding = type.getPaddingValue();
  traced.tensorType = type.getTensorView();
  return traced;
}

template <typename ViewType>
static TracedView readTiledViewType(ViewType type) {
  TracedView traced = readViewType(type);
  traced.dimMap.assign(type.getDimMap().begin(), type.getDimMap().end());
  return traced;
}

/// The make_{partition,strided,gather_scatter}_view / make_tensor_view pair
/// behind `view`; the lowering reads sizes, strides and the base pointer from
/// them. Fails with a diagnostic at `op`, or quietly where `op` is null.
static FailureOr<TracedView> traceView(Operation *op, Value view) {
  auto fail = [&](const char *message) -> FailureOr<TracedView> {
    if (op)
      op->emitOpError(message);
    return failure();
  };
  TracedView traced;
  Value tensorView;
  if (auto partition = view.getDefiningOp<ct::MakePartitionViewOp>()) {
    traced = readTiledViewType(partition.getType());
    traced.step.assign(traced.tileShape.begin(), traced.tileShape.end());
    tensorView = partition.getTensorView();
  } else if (auto strided = view.getDefiningOp<ct::MakeStridedViewOp>()) {
    traced = readTiledViewType(strided.getType());
    ArrayRef<int64_t> strides = strided.getType().getTraversalStrides();
    traced.step.assign(strides.begin(), strides.end());
    tensorView = strided.getTensorView();
  } else if (auto gather = view.getDefiningOp<ct::MakeGatherScatterViewOp>()) {
    traced = readViewType(gather.getType());
    llvm::append_range(traced.dimMap, llvm::seq<int32_t>(0, traced.tileShape.size()));
    traced.step.assign(traced.tileShape.size(), 1);
    traced.sparseDim = gather.getType().getSparseDim();
    tensorView = gather.getTensorView();
  } else {
    return fail("only views made by make_partition_view, "
                           "make_strided_view or make_gather_scatter_view are lowered");
  }
  traced.tensorView = tensorView.getDefiningOp<ct::MakeTensorViewOp>();
  if (!traced.tensorView)
    return fail("only tensor_views made by make_tensor_view are lowered");
  if (traced.dimMap.size() != traced.tileShape.size() ||
      int64_t(traced.tileShape.size()) != traced.tensorType.getRank())
    return fail("view rank and tensor_view rank differ");
  return traced;
}

/// The coordinates a gather view's sparse index tile (`rows`, 1-d) gives
/// every element of the tile: the rows spread along dimension `dim`.
static Value spreadAlongDim(IndexBuilder &b, Value rows, unsigned dim) {
  ArrayRef<int64_t> shape = b.tensorType.getShape();
  auto rowsType = cast<RankedTensorType>(rows.getType());
  if (rowsType.getElementType() != b.type)
    rows = arith::ExtSIOp::create(b.rewriter, b.loc, rowsType.clone(b.type), rows);
  if (shape.size() == 1)
    return rows;
  SmallVector<int64_t> lined(shape.size(), 1);
  lined[dim] = shape[dim];
  Value reshaped = tile_aa::ReshapeOp::create(
      b.rewriter, b.loc, RankedTensorType::get(lined, b.type), rows);
  return tile_aa::BroadcastOp::create(b.rewriter, b.loc, b.tensorType, reshaped);
}

Value tilepipe::asOneElement(ConversionPatternRewriter &rewriter, Location loc,
                             Value value) {
  if (!value || isa<RankedTensorType>(value.getType()))
    return value;
  return tile_aa::SplatOp::create(
      rewriter, loc, RankedTensorType::get({1}, value.getType()), value);
}

std::optional<SmallVector<int32_t>> tilepipe::getUnitStrideInnermostOrder(Value view) {
  FailureOr<TracedView> traced = traceView(/*op=*/nullptr, view);
  if (failed(traced) || traced->sparseDim || traced->tileShape.size() < 2 ||
      !traced->tensorType.getElementType().isIntOrFloat() ||
      traced->tensorType.getElementType().getIntOrFloatBitWidth() != 8)
    return std::nullopt;
  ArrayRef<int64_t> strides = traced->tensorType.getStrides();
  unsigned rank = traced->tileShape.size(), last = rank - 1;
  if (strides[traced->dimMap[last]] == 1)
    return std::nullopt;
  for (unsigned dim = 0; dim < last; ++dim) {
    if (strides[traced->dimMap[dim]] != 1 || traced->tileShape[dim] == 1)
      continue;
    SmallVector<int32_t> order = llvm::to_vector(llvm::seq<int32_t>(0, rank));
    std::swap(order[dim], order[last]);
    return order;
  }
  return std::nullopt;
}

FailureOr<TileAccess> tilepipe::buildTileAccess(ConversionPatternRewriter &rewriter,
                                                Operation *op, Value view,
                                                ValueRange originalIndicesInViewOrder,
                                                ValueRange indicesInViewOrder,
                                                ArrayRef<int32_t> order) {
  FailureOr<TracedView> traced = traceView(op, view);
  if (failed(traced))
    return failure();
  // The access tile's dimension d is the view tile's dimension order[d].
  SmallVector<int32_t> orderedShape;
  SmallVector<Value> originalIndices(originalIndicesInViewOrder),
      indices(indicesInViewOrder);
  if (!order.empty()) {
    TracedView viewOrder = *traced;
    for (auto [d, from] : llvm::enumerate(order)) {
      orderedShape.push_back(viewOrder.tileShape[from]);
      traced->dimMap[d] = viewOrder.dimMap[from];
      traced->step[d] = viewOrder.step[from];
      if (viewOrder.sparseDim == unsigned(from))
        traced->sparseDim = d;
      if (from < int32_t(indices.size()))
        indices[d] = indicesInViewOrder[from];
      if (from < int32_t(originalIndices.size()))
        originalIndices[d] = originalIndicesInViewOrder[from];
    }
    traced->tileShape = orderedShape;
  }
  ArrayRef<int32_t> dimMap = traced->dimMap;
  SmallVector<int64_t> tileShape(traced->tileShape.begin(), traced->tileShape.end());
  unsigned rank = tileShape.size();
  // A rank-0 view is the one element at its base: always in bounds, no
  // index, accessed as a tensor<1xT> (asOneElement).
  if (rank == 0) {
    Value base = rewriter.getRemappedValue(traced->tensorView.getBase());
    Value zero = arith::ConstantOp::create(
        rewriter, op->getLoc(),
        DenseElementsAttr::get(RankedTensorType::get({1}, rewriter.getI32Type()),
                               rewriter.getI32IntegerAttr(0)));
    return TileAccess{asOneElement(rewriter, op->getLoc(), base), Value(), 1, zero, base};
  }
  if (indices.size() != rank)
    return op->emitOpError("view rank and index count differ");

  SmallVector<Extent> sizes = getExtents(
      traced->tensorType.getShape(), traced->tensorView.getDynamicShape(), rewriter);
  SmallVector<Extent> strides = getExtents(
      traced->tensorType.getStrides(), traced->tensorView.getDynamicStrides(), rewriter);

  // Element t of the tile sits at coordinate index[d] * step[d] + t[d] of
  // tensor dimension dimMap[d] (at index[d][t[d]] along a gather view's
  // sparse dimension). It is in bounds when every such coordinate is below
  // its size; the unsigned compare also masks negative indices. The math is
  // in the widest index type (a gather view's index tile may be wider or
  // narrower than its scalars; the narrower are sign-extended).
  IntegerType indexType;
  for (Value index : indices) {
    auto type = cast<IntegerType>(getElementTypeOrSelf(index.getType()));
    if (!indexType || type.getWidth() > indexType.getWidth())
      indexType = type;
  }
  IndexBuilder b(rewriter, op->getLoc(), indexType, tileShape);
  Value offsets, mask;
  for (unsigned dim = 0; dim < rank; ++dim) {
    unsigned tensorDim = dimMap[dim];
    Value coord;
    if (dim == traced->sparseDim) {
      coord = spreadAlongDim(b, indices[dim], dim);
    } else {
      Value start = b.toIndexType(indices[dim]);
      if (traced->step[dim] != 1)
        start = arith::MulIOp::create(rewriter, b.loc, start, b.constant(traced->step[dim]));
      coord = arith::AddIOp::create(rewriter, b.loc, b.splat(start), b.iota(dim));
    }
    Value inBounds = arith::CmpIOp::create(rewriter, b.loc, arith::CmpIPredicate::ult,
                                           coord, b.splat(b.scalar(sizes[tensorDim])));
    mask = mask ? arith::AndIOp::create(rewriter, b.loc, mask, inBounds).getResult()
                : inBounds;
    Value term = coord;
    if (strides[tensorDim].constant != 1)
      term = arith::MulIOp::create(rewriter, b.loc, coord,
                                   b.splat(b.scalar(strides[tensorDim])));
    offsets = offsets ? arith::AddIOp::create(rewriter, b.loc, offsets, term).getResult()
                      : term;
  }

  Value base = rewriter.getRemappedValue(traced->tensorView.getBase());
  auto ptrType = cast<tile_aa::PtrType>(base.getType());
  auto ptrTensorType = RankedTensorType::get(tileShape, ptrType);
  Value ptrs = tile_aa::AddPtrOp::create(
      rewriter, b.loc, ptrTensorType, tile_aa::SplatOp::create(rewriter, b.loc, ptrTensorType, base),
      offsets);

  // What divides every start of a run along tile dimension `dim` whatever
  // the tile's position: the base address (in elements) and every stride
  // but the one `dim` covers. 0 when `dim` is not unit-stride (or gathered).
  Type pointee = ptrType.getPointeeType();
  unsigned elementBytes = isa<FloatTF32Type>(pointee) // stored as 32-bit f32
                              ? 4
                              : std::max<unsigned>(1, pointee.getIntOrFloatBitWidth() / 8);
  auto viewDivisorAlong = [&](unsigned dim) -> uint64_t {
    unsigned covered = dimMap[dim];
    if (strides[covered].constant != 1 || traced->sparseDim == dim)
      return 0;
    uint64_t group = getKnownDivisor(traced->tensorView.getBase()) / elementBytes;
    for (unsigned other = 0; other < rank; ++other)
      if (other != dim)
        group = std::min(group, strides[dimMap[other]].divisor());
    return group;
  };
  // Contiguity along tile dimension `dim`: its elements are adjacent when
  // the tensor dimension it covers has stride 1 (and is not gathered); a
  // group stays aligned and under one mask bit while the base address, that
  // dimension's size, the tile's start along it and every other covered
  // stride are multiples of it. A gather view's start is its index (an
  // element offset), known to divide as far as its `assume`s and constants
  // say.
  auto contiguityAlong = [&](unsigned dim) -> int64_t {
    uint64_t group = viewDivisorAlong(dim);
    if (!group)
      return 1;
    unsigned covered = dimMap[dim];
    uint64_t startDivisor = traced->sparseDim ? getKnownDivisor(originalIndices[dim])
                                              : powerOfTwoFactor(traced->step[dim]);
    group = std::min<uint64_t>(group, tileShape[dim]);
    group = std::min(group, sizes[covered].divisor());
    group = std::min(group, startDivisor);
    return group ? int64_t(llvm::bit_floor(group)) : 1;
  };
  int64_t contiguity = contiguityAlong(rank - 1);
  // A tile read transposed (its next-innermost dimension the unit-stride
  // one): the same fact along that dimension, for TMA (tile_aa.load).
  int64_t transposedContiguity =
      rank >= 2 && contiguity == 1 && strides[dimMap[rank - 1]].constant != 1
          ? contiguityAlong(rank - 2)
          : 1;
  // TMA asks 16 bytes of the base and strides; more is never read.
  uint64_t viewDivisor = std::min<uint64_t>(viewDivisorAlong(rank - 1), 16);
  int64_t viewAlignment = viewDivisor ? int64_t(llvm::bit_floor(viewDivisor)) : 1;
  return TileAccess{ptrs, mask, contiguity, offsets, base, transposedContiguity, viewAlignment};
}

Value tilepipe::buildPaddingValue(ConversionPatternRewriter &rewriter,
                                  Operation *op, Value view,
                                  RankedTensorType type) {
  FailureOr<TracedView> traced = traceView(op, view);
  if (failed(traced))
    return {};
  Location loc = op->getLoc();
  ct::PaddingValueAttr padding = traced->padding;
  // Views without a padding value leave out-of-bounds elements undefined;
  // zero is as good as any.
  if (!padding || padding.getValue() == ct::PaddingValue::zero)
    return arith::ConstantOp::create(rewriter, loc, type, rewriter.getZeroAttr(type));
  // The verifier allows the other paddings on float elements only.
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!floatType) {
    op->emitOpError("padding_value ")
        << ct::stringifyPaddingValue(padding.getValue())
        << " needs a floating-point element type";
    return {};
  }
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  std::optional<APFloat> value;
  switch (padding.getValue()) {
  case ct::PaddingValue::zero:
    value = APFloat::getZero(semantics);
    break;
  case ct::PaddingValue::neg_zero:
    value = APFloat::getZero(semantics, /*Negative=*/true);
    break;
  case ct::PaddingValue::nan:
    value = APFloat::getQNaN(semantics);
    break;
  case ct::PaddingValue::pos_inf:
  case ct::PaddingValue::neg_inf:
    // Formats such as f8E4M3FN have no infinity.
    if (APFloat::semanticsHasInf(semantics))
      value = APFloat::getInf(semantics, padding.getValue() == ct::PaddingValue::neg_inf);
    break;
  }
  if (!value) {
    op->emitOpError("padding_value ")
        << ct::stringifyPaddingValue(padding.getValue()) << " has no "
        << floatType << " encoding";
    return {};
  }
  return arith::ConstantOp::create(
      rewriter, loc, type, DenseElementsAttr::get(type, *value));
}

FailureOr<SmallVector<Value>>
tilepipe::buildIndexSpaceShape(ConversionPatternRewriter &rewriter, Operation *op,
                               Value view, IntegerType type) {
  FailureOr<TracedView> traced = traceView(op, view);
  if (failed(traced))
    return failure();

  SmallVector<Extent> sizes = getExtents(traced->tensorType.getShape(),
                                         traced->tensorView.getDynamicShape(), rewriter);
  IndexBuilder b(rewriter, op->getLoc(), type, {});
  SmallVector<Value> counts;
  // A tile exists wherever one starts inside the tensor: ceil(size / step).
  for (auto [indexDim, tensorDim] : llvm::enumerate(traced->dimMap)) {
    int64_t step = traced->step[indexDim];
    const Extent &size = sizes[tensorDim];
    if (size.constant != ShapedType::kDynamic) {
      counts.push_back(b.constant(llvm::divideCeil(size.constant, step)));
      continue;
    }
    // Sizes are non-negative, so the unsigned ceiling division is exact.
    Value rounded = arith::AddIOp::create(rewriter, b.loc, b.scalar(size),
                                          b.constant(step - 1));
    counts.push_back(
        arith::DivUIOp::create(rewriter, b.loc, rounded, b.constant(step)));
  }
  return counts;
}
