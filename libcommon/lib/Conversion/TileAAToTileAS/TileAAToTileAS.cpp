//===- TileAAToTileAS.cpp - tile_aa -> tile_as ----------------------------===//
//
// Pointer types move to tile_as; memory tokens are dropped (a token converts
// to no value): at the assembler level the order of memory ops within a
// thread is program order. Layouts are assigned later by tile-sched.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilepipe {
#define GEN_PASS_DEF_CONVERTTILEAATOTILEAS
#include "tilepipe/Conversion/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;

namespace {
class AsTypeConverter : public TypeConverter {
public:
  AsTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](tile_aa::TokenType, SmallVectorImpl<Type> &) {
      return success();
    });
    addConversion([](tile_aa::PtrType type) -> Type {
      return tile_as::PtrType::get(type.getContext(), type.getPointeeType(),
                                   type.getAddressSpace());
    });
    addConversion([this](RankedTensorType type) -> Type {
      return RankedTensorType::get(type.getShape(),
                                   convertType(type.getElementType()),
                                   type.getEncoding());
    });
  }
};

/// Values of a 1:N adaptor operand that must be 1:1 (or absent).
static Value single(ValueRange values) {
  return values.empty() ? Value() : values.front();
}

/// A tile_aa op without tokens becomes the tile_as op of the same mnemonic
/// (both dialects define the shape, arithmetic and matrix ops alike), with
/// converted types and its regions moved over.
struct MirrorLowering : ConversionPattern {
  MirrorLowering(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<tile_aa::TileAADialect>(op->getDialect()))
      return failure();
    std::string name = ("tile_as." + op->getName().stripDialect()).str();
    if (!RegisteredOperationName::lookup(name, op->getContext()))
      return rewriter.notifyMatchFailure(op, "no tile_as op of the same name");
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)) ||
        types.size() != op->getNumResults())
      return rewriter.notifyMatchFailure(op, "results do not convert 1:1");
    OperationState state(op->getLoc(), name, operands, types, op->getAttrs(),
                         op->getSuccessors());
    for (Region &region : op->getRegions()) {
      Region *moved = state.addRegion();
      rewriter.inlineRegionBefore(region, *moved, moved->end());
      if (failed(rewriter.convertRegionTypes(moved, *getTypeConverter())))
        return failure();
    }
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Generic conversion of any op whose only change is its types (arith, math).
struct RetypeLowering : ConversionPattern {
  RetypeLowering(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         types, op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct MakeTokenLowering : OpConversionPattern<tile_aa::MakeTokenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile_aa::MakeTokenOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {ValueRange()});
    return success();
  }
};

struct JoinTokensLowering : OpConversionPattern<tile_aa::JoinTokensOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile_aa::JoinTokensOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {ValueRange()});
    return success();
  }
};

struct LoadLowering : OpConversionPattern<tile_aa::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile_aa::LoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getResult().getType());
    auto load = tile_as::LoadOp::create(
        rewriter, op.getLoc(), type, single(adaptor.getPtrs()),
        single(adaptor.getMask()), single(adaptor.getOther()),
        op.getContiguityAttr(), op.getTransposedContiguityAttr(), op.getViewAlignmentAttr());
    // An ordered access's memory_order (set by the cuda_tile lowering).
    load->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOpWithMultiple(op, {ValueRange(load.getResult()), ValueRange()});
    return success();
  }
};

struct StoreLowering : OpConversionPattern<tile_aa::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile_aa::StoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto store = tile_as::StoreOp::create(rewriter, op.getLoc(), single(adaptor.getPtrs()),
                                          single(adaptor.getValue()),
                                          single(adaptor.getMask()), op.getContiguityAttr());
    store->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOpWithMultiple(op, {ValueRange()});
    return success();
  }
};

/// scf.execute_region (a loop body holding a CFG, see ControlFlowLowering.cpp)
/// with its results and every block retyped; upstream's structural scf
/// patterns cover for/if/while/yield but not this op.
struct ExecuteRegionLowering : OpConversionPattern<scf::ExecuteRegionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(scf::ExecuteRegionOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    SmallVector<unsigned> counts;
    for (Type type : op.getResultTypes()) {
      size_t before = types.size();
      if (failed(getTypeConverter()->convertType(type, types)))
        return failure();
      counts.push_back(types.size() - before);
    }
    auto exec = scf::ExecuteRegionOp::create(rewriter, op.getLoc(), types);
    exec->setAttrs(op->getAttrs());
    rewriter.inlineRegionBefore(op.getRegion(), exec.getRegion(), exec.getRegion().end());
    // Every block is retyped (its arguments carry loop values and tokens).
    SmallVector<Block *> blocks = llvm::map_to_vector(
        exec.getRegion(), [](Block &block) { return &block; });
    for (Block *block : blocks) {
      if (getTypeConverter()->isLegal(block->getArgumentTypes()))
        continue;
      std::optional<TypeConverter::SignatureConversion> signature =
          getTypeConverter()->convertBlockSignature(block);
      if (!signature)
        return failure();
      rewriter.applySignatureConversion(block, *signature, getTypeConverter());
    }
    SmallVector<ValueRange> replacements;
    unsigned next = 0;
    for (unsigned count : counts) {
      replacements.push_back(exec.getResults().slice(next, count));
      next += count;
    }
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

struct ConvertTileAAToTileASPass
    : public tilepipe::impl::ConvertTileAAToTileASBase<ConvertTileAAToTileASPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    AsTypeConverter converter;
    RewritePatternSet patterns(context);
    patterns.add<MirrorLowering, MakeTokenLowering, JoinTokensLowering,
                 LoadLowering, StoreLowering, RetypeLowering>(converter, context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                  converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    patterns.add<ExecuteRegionLowering>(converter, context);

    ConversionTarget target(*context);
    target.addIllegalDialect<tile_aa::TileAADialect>();
    // NVVM operations (grid dependency control, fences) pass through.
    target.addLegalDialect<tile_as::TileASDialect, NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    auto legalTypes = [&](Operation *op) { return converter.isLegal(op); };
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(legalTypes);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(legalTypes);
    // Loop-carried tiles and tokens: tokens vanish from iter_args, results
    // and block arguments alike (1:0).
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    // Upstream only retypes the yields of for/if/while; ours also end
    // execute_regions.
    target.addDynamicallyLegalOp<scf::YieldOp>(legalTypes);
    target.addDynamicallyLegalOp<scf::ExecuteRegionOp>([&](scf::ExecuteRegionOp op) {
      return converter.isLegal(op.getResultTypes()) && converter.isLegal(&op.getRegion());
    });
    if (failed(applyFullConversion(getOperation(), target, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
