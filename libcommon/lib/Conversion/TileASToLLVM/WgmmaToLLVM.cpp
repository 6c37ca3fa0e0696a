//===- WgmmaToLLVM.cpp - mmaf on Hopper tensor cores: wgmma.mma_async -----===//
//
// The wgmma path of mmaf for f16/bf16 operands on sm_90 (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions";
// tile-ptx turns the target into sm_90a, which wgmma needs).
//
// The accumulator arrives in getWgmmaAccumulatorLayout: the m16n8 fragment
// layout with all W warps along M. Lane l of warp v holds row
// 8 * W * R + 8 * v + l / 4 (R counting its row registers) and columns
// 8 * c + 2 * (l % 4) + {0, 1}. The D fragment of an m64nNk16 wgmma gives
// warp w of a warpgroup fragment rows 16 * w + l / 4 + {0, 8} and the same
// columns ("Register Fragments": "Matrix D"). So warp v = 4 * g + w of
// warpgroup g computes, with its row registers 2p and 2p + 1, fragment rows
// 16 * w + 8 * h + i (h = 0, 1; i < 8) of a wgmma whose A row is tile row
// 8 * W * (2p + h) + 8 * v + i. The wgmma reads A through a descriptor, so
// A is staged with its rows in that order: one 64-row block per
// (batch, warpgroup, row pair p). The accumulator registers then are the D
// fragments as they are; no layout changes.
//
// A (as [M][K]) and B (transposed, as [N][K]) are staged a K chunk at a time
// in the canonical K-major layout without swizzling ("Shared Memory Matrix
// Layout"): 8x16-byte core matrices, the core matrices of one 8-row group
// adjacent along K (leading byte offset 128), 8-row groups chunk * 16 bytes
// apart (stride byte offset). Staging is generic-proxy st.shared, wgmma
// reads through the async proxy: each thread fences its stores with
// fence.proxy.async before the barrier that publishes the chunk ("Memory
// Consistency Model: Proxies"). Per k step of 16 each warpgroup issues one
// wgmma per (batch, row pair, at most 256 columns) between wgmma.fence and
// commit_group; wait_group 0 ends the step, so the accumulator registers are
// defined again and the staged chunk free after the loop. f16 accumulators
// accumulate in f32 and are rounded once at the end, as on the mma.sync path.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// Rows of A one wgmma covers (the m of m64nNk16), and its largest N.
constexpr int64_t kWarpgroupRows = 64, kMaxN = 256;
constexpr int64_t kWarpsPerWarpgroup = 4;
constexpr int64_t kStepK = CanonicalKMajor::kStepK;
constexpr int64_t kCoreRows = CanonicalKMajor::kCoreRows;
constexpr int64_t kCoreBytes = CanonicalKMajor::kCoreBytes;
constexpr unsigned kElementBytes = CanonicalKMajor::kElementBytes;

} // namespace

bool canLowerToWgmma(MmaFOp op) { return hasWgmmaForm(op) && CanonicalMma::fits(op); }

LogicalResult lowerWgmma(MmaFOp op, Value lhs, Value rhs, Value acc,
                         const TypeConverter &converter,
                         ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  FailureOr<CanonicalMma> prepared = CanonicalMma::prepare(op, lhs, rhs, acc, converter, e);
  if (failed(prepared))
    return failure();
  CanonicalMma &mma = *prepared;
  const MmaShape &s = mma.shape;
  const CanonicalStaging &staging = mma.staging;
  const OperandRegs &a = mma.a;
  SmallVector<Value> &sums = mma.sums;
  unsigned rank = mma.accLaid.shape.size();
  unsigned mDim = rank - 2;
  BlockedAttr layout = mma.accLaid.layout;
  int64_t warps = layout.getWarpsPerCTA()[mDim];
  int64_t warpgroups = warps / kWarpsPerWarpgroup;
  int64_t rowPairs = s.m / (2 * kCoreRows * warps);

  // The staged row of tile row t of A (see the header): row register
  // R = t / (8W) of warp v = (t / 8) % W holds it, in row pair p = R / 2,
  // as fragment row 16 * (v % 4) + 8 * (R % 2) + t % 8 of the 64-row block
  // of (batch, warpgroup v / 4, p).
  auto stagedRowOfA = [&](Value batch, Value t) {
    Value rowReg = m.div(t, kCoreRows * warps);
    Value warp = m.rem(m.div(t, kCoreRows), warps);
    Value block = m.add(m.mul(m.add(m.mul(batch, warpgroups), m.div(warp, kWarpsPerWarpgroup)),
                              rowPairs),
                        m.div(rowReg, 2));
    Value fragmentRow = m.add(m.add(m.mul(m.rem(warp, kWarpsPerWarpgroup), 2 * kCoreRows),
                                    m.mul(m.rem(rowReg, 2), kCoreRows)),
                              m.rem(t, kCoreRows));
    return m.add(m.mul(block, kWarpgroupRows), fragmentRow);
  };

  // The accumulator registers as [batch][row register][column register].
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, mma.accLaid.shape);
  int64_t batchRegs = s.batched ? regsPerDim[0] : 1;
  auto regOf = [&](int64_t batch, int64_t row, int64_t col) {
    SmallVector<int64_t> perDim{row, col};
    if (s.batched)
      perDim.insert(perDim.begin(), batch);
    return linearizeRegister(layout, mma.accLaid.shape, perDim);
  };

  // Shared addresses (i64) of this warpgroup's A blocks and of the B column
  // ranges at the start of a chunk.
  Type i64 = rewriter.getI64Type();
  Value aAddress = LLVM::PtrToIntOp::create(rewriter, loc, i64, mma.aBase);
  Value bAddress = LLVM::PtrToIntOp::create(rewriter, loc, i64, mma.bBase);
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value warpgroup = m.div(tid, kWarpsPerWarpgroup * 32);
  int64_t blockBytes = kWarpgroupRows * staging.chunk() * kElementBytes;
  auto addBytes = [&](Value address, Value bytes) {
    return CanonicalMma::addBytes(e, address, bytes);
  };
  struct Issue {
    int64_t batch, pair, n0, width;
  };
  SmallVector<Issue> issues;
  for (int64_t batch = 0; batch < batchRegs; ++batch)
    for (int64_t pair = 0; pair < rowPairs; ++pair)
      for (int64_t n0 = 0; n0 < s.n; n0 += kMaxN)
        issues.push_back({batch, pair, n0, std::min(kMaxN, s.n - n0)});

  MLIRContext *context = rewriter.getContext();
  Type f32 = rewriter.getF32Type();
  NVVM::WGMMATypes operandType =
      mma.element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  // No swizzle (bits 62-63 zero): only the offsets.
  uint64_t layoutBits = staging.layout.offsetBits();

  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk()) {
    int64_t len = std::min(staging.chunk(), s.k - k0);
    mma.stageChunk(e, k0, len, [&](size_t i) {
      return stagedRowOfA(mma.batchOf(e, a, i), a.coords[mDim][i]);
    });
    bool emitted = true;
    sums = emitCountedLoop(rewriter, loc, len / kStepK, sums, [&](Value k, ValueRange carried) {
      // 16 elements of K are two core matrices along K.
      Value kBytes = m.mul(k, 2 * kCoreBytes);
      SmallVector<Value> next(carried);
      NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
      for (const Issue &issue : issues) {
        Value block = m.add(m.mul(m.add(warpgroup, issue.batch * warpgroups), rowPairs),
                            issue.pair);
        Value descA = CanonicalKMajor::descriptor(
            e, addBytes(aAddress, m.add(m.mul(block, blockBytes), kBytes)), layoutBits);
        int64_t bRow = issue.batch * s.n + issue.n0;
        Value descB = CanonicalKMajor::descriptor(
            e, addBytes(bAddress, m.add(kBytes, bRow / kCoreRows * staging.layout.strideBytes())),
            layoutBits);
        // D register 4j + 2h + x: row register 2 * pair + h, column
        // register 2 * (n0 / 8 + j) + x.
        SmallVector<int64_t> regs;
        for (int64_t j = 0; j < issue.width / 8; ++j)
          for (int64_t h = 0; h < 2; ++h)
            for (int64_t x = 0; x < 2; ++x)
              regs.push_back(regOf(issue.batch, 2 * issue.pair + h, 2 * (issue.n0 / 8 + j) + x));
        Type fragmentType =
            LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(regs.size(), f32));
        Value fragment = LLVM::UndefOp::create(rewriter, loc, fragmentType);
        for (auto [i, reg] : llvm::enumerate(regs))
          fragment = LLVM::InsertValueOp::create(rewriter, loc, fragment, next[reg], i);
        auto wgmma = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, fragmentType, fragment, descA, descB,
            NVVM::MMAShapeAttr::get(context, kWarpgroupRows, issue.width, kStepK),
            operandType, operandType, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
            // Both operands K-major: A row-major, B column-major.
            NVVM::MMALayout::row, NVVM::MMALayout::col, nullptr);
        FailureOr<Value> d = emitAsInlinePtx(rewriter, wgmma.getOperation());
        if (failed(d)) {
          emitted = false;
          continue;
        }
        for (auto [i, reg] : llvm::enumerate(regs))
          next[reg] = LLVM::ExtractValueOp::create(rewriter, loc, *d, i);
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
      return next;
    });
    if (!emitted)
      return failure();
  }
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it

  return replaceWithSums(rewriter, op, e, sums, mma.arith, mma.accType, acc.getType());
}

} // namespace tilepipe::tile_as
