//===- CudaTileToTileAA.cpp - cuda_tile -> tile_aa + arith/math + func ----===//
//
// Kernels (cuda_tile.entry) become func.func over builtin types: 0-d tiles
// are scalars, other tiles ranked tensors, pointers !tile_aa.ptr. Views
// disappear into explicit address arithmetic (ViewLowering.cpp); `assume`
// disappears after its facts have been read into the memory ops.
//
//===----------------------------------------------------------------------===//
#include "AccessContiguity.h"
#include "LoweringCommon.h"
#include "PackedBits.h"
#include "ViewLowering.h"

#include "tilepipe/Conversion/Passes.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"
#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilepipe {
#define GEN_PASS_DEF_CONVERTCUDATILETOTILEAA
#include "tilepipe/Conversion/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;
namespace ct = tilepipe::cuda_tile;

/// Where an entry's optimization hints travel (read by tilepipe-stamp-target).
static constexpr llvm::StringLiteral kHintsAttrName = "tile_aa.optimization_hints";
/// Name of the cuda_tile.module the kernels came from.
static constexpr llvm::StringLiteral kModuleNameAttrName = "tile_aa.module_name";

TileTypeConverter::TileTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](ct::TokenType type) -> Type {
    return tile_aa::TokenType::get(type.getContext());
  });
  addConversion([this](ct::PointerType type) -> Type {
    return tile_aa::PtrType::get(type.getContext(),
                                 convertType(type.getPointeeType()), 1);
  });
  addConversion([this](ct::TileType type) -> Type {
    Type element = convertType(type.getElementType());
    if (type.getShape().empty())
      return element;
    return RankedTensorType::get(type.getShape(), element);
  });
}

namespace {
/// cuda_tile.entry -> func.func with the same symbol and flattened params.
struct EntryLowering : TilePattern<ct::EntryOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::EntryOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    for (auto [i, type] : llvm::enumerate(op.getArgumentTypes()))
      signature.addInputs(i, convert(type));
    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), {}));
    if (auto hints = op.getOptimizationHints())
      func->setAttr(kHintsAttrName, hints->getValue());
    if (hasTileBlockAlloca(op))
      func->setAttr(kGenericAddressingAttrName, rewriter.getUnitAttr());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(),
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : TilePattern<ct::ReturnOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!adaptor.getOperands().empty())
      return op.emitOpError("kernels return no values");
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op);
    return success();
  }
};

/// assume: the fact was read from the original IR; the value passes through.
struct AssumeLowering : TilePattern<ct::AssumeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AssumeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getValue());
    return success();
  }
};

/// Views only feed memory ops, which read them from the original IR.
template <typename ViewOp>
struct ViewErasure : TilePattern<ViewOp> {
  using TilePattern<ViewOp>::TilePattern;
  LogicalResult matchAndRewrite(ViewOp op, typename ViewOp::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConstantLowering : TilePattern<ct::ConstantOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = convert(op.getType());
    DenseElementsAttr value = op.getValue();
    TypedAttr attr;
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      attr = value.reshape(tensor);
    else if (value.getElementType().isInteger())
      attr = rewriter.getIntegerAttr(type, value.getSplatValue<APInt>());
    else
      attr = rewriter.getFloatAttr(type, value.getSplatValue<APFloat>());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, attr);
    return success();
  }
};

struct MakeTokenLowering : TilePattern<ct::MakeTokenOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MakeTokenOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::MakeTokenOp>(op, tokenType(op));
    return success();
  }
};

/// The nibble paths (SubByteAccess.cpp) take no ld/st qualifier.
static LogicalResult rejectOrderedSubByte(Operation *op) {
  auto ordering = op->getAttrOfType<ct::MemoryOrderingSemanticsAttr>(
      "memory_ordering_semantics");
  if (!ordering || ordering.getValue() == ct::MemoryOrderingSemantics::WEAK)
    return success();
  return op->emitOpError("ordered (non-weak) accesses of 4-bit elements are not lowered");
}

struct LoadViewLowering : TilePattern<ct::LoadViewTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::LoadViewTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    waitForTokenWrites(rewriter, op);
    // A rank-0 view's tile (a scalar here) is loaded as a tensor<1xT>.
    Type resultType = convert(op.getTile().getType());
    auto type = dyn_cast<RankedTensorType>(resultType);
    if (!type)
      type = RankedTensorType::get({1}, resultType);
    // A tile whose unit-stride dimension is not the innermost one is read
    // transposed, in runs along that dimension, and permuted back.
    std::optional<SmallVector<int32_t>> order;
    if (!isSubByteElement(type.getElementType()))
      order = getUnitStrideInnermostOrder(op.getView());
    RankedTensorType viewType = type;
    SmallVector<int32_t> back; // the permute from the access tile to the view's
    if (order) {
      SmallVector<int64_t> shape;
      back.resize(order->size());
      for (auto [d, from] : llvm::enumerate(*order)) {
        shape.push_back(viewType.getDimSize(from));
        back[from] = d;
      }
      type = RankedTensorType::get(shape, viewType.getElementType());
    }
    FailureOr<TileAccess> access =
        buildTileAccess(rewriter, op, op.getView(), op.getIndex(), adaptor.getIndex(),
                        order ? ArrayRef<int32_t>(*order) : ArrayRef<int32_t>());
    if (failed(access))
      return failure();
    // An access with no mask (a rank-0 view's, always in bounds) reads no
    // padding.
    Value other;
    if (access->mask) {
      other = buildPaddingValue(rewriter, op, op.getView(), type);
      if (!other)
        return failure();
    }
    Value tile, token;
    if (isSubByteElement(type.getElementType())) {
      if (failed(rejectOrderedSubByte(op)))
        return failure();
      std::tie(tile, token) =
          loadSubByteTile(rewriter, op, *access, type, other, adaptor.getToken());
    } else {
      auto load = tile_aa::LoadOp::create(
          rewriter, op.getLoc(), type, tile_aa::TokenType::get(op.getContext()),
          accessPointers(rewriter, op, access->ptrs), access->mask, other, adaptor.getToken(),
          rewriter.getI64IntegerAttr(access->contiguity),
          rewriter.getI64IntegerAttr(access->transposedContiguity),
          rewriter.getI64IntegerAttr(access->viewAlignment));
      recordMemoryOrder(op, load);
      tile = load.getResult();
      token = load.getResultToken();
      if (order)
        tile = tile_aa::PermuteOp::create(rewriter, op.getLoc(), viewType, tile, back);
    }
    orderAccess(rewriter, op);
    if (viewType != resultType)
      tile = scalarOfSingleElement(rewriter, op.getLoc(), tile);
    rewriter.replaceOp(op, {tile, token});
    return success();
  }
};

struct StoreViewLowering : TilePattern<ct::StoreViewTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::StoreViewTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    waitForTokenWrites(rewriter, op);
    FailureOr<TileAccess> access =
        buildTileAccess(rewriter, op, op.getView(), op.getIndex(), adaptor.getIndex());
    if (failed(access))
      return failure();
    Value tile = asOneElement(rewriter, op.getLoc(), adaptor.getTile());
    Value token;
    if (isSubByteElement(cast<RankedTensorType>(tile.getType()).getElementType())) {
      if (failed(rejectOrderedSubByte(op)))
        return failure();
      token = storeSubByteTile(rewriter, op, *access, tile, adaptor.getToken());
    } else {
      auto store = tile_aa::StoreOp::create(rewriter, op.getLoc(), tokenType(op),
                                            accessPointers(rewriter, op, access->ptrs), tile,
                                            access->mask, adaptor.getToken(),
                                            rewriter.getI64IntegerAttr(access->contiguity));
      recordMemoryOrder(op, store);
      token = store;
    }
    orderAccess(rewriter, op);
    rewriter.replaceOp(op, token);
    return success();
  }
};

/// A pointer addresses bytes; an i4 or f4 element is half of one, which no
/// pointer tile can name (views address them by element offset).
static LogicalResult rejectSubBytePointers(Operation *op) {
  return op->emitOpError("accesses of 4-bit elements through pointers are not "
                         "lowered (a pointer cannot address half a byte); "
                         "use a view");
}

struct LoadPtrLowering : TilePattern<ct::LoadPtrTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::LoadPtrTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = convert(op.getResult().getType());
    if (isSubByteElement(getElementTypeOrSelf(type)))
      return rejectSubBytePointers(op);
    waitForTokenWrites(rewriter, op);
    bool scalar = !isa<RankedTensorType>(type);
    auto load = tile_aa::LoadOp::create(
        rewriter, loc, scalar ? RankedTensorType::get({1}, type) : type,
        tile_aa::TokenType::get(op.getContext()),
        accessPointers(rewriter, op, asOneElement(rewriter, loc, adaptor.getSource())),
        asOneElement(rewriter, loc, adaptor.getMask()),
        asOneElement(rewriter, loc, adaptor.getPaddingValue()), adaptor.getToken(),
        rewriter.getI64IntegerAttr(getPointerAccessContiguity(op.getSource(), op.getMask())),
        IntegerAttr());
    recordMemoryOrder(op, load);
    orderAccess(rewriter, op);
    Value result = load.getResult();
    if (scalar)
      result = scalarOfSingleElement(rewriter, loc, result);
    rewriter.replaceOp(op, {result, load.getResultToken()});
    return success();
  }
};

struct StorePtrLowering : TilePattern<ct::StorePtrTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::StorePtrTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isSubByteElement(getElementTypeOrSelf(adaptor.getValue().getType())))
      return rejectSubBytePointers(op);
    waitForTokenWrites(rewriter, op);
    Location loc = op.getLoc();
    auto store = tile_aa::StoreOp::create(
        rewriter, loc, tokenType(op),
        accessPointers(rewriter, op, asOneElement(rewriter, loc, adaptor.getDestination())),
        asOneElement(rewriter, loc, adaptor.getValue()),
        asOneElement(rewriter, loc, adaptor.getMask()), adaptor.getToken(),
        rewriter.getI64IntegerAttr(
            getPointerAccessContiguity(op.getDestination(), op.getMask())));
    recordMemoryOrder(op, store);
    orderAccess(rewriter, op);
    rewriter.replaceOp(op, store);
    return success();
  }
};

struct OffsetLowering : TilePattern<ct::OffsetOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::OffsetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::AddPtrOp>(
        op, adaptor.getPtr().getType(), adaptor.getPtr(), adaptor.getOffset());
    return success();
  }
};

/// tile_aa.iota counts in i32 or i64; an iota of a narrower integer type
/// (i1, i8, i16, which cuda_tile allows) counts in i32 and is truncated,
/// i.e. it wraps modulo 2^width like the integer arithmetic around it.
struct IotaLowering : TilePattern<ct::IotaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::IotaOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(convert(op.getType()));
    if (type.getElementTypeBitWidth() >= 32) {
      rewriter.replaceOpWithNewOp<tile_aa::IotaOp>(op, type, 0);
      return success();
    }
    Value wide = tile_aa::IotaOp::create(rewriter, op.getLoc(), type.clone(rewriter.getI32Type()), 0);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, wide);
    return success();
  }
};

/// Moves the kernels of each nested cuda_tile.module into the builtin module.
static LogicalResult hoistCudaTileModules(ModuleOp module) {
  for (auto inner : llvm::make_early_inc_range(module.getOps<ct::ModuleOp>())) {
    module->setAttr(kModuleNameAttrName, inner.getSymNameAttr());
    Block &body = inner.getBody().front();
    module.getBody()->getOperations().splice(Block::iterator(inner),
                                             body.getOperations());
    inner.erase();
  }
  return success();
}

/// cuda_tile's debug-info locations (#cuda_tile.di_loc<file:line:col in
/// scope>) must not outlive the dialect: the later stages and MLIR's LLVM
/// translation only know builtin locations. Each becomes its source
/// file:line:col.
static void replaceCudaTileLocations(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [](ct::DILocAttr loc) -> Location { return loc.getSourceLoc(); });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

struct ConvertCudaTileToTileAAPass
    : public tilepipe::impl::ConvertCudaTileToTileAABase<ConvertCudaTileToTileAAPass> {
  using ConvertCudaTileToTileAABase::ConvertCudaTileToTileAABase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(hoistCudaTileModules(module)))
      return signalPassFailure();
    markAccessesAfterWrites(module);
    MLIRContext *context = &getContext();
    TileTypeConverter converter;
    RewritePatternSet patterns(context);
    patterns.add<
        EntryLowering, ReturnLowering, AssumeLowering, ConstantLowering,
        MakeTokenLowering,
        GridQueryLowering<ct::GetTileBlockIdOp, tile_aa::BlockIdOp>,
        LoadViewLowering, StoreViewLowering,
        LoadPtrLowering, StorePtrLowering, OffsetLowering, IotaLowering,
        ViewErasure<ct::MakeTensorViewOp>, ViewErasure<ct::MakePartitionViewOp>,
        ViewErasure<ct::MakeGatherScatterViewOp>>(converter, context);
    populateArithmeticLoweringPatterns(converter, patterns);
    populateControlFlowLoweringPatterns(converter, patterns);
    populateShapeLoweringPatterns(converter, patterns);
    populateMatrixLoweringPatterns(converter, patterns);
    populateScaledMatrixLoweringPatterns(converter, patterns, gpuName);
    populateMemoryLoweringPatterns(converter, patterns);
    populateReductionLoweringPatterns(converter, patterns);
    populateSyncLoweringPatterns(converter, patterns);
    populateAtomicLoweringPatterns(converter, patterns);
    populateMiscLoweringPatterns(converter, patterns);

    ConversionTarget target(*context);
    target.addIllegalDialect<ct::CudaTileDialect>();
    target.addLegalDialect<tile_aa::TileAADialect, arith::ArithDialect,
                           math::MathDialect, func::FuncDialect,
                           scf::SCFDialect, NVVM::NVVMDialect>();
    // Branches built from cuda_tile.if/loop carry unconverted operands until
    // the structural patterns retype them.
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // The mark has been read by every memory op; later stages see only the
    // generic pointer types it produced.
    module.walk([](func::FuncOp func) { func->removeAttr(kGenericAddressingAttrName); });
    replaceCudaTileLocations(module);
  }
};
} // namespace
