//===- AtomicLowering.cpp - cuda_tile atomics -> tile_aa ------------------===//
//
// atomic_rmw_tko and atomic_cas_tko keep their operands (a 0-d pointer tile
// becomes one scalar pointer, executed once per CTA later);
// atomic_red_view_tko becomes a read-modify-write through the pointers and
// mask of the view's tile, its old values unused. Ordering, scope and mode
// travel as cuda_tile's keywords. tile_aa keeps memory ops in program order,
// so the result token is the operand token (or a fresh one).
// ConvertCudaTileToTileAAPass registers these patterns through
// populateAtomicLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "ViewLowering.h"

using namespace mlir;

namespace tilepipe {
namespace ct = cuda_tile;

namespace {

/// The token an atomic returns: ordered after `token` (program order).
Value resultToken(ConversionPatternRewriter &rewriter, Location loc, Value token) {
  if (token)
    return token;
  return tile_aa::MakeTokenOp::create(rewriter, loc,
                                      tile_aa::TokenType::get(rewriter.getContext()));
}

StringAttr orderingAttr(Builder &builder, ct::MemoryOrderingSemantics ordering) {
  return builder.getStringAttr(ct::stringifyMemoryOrderingSemantics(ordering));
}

StringAttr scopeAttr(Builder &builder, ct::MemoryScope scope) {
  return builder.getStringAttr(ct::stringifyMemoryScope(scope));
}

struct AtomicRMWLowering : TilePattern<ct::AtomicRMWTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AtomicRMWTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    waitForTokenWrites(rewriter, op);
    Location loc = op.getLoc();
    Value old = tile_aa::AtomicRMWOp::create(
        rewriter, loc, adaptor.getArg().getType(),
        accessPointers(rewriter, op, adaptor.getPointers()), adaptor.getArg(), adaptor.getMask(),
        rewriter.getStringAttr(ct::stringifyAtomicRMWMode(op.getMode())),
        orderingAttr(rewriter, op.getMemoryOrderingSemantics()),
        scopeAttr(rewriter, op.getMemoryScope()));
    orderAccess(rewriter, op);
    rewriter.replaceOp(op, {old, resultToken(rewriter, loc, adaptor.getToken())});
    return success();
  }
};

struct AtomicCASLowering : TilePattern<ct::AtomicCASTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AtomicCASTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    waitForTokenWrites(rewriter, op);
    Location loc = op.getLoc();
    Value old = tile_aa::AtomicCASOp::create(
        rewriter, loc, adaptor.getVal().getType(),
        accessPointers(rewriter, op, adaptor.getPointers()), adaptor.getCmp(), adaptor.getVal(),
        adaptor.getMask(), orderingAttr(rewriter, op.getMemoryOrderingSemantics()),
        scopeAttr(rewriter, op.getMemoryScope()));
    orderAccess(rewriter, op);
    rewriter.replaceOp(op, {old, resultToken(rewriter, loc, adaptor.getToken())});
    return success();
  }
};

/// atomic_red_view_tko: out-of-bounds elements of the tile are masked off.
struct AtomicRedViewLowering : TilePattern<ct::AtomicRedViewTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AtomicRedViewTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    waitForTokenWrites(rewriter, op);
    FailureOr<TileAccess> access =
        buildTileAccess(rewriter, op, op.getView(), op.getIndex(), adaptor.getIndex());
    if (failed(access))
      return failure();
    Location loc = op.getLoc();
    Value value = asOneElement(rewriter, loc, adaptor.getValue());
    tile_aa::AtomicRMWOp::create(
        rewriter, loc, value.getType(),
        accessPointers(rewriter, op, access->ptrs), value, access->mask,
        rewriter.getStringAttr(ct::stringifyAtomicRMWMode(op.getMode())),
        orderingAttr(rewriter, op.getMemoryOrderingSemantics()),
        scopeAttr(rewriter, op.getMemoryScope()));
    orderAccess(rewriter, op);
    rewriter.replaceOp(op, resultToken(rewriter, loc, adaptor.getToken()));
    return success();
  }
};

} // namespace

void populateAtomicLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering, AtomicRedViewLowering>(
      converter, patterns.getContext());
}

} // namespace tilepipe
