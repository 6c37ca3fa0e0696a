//===- TmaStoreToLLVM.cpp - tile_as.store_tma: registers -> smem -> TMA ---===//
//
// A tile stored by TMA (tile-sched's tilepipe-store-tiles-by-tma) goes
// through the CTA's shared scratch in column chunks (TmaStoreStaging.h):
//
//   bar.sync                        the scratch's earlier readers (the K
//                                   loop's wgmmas of other warpgroups) are done
//   per chunk:
//     stmatrix.x4                   where the register layout holds stmatrix's
//                                   fragments (StmatrixStores: the wgmma
//                                   accumulator): four 8x8 matrices, each
//                                   lane naming one matrix row, at their
//                                   place in the canonical swizzled layout
//                                   (SwizzledArray: the 16-byte pieces of the
//                                   8 rows of a matrix land in 8 different
//                                   bank groups)
//     or st.shared                  each thread's registers of the chunk, in
//                                   runs of up to 16 bytes, at their place in
//                                   the same layout
//     fence.proxy.async.shared::cta the generic-proxy writes, seen by TMA
//     bar.sync
//     thread 0: cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group
//               per swizzle block (W / 2 columns by all rows), then
//               cp.async.bulk.commit_group and cp.async.bulk.wait_group.read 0
//               (after the last chunk wait_group 0 with await_writes, which
//               covers every chunk's writes): the scratch may be rewritten
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
constexpr int64_t kWarpSize = 32;

/// The (row, column) a thread's lane names for stmatrix, before an
/// instruction's offset (StmatrixStores): the XOR of the bases of the set
/// bits of its lane id (those that address: 8 lanes per matrix) and warp id.
struct MatrixRowOfLane {
  Value row, col;

  static MatrixRowOfLane emit(const IndexMath &m, Value tid, const StmatrixStores &stores) {
    Value lane = m.rem(tid, kWarpSize), warp = m.div(tid, kWarpSize);
    MatrixRowOfLane at{m.e.i32(0), m.e.i32(0)};
    auto addBits = [&](Value id, ArrayRef<StmatrixStores::RowCol> bases) {
      for (auto [bit, basis] : llvm::enumerate(bases)) {
        // (id >> bit & 1) * basis: a shift where the basis is a power of two.
        Value set = m.bits(id, bit, 1);
        if (basis[0])
          at.row = m.bitXor(at.row, m.mul(set, basis[0]));
        if (basis[1])
          at.col = m.bitXor(at.col, m.mul(set, basis[1]));
      }
    };
    addBits(lane, stores.laneBases);
    addBits(warp, stores.warpBases);
    return at;
  }
};

/// The instructions of `stores` whose matrices lie in chunk `chunk` (of
/// `chunkCols` columns): each lane names the shared address
/// `addressOf(row, col)` of its matrix row, the instruction's offset added
/// to the thread's part (their bits are disjoint), and hands over register
/// pair count * q + j as matrix j.
void storeMatrices(RegisterEmitter &e, const StmatrixStores &stores, const MatrixRowOfLane &at,
                   Value registers, int64_t chunk, int64_t chunkCols,
                   llvm::function_ref<Value(Value, Value)> addressOf) {
  IndexMath m{e};
  MLIRContext *context = e.builder.getContext();
  auto vector = cast<VectorType>(registers.getType());
  Value words = LLVM::BitcastOp::create(
      e.builder, e.loc, VectorType::get({vector.getNumElements() / 2}, e.builder.getI32Type()),
      registers);
  for (int64_t q = 0; q < stores.groups; ++q) {
    StmatrixStores::RowCol offset = stores.groupOffset(q);
    if (offset[1] / chunkCols != chunk)
      continue;
    SmallVector<Value> sources;
    for (int64_t j = 0; j < stores.count; ++j)
      sources.push_back(e.extract(words, stores.count * q + j));
    Value address = addressOf(m.add(at.row, offset[0]), m.add(at.col, offset[1]));
    NVVM::StMatrixOp::create(e.builder, e.loc, address, sources, NVVM::MMALayout::row,
                             NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
                             NVVM::LdStMatrixEltType::B16);
  }
}

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
    auto chunkOf = [&](int64_t reg) {
      int64_t regInDim = delinearizeRegister(laid->layout, laid->shape, reg)[rank - 1];
      return getRegisterCoordinate(laid->layout, rank - 1, regInDim) / chunks->chunkCols();
    };
    auto runType = VectorType::get({run}, cast<VectorType>(registers.getType()).getElementType());
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value isThread0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
    MLIRContext *context = rewriter.getContext();

    // The pass's remark says why not (StoreTilesByTma.cpp).
    std::string notMatrices;
    // (Not where a thread's chunks depend on the thread: threadChunks.)
    std::optional<StmatrixStores> matrices =
        chunks->threadChunks
            ? std::nullopt
            : StmatrixStores::get(laid->layout, laid->shape, chunks->chunkCols(), notMatrices);
    // The address part of the lane (and warp) of each thread (stmatrix).
    std::optional<MatrixRowOfLane> matrixRow;
    SmallVector<Value> rowOf, colOf;
    if (matrices) {
      matrixRow = MatrixRowOfLane::emit(m, tid, *matrices);
    } else {
      rowOf = e.coordinates(laid->layout, laid->shape, rank - 2);
      colOf = e.coordinates(laid->layout, laid->shape, rank - 1);
    }
    // Where a thread holds whole chunks (threadChunks), register chunk i of
    // the thread is the tile's chunk (its first column / chunk) + i.
    Value threadChunk =
        chunks->threadChunks ? m.div(colOf.front(), chunks->chunkCols()) : Value();
    int64_t regChunks = 0;
    for (int64_t reg = 0; reg < count; ++reg)
      regChunks = std::max(regChunks, chunkOf(reg) + 1);
    auto slotAddress = [&](Value row, Value col, int64_t col0) {
      Value slot = staged.slot(m, row, col0 ? m.add(col, -col0) : col);
      return LLVM::GEPOp::create(rewriter, loc, (*scratch).getType(), element, *scratch,
                                 ArrayRef<LLVM::GEPArg>{slot});
    };

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
          LLVM::StoreOp::create(rewriter, loc, e.buildVector(runType, values),
                                slotAddress(rowOf[first], colOf[first], col0), run * 2);
        }
      };
      if (matrices) {
        storeMatrices(e, *matrices, *matrixRow, registers, chunk, chunks->chunkCols(),
                      [&](Value row, Value col) { return slotAddress(row, col, col0); });
      } else if (!chunks->threadChunks) {
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
        // Rewriting the scratch needs only the reads. The writes of every
        // chunk (all this thread's bulk groups) are awaited once, after the
        // last: waiting per chunk put a global write round trip between
        // every two chunks of the persistent matmul's epilogue.
        bool awaitWrites = op.getAwaitWrites() && chunk + 1 == chunks->chunks();
        NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0,
                                             awaitWrites ? UnitAttr() : rewriter.getUnitAttr());
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
