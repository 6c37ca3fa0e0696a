//===- TmaStoreToLLVM.cpp - tile_as.store_tma: registers -> smem -> TMA ---===//
//
// A tile stored by TMA (tile-sched's tilepipe-store-tiles-by-tma) goes
// through the CTA's shared scratch in column chunks (TmaStoreStaging.h):
//
//   bar.sync                        the scratch's earlier readers (the K
//                                   loop's wgmmas of other warpgroups) are done
//   per chunk:
//     st.shared                     each thread's registers of the chunk, in
//                                   runs of up to 16 bytes, at their place in
//                                   the canonical swizzled layout (SwizzledArray:
//                                   the 16-byte pieces of the 8 rows a warp's
//                                   accumulator registers cover land in 8
//                                   different bank groups)
//     fence.proxy.async.shared::cta the generic-proxy writes, seen by TMA
//     bar.sync
//     thread 0: cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group
//               per swizzle block (W / 2 columns by all rows), then
//               cp.async.bulk.commit_group and cp.async.bulk.wait_group.read 0
//               (wait_group 0 with await_writes): the scratch may be rewritten
//     bar.sync
//
// TMA writes only the elements inside the view, so ragged edges need no
// mask. The tensor map is built like the TMA loads' (buildTensorMaps,
// TmaToLLVM.cpp), once per CTA where the view is known at the entry.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "SwizzledStaging.h"

#include "tilepipe/Dialect/TileAS/IR/TmaStoreStaging.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The 16 bytes a thread stores at most at once.
constexpr int64_t kMaxRunBytes = 16;

struct StoreTmaLowering : ConvertOpToLLVMPattern<StoreTmaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(StoreTmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getValue().getType());
    if (failed(laid))
      return failure();
    Location loc = op.getLoc();
    int64_t rank = laid->shape.size(), rows = laid->shape[rank - 2],
            cols = laid->shape[rank - 1];
    std::string why;
    std::optional<TmaStoreChunks> chunks =
        TmaStoreChunks::get(rows, cols, getLayoutExtent(laid->layout, rank - 1),
                            laid->layout.getSizePerThread()[rank - 1], why);
    if (!chunks)
      return op.emitOpError("cannot be stored by TMA: ") << why;
    Type element = op.getValue().getType().getElementType();
    RegisterEmitter e(rewriter, loc);
    IndexMath m{e};

    TmaOperand operand;
    ValueRange view = adaptor.getView();
    operand.view.base = adaptor.getBase();
    // The view's rank: the value may have dropped leading unit dimensions.
    int64_t viewRank = (int64_t(view.size()) + 1) / 3;
    operand.view.sizes = llvm::to_vector(view.take_front(viewRank));
    operand.view.strides = llvm::to_vector(view.slice(viewRank, viewRank - 1));
    operand.view.starts = llvm::to_vector(view.take_back(viewRank));
    const SwizzledArrayGeometry &tile = chunks->tile;
    operand.boxes.width = tile.width;
    operand.boxes.boxRows = rows;
    Value map = buildTensorMaps(rewriter, e, op, operand, element).front();

    SwizzledArray staged(rows, chunks->chunkCols(), 2);
    FailureOr<Value> scratch =
        getSharedScratch(rewriter, loc, op, chunks->bytes(), kSwizzleAlignment);
    if (failed(scratch))
      return failure();

    // The registers in runs along the columns; the chunk of a run follows
    // from its register index (TmaStoreChunks).
    Value registers = adaptor.getValue();
    int64_t count = getElemsPerThread(laid->layout, laid->shape);
    int64_t run = getRegisterRun(*laid, rank - 1, kMaxRunBytes / 2);
    SmallVector<Value> rowOf = e.coordinates(laid->layout, laid->shape, rank - 2);
    SmallVector<Value> colOf = e.coordinates(laid->layout, laid->shape, rank - 1);
    auto chunkOf = [&](int64_t reg) {
      int64_t regInDim = delinearizeRegister(laid->layout, laid->shape, reg)[rank - 1];
      return getRegisterCoordinate(laid->layout, rank - 1, regInDim) / chunks->chunkCols();
    };
    // Where a thread holds whole chunks (threadChunks), register chunk i of
    // the thread is the tile's chunk (its first column / chunk) + i.
    Value threadChunk =
        chunks->threadChunks ? m.div(colOf.front(), chunks->chunkCols()) : Value();
    int64_t regChunks = 0;
    for (int64_t reg = 0; reg < count; ++reg)
      regChunks = std::max(regChunks, chunkOf(reg) + 1);
    auto runType = VectorType::get({run}, cast<VectorType>(registers.getType()).getElementType());
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value isThread0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
    MLIRContext *context = rewriter.getContext();

    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    for (int64_t chunk = 0; chunk < chunks->chunks(); ++chunk) {
      int64_t col0 = chunk * chunks->chunkCols();
      // The runs from register `first` on whose register chunk is `regChunk`.
      auto storeRuns = [&](int64_t regChunk) {
        for (int64_t first = 0; first < count; first += run) {
          if (chunks->chunks() > 1 && chunkOf(first) != regChunk)
            continue;
          SmallVector<Value> values;
          for (int64_t i = 0; i < run; ++i)
            values.push_back(e.extract(registers, first + i));
          Value slot =
              staged.slot(m, rowOf[first], col0 ? m.add(colOf[first], -col0) : colOf[first]);
          Value address = LLVM::GEPOp::create(rewriter, loc, (*scratch).getType(), element,
                                              *scratch, ArrayRef<LLVM::GEPArg>{slot});
          LLVM::StoreOp::create(rewriter, loc, e.buildVector(runType, values), address, run * 2);
        }
      };
      if (!chunks->threadChunks) {
        storeRuns(chunk);
      } else {
        // Register chunk i lands in this chunk in the threads whose first
        // chunk is chunk - i.
        for (int64_t i = 0; i <= std::min(chunk, regChunks - 1); ++i)
          emitIf(rewriter, loc,
                 LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, threadChunk,
                                      e.i32(chunk - i)),
                 [&] { storeRuns(i); });
      }
      NVVM::FenceProxyOp::create(
          rewriter, loc, NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
      emitCTABarrier(rewriter, loc); // the chunk is in shared memory
      int64_t blocks = std::min(chunks->chunkBlocks, tile.blocks - chunk * chunks->chunkBlocks);
      emitIf(rewriter, loc, isThread0, [&] {
        const TmaView &v = operand.view;
        for (int64_t block = 0; block < blocks; ++block) {
          // Map coordinates innermost first: column, row, then the leading
          // dimensions' starts.
          SmallVector<Value> coords{
              m.add(toI32(e, v.starts[viewRank - 1]), col0 + block * tile.perBlock()),
              toI32(e, v.starts[viewRank - 2])};
          for (int64_t d = viewRank - 3; d >= 0; --d)
            coords.push_back(toI32(e, v.starts[d]));
          Value source = LLVM::GEPOp::create(
              rewriter, loc, (*scratch).getType(), rewriter.getI8Type(), *scratch,
              ArrayRef<LLVM::GEPArg>{int32_t(block * tile.blockBytes())});
          NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(rewriter, loc, map, source, coords,
                                                             Value(), NVVM::TMAStoreMode::TILE,
                                                             Value());
        }
        NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
        NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0,
                                             op.getAwaitWrites() ? UnitAttr()
                                                                 : rewriter.getUnitAttr());
      });
      emitCTABarrier(rewriter, loc); // the scratch is free again
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateTmaStoreToLLVMPatterns(TileLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<StoreTmaLowering>(converter);
}

} // namespace tilepipe::tile_as
