//===- DataMovementToLLVM.cpp - tile_as data-movement ops -> LLVM/NVVM ----===//
//
// Ops that move elements between positions of a tensor. When every thread
// already holds what it needs (a single-element source, a layout change that
// only adds or drops size-1 dimensions, a broadcast within one layout) the
// result is a register shuffle; a layout change within one shape is planned
// on linear layouts (LayoutConversionToLLVM.h); otherwise the elements go
// through shared memory (SharedExchange.h), each op giving the slot of an element from its
// source and result coordinates. ConvertTileASToLLVMPass registers these
// patterns through populateDataMovementToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "LayoutConversionToLLVM.h"
#include "SharedExchange.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The dimensions of a layout that carry elements or spread threads: size-1
/// dimensions with one register, lane and warp are invisible to the mapping.
SmallVector<unsigned> significantDims(Laid laid) {
  BlockedAttr layout = laid.layout;
  SmallVector<unsigned> dims;
  for (unsigned dim : layout.getOrder())
    if (laid.shape[dim] != 1 || layout.getSizePerThread()[dim] != 1 ||
        layout.getThreadsPerWarp()[dim] != 1 || layout.getWarpsPerCTA()[dim] != 1)
      dims.push_back(dim);
  return dims;
}

/// True when both tensors map the same row-major element index to the same
/// thread and register: they differ only in size-1 dimensions.
bool haveSameRegisters(Laid a, Laid b) {
  SmallVector<unsigned> dimsA = significantDims(a), dimsB = significantDims(b);
  if (dimsA.size() != dimsB.size())
    return false;
  // Row-major order of the significant dimensions must match too.
  if (!llvm::is_sorted(llvm::reverse(dimsA)) || !llvm::is_sorted(llvm::reverse(dimsB)))
    return false;
  for (auto [da, db] : llvm::zip(dimsA, dimsB))
    if (a.shape[da] != b.shape[db] ||
        a.layout.getSizePerThread()[da] != b.layout.getSizePerThread()[db] ||
        a.layout.getThreadsPerWarp()[da] != b.layout.getThreadsPerWarp()[db] ||
        a.layout.getWarpsPerCTA()[da] != b.layout.getWarpsPerCTA()[db])
      return false;
  return true;
}

int64_t countElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// Every thread holds the only element of `source` (layouts wrap small
/// tensors): each result register is a copy of register 0.
Value splatFirstRegister(ConversionPatternRewriter &rewriter, Location loc,
                         Value source, VectorType type) {
  SmallVector<int32_t> zeros(type.getNumElements(), 0);
  return LLVM::ShuffleVectorOp::create(rewriter, loc, source, source, zeros);
}

/// Base of the patterns: the result's laid-out view and LLVM vector type.
template <typename Op>
struct DataMovementPattern : ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

  VectorType vectorType(Type type) const {
    return dyn_cast_or_null<VectorType>(this->getTypeConverter()->convertType(type));
  }
};

/// Row-major slot of a source coordinate (the common write side).
struct RowMajor {
  ArrayRef<int64_t> shape;
  Value operator()(RegisterEmitter &e, ArrayRef<Value> coords) const {
    return rowMajorSlot(e, coords, shape);
  }
};

/// Replaces `op` by the registers exchangeThroughShared gathers for it.
LogicalResult replaceThroughShared(ConversionPatternRewriter &rewriter,
                                   Operation *op, ArrayRef<ExchangeSource> sources,
                                   Laid result, VectorType resultType,
                                   SlotFunction resultSlot, int64_t numSlots) {
  FailureOr<Value> exchanged = exchangeThroughShared(
      rewriter, op, sources, result, resultType, resultSlot, numSlots);
  if (failed(exchanged))
    return failure();
  rewriter.replaceOp(op, *exchanged);
  return success();
}

/// Shared by convert_layout and reshape: the row-major element order is kept.
LogicalResult lowerReorder(ConversionPatternRewriter &rewriter, Operation *op,
                           Value source, Laid from, Laid to, VectorType type) {
  if (haveSameRegisters(from, to)) {
    rewriter.replaceOp(op, source);
    return success();
  }
  if (countElements(from.shape) == 1) {
    rewriter.replaceOp(op, splatFirstRegister(rewriter, op->getLoc(), source, type));
    return success();
  }
  // Within one shape the linear layouts plan the move: a register
  // permutation, warp shuffles or a bank-conflict-avoiding exchange
  // (LayoutConversionToLLVM.h).
  if (from.shape == to.shape) {
    RegisterEmitter e(rewriter, op->getLoc());
    FailureOr<Value> moved = lowerLayoutConversion(e, op, source, from, to, type);
    if (failed(moved))
      return failure();
    if (*moved) {
      rewriter.replaceOp(op, *moved);
      return success();
    }
  }
  RowMajor write{from.shape}, read{to.shape};
  return replaceThroughShared(
      rewriter, op, {ExchangeSource{source, from, write}}, to, type, read,
      countElements(from.shape));
}

/// convert_layout and reshape keep the elements in row-major order and only
/// move them between layouts (a reshape is a relabelling of that order).
template <typename OpTy>
struct RowMajorReorderLowering : DataMovementPattern<OpTy> {
  using DataMovementPattern<OpTy>::DataMovementPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> from = Laid::of(op, op.getSrc().getType());
    FailureOr<Laid> to = Laid::of(op, op.getType());
    if (failed(from) || failed(to))
      return failure();
    return lowerReorder(rewriter, op, adaptor.getSrc(), *from, *to,
                        this->vectorType(op.getType()));
  }
};
using ConvertLayoutLowering = RowMajorReorderLowering<ConvertLayoutOp>;
using ReshapeLowering = RowMajorReorderLowering<ReshapeOp>;

struct PermuteLowering : DataMovementPattern<PermuteOp> {
  using DataMovementPattern::DataMovementPattern;
  LogicalResult matchAndRewrite(PermuteOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> from = Laid::of(op, op.getSrc().getType());
    FailureOr<Laid> to = Laid::of(op, op.getType());
    if (failed(from) || failed(to))
      return failure();
    VectorType type = vectorType(op.getType());
    if (countElements(from->shape) == 1) {
      rewriter.replaceOp(op, splatFirstRegister(rewriter, op.getLoc(), adaptor.getSrc(), type));
      return success();
    }
    ArrayRef<int32_t> permutation = op.getPermutation();
    // A result laid out as the source's layout permuted (AssignLayouts
    // gives it to the tcgen05 block-scaled operands) holds every element in
    // the thread and register that held it: nothing moves.
    if (to->layout == permuteLayout(from->layout, permutation)) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    ArrayRef<int64_t> shape = from->shape;
    // Result coordinate i is source coordinate permutation[i].
    auto read = [&](RegisterEmitter &e, ArrayRef<Value> coords) {
      SmallVector<Value> sourceCoords(coords.size());
      for (auto [i, dim] : llvm::enumerate(permutation))
        sourceCoords[dim] = coords[i];
      return rowMajorSlot(e, sourceCoords, shape);
    };
    return replaceThroughShared(
        rewriter, op, {ExchangeSource{adaptor.getSrc(), *from, RowMajor{shape}}},
        *to, type, read, countElements(shape));
  }
};

struct BroadcastLowering : DataMovementPattern<BroadcastOp> {
  using DataMovementPattern::DataMovementPattern;
  LogicalResult matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> from = Laid::of(op, op.getSrc().getType());
    FailureOr<Laid> to = Laid::of(op, op.getType());
    if (failed(from) || failed(to))
      return failure();
    VectorType type = vectorType(op.getType());
    Value source = adaptor.getSrc();
    if (from->layout == to->layout) {
      // Each result register repeats the source register of its position
      // modulo the source's registers along every dimension.
      SmallVector<int64_t> fromRegs = getRegsPerDim(from->layout, from->shape);
      SmallVector<int32_t> mask;
      for (int64_t reg = 0, e = getElemsPerThread(to->layout, to->shape); reg < e; ++reg) {
        SmallVector<int64_t> perDim = delinearizeRegister(to->layout, to->shape, reg);
        for (auto [index, count] : llvm::zip(perDim, fromRegs))
          index %= count;
        mask.push_back(linearizeRegister(from->layout, from->shape, perDim));
      }
      rewriter.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(op, source, source, mask);
      return success();
    }
    if (countElements(from->shape) == 1) {
      rewriter.replaceOp(op, splatFirstRegister(rewriter, op.getLoc(), source, type));
      return success();
    }
    ArrayRef<int64_t> shape = from->shape;
    auto read = [&](RegisterEmitter &e, ArrayRef<Value> coords) {
      SmallVector<Value> sourceCoords(coords);
      for (auto [coord, extent] : llvm::zip(sourceCoords, shape))
        if (extent == 1)
          coord = e.i32(0);
      return rowMajorSlot(e, sourceCoords, shape);
    };
    return replaceThroughShared(
        rewriter, op, {ExchangeSource{source, *from, RowMajor{shape}}}, *to, type,
        read, countElements(shape));
  }
};

struct ExtractLowering : DataMovementPattern<ExtractOp> {
  using DataMovementPattern::DataMovementPattern;
  LogicalResult matchAndRewrite(ExtractOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> from = Laid::of(op, op.getSrc().getType());
    FailureOr<Laid> to = Laid::of(op, op.getType());
    if (failed(from) || failed(to))
      return failure();
    VectorType type = vectorType(op.getType());
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = from->shape;
    // Block index times block extent: where the block starts along each
    // dimension (an index past the last block wraps, keeping reads inside
    // the buffer).
    RegisterEmitter emitter(rewriter, loc);
    SmallVector<Value> starts;
    for (auto [index, extent, blockExtent] :
         llvm::zip(adaptor.getIndices(), shape, to->shape)) {
      Value block = LLVM::URemOp::create(rewriter, loc, index,
                                         emitter.i32(extent / blockExtent));
      starts.push_back(LLVM::MulOp::create(rewriter, loc, block, emitter.i32(blockExtent)));
    }
    auto read = [&](RegisterEmitter &e, ArrayRef<Value> coords) {
      SmallVector<Value> sourceCoords;
      for (auto [coord, start] : llvm::zip(coords, starts))
        sourceCoords.push_back(LLVM::AddOp::create(e.builder, e.loc, coord, start));
      return rowMajorSlot(e, sourceCoords, shape);
    };
    return replaceThroughShared(
        rewriter, op, {ExchangeSource{adaptor.getSrc(), *from, RowMajor{shape}}},
        *to, type, read, countElements(shape));
  }
};

struct CatLowering : DataMovementPattern<CatOp> {
  using DataMovementPattern::DataMovementPattern;
  LogicalResult matchAndRewrite(CatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> lhs = Laid::of(op, op.getLhs().getType());
    FailureOr<Laid> rhs = Laid::of(op, op.getRhs().getType());
    FailureOr<Laid> to = Laid::of(op, op.getType());
    if (failed(lhs) || failed(rhs) || failed(to))
      return failure();
    ArrayRef<int64_t> shape = to->shape;
    uint64_t dim = op.getDim();
    int64_t offset = lhs->shape[dim];
    // The rhs lands after the lhs along `dim`.
    auto writeRhs = [&](RegisterEmitter &e, ArrayRef<Value> coords) {
      SmallVector<Value> shifted(coords);
      shifted[dim] = LLVM::AddOp::create(e.builder, e.loc, shifted[dim], e.i32(offset));
      return rowMajorSlot(e, shifted, shape);
    };
    return replaceThroughShared(
        rewriter, op,
        {ExchangeSource{adaptor.getLhs(), *lhs, RowMajor{shape}},
         ExchangeSource{adaptor.getRhs(), *rhs, writeRhs}},
        *to, vectorType(op.getType()), RowMajor{shape}, countElements(shape));
  }
};

} // namespace

void populateDataMovementToLLVMPatterns(TileLLVMTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering, ReshapeLowering, PermuteLowering,
               BroadcastLowering, ExtractLowering, CatLowering>(converter);
}

} // namespace tilepipe::tile_as
