//===- TiledViewMatch.cpp - a load's view from its address arithmetic -----===//
#include "TiledViewMatch.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace tilepipe::tile_as {

SmallVector<Value> TiledView::flattened() const {
  SmallVector<Value> all(sizes);
  llvm::append_range(all, strides);
  llvm::append_range(all, starts);
  return all;
}

namespace {
/// Reads the arithmetic; scalars found as splat constants are rebuilt.
struct Matcher {
  OpBuilder &builder;
  /// The constants built so far (erased when the match fails).
  SmallVector<Operation *> built;

  /// The scalar `value` splats (a tile_as.splat or a splat constant).
  Value scalarOf(Value value) {
    if (auto splat = value.getDefiningOp<SplatOp>())
      return isa<IntegerType>(splat.getSrc().getType()) ? splat.getSrc() : Value();
    DenseIntElementsAttr constant;
    if (!matchPattern(value, m_Constant(&constant)) || !constant.isSplat())
      return {};
    Type type = constant.getElementType();
    auto scalar = arith::ConstantOp::create(
        builder, value.getLoc(), type, builder.getIntegerAttr(type, constant.getSplatValue<APInt>()));
    built.push_back(scalar);
    return scalar;
  }

  /// `value` as start + iota along one dimension: (dimension, start), the
  /// start null for a bare iota (start 0).
  std::optional<std::pair<unsigned, Value>> coordinateOf(Value value) {
    if (auto iota = value.getDefiningOp<IotaOp>())
      return std::make_pair(unsigned(iota.getAxis()), Value());
    auto add = value.getDefiningOp<arith::AddIOp>();
    if (!add)
      return std::nullopt;
    for (auto [iotaSide, splatSide] : {std::pair(add.getLhs(), add.getRhs()),
                                       std::pair(add.getRhs(), add.getLhs())}) {
      auto iota = iotaSide.getDefiningOp<IotaOp>();
      if (!iota)
        continue;
      if (Value start = scalarOf(splatSide))
        return std::make_pair(unsigned(iota.getAxis()), start);
    }
    return std::nullopt;
  }

  /// Collects the terms (coordinate times stride) of the offsets `value`.
  bool collectTerms(Value value, SmallVectorImpl<std::optional<std::pair<Value, Value>>> &terms,
                    SmallVectorImpl<Value> &starts) {
    auto record = [&](Value coordinate, Value stride) {
      std::optional<std::pair<unsigned, Value>> c = coordinateOf(coordinate);
      if (!c || c->first >= terms.size() || terms[c->first])
        return false;
      terms[c->first] = std::make_pair(coordinate, stride);
      starts[c->first] = c->second;
      return true;
    };
    if (coordinateOf(value))
      return record(value, Value());
    if (auto mul = value.getDefiningOp<arith::MulIOp>()) {
      for (auto [coordinate, stride] : {std::pair(mul.getLhs(), mul.getRhs()),
                                        std::pair(mul.getRhs(), mul.getLhs())})
        if (coordinateOf(coordinate))
          if (Value scalar = scalarOf(stride))
            return record(coordinate, scalar);
      return false;
    }
    if (auto add = value.getDefiningOp<arith::AddIOp>())
      return collectTerms(add.getLhs(), terms, starts) && collectTerms(add.getRhs(), terms, starts);
    return false;
  }

  /// Collects the bounds (coordinate < size) the mask `value` ands.
  bool collectBounds(Value value, SmallVectorImpl<std::optional<std::pair<unsigned, Value>>> &coords,
                     SmallVectorImpl<Value> &sizes) {
    if (auto both = value.getDefiningOp<arith::AndIOp>())
      return collectBounds(both.getLhs(), coords, sizes) &&
             collectBounds(both.getRhs(), coords, sizes);
    auto compare = value.getDefiningOp<arith::CmpIOp>();
    if (!compare || compare.getPredicate() != arith::CmpIPredicate::ult)
      return false;
    std::optional<std::pair<unsigned, Value>> c = coordinateOf(compare.getLhs());
    Value size = scalarOf(compare.getRhs());
    if (!c || !size || c->first >= sizes.size() || sizes[c->first])
      return false;
    sizes[c->first] = size;
    coords[c->first] = c;
    return true;
  }
};
} // namespace

/// Whether two starts are the same scalar (null: 0).
static bool sameStart(Value a, Value b) {
  if (a == b)
    return true;
  auto isZero = [](Value v) { return !v || matchPattern(v, m_Zero()); };
  if (isZero(a) && isZero(b))
    return true;
  APInt x, y;
  return a && b && matchPattern(a, m_ConstantInt(&x)) && matchPattern(b, m_ConstantInt(&y)) &&
         x == y;
}

static std::optional<TiledView> match(Matcher &m, Value ptrs, Value mask) {
  auto addPtr = ptrs.getDefiningOp<AddPtrOp>();
  if (!addPtr || !mask)
    return std::nullopt;
  auto baseSplat = addPtr.getPtr().getDefiningOp<SplatOp>();
  if (!baseSplat || !isa<PtrType>(baseSplat.getSrc().getType()))
    return std::nullopt;
  unsigned rank = cast<RankedTensorType>(ptrs.getType()).getRank();
  if (rank < 2 || rank > 5)
    return std::nullopt;
  OpBuilder &builder = m.builder;
  SmallVector<std::optional<std::pair<Value, Value>>> terms(rank);
  SmallVector<Value> starts(rank), sizes(rank);
  SmallVector<std::optional<std::pair<unsigned, Value>>> bounds(rank);
  if (!m.collectTerms(addPtr.getOffset(), terms, starts) ||
      !m.collectBounds(mask, bounds, sizes))
    return std::nullopt;
  TiledView view;
  view.base = baseSplat.getSrc();
  // Every dimension has one term and one bound, over the same coordinate.
  for (unsigned d = 0; d < rank; ++d)
    if (!terms[d] || !sizes[d] || !sameStart(starts[d], bounds[d]->second))
      return std::nullopt;
  auto isUnit = [&](unsigned d) {
    Value stride = terms[d]->second;
    return !stride || matchPattern(stride, m_One());
  };
  // The unit-stride dimension goes last in the lists: the innermost one,
  // or (transposed) the next-innermost one.
  SmallVector<unsigned> order = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  if (!isUnit(rank - 1)) {
    if (!isUnit(rank - 2))
      return std::nullopt;
    std::swap(order[rank - 2], order[rank - 1]);
    view.transposed = true;
  }
  // No unit stride (a bare coordinate) outside the innermost dimension.
  if (llvm::any_of(ArrayRef(order).drop_back(), [&](unsigned d) { return !terms[d]->second; }))
    return std::nullopt;
  Type indexType = getElementTypeOrSelf(addPtr.getOffset().getType());
  for (auto [i, d] : llvm::enumerate(order)) {
    if (i + 1 < rank)
      view.strides.push_back(terms[d]->second);
    Value start = starts[d];
    if (!start)
      start = arith::ConstantOp::create(builder, ptrs.getLoc(), indexType,
                                        builder.getIntegerAttr(indexType, 0));
    view.starts.push_back(start);
    view.sizes.push_back(sizes[d]);
  }
  return view;
}

std::optional<TiledView> matchTiledView(OpBuilder &builder, Value ptrs, Value mask) {
  Matcher m{builder};
  std::optional<TiledView> view = match(m, ptrs, mask);
  if (!view)
    for (Operation *op : m.built)
      op->erase();
  return view;
}

} // namespace tilepipe::tile_as
