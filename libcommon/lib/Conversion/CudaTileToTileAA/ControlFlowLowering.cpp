//===- ControlFlowLowering.cpp - cuda_tile control flow -> scf/cf ---------===//
//
// Structured control flow stays structured where scf can say it:
//   for  -> scf.for (tiles, tokens as iter_args), its `continue` -> scf.yield
//   if   -> scf.if, its `yield` -> scf.yield
// `loop` and the early exits `break`/`continue` (possibly nested in ifs)
// become an scf.execute_region holding a CFG:
//
//   scf.execute_region {            // tile_aa.exits = "loop" | "for"
//   ^entry:              cf.br ^header(init)
//   ^exit(results):      scf.yield results
//   ^header(iter):       <body>; continue -> cf.br ^header (loop) or
//                        cf.br ^exit (for); break -> cf.br ^exit
//   }
//
// and an `if` holding such an exit becomes cf.cond_br into its branches.
// Why not scf.while: a break inside an if would need every if on its path
// rewritten to yield a "broke" flag and every later op guarded by it; the
// CFG form says the same thing directly, and execute_region keeps it nested
// where scf.for/scf.if bodies must stay single-block. tile-llvm lowers all of
// it to cf anyway (convert-scf-to-cf).
//
// Patterns run parent-first (the conversion walks pre-order), so a
// break/continue is converted after every enclosing if has become CFG and
// finds its loop's execute_region as its parent op; its targets are that
// region's blocks #1 (exit) and #2 (header), which block splitting never
// moves.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
namespace ct = tilepipe::cuda_tile;

namespace tilepipe {
namespace {

/// Marks an scf.execute_region that holds a loop body as CFG; the value says
/// where `continue` goes ("loop": the header, "for": the exit block).
constexpr llvm::StringLiteral kExitsAttrName = "tile_aa.exits";
constexpr unsigned kExitBlock = 1;
constexpr unsigned kHeaderBlock = 2;

/// True when `region` holds a break or continue of an enclosing loop other
/// than `except` (nested loops own the exits inside them).
bool hasLoopExit(Region &region, Operation *except = nullptr) {
  WalkResult result = region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ct::ForOp, ct::LoopOp>(op))
      return WalkResult::skip();
    if (isa<ct::BreakOp, ct::ContinueOp>(op) && op != except)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

Block *nthBlock(Region &region, unsigned n) { return &*std::next(region.begin(), n); }

/// Builds `scf.execute_region` (kind `kind`) with its entry and exit blocks
/// at the rewriter's insertion point, moves `body` in as the header, and
/// branches from the entry to it with `headerArgs`.
FailureOr<scf::ExecuteRegionOp>
buildLoopRegion(ConversionPatternRewriter &rewriter, const TypeConverter &converter,
                Location loc, StringRef kind, TypeRange resultTypes, Region &body,
                ValueRange headerArgs) {
  auto exec = scf::ExecuteRegionOp::create(rewriter, loc, resultTypes);
  exec->setAttr(kExitsAttrName, rewriter.getStringAttr(kind));
  // Keeps the CFG nested in its loop through tile_aa/tile_as (the
  // canonicalizer would otherwise inline it into a single-block parent).
  exec.setNoInline(true);
  Region &region = exec.getRegion();
  OpBuilder::InsertionGuard guard(rewriter);
  Block *entry = rewriter.createBlock(&region);
  SmallVector<Location> locs(resultTypes.size(), loc);
  Block *exit = rewriter.createBlock(&region, region.end(), resultTypes, locs);
  scf::YieldOp::create(rewriter, loc, exit->getArguments());
  Block *header = &body.front();
  rewriter.inlineRegionBefore(body, region, region.end());
  std::optional<TypeConverter::SignatureConversion> signature =
      converter.convertBlockSignature(header);
  if (!signature)
    return failure();
  header = rewriter.applySignatureConversion(header, *signature, &converter);
  rewriter.setInsertionPointToEnd(entry);
  cf::BranchOp::create(rewriter, loc, header, headerArgs);
  return exec;
}

SmallVector<Type> convertTypes(const TypeConverter &converter, TypeRange types) {
  SmallVector<Type> converted;
  for (Type type : types)
    converted.push_back(converter.convertType(type));
  return converted;
}

/// cuda_tile.for -> scf.for; a body with an early `continue` is wrapped in a
/// CFG execute_region whose results the scf.for yields.
struct ForLowering : TilePattern<ct::ForOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ForOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    bool earlyContinue = hasLoopExit(op.getRegion(), op.getBody()->getTerminator());
    auto loop = scf::ForOp::create(rewriter, loc, adaptor.getLowerBound(),
                                   adaptor.getUpperBound(), adaptor.getStep(),
                                   adaptor.getInitValues(), nullptr,
                                   op.getUnsignedCmp());
    Region &loopBody = loop.getRegion();
    rewriter.eraseBlock(&loopBody.front());
    if (!earlyContinue) {
      rewriter.inlineRegionBefore(op.getRegion(), loopBody, loopBody.end());
      if (failed(rewriter.convertRegionTypes(&loopBody, converter)))
        return failure();
    } else {
      SmallVector<Type> argTypes =
          convertTypes(converter, op.getBody()->getArgumentTypes());
      SmallVector<Location> locs(argTypes.size(), loc);
      Block *body = rewriter.createBlock(&loopBody, loopBody.end(), argTypes, locs);
      FailureOr<scf::ExecuteRegionOp> exec = buildLoopRegion(
          rewriter, converter, loc, "for", loop.getResultTypes(), op.getRegion(),
          body->getArguments());
      if (failed(exec))
        return failure();
      rewriter.setInsertionPointToEnd(body);
      scf::YieldOp::create(rewriter, loc, exec->getResults());
    }
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// cuda_tile.loop -> CFG execute_region (see the file comment).
struct LoopLowering : TilePattern<ct::LoopOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::LoopOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes = convertTypes(*getTypeConverter(), op.getResultTypes());
    FailureOr<scf::ExecuteRegionOp> exec =
        buildLoopRegion(rewriter, *getTypeConverter(), op.getLoc(), "loop",
                        resultTypes, op.getRegion(), adaptor.getInitValues());
    if (failed(exec))
      return failure();
    rewriter.replaceOp(op, exec->getResults());
    return success();
  }
};

/// cuda_tile.if -> scf.if, or cond_br into its branches when one of them
/// leaves a loop early (break/continue cannot cross an scf.if).
struct IfLowering : TilePattern<ct::IfOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::IfOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes = convertTypes(*getTypeConverter(), op.getResultTypes());
    if (hasLoopExit(op.getThenRegion()) || hasLoopExit(op.getElseRegion()))
      return lowerToCFG(op, adaptor.getCondition(), resultTypes, rewriter);
    auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), resultTypes,
                                  adaptor.getCondition(), /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }

  static LogicalResult lowerToCFG(ct::IfOp op, Value condition, TypeRange resultTypes,
                                  ConversionPatternRewriter &rewriter) {
    Location loc = op.getLoc();
    Block *current = op->getBlock();
    Region *region = current->getParent();
    if (!isa<scf::ExecuteRegionOp>(region->getParentOp()) ||
        !region->getParentOp()->hasAttr(kExitsAttrName))
      return op.emitOpError("break/continue outside a loop body");
    Block *rest = rewriter.splitBlock(current, std::next(op->getIterator()));
    SmallVector<Location> locs(resultTypes.size(), loc);
    Block *merge = rewriter.createBlock(region, Region::iterator(rest), resultTypes, locs);
    rewriter.mergeBlocks(rest, merge);
    // Each branch ends in yield (-> br ^merge) or in break/continue (its own
    // pattern branches out of the loop).
    auto moveBranch = [&](Region &branch) -> Block * {
      if (branch.empty())
        return merge;
      Block *block = &branch.front();
      Operation *terminator = block->getTerminator();
      if (isa<ct::YieldOp>(terminator)) {
        rewriter.setInsertionPoint(terminator);
        rewriter.replaceOpWithNewOp<cf::BranchOp>(terminator, merge,
                                                  terminator->getOperands());
      }
      rewriter.inlineRegionBefore(branch, *region, Region::iterator(merge));
      return block;
    };
    Block *thenBlock = moveBranch(op.getThenRegion());
    Block *elseBlock = moveBranch(op.getElseRegion());
    rewriter.setInsertionPointToEnd(current);
    cf::CondBranchOp::create(rewriter, loc, condition, thenBlock, ValueRange(),
                             elseBlock, ValueRange());
    rewriter.replaceOp(op, merge->getArguments());
    return success();
  }
};

/// The loop execute_region `op` sits in directly, if any.
scf::ExecuteRegionOp getLoopRegion(Operation *op) {
  auto exec = dyn_cast<scf::ExecuteRegionOp>(op->getParentOp());
  return exec && exec->hasAttr(kExitsAttrName) ? exec : nullptr;
}

struct ContinueLowering : TilePattern<ct::ContinueOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ContinueOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<scf::ForOp>(op->getParentOp())) {
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getOperands());
      return success();
    }
    scf::ExecuteRegionOp exec = getLoopRegion(op);
    if (!exec)
      return op.emitOpError("continue outside a loop body");
    bool isLoop = exec->getAttrOfType<StringAttr>(kExitsAttrName).getValue() == "loop";
    Block *target = nthBlock(exec.getRegion(), isLoop ? kHeaderBlock : kExitBlock);
    rewriter.replaceOpWithNewOp<cf::BranchOp>(op, target, adaptor.getOperands());
    return success();
  }
};

struct BreakLowering : TilePattern<ct::BreakOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::BreakOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    scf::ExecuteRegionOp exec = getLoopRegion(op);
    if (!exec || exec->getAttrOfType<StringAttr>(kExitsAttrName).getValue() != "loop")
      return op.emitOpError("break outside a loop body");
    rewriter.replaceOpWithNewOp<cf::BranchOp>(op, nthBlock(exec.getRegion(), kExitBlock),
                                              adaptor.getOperands());
    return success();
  }
};

/// The yield ending an scf.if branch (reduce/scan bodies have their own).
struct YieldLowering : TilePattern<ct::YieldOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::YieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<scf::IfOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not an if branch");
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateControlFlowLoweringPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ForLowering, LoopLowering, IfLowering, ContinueLowering,
               BreakLowering, YieldLowering>(converter, patterns.getContext());
}

} // namespace tilepipe
