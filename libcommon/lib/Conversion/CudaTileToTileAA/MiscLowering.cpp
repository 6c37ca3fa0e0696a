//===- MiscLowering.cpp - pointer casts, globals, tokens, print, assert ---===//
//
// The cuda_tile ops that map one to one onto a tile_aa op:
//   int_to_ptr / ptr_to_int / ptr_to_ptr -> the tile_aa casts of the same name
//   global / get_global                   -> tile_aa.global / tile_aa.get_global
//   join_tokens                           -> tile_aa.join_tokens
//   print_tko                             -> tile_aa.print (+ a fresh token)
//   assert                                -> tile_aa.assert
//   get_tensor_shape                      -> the view's sizes (constants or
//                                            the make_tensor_view operands)
// print_tko's result token is a fresh token: like the fence ops
// (SyncLowering.cpp) the print keeps its place in program order.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tilepipe {
namespace ct = cuda_tile;
namespace {

/// A cuda_tile conversion op -> the tile_aa op of the same shape.
template <typename SourceOp, typename TargetOp>
struct CastLowering : TilePattern<SourceOp> {
  using TilePattern<SourceOp>::TilePattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<TargetOp>(
        op, this->convert(op.getResult().getType()), adaptor.getSource());
    return success();
  }
};

struct GlobalLowering : TilePattern<ct::GlobalOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::GlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto global = tile_aa::GlobalOp::create(rewriter, op.getLoc(), op.getSymName(),
                                            op.getValue(), op.getAlignmentAttr(),
                                            op.getConstant(),
                                            op.getSymbolVisibility() ==
                                                ct::SymbolVisibility::PRIVATE);
    rewriter.replaceOp(op, global);
    return success();
  }
};

struct GetGlobalLowering : TilePattern<ct::GetGlobalOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::GetGlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::GetGlobalOp>(
        op, convert(op.getResult().getType()), op.getNameAttr());
    return success();
  }
};

struct JoinTokensLowering : TilePattern<ct::JoinTokensOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::JoinTokensOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::JoinTokensOp>(op, tokenType(op),
                                                       adaptor.getTokens());
    return success();
  }
};

struct PrintLowering : TilePattern<ct::PrintTkoOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::PrintTkoOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    tile_aa::PrintOp::create(rewriter, op.getLoc(), op.getStrAttr(), adaptor.getArgs());
    rewriter.replaceOpWithNewOp<tile_aa::MakeTokenOp>(op, tokenType(op));
    return success();
  }
};

struct AssertLowering : TilePattern<ct::AssertOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile_aa::AssertOp>(op, adaptor.getCondition(),
                                                   op.getMessageAttr());
    return success();
  }
};

/// get_tensor_shape: each size of the view, static ones as constants.
struct TensorShapeLowering : TilePattern<ct::GetTensorShapeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::GetTensorShapeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto view = op.getSrc().getDefiningOp<ct::MakeTensorViewOp>();
    if (!view)
      return op.emitOpError("tensor_view does not come from make_tensor_view");
    auto viewType = cast<ct::TensorViewType>(op.getSrc().getType());
    Location loc = op.getLoc();
    SmallVector<Value> sizes;
    ValueRange dynamic = view.getDynamicShape();
    for (auto [size, result] : llvm::zip(viewType.getShape(), op.getResult())) {
      auto type = dyn_cast<IntegerType>(convert(result.getType()));
      if (!type)
        return op.emitOpError("result type does not lower to a scalar integer");
      if (size != ShapedType::kDynamic) {
        sizes.push_back(arith::ConstantOp::create(rewriter, loc, type,
                                                  rewriter.getIntegerAttr(type, size)));
        continue;
      }
      Value value = rewriter.getRemappedValue(dynamic.front());
      dynamic = dynamic.drop_front();
      // Sizes are non-negative: sign and zero extension agree.
      unsigned from = value.getType().getIntOrFloatBitWidth();
      if (from < type.getWidth())
        value = arith::ExtSIOp::create(rewriter, loc, type, value);
      else if (from > type.getWidth())
        value = arith::TruncIOp::create(rewriter, loc, type, value);
      sizes.push_back(value);
    }
    rewriter.replaceOp(op, sizes);
    return success();
  }
};

} // namespace

void populateMiscLoweringPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<CastLowering<ct::IntToPtrOp, tile_aa::IntToPtrOp>,
               CastLowering<ct::PtrToIntOp, tile_aa::PtrToIntOp>,
               CastLowering<ct::PtrToPtrOp, tile_aa::PtrToPtrOp>, GlobalLowering,
               GetGlobalLowering, JoinTokensLowering, PrintLowering, AssertLowering,
               TensorShapeLowering>(converter, patterns.getContext());
}

} // namespace tilepipe
