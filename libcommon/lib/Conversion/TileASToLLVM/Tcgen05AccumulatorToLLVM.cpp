//===- Tcgen05AccumulatorToLLVM.cpp - Accumulators kept in tensor memory --===//
//
// tile_as.acc_to_tmem and tile_as.acc_from_tmem, the two ends of a K loop
// whose tcgen05 accumulator stays in tensor memory
// (KeepAccumulatorsInTmem.cpp): the first stores the registers into the D
// regions the multiplies accumulate onto (from column 0 of the kernel's
// tensor memory, one region of N columns per (batch, 128-row block), as
// Tcgen05ToLLVM.cpp and, for such loops, BlockScaledTcgen05ToLLVM.cpp place
// D), the second loads the sums back. Between them the accumulator has no
// registers: the tensor values stand for the tensor-memory copy and lower
// to poison.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// What both ends need: the accumulator's layout and multiply shape (K
/// unused), its LLVM element type and the tensor-memory address of D.
struct TmemAccumulator {
  Laid laid;
  MmaShape shape;
  Type accType;
  Value tmem;

  static FailureOr<TmemAccumulator> get(Operation *op, Type tensorType,
                                        const TypeConverter &converter,
                                        ConversionPatternRewriter &rewriter) {
    FailureOr<Laid> laid = Laid::of(op, tensorType);
    if (failed(laid))
      return failure();
    if (!targetsTcgen05(op) || !isTcgen05AccumulatorLayout(laid->layout, laid->shape))
      return op->emitOpError("needs a tcgen05 target and the tcgen05 accumulator layout");
    TmemAccumulator acc{*laid, {}, converter.convertType(getElementTypeOrSelf(tensorType)), {}};
    if (!acc.accType)
      return op->emitOpError("accumulator element type has no LLVM form");
    ArrayRef<int64_t> shape = laid->shape;
    acc.shape.batched = shape.size() == 3;
    acc.shape.batch = acc.shape.batched ? shape[0] : 1;
    acc.shape.m = shape[shape.size() - 2];
    acc.shape.n = shape.back();
    int64_t columns = getTcgen05TmemColumns(shape, /*k=*/0, /*scaleBlock=*/0);
    if (columns > kTmemColumns)
      return op->emitError("allocated tmem out of resource: ")
             << getTmemAllocationColumns(columns) << " vs " << kTmemColumns << " (the "
             << acc.shape.m << "x" << acc.shape.n << " f32 accumulator takes " << columns
             << " tensor-memory columns)";
    acc.tmem = getTensorMemory(rewriter, op->getLoc(), op, getTmemAllocationColumns(columns));
    return acc;
  }

  Arithmetic arithmetic(OpBuilder &builder) const {
    Arithmetic arith{/*isFloat=*/true};
    arith.computeType = builder.getF32Type();
    return arith;
  }
};

struct AccToTmemLowering : ConvertOpToLLVMPattern<AccToTmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AccToTmemOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<TmemAccumulator> acc =
        TmemAccumulator::get(op, op.getAcc().getType(), *getTypeConverter(), rewriter);
    if (failed(acc))
      return failure();
    RegisterEmitter e(rewriter, op.getLoc());
    SmallVector<Value> sums =
        widenAccumulator(e, unpackOperand(e, adaptor.getAcc(), acc->laid),
                         getElementTypeOrSelf(op.getAcc().getType()), acc->arithmetic(rewriter));
    // The first multiply's staging barrier orders the stores before its
    // tcgen05.mma.
    storeAccumulator(e, acc->laid, acc->shape, acc->tmem, sums);
    return replaceWithTmemAccumulator(rewriter, op, adaptor.getAcc().getType());
  }
};

struct AccFromTmemLowering : ConvertOpToLLVMPattern<AccFromTmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AccFromTmemOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<TmemAccumulator> acc =
        TmemAccumulator::get(op, op.getAcc().getType(), *getTypeConverter(), rewriter);
    if (failed(acc))
      return failure();
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    // The last multiply waited for its tcgen05.mma (mbarrier) and met the
    // other threads at a barrier.
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    SmallVector<Value> sums(getElemsPerThread(acc->laid.layout, acc->laid.shape));
    loadAccumulator(e, acc->laid, acc->shape, acc->tmem, sums);
    // Every warp has read D before a later acc_to_tmem or multiply
    // overwrites it.
    emitTensorMemoryBarrier(rewriter, loc);
    return replaceWithSums(rewriter, op, e, sums, acc->arithmetic(rewriter), acc->accType,
                           adaptor.getAcc().getType());
  }
};

} // namespace

void populateTcgen05AccumulatorToLLVMPatterns(TileLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<AccToTmemLowering, AccFromTmemLowering>(converter);
}

} // namespace tilepipe::tile_as
