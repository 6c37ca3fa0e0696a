//===- SwizzledStaging.cpp - A and B in the swizzled shared-memory layouts -===//
//
// See SwizzledStaging.h.
//
//===----------------------------------------------------------------------===//
#include "SwizzledStaging.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tilepipe::tile_as {

uint64_t getDescriptorLayoutBits(const SwizzledArray &array, bool kMajor,
                                 DescriptorFormat format) {
  uint64_t leading = kMajor ? 1 : uint64_t(array.blockBytes()) >> 4;
  uint64_t bits = leading << 16 | (uint64_t(array.atomBytes()) >> 4) << 32;
  if (format == DescriptorFormat::Wgmma)
    return bits | uint64_t(array.width == 128 ? 1 : array.width == 64 ? 2 : 3) << 62;
  return bits | uint64_t(1) << 46 |
         uint64_t(array.width == 128 ? 2 : array.width == 64 ? 4 : 6) << 61;
}

namespace {

/// `value` (i32) as x + c with c constant, looking through the adds,
/// subtractions and multiplications by constants of index arithmetic; x is
/// null when all of `value` is constant, and built anew (from `value`'s
/// non-constant leaves) where the constants sit inside it.
std::pair<Value, int64_t> splitConstant(const IndexMath &m, Value value) {
  llvm::APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return {Value(), constant.getSExtValue()};
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<LLVM::AddOp, LLVM::SubOp>(op)) {
    auto [x, cx] = splitConstant(m, op->getOperand(0));
    auto [y, cy] = splitConstant(m, op->getOperand(1));
    bool sub = isa<LLVM::SubOp>(op);
    if (sub && y)
      return {value, 0};
    Value rest = !x ? y : !y ? x : m.add(x, y);
    return {rest, sub ? cx - cy : cx + cy};
  }
  if (isa_and_nonnull<LLVM::MulOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    int64_t factor = constant.getSExtValue();
    auto [x, cx] = splitConstant(m, op->getOperand(0));
    return {x ? m.mul(x, factor) : x, cx * factor};
  }
  return {value, 0};
}

} // namespace

Value SwizzledArray::slot(const IndexMath &m, Value row, Value c) const {
  auto [variable, constant] = splitConstant(m, row);
  // row = (variable + low) + high, high a multiple of 8.
  int64_t low = (constant % kAtomRows + kAtomRows) % kAtomRows, high = constant - low;
  Value patternRow = variable ? m.add(variable, low) : m.e.i32(low);
  Value pattern = m.shl(m.bits(m.mul(patternRow, width), 7, width / 16 - 1), 4);
  Value permuted = m.bitXor(m.mul(m.rem(c, perBlock()), elementBytes), pattern);
  int64_t perRow = width / elementBytes;
  Value slot = m.add(m.add(m.mul(m.div(c, perBlock()), blockBytes() / elementBytes),
                           m.mul(patternRow, perRow)),
                     m.div(permuted, elementBytes));
  return m.add(slot, high * perRow);
}

SwizzledStaging::SwizzledStaging(const MmaShape &s, int64_t chunk, unsigned elementBytes,
                                 bool stageA, bool bKMajor, bool bLands)
    : chunk(chunk), buffers(chunk < s.k ? 2 : 1), n(s.n), bKMajor(bKMajor),
      bLands(bKMajor && bLands), a(stageA ? s.batch * s.m : 0, chunk, elementBytes),
      b(bKMajor ? SwizzledArray(s.batch * s.n, chunk, elementBytes)
                : SwizzledArray(s.batch * chunk, s.n, elementBytes)),
      landing(this->bLands ? s.batch * chunk : 0, s.n, elementBytes) {
  bOffset = llvm::alignTo(a.bytes(), kSwizzleAlignment);
  landingOffset = llvm::alignTo(bOffset + b.bytes(), kSwizzleAlignment);
  bufferBytes = llvm::alignTo(landingOffset + landing.bytes(), kSwizzleAlignment);
  bytes = buffers * bufferBytes;
}

int64_t SwizzledStaging::chooseChunk(const MmaShape &s, unsigned elementBytes, bool stageA,
                                     uint64_t limit, bool bKMajor, bool bLands) {
  return chooseKChunk(s.k, kMmaStepBytes / elementBytes, limit, [&](int64_t chunk) {
    return SwizzledStaging(s, chunk, elementBytes, stageA, bKMajor, bLands).bytes;
  });
}

int64_t SwizzledStaging::bRowOffset(int64_t batch, int64_t n0) const {
  if (bKMajor) // rows W bytes apart, the first block along K
    return (batch * n + n0) * b.width;
  return n0 / b.perBlock() * b.blockBytes() + batch * chunk * b.width;
}

/// Elements per side of the square a thread transposes at a time.
static constexpr int64_t kTransposeSide = 4;

/// Runs `body(item)` for items 0 .. `items` - 1, `threads` threads taking
/// consecutive items (thread t item t, then t + threads, ...).
static void forEachItem(RegisterEmitter &e, ConversionPatternRewriter &rewriter, int64_t items,
                        int64_t threads, llvm::function_ref<void(Value)> body) {
  Location loc = e.loc;
  IndexMath m{e};
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  emitCountedLoop(rewriter, loc, llvm::divideCeil(items, threads), {},
                  [&](Value iteration, ValueRange) {
                    Value item = m.add(m.mul(iteration, threads), tid);
                    if (items % threads == 0)
                      body(item);
                    else
                      emitIf(rewriter, loc,
                             LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, item,
                                                  e.i32(items)),
                             [&] { body(item); });
                    return SmallVector<Value>();
                  });
}

/// Transposes buffer `buffer`'s landing array (B's chunk, N-major, as
/// cp.async left it) into its K-major B, `threads` threads sharing the
/// 4 x 4 squares (see the header), rounding f32 to tf32 on the way with
/// `round`; consecutive threads take squares adjacent along K, so that
/// their stores fill whole rows.
static void transposeLandedB(RegisterEmitter &e, ConversionPatternRewriter &rewriter,
                             const SwizzledStaging &staging, Value landing, Value kMajor,
                             Type element, int64_t threads, bool round) {
  Location loc = e.loc;
  IndexMath m{e};
  int64_t squaresK = staging.chunk / kTransposeSide;
  auto vector = VectorType::get({kTransposeSide}, element);
  unsigned vectorBytes = kTransposeSide * getByteSize(element);
  auto at = [&](Value base, Value slot) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                               ArrayRef<LLVM::GEPArg>{slot});
  };
  forEachItem(e, rewriter, squaresK * (staging.b.rows / kTransposeSide), threads,
              [&](Value square) {
                Value k0 = m.mul(m.rem(square, squaresK), kTransposeSide);
                // The square's first column along batch * N, its batch and
                // column within the batch.
                Value column = m.mul(m.div(square, squaresK), kTransposeSide);
                Value batch = m.div(column, staging.n);
                Value n0 = m.rem(column, staging.n);
                SmallVector<Value> rows;
                for (int64_t i = 0; i < kTransposeSide; ++i) {
                  Value row = m.add(m.add(m.mul(batch, staging.chunk), k0), i);
                  Value loaded = LLVM::LoadOp::create(
                      rewriter, loc, vector, at(landing, staging.landing.slot(m, row, n0)),
                      vectorBytes);
                  rows.push_back(round ? roundToTF32(rewriter, loc, loaded) : loaded);
                }
                for (int64_t j = 0; j < kTransposeSide; ++j) {
                  SmallVector<Value> elements;
                  for (Value row : rows)
                    elements.push_back(
                        LLVM::ExtractElementOp::create(rewriter, loc, row, e.i32(j)));
                  LLVM::StoreOp::create(rewriter, loc, e.buildVector(vector, elements),
                                        at(kMajor, staging.b.slot(m, m.add(column, j), k0)),
                                        vectorBytes);
                }
              });
}

/// Rounds the f32 of `bytes` bytes at `base` to tf32 in place, 16 bytes per
/// thread and step; with `runBytes`, only the first `runBytes` of every
/// 2 * `runBytes` (`bytes` counts those).
static void roundToTF32InPlace(RegisterEmitter &e, ConversionPatternRewriter &rewriter,
                               Value base, int64_t bytes, int64_t threads,
                               int64_t runBytes = 0) {
  Location loc = e.loc;
  IndexMath m{e};
  auto vector = VectorType::get({kMaxRunBytes / 4}, rewriter.getF32Type());
  int64_t runPieces = runBytes / kMaxRunBytes;
  forEachItem(e, rewriter, bytes / kMaxRunBytes, threads, [&](Value piece) {
    if (runPieces)
      piece = m.add(m.mul(m.div(piece, runPieces), 2 * runPieces), m.rem(piece, runPieces));
    Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(), vector, base,
                                        ArrayRef<LLVM::GEPArg>{piece});
    Value loaded = LLVM::LoadOp::create(rewriter, loc, vector, address, kMaxRunBytes);
    LLVM::StoreOp::create(rewriter, loc, roundToTF32(rewriter, loc, loaded), address,
                          kMaxRunBytes);
  });
}

LogicalResult stageSwizzledChunk(RegisterEmitter &e, ConversionPatternRewriter &rewriter,
                                 const SwizzledStaging &staging, int64_t buffer, Value scratch,
                                 const StagedOperand *a, const StagedOperand *b, Type element,
                                 const MmaShape &s, int64_t k0, int64_t len,
                                 llvm::function_ref<Value(size_t)> aRowOf, bool roundToTf32,
                                 bool freeBarrier) {
  Location loc = e.loc;
  IndexMath m{e};
  const Laid &laid = (b ? b : a)->laid;
  unsigned rank = laid.shape.size();
  bool needsCheck = s.k > staging.chunk;
  auto bytesAt = [&](uint64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, scratch.getType(), rewriter.getI8Type(), scratch,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };
  // Earlier readers of the scratch, and of this buffer the multiplies of
  // two chunks before, are done.
  if (freeBarrier)
    emitCTABarrier(rewriter, loc);
  if (a && failed(stageRuns(
               e, *a, bytesAt(staging.aStart(buffer)), element, /*transposed=*/false, rank - 1,
               k0, len, needsCheck, /*trash=*/0,
               [&](size_t i, Value kLocal) { return staging.a.slot(m, aRowOf(i), kLocal); },
               &rewriter)))
    return failure();
  // A K-major B takes its registers one at a time where their runs go
  // along N (its staged rows go along K), whole runs where they go along K
  // (a B loaded N x K and permuted, stageRuns); a global one lands N-major
  // first.
  bool lands = b && staging.bLands && b->global;
  bool kMajorStores = staging.bKMajor && !lands;
  if (b && failed(stageRuns(
               e, *b, bytesAt(lands ? staging.landingStart(buffer) : staging.bStart(buffer)),
               element, /*transposed=*/kMajorStores, rank - 2, k0, len, needsCheck, /*trash=*/0,
               [&](size_t i, Value kLocal) {
                 Value batch = s.batched ? b->regs.coords[0][i] : e.i32(0);
                 Value n = b->regs.coords[rank - 1][i];
                 if (kMajorStores)
                   return staging.b.slot(m, m.add(m.mul(batch, s.n), n), kLocal);
                 Value row = m.add(m.mul(batch, staging.chunk), kLocal);
                 return (lands ? staging.landing : staging.b).slot(m, row, n);
               },
               &rewriter)))
    return failure();
  if ((a && a->global) || (b && b->global)) {
    // This thread's copies have landed (in the generic proxy, which the
    // fence below orders before the tensor cores' async-proxy reads).
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
  }
  // A and an N-major B (tcgen05 reads tf32 B so) round where they landed;
  // a landed K-major B rounds as it is transposed.
  bool roundA = roundToTf32 && a && a->global;
  bool roundB = roundToTf32 && b && b->global && !lands;
  if (lands || roundA || roundB) {
    int64_t threads = 32 * getWarpsInLayout(laid.layout);
    emitCTABarrier(rewriter, loc); // every thread's copies have landed
    finishLandedChunk(e, rewriter, staging, buffer, scratch, element, threads, lands, roundA,
                      roundToTf32, roundB);
    return success();
  }
  emitStagedChunkFence(rewriter, loc);
  return success();
}

void emitStagedChunkFence(ConversionPatternRewriter &rewriter, Location loc) {
  MLIRContext *context = rewriter.getContext();
  NVVM::FenceProxyOp::create(rewriter, loc,
                             NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
                             NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  emitCTABarrier(rewriter, loc); // the chunk is complete
}

void finishLandedChunk(RegisterEmitter &e, ConversionPatternRewriter &rewriter,
                       const SwizzledStaging &staging, int64_t buffer, Value scratch,
                       Type element, int64_t threads, bool transposeB, bool roundA,
                       bool roundB, bool roundBInPlace, bool aRowsPadded) {
  Location loc = e.loc;
  auto bytesAt = [&](uint64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, scratch.getType(), rewriter.getI8Type(), scratch,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };
  if (transposeB)
    transposeLandedB(e, rewriter, staging, bytesAt(staging.landingStart(buffer)),
                     bytesAt(staging.bStart(buffer)), element, threads, roundB);
  // Padded A: 8 rows of data, then 8 padding rows, in every block.
  constexpr int64_t kDataRows = 8;
  if (roundA)
    roundToTF32InPlace(e, rewriter, bytesAt(staging.aStart(buffer)),
                       aRowsPadded ? staging.a.bytes() / 2 : staging.a.bytes(), threads,
                       aRowsPadded ? kDataRows * staging.a.width : 0);
  if (roundBInPlace)
    roundToTF32InPlace(e, rewriter, bytesAt(staging.bStart(buffer)), staging.b.bytes(), threads);
  emitStagedChunkFence(rewriter, loc);
}

} // namespace tilepipe::tile_as
