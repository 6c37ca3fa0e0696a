//===- BlockScaledTcgen05ToLLVM.cpp - mmaf_scaled on tcgen05.mma ----------===//
//
// tile_as.mmaf_scaled (f32 accumulator) on sm_100/103/110 (tile-ptx
// assembles them as their `a` targets) as tcgen05.mma.cta_group::1 with
// block scaling (PTX ISA, "Block Scaling" of tcgen05.mma):
//   fp8 operands, one e8m0 scale per 32 k: kind::mxf8f6f4 (scale_vec::1X,
//     k step 32, one scale per row of A and column of B per step);
//   e2m1 operands, e8m0 scales per 32 k (MX-FP4): kind::mxf4 (2X: k step
//     64, two scales per step);
//   e2m1 operands, e4m3 scales per 16 k (NVFP4): kind::mxf4nvf4.block16
//     (4X, ue4m3: four scales per step; the scale bytes' bit 7 is no sign).
// A and B take the canonical K-major staging (Tcgen05Lowering.h: one byte
// per element, a K chunk at a time; e2m1 then packed two to a byte, as the
// fp4 kinds read them), its issue / commit / wait and its tcgen05.ld
// read-back into the accumulator registers; this file adds the scales and
// the kind.
//
// The scales live in tensor memory in the layout the instruction reads
// ("Layout of the Scale Factor A/B Matrix for scale_vec::1X"): the scale of
// row r of a 128-row block is byte SFA_ID of lane r % 32, column r / 32 from
// the scale_A address, and the same in each of the four 32-lane partitions
// (the ISA requires the copies); with 2X and 4X the step's other scales are
// the bytes after it. So one column word holds four k blocks: for a step
// whose first k block is kb the instruction takes the address of word
// kb / 4 and SFA_ID (bits 29-30 of the instruction descriptor) kb % 4 (0 or
// 2 with 2X, 0 with 4X: a step starts at a multiple of its block count); B
// alike with SFB_ID (bits 4-5), column n of each run of 32 columns in lane
// n % 32.
// Before the multiply, the scale tiles go through the shared scratch once
// (as [batch][M][words] and [batch][N][words] i32 words, four k blocks
// each), and warps 0-3 each copy the words of their lane partition into
// tensor memory with tcgen05.st.32x32b.
//
// Tensor memory then holds the scales (A per (batch, row block), B per
// batch) and D: one region of N columns per (batch, row block) as for
// kind::f16, but where the regions and the scales exceed the 512 columns
// they are computed a group at a time (the K chunks staged again per group),
// each group read back into the accumulator registers before the next
// overwrites its columns.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// k blocks whose scales share one 32-bit tensor-memory word.
constexpr int64_t kBlocksPerWord = 4;
/// The most columns one tcgen05.st.32x32b moves (.x128).
constexpr int64_t kMaxStoreColumns = 128;

/// Whether `op` takes this path: a tcgen05 target and the tcgen05
/// accumulator layout (AssignLayouts gives it to mmaf_scaled there).
bool hasTcgen05Form(MmaFScaledOp op) { return hasTcgen05Accumulator(op, op.getAcc().getType()); }

/// Where the scales and D live in tensor memory (columns from the
/// allocation's start): A's scales, 4 columns per scale word, per (batch,
/// row block) region; B's, one column per 32 columns of N per scale word,
/// per batch; and the D regions of one group. The scales come first and a
/// group is as many regions as the rest holds, unless D stays in tensor
/// memory across the multiplies (`tile_as.tmem_accumulator`): then all the
/// regions are one group from column 0, where tile_as.acc_to_tmem put them,
/// and the scales follow.
struct TmemPlan {
  int64_t batch = 1, words = 0, rowBlocks = 0;
  int64_t aColumns = 0, bColumnsPerWord = 0;
  int64_t scaleColumns = 0, groupRegions = 0;
  int64_t scaleBase = 0, dBase = 0;

  TmemPlan(const MmaShape &s, int64_t block, bool dInTmem) : batch(s.batch) {
    int64_t blocks = s.k / block;
    words = llvm::divideCeil(blocks, kBlocksPerWord);
    rowBlocks = s.m / kTcgen05Rows;
    aColumns = words * kTcgen05Rows / kTmemLanesPerWarp;
    bColumnsPerWord = llvm::divideCeil(s.n, kTmemLanesPerWarp);
    scaleColumns = getTcgen05ScaleColumns(s.batch, s.m, s.n, s.k, block);
    if (dInTmem) {
      groupRegions = s.batch * rowBlocks;
      scaleBase = groupRegions * s.n;
      return;
    }
    int64_t free = kTmemColumns - scaleColumns;
    groupRegions = free > 0 ? std::min(s.batch * rowBlocks, free / s.n) : 0;
    dBase = scaleColumns;
  }
  int64_t aColumn(int64_t region) const { return scaleBase + region * aColumns; }
  int64_t bColumn(int64_t b) const {
    return scaleBase + batch * rowBlocks * aColumns + b * words * bColumnsPerWord;
  }
  int64_t dColumn(int64_t slot, const MmaShape &s) const { return dBase + slot * s.n; }
  int64_t columns(const MmaShape &s) const { return scaleColumns + groupRegions * s.n; }
};

/// The block-scaled instruction descriptor without its scale factor ids
/// ("Instruction descriptor format for .kind::mxf8f6f4" and "for .kind::mxf4
/// and .kind::mxf4nvf4"): A and B types (bits 7-9, 10-12: 0 e4m3, 1 e5m2;
/// for the fp4 kinds 1 e2m1), both K-major, N >> 3 (bits 17-22), the scale
/// type (bit 23: 1 ue8m0, 0 ue4m3), M >> 7 (bits 27-28); dense (K = 64 for
/// fp4), no negation.
uint32_t instructionDescriptor(Type a, Type b, Type scale, int64_t n) {
  auto code = [](Type t) { return isa<Float8E5M2Type, Float4E2M1FNType>(t) ? 1u : 0u; };
  return code(a) << 7 | code(b) << 10 | uint32_t(n >> 3) << 17 |
         uint32_t(isa<Float8E8M0FNUType>(scale)) << 23 | uint32_t(kTcgen05Rows >> 7) << 27;
}

/// The block-scaled kind of A elements `a` with `scale` scales, and its
/// scale vector qualifier (getScaledMmaBlock's pairs).
std::pair<NVVM::MMABlockScaleKind, NVVM::Tcgen05MMABlockScale> getBlockScaleKind(Type a,
                                                                                  Type scale) {
  if (!isa<Float4E2M1FNType>(a))
    return {NVVM::MMABlockScaleKind::MXF8F6F4, NVVM::Tcgen05MMABlockScale::DEFAULT};
  if (isa<Float8E8M0FNUType>(scale))
    return {NVVM::MMABlockScaleKind::MXF4, NVVM::Tcgen05MMABlockScale::DEFAULT};
  return {NVVM::MMABlockScaleKind::MXF4NVF4, NVVM::Tcgen05MMABlockScale::BLOCK16};
}

/// tcgen05.st.32x32b of `words` (i32) into consecutive columns from
/// `address` (i32), in power-of-two pieces.
void storeColumns(RegisterEmitter &e, Value address, ArrayRef<Value> words) {
  IndexMath m{e};
  for (size_t col = 0; col < words.size();) {
    int64_t width = std::min<int64_t>(kMaxStoreColumns, llvm::bit_floor(words.size() - col));
    Value value = width == 1 ? words[col]
                             : e.buildVector(VectorType::get({width}, e.builder.getI32Type()),
                                             words.slice(col, width));
    NVVM::Tcgen05StOp::create(e.builder, e.loc, /*unpack=*/false,
                              NVVM::Tcgen05LdStShape::SHAPE_32X32B,
                              getTensorPointer(e, m.add(address, int64_t(col))), value,
                              /*offset=*/Value());
    col += width;
  }
}

struct MmaFScaledTcgen05Lowering : ConvertOpToLLVMPattern<MmaFScaledOp> {
  MmaFScaledTcgen05Lowering(const LLVMTypeConverter &converter)
      // Before the block-scaled mma.sync lowering, which takes the others.
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(MmaFScaledOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!targetsTcgen05(op))
      return rewriter.notifyMatchFailure(op, "not a tcgen05 target");
    if (!hasTcgen05Form(op) || !CanonicalMma::fits(op))
      return op.emitOpError("on a tcgen05 target needs the tcgen05 accumulator layout and A "
                            "and B staging that fits shared memory");
    Location loc = op.getLoc();
    auto accTensor = cast<RankedTensorType>(op.getAcc().getType());
    FailureOr<MmaShape> shape =
        getMmaShape(cast<RankedTensorType>(op.getLhs().getType()).getShape(), accTensor.getShape());
    FailureOr<Laid> saLaid = Laid::of(op, op.getLhsScale().getType());
    FailureOr<Laid> sbLaid = Laid::of(op, op.getRhsScale().getType());
    if (failed(shape) || failed(saLaid) || failed(sbLaid))
      return failure();
    const MmaShape &s = *shape;
    Type aType = getElementTypeOrSelf(op.getLhs().getType());
    Type bType = getElementTypeOrSelf(op.getRhs().getType());
    Type scaleType = getElementTypeOrSelf(op.getLhsScale().getType());
    int64_t block = getScaledMmaBlock(aType, scaleType);
    auto [kind, scaleVec] = getBlockScaleKind(aType, scaleType);
    bool inTmem = hasTmemAccumulator(op);
    TmemPlan plan(s, block, inTmem);
    // At least one accumulator block beside the scales (all of them where
    // D stays in tensor memory).
    int64_t dColumns = (inTmem ? plan.groupRegions : 1) * s.n;
    if (plan.groupRegions < 1 || plan.scaleColumns + dColumns > kTmemColumns)
      return op.emitError("allocated tmem out of resource: ")
             << getTmemAllocationColumns(plan.scaleColumns + dColumns) << " vs " << kTmemColumns
             << " (the scales take " << plan.scaleColumns << " tensor-memory columns and "
             << (inTmem ? "the " : "one ") << (inTmem ? s.m : kTcgen05Rows) << "x" << s.n
             << " f32 accumulator " << dColumns << ")";
    // The scale words in the scratch: [batch * M + row][words], then
    // [batch * N + column][words].
    int64_t pitch = plan.words * 4;
    int64_t bScaleOffset = s.batch * s.m * pitch;
    uint64_t scaleBytes = bScaleOffset + s.batch * s.n * pitch;

    RegisterEmitter e(rewriter, loc);
    // In a K loop (see makeThreadIdUnhoistable).
    if (inTmem)
      e.makeThreadIdUnhoistable();
    IndexMath m{e};
    FailureOr<CanonicalMma> prepared = CanonicalMma::prepare(
        op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(), *getTypeConverter(), e,
        scaleBytes, /*withAccumulator=*/!inTmem);
    if (failed(prepared))
      return failure();
    CanonicalMma &mma = *prepared;
    unsigned mDim = accTensor.getRank() - 2;
    // k blocks (scales per row) of one instruction.
    int64_t blocksPerStep = mma.staging.stepK() / block;
    Value tmem = getTensorMemory(rewriter, loc, op, getTmemAllocationColumns(plan.columns(s)));
    Tcgen05Issuer issuer = Tcgen05Issuer::create(rewriter, loc, op, e);

    // The scale tiles into the scratch as bytes, A's then B's.
    Value scratch = mma.aBase;
    Value bScales = LLVM::GEPOp::create(rewriter, loc, scratch.getType(), rewriter.getI8Type(),
                                        scratch, ArrayRef<LLVM::GEPArg>{int32_t(bScaleOffset)});
    stageScaleBytes(e, rewriter, s, adaptor.getLhsScale(), *saLaid, adaptor.getRhsScale(),
                    *sbLaid, scratch, bScales, pitch);
    Type i32 = rewriter.getI32Type();
    auto at = [&](Type type, Value index) {
      return LLVM::GEPOp::create(rewriter, loc, scratch.getType(), type, scratch,
                                 ArrayRef<LLVM::GEPArg>{index});
    };

    // Warps 0-3 copy them to their lane partition of tensor memory: lane l
    // of warp w to lane 32 * w + l.
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value inFirstFour = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, tid,
                                             e.i32(4 * kTmemLanesPerWarp));
    emitIf(rewriter, loc, inFirstFour, [&] {
      Value lane = m.bits(tid, 0, kTmemLanesPerWarp - 1);
      // Lane 32 * w: thread id less its lane, in the address's lane bits.
      Value base = m.add(tmem, m.shl(m.sub(tid, lane), 16));
      auto word = [&](Value line) {
        SmallVector<Value> words;
        for (int64_t w = 0; w < plan.words; ++w)
          words.push_back(
              LLVM::LoadOp::create(rewriter, loc, i32, at(i32, m.add(m.mul(line, plan.words), w)), 4));
        return words;
      };
      for (int64_t batch = 0; batch < s.batch; ++batch) {
        for (int64_t block = 0; block < plan.rowBlocks; ++block) {
          // Column 4 * w + c: word w of row 32 * c + lane.
          SmallVector<SmallVector<Value>> rows;
          for (int64_t c = 0; c < kTcgen05Rows / kTmemLanesPerWarp; ++c)
            rows.push_back(word(m.add(lane, batch * s.m + block * kTcgen05Rows +
                                                c * kTmemLanesPerWarp)));
          SmallVector<Value> columns;
          for (int64_t w = 0; w < plan.words; ++w)
            for (auto &row : rows)
              columns.push_back(row[w]);
          storeColumns(e, m.add(base, plan.aColumn(batch * plan.rowBlocks + block)), columns);
        }
        // Column q of word w: word w of column 32 * q + lane (0 past N).
        SmallVector<SmallVector<Value>> lines;
        for (int64_t q = 0; q < plan.bColumnsPerWord; ++q) {
          Value n = m.add(lane, q * kTmemLanesPerWarp);
          Value inside = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, n,
                                              e.i32(s.n));
          Value line = LLVM::SelectOp::create(rewriter, loc, inside, n, e.i32(0));
          SmallVector<Value> words = word(m.add(line, s.batch * s.m + batch * s.n));
          for (Value &w : words)
            w = LLVM::SelectOp::create(rewriter, loc, inside, w, e.i32(0));
          lines.push_back(words);
        }
        SmallVector<Value> columns;
        for (int64_t w = 0; w < plan.words; ++w)
          for (auto &line : lines)
            columns.push_back(line[w]);
        storeColumns(e, m.add(base, plan.bColumn(batch)), columns);
      }
      NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::STORE);
    });
    // The scales are in place before thread 0 issues (and the scratch may
    // be reused by the chunks' staging).
    emitTensorMemoryBarrier(rewriter, loc);

    struct Issue {
      int64_t batch, block, slot, n0, width;
    };
    int64_t regions = s.batch * plan.rowBlocks;
    int64_t phase = 0;
    for (int64_t first = 0; first < regions; first += plan.groupRegions) {
      int64_t last = std::min(regions, first + plan.groupRegions);
      SmallVector<Issue> issues;
      for (int64_t region = first; region < last; ++region)
        for (int64_t n0 = 0; n0 < s.n; n0 += kTcgen05MaxN)
          issues.push_back({region / plan.rowBlocks, region % plan.rowBlocks, region - first, n0,
                            std::min(kTcgen05MaxN, s.n - n0)});
      auto dColumn = [&](int64_t slot) { return plan.dColumn(slot, s); };
      for (int64_t k0 = 0; k0 < s.k; k0 += mma.staging.chunk(), ++phase) {
        int64_t len = std::min(mma.staging.chunk(), s.k - k0);
        mma.stageChunk(e, rewriter, k0, len, [&](size_t i) {
          return m.add(m.mul(mma.batchOf(e, mma.a, i), s.m), mma.a.coords[mDim][i]);
        });
        LogicalResult issued = issuer.issueAndWait(rewriter, loc, phase, [&] {
          int64_t steps = len / mma.staging.stepK();
          emitCountedLoop(rewriter, loc, steps, {}, [&](Value k, ValueRange) {
            // D starts from zero, or from what it holds in tensor memory.
            Value accumulate =
                k0 || inTmem ? LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                              rewriter.getBoolAttr(true))
                         .getResult()
                   : LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, k, e.i32(0))
                         .getResult();
            // This step's first k block: scale word kb / 4, byte (SFA_ID,
            // SFB_ID) kb % 4.
            Value kBlock = m.add(m.mul(k, blocksPerStep), k0 / block);
            Value wordIndex = m.div(kBlock, kBlocksPerWord);
            Value id = m.rem(kBlock, kBlocksPerWord);
            Value ids = LLVM::OrOp::create(rewriter, loc, m.shl(id, 4), m.shl(id, 29));
            for (const Issue &issue : issues) {
              auto [descA, descB] =
                  mma.descriptors(e, k, issue.batch * s.m + issue.block * kTcgen05Rows,
                                  issue.batch * s.n + issue.n0);
              Value d = getTensorPointer(e, m.add(tmem, dColumn(issue.slot) + issue.n0));
              int64_t region = issue.batch * plan.rowBlocks + issue.block;
              Value scaleA = getTensorPointer(
                  e, m.add(m.add(tmem, plan.aColumn(region)),
                           m.mul(wordIndex, kTcgen05Rows / kTmemLanesPerWarp)));
              Value scaleB = getTensorPointer(
                  e, m.add(m.add(tmem, plan.bColumn(issue.batch) +
                                           issue.n0 / kTmemLanesPerWarp),
                           m.mul(wordIndex, plan.bColumnsPerWord)));
              Value idesc = LLVM::OrOp::create(
                  rewriter, loc, ids,
                  e.i32(int32_t(instructionDescriptor(aType, bType, scaleType, issue.width))));
              NVVM::Tcgen05MMABlockScaleOp::create(
                  rewriter, loc, kind, NVVM::CTAGroupKind::CTA_1, scaleVec,
                  NVVM::Tcgen05MMACollectorOp::DISCARD, d,
                  descA, descB, idesc, accumulate, scaleA, scaleB);
            }
            return SmallVector<Value>{};
          });
        });
        if (failed(issued))
          return failure();
      }
      NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
      if (!inTmem)
        mma.addProducts(e, tmem, [&](int64_t batch, int64_t block) -> std::optional<int64_t> {
          int64_t region = batch * plan.rowBlocks + block;
          if (region < first || region >= last)
            return std::nullopt;
          return dColumn(region - first);
        });
      // Every thread has read the group's D (and is past its waits) before
      // the next group overwrites it, or the mbarrier goes.
      emitTensorMemoryBarrier(rewriter, loc);
    }
    issuer.invalidate(rewriter, loc);
    if (inTmem)
      return replaceWithTmemAccumulator(rewriter, op, adaptor.getAcc().getType());
    return replaceWithSums(rewriter, op, e, mma.sums, mma.arith, mma.accType,
                           adaptor.getAcc().getType());
  }
};

} // namespace

void populateBlockScaledTcgen05ToLLVMPatterns(TileLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<MmaFScaledTcgen05Lowering>(converter);
}

} // namespace tilepipe::tile_as
