//===- LoweringCommon.h - Shared pieces of the cuda_tile -> tile_aa lowering ===//
//
// The type converter and pattern base every cuda_tile lowering file uses, and
// the entry points through which each op family adds its patterns to the
// one conversion the pass runs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_LOWERINGCOMMON_H
#define TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_LOWERINGCOMMON_H

#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"
#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

#include "mlir/Transforms/DialectConversion.h"

namespace tilepipe {

/// cuda_tile types -> builtin/tile_aa types: 0-d tiles are scalars, other
/// tiles ranked tensors, pointers !tile_aa.ptr<T, 1>, tokens !tile_aa.token.
class TileTypeConverter : public mlir::TypeConverter {
public:
  TileTypeConverter();
};

/// Base of the cuda_tile patterns: a converter-aware OpConversionPattern.
template <typename SourceOp>
class TilePattern : public mlir::OpConversionPattern<SourceOp> {
public:
  using mlir::OpConversionPattern<SourceOp>::OpConversionPattern;

protected:
  mlir::Type convert(mlir::Type type) const {
    return this->getTypeConverter()->convertType(type);
  }
  static mlir::Type tokenType(mlir::Operation *op) {
    return tile_aa::TokenType::get(op->getContext());
  }
};

/// get_tile_block_id / get_num_tile_blocks: one i32 per grid axis, each read
/// with the tile_aa query op `GridQueryOp` (block id or block count).
template <typename SourceOp, typename GridQueryOp>
struct GridQueryLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  mlir::LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    llvm::SmallVector<mlir::Value, 3> axes;
    for (int32_t axis = 0; axis < 3; ++axis)
      axes.push_back(GridQueryOp::create(rewriter, op.getLoc(),
                                         rewriter.getI32Type(), axis));
    rewriter.replaceOp(op, axes);
    return mlir::success();
  }
};

/// Set on a kernel whose body has a tile-block (non-global) alloca. Its
/// pointers may then hold generic addresses of shared memory, so every
/// memory access in it goes through accessPointers and is followed by
/// orderAccess (MemoryLowering.cpp).
inline constexpr llvm::StringLiteral kGenericAddressingAttrName =
    "tile_aa.generic_addressing";

/// Whether the kernel `entry` allocates tile-block memory (alloca without
/// `global`).
bool hasTileBlockAlloca(cuda_tile::EntryOp entry);

/// The pointer (tensor) `ptrs` that a memory access of `op` goes through:
/// itself, or in a kernel marked kGenericAddressingAttrName the same address
/// bits as generic pointers (address space 0), so the access reaches shared
/// and global memory alike. Null stays null.
mlir::Value accessPointers(mlir::ConversionPatternRewriter &rewriter,
                           mlir::Operation *op, mlir::Value ptrs);

/// After a memory access of `op` in a kernel marked
/// kGenericAddressingAttrName: a CTA barrier. The tile block is one logical
/// thread, so its next access must see this one, but the threads that hold
/// the elements differ from access to access (a scratch buffer is written in
/// one layout and read in another).
void orderAccess(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op);

/// Tokens order the tile block's memory accesses, but the threads holding a
/// tile's elements differ from access to access: a load (or store, or
/// atomic) ordered after a write of the tile block by its token must wait
/// for every thread's part of that write. markAccessesAfterWrites marks such
/// accesses before the conversion (it reads the cuda_tile token graph);
/// waitForTokenWrites, called by each access's pattern before the access,
/// puts a CTA barrier there (bar.sync orders the CTA's memory accesses).
void markAccessesAfterWrites(mlir::Operation *root);
void waitForTokenWrites(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op);

/// Records on `access` (a tile_aa.load or tile_aa.store) the ordering of
/// the cuda_tile load/store `op` it implements when that is not weak: the
/// discardable attribute `memory_order` = "<relaxed|acquire|release>.<cta|
/// gpu|sys>" (tl_blk is the CTA, device the GPU), which later stages keep
/// and tile-llvm prints as the ld/st qualifier (MemoryLowering.cpp).
void recordMemoryOrder(mlir::Operation *op, mlir::Operation *access);

/// The one element of a single-element tensor (numbers or pointers) as a
/// scalar every thread holds (ShapeLowering.cpp).
mlir::Value
scalarOfSingleElement(mlir::ConversionPatternRewriter &rewriter,
                      mlir::Location loc, mlir::Value tensor);

// Each op family's patterns, defined in the file of the same name.
// (One line per family in ConvertCudaTileToTileAAPass registers them.)
void populateArithmeticLoweringPatterns(TileTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
void populateControlFlowLoweringPatterns(TileTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateShapeLoweringPatterns(TileTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateMatrixLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// `gpuName`: the --gpu-name target, which decides whether block-scaled
/// multiplies keep their scales (tile_aa.mmaf_scaled).
void populateScaledMatrixLoweringPatterns(TileTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          llvm::StringRef gpuName);
void populateMemoryLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateReductionLoweringPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateSyncLoweringPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateAtomicLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateMiscLoweringPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);

} // namespace tilepipe

#endif // TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_LOWERINGCOMMON_H
