//===- CudaTileIfCanonicalization.cpp - Structural rewrites of cuda_tile.if ===//
//
// The canonicalization patterns the original registers for `if`: negated
// conditions, unused or branch-invariant results, constant conditions,
// yield-only branches to `select`, empty else branches, and merging adjacent
// or nested ifs on the same condition. A branch may end in `break`,
// `continue` or `return` instead of `yield`; such ifs are left alone by every
// pattern that would have to move that terminator.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tilepipe::cuda_tile {
namespace {

/// The yield ending `region`, or null (empty region, other terminator).
YieldOp getYield(Region &region) {
  if (region.empty())
    return nullptr;
  return dyn_cast<YieldOp>(region.front().getTerminator());
}

/// Whether every non-empty branch of `op` ends in a yield.
bool branchesEndInYield(IfOp op) {
  for (Region *region : {&op.getThenRegion(), &op.getElseRegion()})
    if (!region->empty() && !getYield(*region))
      return false;
  return true;
}

/// The value of a constant scalar (or splat) i1 tile.
std::optional<bool> getConstantBool(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !attr.getElementType().isSignlessInteger(1) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<bool>();
}

/// Whether `value` is defined inside `op` (in one of its regions).
bool isDefinedInside(Value value, Operation *op) {
  Region *region = value.getParentRegion();
  return region && op->isAncestor(region->getParentOp());
}

/// Moves the ops of `from`'s block, but its yield, to the end of `into`;
/// returns what the yield yielded. An empty region yields nothing.
SmallVector<Value> spliceBranch(PatternRewriter &rewriter, Region &from,
                                Block *into) {
  if (from.empty())
    return {};
  Block &block = from.front();
  YieldOp yield = cast<YieldOp>(block.getTerminator());
  SmallVector<Value> values(yield.getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&block, into, into->end());
  return values;
}

/// if (xori(c, true)) A else B  ->  if (c) B else A
struct InvertNegatedCondition : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    auto negation = op.getCondition().getDefiningOp<XOrIOp>();
    if (!negation || op.getElseRegion().empty())
      return failure();
    Value condition;
    if (getConstantBool(negation.getRhs()) == true)
      condition = negation.getLhs();
    else if (getConstantBool(negation.getLhs()) == true)
      condition = negation.getRhs();
    else
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getConditionMutable().assign(condition);
      Region swap;
      swap.takeBody(op.getThenRegion());
      op.getThenRegion().takeBody(op.getElseRegion());
      op.getElseRegion().takeBody(swap);
    });
    return success();
  }
};

/// Drops results nobody uses.
struct RemoveUnusedResults : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    if (op.use_empty() && op.getNumResults() == 0)
      return failure();
    SmallVector<unsigned> kept;
    for (OpResult result : op.getResults())
      if (!result.use_empty())
        kept.push_back(result.getResultNumber());
    if (kept.size() == op.getNumResults() || !branchesEndInYield(op))
      return failure();
    SmallVector<Type> types;
    for (unsigned index : kept)
      types.push_back(op.getResult(index).getType());
    auto replacement = IfOp::create(rewriter, op.getLoc(), types, op.getCondition());
    for (auto [from, to] : {std::pair{&op.getThenRegion(), &replacement.getThenRegion()},
                            {&op.getElseRegion(), &replacement.getElseRegion()}}) {
      rewriter.inlineRegionBefore(*from, *to, to->end());
      if (YieldOp yield = getYield(*to)) {
        SmallVector<Value> values;
        for (unsigned index : kept)
          values.push_back(yield.getOperand(index));
        rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(values); });
      }
    }
    SmallVector<Value> results(op.getNumResults(), nullptr);
    for (auto [position, index] : llvm::enumerate(kept))
      results[index] = replacement.getResult(position);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A result both branches yield the same outer value for is that value.
struct ReplaceYieldWithValue : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    YieldOp thenYield = getYield(op.getThenRegion());
    YieldOp elseYield = getYield(op.getElseRegion());
    if (!thenYield || !elseYield)
      return failure();
    bool changed = false;
    for (OpResult result : op.getResults()) {
      Value value = thenYield.getOperand(result.getResultNumber());
      if (result.use_empty() || value != elseYield.getOperand(result.getResultNumber()) ||
          isDefinedInside(value, op))
        continue;
      rewriter.replaceAllUsesWith(result, value);
      changed = true;
    }
    return success(changed);
  }
};

/// if (true) A else B  ->  A (the branch's ops, in place of the if).
struct RemoveStaticCondition : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    std::optional<bool> condition = getConstantBool(op.getCondition());
    if (!condition)
      return failure();
    Region &taken = *condition ? op.getThenRegion() : op.getElseRegion();
    if (taken.empty()) {
      if (op.getNumResults())
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    if (!getYield(taken))
      return failure();
    Block *block = op->getBlock();
    Block *after = rewriter.splitBlock(block, op->getIterator());
    SmallVector<Value> results = spliceBranch(rewriter, taken, block);
    rewriter.mergeBlocks(after, block);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Scalar results of yield-only branches become selects.
struct ConvertToSelect : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    if (op.getNumResults() == 0)
      return failure();
    YieldOp thenYield = getYield(op.getThenRegion());
    YieldOp elseYield = getYield(op.getElseRegion());
    if (!thenYield || !elseYield || &op.getThenRegion().front().front() != thenYield ||
        &op.getElseRegion().front().front() != elseYield)
      return failure();
    for (Type type : op.getResultTypes()) {
      auto tile = dyn_cast<TileType>(type);
      if (!tile || tile.getRank() != 0 || !tile.getElementType().isIntOrFloat())
        return failure();
    }
    SmallVector<Value> selected;
    for (OpResult result : op.getResults()) {
      unsigned index = result.getResultNumber();
      selected.push_back(SelectOp::create(rewriter, op.getLoc(), result.getType(),
                                          op.getCondition(), thenYield.getOperand(index),
                                          elseYield.getOperand(index)));
    }
    rewriter.replaceOp(op, selected);
    return success();
  }
};

/// An else branch that does nothing is no else branch.
struct RemoveEmptyElseBranch : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    YieldOp elseYield = getYield(op.getElseRegion());
    if (op.getNumResults() || !elseYield ||
        &op.getElseRegion().front().front() != elseYield)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getElseRegion().getBlocks().clear(); });
    return success();
  }
};

/// Two adjacent ifs on the same condition become one.
struct CombineIfs : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    auto previous = dyn_cast_or_null<IfOp>(op->getPrevNode());
    if (!previous || previous.getCondition() != op.getCondition() ||
        !branchesEndInYield(previous) || !branchesEndInYield(op))
      return failure();
    // Inside op's branches, previous's results are what its same branch
    // yielded.
    for (auto [before, region] :
         {std::pair{&previous.getThenRegion(), &op.getThenRegion()},
          {&previous.getElseRegion(), &op.getElseRegion()}}) {
      YieldOp yield = getYield(*before);
      for (OpResult result : previous.getResults())
        rewriter.replaceUsesWithIf(result, yield.getOperand(result.getResultNumber()),
                                   [&](OpOperand &use) {
                                     return region->isAncestor(
                                         use.getOwner()->getParentRegion());
                                   });
    }
    SmallVector<Type> types(previous.getResultTypes());
    llvm::append_range(types, op.getResultTypes());
    rewriter.setInsertionPoint(op);
    auto combined = IfOp::create(rewriter, op.getLoc(), types, op.getCondition());
    bool hasElse = !previous.getElseRegion().empty() || !op.getElseRegion().empty();
    for (auto [first, second, into] :
         {std::tuple{&previous.getThenRegion(), &op.getThenRegion(), &combined.getThenRegion()},
          {&previous.getElseRegion(), &op.getElseRegion(), &combined.getElseRegion()}}) {
      if (into == &combined.getElseRegion() && !hasElse)
        continue;
      Block *block = rewriter.createBlock(into);
      SmallVector<Value> values = spliceBranch(rewriter, *first, block);
      llvm::append_range(values, spliceBranch(rewriter, *second, block));
      rewriter.setInsertionPointToEnd(block);
      YieldOp::create(rewriter, op.getLoc(), values);
    }
    rewriter.replaceOp(previous, combined.getResults().take_front(previous.getNumResults()));
    rewriter.replaceOp(op, combined.getResults().drop_front(types.size() - op.getNumResults()));
    return success();
  }
};

/// if (a) { if (b) { X } }  ->  if (andi(a, b)) { X }   (no results, no else)
struct CombineNestedIfs : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    if (op.getNumResults() || !op.getElseRegion().empty() || !getYield(op.getThenRegion()))
      return failure();
    Block &body = op.getThenRegion().front();
    auto inner = dyn_cast<IfOp>(body.front());
    if (!inner || std::next(body.begin()) != Block::iterator(body.getTerminator()) ||
        inner.getNumResults() || !inner.getElseRegion().empty() ||
        !getYield(inner.getThenRegion()) ||
        isDefinedInside(inner.getCondition(), op))
      return failure();
    Value both = AndIOp::create(rewriter, op.getLoc(), op.getCondition().getType(),
                                op.getCondition(), inner.getCondition());
    auto combined = IfOp::create(rewriter, op.getLoc(), TypeRange{}, both);
    rewriter.inlineRegionBefore(inner.getThenRegion(), combined.getThenRegion(),
                                combined.getThenRegion().end());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Both branches leave the same way (`return`, `break` or `continue` with the
/// same outer operands): the exit moves after the if, and whatever followed
/// the if in its block, unreachable, goes.
struct MoveTerminatorToParent : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &rewriter) const override {
    if (op.getNumResults() || op.getThenRegion().empty() || op.getElseRegion().empty())
      return failure();
    Operation *thenExit = op.getThenRegion().front().getTerminator();
    Operation *elseExit = op.getElseRegion().front().getTerminator();
    if (isa<YieldOp>(thenExit) || thenExit->getName() != elseExit->getName() ||
        thenExit->getOperands() != elseExit->getOperands() ||
        thenExit->getAttrDictionary() != elseExit->getAttrDictionary() ||
        llvm::any_of(thenExit->getOperands(),
                     [&](Value value) { return isDefinedInside(value, op); }))
      return failure();
    Block *block = op->getBlock();
    while (&block->back() != op.getOperation())
      rewriter.eraseOp(&block->back());
    rewriter.setInsertionPointAfter(op);
    rewriter.clone(*thenExit);
    for (Operation *exit : {thenExit, elseExit}) {
      rewriter.setInsertionPoint(exit);
      rewriter.replaceOpWithNewOp<YieldOp>(exit);
    }
    return success();
  }
};

} // namespace

void IfOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                       MLIRContext *context) {
  patterns.add<InvertNegatedCondition, RemoveUnusedResults, ReplaceYieldWithValue,
               RemoveStaticCondition, ConvertToSelect, RemoveEmptyElseBranch,
               CombineIfs, CombineNestedIfs, MoveTerminatorToParent>(context);
}

} // namespace tilepipe::cuda_tile
