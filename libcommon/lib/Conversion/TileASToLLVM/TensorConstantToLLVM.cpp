//===- TensorConstantToLLVM.cpp - arith.constant tensors -> registers -----===//
//
// A splat tensor constant is a vector constant: every register holds the
// same value. A non-splat one becomes a module-level constant array in global
// memory (addrspace 1, row-major, internal, one per distinct value) from
// which each thread loads its registers by their coordinates. Loading keeps
// the code the same size whatever the tensor holds; building registers from
// per-element selects on the thread id would grow with the tensor, and
// constant memory (addrspace 4) would serialise a warp whose threads read
// different addresses, which is the common case here.
//
// The array holds the elements' bits as integers (i1 as a byte, 8-bit
// floats as i8), so every element type is stored alike and the loaded
// integer is bitcast (i1: compared with 0) back to the register type.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "RegisterEmitter.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

constexpr unsigned kGlobalAddressSpace = 1;
constexpr StringLiteral kConstantPrefix = "__tile_const";

/// The elements of `value` as integers of `storage`'s width, row-major.
DenseElementsAttr getElementBits(DenseElementsAttr value, IntegerType storage) {
  SmallVector<APInt> bits;
  bits.reserve(value.getNumElements());
  if (isa<FloatType>(value.getElementType())) {
    for (const APFloat &element : value.getValues<APFloat>())
      bits.push_back(element.bitcastToAPInt().zextOrTrunc(storage.getWidth()));
  } else {
    for (const APInt &element : value.getValues<APInt>())
      bits.push_back(element.zextOrTrunc(storage.getWidth()));
  }
  auto flat = RankedTensorType::get({int64_t(bits.size())}, storage);
  return DenseElementsAttr::get(flat, bits);
}

/// The module's constant array holding `bits`, added on first use.
LLVM::GlobalOp getConstantArray(OpBuilder &builder, Operation *anchor,
                                DenseElementsAttr bits) {
  ModuleOp module = getTopModule(anchor);
  unsigned count = 0;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!global.getSymName().starts_with(kConstantPrefix))
      continue;
    ++count;
    if (global.getValueOrNull() == bits)
      return global;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  Type storage = bits.getElementType();
  auto type = LLVM::LLVMArrayType::get(storage, bits.getNumElements());
  // LLVM globals take the module's location (see GlobalLowering).
  return LLVM::GlobalOp::create(
      builder, module.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::Internal,
      (kConstantPrefix + Twine(count)).str(), bits,
      /*alignment=*/storage.getIntOrFloatBitWidth() / 8, kGlobalAddressSpace);
}

/// The row-major index of every register of this thread (i32).
SmallVector<Value> getLinearIndices(RegisterEmitter &e, BlockedAttr layout,
                                    ArrayRef<int64_t> shape) {
  SmallVector<Value> indices;
  int64_t stride = 1;
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    SmallVector<Value> coords = e.coordinates(layout, shape, dim);
    for (auto [reg, coord] : llvm::enumerate(coords)) {
      Value term = stride == 1 ? coord : LLVM::MulOp::create(e.builder, e.loc, coord,
                                                             e.i32(stride));
      if (indices.size() <= reg)
        indices.push_back(term);
      else
        indices[reg] = LLVM::AddOp::create(e.builder, e.loc, indices[reg], term);
    }
    stride *= shape[dim];
  }
  return indices;
}

struct TensorConstantLowering : ConvertOpToLLVMPattern<arith::ConstantOp> {
  TensorConstantLowering(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getType()))
      return failure();
    auto type = dyn_cast_or_null<VectorType>(getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("tensor without a blocked layout (run tile-sched)");
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return op.emitOpError("tensor constant must be dense");
    if (dense.isSplat()) {
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
          op, type, DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
      return success();
    }
    return lowerToArray(op, dense, type, rewriter);
  }

private:
  LogicalResult lowerToArray(arith::ConstantOp op, DenseElementsAttr dense,
                             VectorType type, ConversionPatternRewriter &rewriter) const {
    FailureOr<Laid> laid = Laid::of(op, op.getType());
    if (failed(laid))
      return failure();
    Type element = type.getElementType();
    if (!element.isIntOrFloat())
      return op.emitOpError("tensor constant of ") << element << " is not lowered";
    unsigned width = std::max(8u, element.getIntOrFloatBitWidth());
    auto storage = rewriter.getIntegerType(width);
    LLVM::GlobalOp global =
        getConstantArray(rewriter, op, getElementBits(dense, storage));

    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    Value base = LLVM::AddressOfOp::create(rewriter, loc, global);
    SmallVector<Value> registers;
    for (Value index : getLinearIndices(e, laid->layout, laid->shape)) {
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(), storage, base,
                                          ArrayRef<LLVM::GEPArg>{index});
      Value bits = LLVM::LoadOp::create(rewriter, loc, storage, address, width / 8);
      if (element.isInteger(1))
        bits = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, bits,
                                    LLVM::ConstantOp::create(rewriter, loc, storage,
                                                             rewriter.getIntegerAttr(storage, 0)));
      else if (element != storage)
        bits = LLVM::BitcastOp::create(rewriter, loc, element, bits);
      registers.push_back(bits);
    }
    rewriter.replaceOp(op, e.buildVector(type, registers));
    return success();
  }
};

} // namespace

void populateTensorConstantToLLVMPatterns(TileLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<TensorConstantLowering>(converter);
}

} // namespace tilepipe::tile_as
