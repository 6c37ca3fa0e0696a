//===- SyncLowering.cpp - cuda_tile grid-dependency and fence ops ---------===//
//
// Ops that order execution or memory but carry no tile values lower straight
// to their NVVM operations, which the later stages pass through untouched:
//   gdc_wait_tko              -> nvvm.griddepcontrol wait
//   gdc_launch_dependents_tko -> nvvm.griddepcontrol launch_dependents
//   memory_fence_alias_tko    -> nvvm.fence.proxy {kind = alias}
// Each result token is a fresh tile_aa token: the ops keep their place in
// program order, which is what orders the memory ops around them.
// Programmatic dependent launch exists from sm_90 on; below that tile-ptx
// drops the griddepcontrol calls (a grid then has no prerequisite grid in
// flight, so waiting is a no-op and so is releasing dependents).
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
namespace tilepipe {
namespace ct = cuda_tile;
namespace {

template <typename SourceOp, NVVM::GridDepActionKind Kind>
struct GridDependencyLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::GriddepcontrolOp::create(rewriter, op.getLoc(), Kind);
    rewriter.replaceOpWithNewOp<tile_aa::MakeTokenOp>(op, this->tokenType(op));
    return success();
  }
};

struct MemoryFenceAliasLowering : TilePattern<ct::MemoryFenceAliasTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MemoryFenceAliasTkoOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::FenceProxyOp::create(rewriter, op.getLoc(), NVVM::ProxyKind::alias,
                               /*space=*/nullptr);
    rewriter.replaceOpWithNewOp<tile_aa::MakeTokenOp>(op, tokenType(op));
    return success();
  }
};

} // namespace

void populateSyncLoweringPatterns(TileTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<
      GridDependencyLowering<ct::GdcWaitTkoOp, NVVM::GridDepActionKind::wait>,
      GridDependencyLowering<ct::GdcLaunchDependentsTkoOp,
                             NVVM::GridDepActionKind::launch_dependents>,
      MemoryFenceAliasLowering>(converter, patterns.getContext());
}

} // namespace tilepipe
