//===- CudaTileArithFolders.cpp - Folders and canonicalizations -----------===//
//
// The folds and canonicalization patterns NVIDIA's dialect defines for the
// elementwise ops: `addf` puts a multiply on its left (for FMA fusion), and
// `select` folds constant and redundant forms as arith.select does.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithSyntax.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tilepipe::cuda_tile {
namespace {

/// The value of a constant i1 tile whose elements are all equal.
std::optional<bool> getUniformBool(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !attr.getElementType().isSignlessInteger(1))
    return std::nullopt;
  if (!attr.isSplat() && attr.getNumElements() != 1)
    return std::nullopt;
  return *attr.getValues<bool>().begin();
}

/// The value of a constant integer tile whose elements are all equal.
std::optional<APInt> getUniformInt(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (!attr.isSplat() && attr.getNumElements() != 1)
    return std::nullopt;
  return *attr.getValues<APInt>().begin();
}

bool isUniformInt(Value value, uint64_t expected) {
  std::optional<APInt> v = getUniformInt(value);
  return v && *v == expected;
}

/// `xori %cond, true`: the logical negation of an i1 tile.
Value createNot(PatternRewriter &rewriter, Location loc, Value cond) {
  auto type = llvm::cast<TileType>(cond.getType());
  auto ones = DenseElementsAttr::get(type, rewriter.getBoolAttr(true));
  Value allTrue = ConstantOp::create(
      rewriter, loc, type, llvm::cast<DenseIntOrFPElementsAttr>(ones));
  return XOrIOp::create(rewriter, loc, type, cond, allTrue);
}

} // namespace

//===----------------------------------------------------------------------===//
// AddFOp
//===----------------------------------------------------------------------===//

namespace {
/// APFloat's rounding for one of the four IEEE modes.
std::optional<llvm::RoundingMode> toAPFloatRounding(RoundingMode mode) {
  switch (mode) {
  case RoundingMode::NEAREST_EVEN:
    return llvm::RoundingMode::NearestTiesToEven;
  case RoundingMode::ZERO:
    return llvm::RoundingMode::TowardZero;
  case RoundingMode::NEGATIVE_INF:
    return llvm::RoundingMode::TowardNegative;
  case RoundingMode::POSITIVE_INF:
    return llvm::RoundingMode::TowardPositive;
  default:
    return std::nullopt;
  }
}

bool isFiniteNormalOrZero(const APFloat &value) {
  return value.isFinite() && !value.isDenormal();
}
} // namespace

OpFoldResult AddFOp::fold(FoldAdaptor adaptor) {
  // Only finite, non-subnormal sums: NaN payloads, infinities and
  // flush-to-zero are left to the target.
  auto lhs = llvm::dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getLhs());
  auto rhs = llvm::dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getRhs());
  std::optional<llvm::RoundingMode> rounding =
      toAPFloatRounding(getRoundingMode());
  if (!lhs || !rhs || !rounding)
    return {};
  SmallVector<APFloat> sums;
  sums.reserve(getType().getNumElements());
  auto rhsValues = rhs.getValues<APFloat>();
  auto rhsIt = rhsValues.begin();
  for (APFloat value : lhs.getValues<APFloat>()) {
    const APFloat &addend = *rhsIt++;
    if (!isFiniteNormalOrZero(value) || !isFiniteNormalOrZero(addend))
      return {};
    value.add(addend, *rounding);
    if (!isFiniteNormalOrZero(value))
      return {};
    sums.push_back(value);
  }
  return DenseElementsAttr::get(getType(), sums);
}

LogicalResult AddFOp::canonicalize(AddFOp op, PatternRewriter &rewriter) {
  bool lhsIsMul = op.getLhs().getDefiningOp<MulFOp>() != nullptr;
  bool rhsIsMul = op.getRhs().getDefiningOp<MulFOp>() != nullptr;
  if (lhsIsMul || !rhsIsMul)
    return failure();
  rewriter.replaceOpWithNewOp<AddFOp>(op, op.getType(), op.getRhs(), op.getLhs(),
                                      op.getRoundingModeAttr(),
                                      op.getFlushToZeroAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

namespace {

using SelectFoldRule = OpFoldResult (*)(SelectOp);

// select %c, %x, %x => %x
OpFoldResult foldSameArms(SelectOp op) {
  if (op.getValIfTrue() == op.getValIfFalse())
    return op.getValIfTrue();
  return {};
}

// select true, %x, %y => %x; select false, %x, %y => %y
OpFoldResult foldConstantCondition(SelectOp op) {
  std::optional<bool> cond = getUniformBool(op.getCond());
  if (!cond)
    return {};
  return *cond ? op.getValIfTrue() : op.getValIfFalse();
}

// select %c, true, false => %c
OpFoldResult foldBoolIdentity(SelectOp op) {
  std::optional<bool> onTrue = getUniformBool(op.getValIfTrue());
  std::optional<bool> onFalse = getUniformBool(op.getValIfFalse());
  if (onTrue && onFalse && *onTrue && !*onFalse)
    return op.getCond();
  return {};
}

// select (cmpi eq %a, %b), %a, %b => %b; with `ne` => %a
OpFoldResult foldSelectOfCompare(SelectOp op) {
  auto cmp = op.getCond().getDefiningOp<CmpIOp>();
  if (!cmp)
    return {};
  ComparisonPredicate pred = cmp.getComparisonPredicate();
  if (pred != ComparisonPredicate::EQUAL &&
      pred != ComparisonPredicate::NOT_EQUAL)
    return {};
  Value t = op.getValIfTrue(), f = op.getValIfFalse();
  bool sameOperands = (cmp.getLhs() == t && cmp.getRhs() == f) ||
                      (cmp.getRhs() == t && cmp.getLhs() == f);
  if (!sameOperands)
    return {};
  return pred == ComparisonPredicate::NOT_EQUAL ? t : f;
}

// select (xori %c, true), %x, %y => select %c, %y, %x (in place)
OpFoldResult foldNegatedCondition(SelectOp op) {
  auto negation = op.getCond().getDefiningOp<XOrIOp>();
  if (!negation)
    return {};
  std::optional<bool> rhs = getUniformBool(negation.getRhs());
  if (!rhs || !*rhs)
    return {};
  Value t = op.getValIfTrue(), f = op.getValIfFalse();
  op.getCondMutable().assign(negation.getLhs());
  op.getValIfTrueMutable().assign(f);
  op.getValIfFalseMutable().assign(t);
  return op.getResult();
}

// select %c, (select %c, %a, %b), %d => select %c, %a, %d, and the mirror
// image on the false arm (in place).
OpFoldResult foldNestedSelect(SelectOp op) {
  if (auto inner = op.getValIfTrue().getDefiningOp<SelectOp>();
      inner && inner.getCond() == op.getCond()) {
    op.getValIfTrueMutable().assign(inner.getValIfTrue());
    return op.getResult();
  }
  if (auto inner = op.getValIfFalse().getDefiningOp<SelectOp>();
      inner && inner.getCond() == op.getCond()) {
    op.getValIfFalseMutable().assign(inner.getValIfFalse());
    return op.getResult();
  }
  return {};
}

constexpr SelectFoldRule kSelectFoldRules[] = {
    foldSameArms,        foldConstantCondition, foldBoolIdentity,
    foldSelectOfCompare, foldNegatedCondition,  foldNestedSelect};

/// select %cst_cond, %cst_a, %cst_b => the element-wise chosen constant.
struct SelectOfConstants : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr cond;
    DenseElementsAttr onTrue, onFalse;
    if (!matchPattern(op.getCond(), m_Constant(&cond)) ||
        !matchPattern(op.getValIfTrue(), m_Constant(&onTrue)) ||
        !matchPattern(op.getValIfFalse(), m_Constant(&onFalse)))
      return failure();
    auto type = llvm::cast<TileType>(op.getType());
    DenseElementsAttr result;
    if (llvm::isa<IntegerType>(type.getElementType()))
      result = choose<APInt>(type, cond, onTrue, onFalse);
    else if (llvm::isa<FloatType>(type.getElementType()))
      result = choose<APFloat>(type, cond, onTrue, onFalse);
    else
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, type, llvm::cast<DenseIntOrFPElementsAttr>(result));
    return success();
  }

  template <typename ElementT>
  static DenseElementsAttr choose(TileType type, DenseIntElementsAttr cond,
                                  DenseElementsAttr onTrue,
                                  DenseElementsAttr onFalse) {
    SmallVector<ElementT> values;
    values.reserve(type.getNumElements());
    auto t = onTrue.getValues<ElementT>().begin();
    auto f = onFalse.getValues<ElementT>().begin();
    for (bool c : cond.getValues<bool>()) {
      values.push_back(c ? *t : *f);
      ++t;
      ++f;
    }
    return DenseElementsAttr::get(type, values);
  }
};

/// select %c, 1, 0 => exti %c unsigned; select %c, 0, 1 => exti (not %c).
struct SelectToExtI : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto type = llvm::cast<TileType>(op.getType());
    if (!llvm::isa<IntegerType>(type.getElementType()) ||
        type.getElementType().isSignlessInteger(1))
      return failure();
    Value cond = op.getCond();
    if (isUniformInt(op.getValIfTrue(), 0) &&
        isUniformInt(op.getValIfFalse(), 1))
      cond = createNot(rewriter, op.getLoc(), cond);
    else if (!isUniformInt(op.getValIfTrue(), 1) ||
             !isUniformInt(op.getValIfFalse(), 0))
      return failure();
    rewriter.replaceOpWithNewOp<ExtIOp>(op, type, cond, Signedness::Unsigned);
    return success();
  }
};

/// select %c, false, true => xori %c, true
struct SelectToNot : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> onTrue = getUniformBool(op.getValIfTrue());
    std::optional<bool> onFalse = getUniformBool(op.getValIfFalse());
    if (!onTrue || !onFalse || *onTrue || !*onFalse)
      return failure();
    rewriter.replaceOp(op, createNot(rewriter, op.getLoc(), op.getCond()));
    return success();
  }
};

} // namespace

OpFoldResult SelectOp::fold(FoldAdaptor) {
  for (SelectFoldRule rule : kSelectFoldRules)
    if (OpFoldResult folded = rule(*this))
      return folded;
  return {};
}

void SelectOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<SelectOfConstants, SelectToExtI, SelectToNot>(context);
}

} // namespace tilepipe::cuda_tile
