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
// fragments as they are; no layout changes. Where a thread has an odd
// number of row registers (a 32-row tile of one warpgroup: one each), the
// last pair's second half (h = 1) is padding: its A rows in the staging are
// never written and its D registers, carried through the wgmmas like the
// others, are dropped. Rows of A and D are independent, so whatever the
// padding rows hold reaches no accumulator register; the tensor cores do
// twice the work of those rows, which is what an M of 64 costs.
//
// A (as [M][K], K-major) and B (as [K][N], N-major: wgmma's transposed B,
// imm-trans-b 1) are staged a K chunk at a time in the canonical swizzled
// layouts of "Shared Memory Matrix Layout". An operand's contiguous
// dimension (K for A, N for B) is cut into blocks of W bytes, W the 128-,
// 64- or 32-byte swizzle mode that covers it (128 from 64 elements on); a
// block holds every row (A: M rows, B: the chunk's k rows) W bytes apart,
// and the 16-byte pieces of each row are permuted by the swizzle: piece p
// of row r lands at piece p ^ (r % (W / 16)) (address bits 4-6 XOR bits
// 7-9, as TMA writes them). Eight rows (an 8 x W atom) repeat the pattern,
// so every block starts at a multiple of 1024 bytes. The descriptor's
// stride byte offset is the 8-row step (8 W); for B its leading byte offset
// is the step between N blocks (for K-major A it is unused). A k step of 16
// moves A's start 32 bytes along a row (the swizzle is a function of the
// address, so this is how the hardware expects it) and B's by 16 rows.
// With these layouts each thread's registers go to shared memory in runs of
// up to 16 bytes (getRegisterRun), one vector st.shared per run: its
// elements are adjacent along the contiguous dimension of both the tile and
// the staged array, and a 16-byte piece stays whole under the swizzle.
//
// An A that arrives in the accumulator's layout (FMHA's Q and P) is not
// staged at all: wgmma takes A from registers in the mma.sync A fragment
// layout ("Register Fragments": "Matrix A"), rows l / 4 + {0, 8} and k
// columns 2 * (l % 4) + {0, 1} + {0, 8} of each warp's 16 rows. Those are
// exactly the rows of the D fragment (the same rows as the accumulator's
// registers 2p and 2p + 1) and column registers of two 8-column blocks, so
// the four A registers of a k step are element pairs of the tile as the
// thread holds it; the k steps are then unrolled (a register is picked by
// a number, not a loop index), and this form is inline PTX (NVVM's op has
// no A-register variant).
//
// Where B is global with its view (mmaf_global `view`), TMA fills its
// staging instead (TmaToLLVM.cpp: tensor maps, one mbarrier per buffer
// after the staging, thread 0 issuing the boxes, everyone waiting on the
// buffer's phase) where A needs no staging, has a view too (then TMA
// loads it as well) or is global without one (the fused MoE kernel's
// gathered token rows: the threads copy it by cp.async between thread 0
// issuing B's boxes and the wait for them, with the fence and barrier
// below). A B whose view is transposed (FMHA's K^T: K the
// unit-stride dimension) is staged K-major like A, as [N][chunk], and read
// without imm-trans-b; only TMA loads it. A tf32/fp8 B from an N-major view
// lands N-major by TMA in the landing array, and after the wait all threads
// transpose it (and round tf32) as after cp.async (finishLandedChunk).
// Otherwise:
// Staging is generic-proxy st.shared, wgmma reads through the async proxy:
// each thread fences its stores with fence.proxy.async before the barrier
// that publishes the chunk ("Memory Consistency Model: Proxies"). Per chunk
// each warpgroup issues, between one wgmma.fence and one commit_group, one
// wgmma per (k step of 16, batch, row pair, at most 256 columns), in a loop
// over the k steps. When K takes several chunks, two staging buffers
// alternate and wait_group 1 keeps the chunk's group in flight while the
// next chunk is staged into the other buffer: buffer i % 2 is rewritten for
// chunk i only after every warpgroup waited for chunk i - 2's group (its
// wait_group 1 after committing chunk i - 1, then the barrier opening chunk
// i). wait_group 0 after the last chunk makes the accumulator registers
// defined again and the scratch free. f16 accumulators accumulate in f32
// and are rounded once at the end, as on the mma.sync path.
//
// fp8 multiplies marked by tilepipe-promote-fp8-accumulation do not
// accumulate in the wgmmas: the issuer sums each interval of k steps per N
// piece in a temporary and adds it into the f32 sums after its
// wait_group (WgmmaChunks.h), since Hopper's fp8 wgmma keeps only about
// 14 bits of its sum.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"
#include "WgmmaChunks.h"

#include "tilepipe/Dialect/TileAS/IR/Fp8Promotion.h"

#include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The element type of an mmaf or mmaf_global operand: its pointees where
/// it is a tile of pointers (an mmaf_global's fused load).
Type getPointeeOrElementType(Value operand) {
  Type element = getElementTypeOrSelf(operand.getType());
  if (auto ptr = dyn_cast<PtrType>(element))
    return ptr.getPointeeType();
  return element;
}

/// Rows of A one wgmma covers (the m of m64nNk16), and its largest N.
constexpr int64_t kWarpgroupRows = 64, kMaxN = 256;
constexpr int64_t kWarpsPerWarpgroup = 4;
/// Rows of one half of an m16n8 fragment.
constexpr int64_t kCoreRows = 8;
/// Promoted fp8 accumulation (WgmmaChunkIssuer::promoteEvery): registers
/// per thread the accumulator and two temporary pieces may take (255 is
/// ptxas's limit; the rest is for addresses, descriptors and the loop), and
/// the narrowest piece. (cuTile's fp8 BatchMatMul, 128 accumulator
/// registers in 64-column pieces: 240 registers with ptxas 13.0, no
/// spills, the temporaries' registers reused; 255 and 816 bytes of spills
/// with fresh ones, see WgmmaChunkIssuer.)
constexpr int64_t kPromotionRegisters = 192, kMinPieceWidth = 32;

/// The wgmma.mma_async operand type of a tile element type (f16, bf16,
/// tf32, e4m3, e5m2), and its bytes in registers and shared memory; the k
/// of one wgmma is 32 bytes of them (m64nNk16, k8, k32). f32 is the
/// pointee of an mmaf_global operand fused from the load of an f32 -> tf32
/// conversion (AsyncCopyMmaOperands): tf32, rounded once it has landed.
struct WgmmaOperandType {
  NVVM::WGMMATypes type;
  unsigned bytes;
  bool roundsToTf32 = false;

  static WgmmaOperandType of(Type element) {
    if (element.isBF16())
      return {NVVM::WGMMATypes::bf16, 2};
    if (isa<FloatTF32Type>(element))
      return {NVVM::WGMMATypes::tf32, 4};
    if (element.isF32())
      return {NVVM::WGMMATypes::tf32, 4, /*roundsToTf32=*/true};
    if (isa<Float8E4M3FNType>(element))
      return {NVVM::WGMMATypes::e4m3, 1};
    if (isa<Float8E5M2Type>(element))
      return {NVVM::WGMMATypes::e5m2, 1};
    return {NVVM::WGMMATypes::f16, 2};
  }
  /// wgmma reads B N-major (imm-trans-b) only for f16 and bf16: B of the
  /// other types is staged K-major (SwizzledStaging.h).
  bool readsBNMajor() const { return bytes == 2; }
  int64_t stepK() const { return kMmaStepBytes / bytes; }
};

/// The wgmma staging (SwizzledStaging.h) of operands of `element`, leaving
/// `extraBytes` of static shared memory after it; `bGlobal`: B is copied
/// from global memory (and lands N-major first where it is read K-major);
/// `bTransposed`: B comes K-major from a transposed view (TMA, FMHA's K^T).
int64_t chooseChunk(const MmaShape &s, Type element, bool bGlobal, bool stageA = true,
                    uint64_t extraBytes = 0, bool bTransposed = false) {
  WgmmaOperandType type = WgmmaOperandType::of(element);
  return SwizzledStaging::chooseChunk(s, type.bytes, stageA, kMaxStaticSharedBytes - extraBytes,
                                      /*bKMajor=*/!type.readsBNMajor() || bTransposed,
                                      /*bLands=*/bGlobal && !type.readsBNMajor());
}

/// `s` with A's rows as the staging holds them (getWgmmaStagedRows): M
/// padded to whole wgmma row blocks of the accumulator's `layout`.
MmaShape getStagedShape(const MmaShape &s, BlockedAttr layout) {
  MmaShape staged = s;
  unsigned rank = layout.getWarpsPerCTA().size();
  staged.m = getWgmmaStagedRows(s.m, layout.getWarpsPerCTA()[rank - 2]);
  return staged;
}

/// The wgmma accumulator layout of an accumulator of type `acc` (which
/// hasWgmmaAccumulator checked).
BlockedAttr getAccumulatorLayout(Type acc) {
  return cast<BlockedAttr>(cast<RankedTensorType>(acc).getEncoding());
}

/// The staged row of tile row `t` of A (see the header), for batch 0.
int64_t staticStagedRowOfA(int64_t t, int64_t warps, int64_t rowPairs) {
  int64_t rowReg = t / (kCoreRows * warps), warp = (t / kCoreRows) % warps;
  int64_t block = warp / kWarpsPerWarpgroup * rowPairs + rowReg / 2;
  return block * kWarpgroupRows + warp % kWarpsPerWarpgroup * 2 * kCoreRows +
         rowReg % 2 * kCoreRows + t % kCoreRows;
}

/// wgmma.mma_async with A in registers (`aRegs`, four i32 of f16/bf16
/// pairs) and B by descriptor: the form NVVM's op has no A-register variant
/// for, as the inline PTX tile-emu reads. D (`fragment`, a struct of f32)
/// is tied to the outputs; scale-d, imm-scale-a/b and imm-trans-b are
/// literals (1: accumulate, no negation; imm-trans-b 1 for an N-major B,
/// 0 for a K-major one).
Value emitRegisterAWgmma(RegisterEmitter &e, Value fragment, ArrayRef<Value> aRegs, Value descB,
                         int64_t n, StringRef operandType, bool bKMajor) {
  OpBuilder &b = e.builder;
  auto type = cast<LLVM::LLVMStructType>(fragment.getType());
  unsigned count = type.getBody().size();
  SmallVector<Value> operands;
  std::string constraints, outputs, inputs;
  llvm::raw_string_ostream c(constraints), out(outputs), in(inputs);
  for (unsigned i = 0; i < count; ++i) {
    c << (i ? "," : "") << "=f";
    out << (i ? ", " : "") << "$" << i;
  }
  for (unsigned i = 0; i < count; ++i) {
    c << "," << i;
    operands.push_back(LLVM::ExtractValueOp::create(b, e.loc, fragment, i));
  }
  for (auto [i, reg] : llvm::enumerate(aRegs)) {
    c << ",r";
    in << (i ? ", " : "") << "$" << 2 * count + i;
    operands.push_back(reg);
  }
  c << ",l";
  operands.push_back(descB);
  std::string text = ("wgmma.mma_async.sync.aligned.m64n" + llvm::Twine(n) + "k16.f32." +
                      operandType + "." + operandType + " {" + outputs + "}, {" + inputs +
                      "}, $" + llvm::Twine(2 * count + aRegs.size()) + ", 1, 1, 1, " +
                      (bKMajor ? "0" : "1") + ";")
                         .str();
  return LLVM::InlineAsmOp::create(b, e.loc, type, operands, text, constraints,
                                   /*has_side_effects=*/true, /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

} // namespace

MmaShape getChunkShape(ArrayRef<int64_t> accShape, int64_t chunk) {
  MmaShape s;
  s.m = accShape[0];
  s.n = accShape[1];
  s.k = chunk;
  return s;
}

SmallVector<TmaOperand, 2> getWgmmaTmaOperands(const SwizzledStaging &staging, const MmaShape &s,
                                               int64_t warps, const TmaView *aView,
                                               const TmaView &bView, bool bTransposed) {
  SmallVector<TmaOperand, 2> operands;
  if (aView) {
    // A's rows go in runs of 8 to their wgmma order (a 32-row tile of one
    // warpgroup: one row pair, half of it padding).
    int64_t rowPairs = llvm::divideCeil(s.m, 2 * kCoreRows * warps);
    SmallVector<int64_t> aRows;
    for (int64_t t = 0; t < s.m; t += kCoreRows)
      aRows.push_back(staticStagedRowOfA(t, warps, rowPairs));
    operands.push_back({*aView, getTmaBoxes(staging.a, kCoreRows, aRows), /*kContiguous=*/true});
  }
  if (bTransposed) {
    // B's N rows in order (K-major).
    operands.push_back({bView, getRowBoxes(staging.b, s.n), /*kContiguous=*/true});
  } else {
    // B's chunk rows in order: into the staged B (N-major) or the landing
    // array that is transposed to the K-major B.
    operands.push_back({bView, getRowBoxes(staging.bLands ? staging.landing : staging.b,
                                           staging.chunk),
                        /*kContiguous=*/false});
  }
  return operands;
}

SmallVector<TmaOperand, 2> getInOrderTmaOperands(const SwizzledStaging &staging,
                                                 const MmaShape &s, const TmaView &aView,
                                                 const TmaView &bView) {
  return {{aView, getRowBoxes(staging.a, s.m), /*kContiguous=*/true},
          {bView, getRowBoxes(staging.b, staging.chunk), /*kContiguous=*/false}};
}

WgmmaChunkIssuer::WgmmaChunkIssuer(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                                   const MmaShape &s, BlockedAttr layout,
                                   ArrayRef<int64_t> accShape, const SwizzledStaging &staging,
                                   Type aElement, Type bElement, bool bKMajor,
                                   const StagedOperand *aRegs)
    : rewriter(rewriter), e(e), s(s), layout(layout), accShape(accShape), staging(staging),
      aElement(aElement), bElement(bElement), bKMajor(bKMajor), aRegs(aRegs) {
  IndexMath m{e};
  int64_t warps = layout.getWarpsPerCTA()[accShape.size() - 2];
  warpgroups = warps / kWarpsPerWarpgroup;
  Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
  warpgroup = m.div(tid, kWarpsPerWarpgroup * 32);
  aLayoutBits = getDescriptorLayoutBits(staging.a, /*kMajor=*/true, DescriptorFormat::Wgmma);
  bLayoutBits = getDescriptorLayoutBits(staging.b, bKMajor, DescriptorFormat::Wgmma);
  // Each thread's row registers, in pairs (one wgmma row block each); an
  // odd last one has a padding partner (getWgmmaAccumulatorLayout) whose D
  // registers follow the accumulator's (regOf). They start undefined: a
  // constant would be moved into them between wgmma.fence and the first
  // wgmma, which ptxas answers with another warpgroup.arrive.
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, accShape);
  int64_t batchRegs = s.batched ? regsPerDim[0] : 1;
  rowRegs = regsPerDim[accShape.size() - 2];
  colRegs = regsPerDim.back();
  rowPairs = llvm::divideCeil(rowRegs, 2);
  realRegs = batchRegs * rowRegs * colRegs;
  if (rowRegs % 2)
    padding.assign(batchRegs * colRegs, LLVM::UndefOp::create(rewriter, e.loc, e.builder.getF32Type()));
  for (int64_t batch = 0; batch < batchRegs; ++batch)
    for (int64_t pair = 0; pair < rowPairs; ++pair)
      for (int64_t n0 = 0; n0 < s.n; n0 += kMaxN)
        issues.push_back({batch, pair, n0, std::min(kMaxN, s.n - n0)});
}

int64_t WgmmaChunkIssuer::regOf(int64_t batch, int64_t row, int64_t col) const {
  if (row == rowRegs)
    return realRegs + batch * colRegs + col;
  SmallVector<int64_t> perDim{row, col};
  if (s.batched)
    perDim.insert(perDim.begin(), batch);
  return linearizeRegister(layout, accShape, perDim);
}

FailureOr<SmallVector<Value>> WgmmaChunkIssuer::issue(Value aAddress, Value bAddress, int64_t k0,
                                                      int64_t len, ArrayRef<Value> sums) {
  assert(sums.size() == size_t(realRegs) && "the accumulator's registers");
  if (promotes())
    return issuePromoted(aAddress, bAddress, k0, len, sums);
  int64_t stepK = WgmmaOperandType::of(aElement).stepK();
  bool emitted = true;
  NVVM::WgmmaFenceAlignedOp::create(rewriter, e.loc);
  // The padding rows' D registers ride along (see the constructor).
  SmallVector<Value> result(sums);
  llvm::append_range(result, padding);
  if (aRegs) {
    // A register is picked by a number, not a loop index: unrolled.
    for (int64_t k = 0; k < len / stepK; ++k)
      result = step(e.i32(k), k, k0, aAddress, bAddress, result, emitted);
  } else {
    result = emitCountedLoop(rewriter, e.loc, len / stepK, result, [&](Value k, ValueRange carried) {
      return step(k, -1, k0, aAddress, bAddress, carried, emitted);
    });
  }
  if (!emitted)
    return failure();
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, e.loc);
  padding.assign(result.begin() + realRegs, result.end());
  result.resize(realRegs);
  return result;
}

void WgmmaChunkIssuer::promoteEvery(int64_t steps) {
  assert(!aRegs && "fp8 A is never in registers");
  promotion = steps;
  pieces.clear();
  if (!steps)
    return;
  // Two temporaries of width / 2 registers each are live beside the
  // accumulator: the widest power-of-two piece (down to 32 columns) that
  // keeps them within the budget. cuTile's fp8 BatchMatMul (128 x 256 on
  // two warpgroups, 128 accumulator registers) takes N = 64 pieces.
  int64_t widest = 0;
  for (const Issue &issue : issues)
    widest = std::max(widest, issue.width);
  int64_t width = kMaxN;
  while (width > kMinPieceWidth && realRegs + std::min(width, widest) > kPromotionRegisters)
    width /= 2;
  for (const Issue &issue : issues)
    for (int64_t n0 = issue.n0; n0 < issue.n0 + issue.width; n0 += width)
      pieces.push_back({issue.batch, issue.pair, n0, std::min(width, issue.n0 + issue.width - n0)});
}

FailureOr<SmallVector<Value>> WgmmaChunkIssuer::issuePromoted(Value aAddress, Value bAddress,
                                                              int64_t k0, int64_t len,
                                                              ArrayRef<Value> sums) {
  int64_t steps = len / WgmmaOperandType::of(aElement).stepK();
  SmallVector<Value> result(sums);
  for (int64_t first = 0; first < steps; first += promotion) {
    int64_t count = std::min(promotion, steps - first);
    SmallVector<StepOffsets> offsets;
    for (int64_t k = first; k < first + count; ++k)
      offsets.push_back(offsetsOf(e.i32(k)));
    for (const Issue &piece : pieces) {
      int64_t slot = issuedPieces++ % kTemporaries;
      NVVM::WgmmaFenceAlignedOp::create(rewriter, e.loc);
      // The slot's registers once more (see the class comment), where the
      // piece is as wide as the slot's last one.
      SmallVector<Value> temp;
      if (int64_t(slots[slot].size()) == piece.width / 2)
        temp = std::move(slots[slot]);
      slots[slot].clear();
      for (int64_t i = 0; i < count; ++i) {
        FailureOr<SmallVector<Value>> d = emitWgmma(piece, offsets[i], first + i, k0, aAddress,
                                                    bAddress, temp, /*scaleD=*/i > 0);
        if (failed(d))
          return failure();
        temp = std::move(*d);
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, e.loc);
      // The previous piece's group is done once at most this one is in
      // flight; its adds run beside this piece's wgmmas.
      if (!pendingTemp.empty())
        addPending(1, result);
      pendingTemp = std::move(temp);
      pendingRegs = fragmentRegs(piece);
      pendingSlot = slot;
    }
  }
  // The last adds stay in this chunk too (the caller stages the next one
  // while the last piece is in flight).
  tieAdded(1, {}, result);
  return result;
}

void WgmmaChunkIssuer::addPending(int64_t groups, SmallVector<Value> &sums) {
  SmallVector<Value> temp = tieAdded(groups, pendingTemp, sums);
  slots[pendingSlot] = temp;
  for (auto [reg, value] : llvm::zip(pendingRegs, temp))
    if (reg < realRegs) { // (padding rows' registers are dropped)
      sums[reg] = LLVM::FAddOp::create(rewriter, e.loc, sums[reg], value);
      added.push_back(reg);
    }
  pendingTemp.clear();
  pendingRegs.clear();
}

SmallVector<Value> WgmmaChunkIssuer::tieAdded(int64_t groups, ArrayRef<Value> values,
                                              SmallVector<Value> &sums) {
  if (values.empty() && added.empty())
    return {};
  SmallVector<Value> tied(values);
  for (int64_t reg : added)
    tied.push_back(sums[reg]);
  SmallVector<Value> waited = emitTiedWaitGroup(e, groups, tied);
  for (auto [i, reg] : llvm::enumerate(added))
    sums[reg] = waited[values.size() + i];
  added.clear();
  waited.resize(values.size());
  return waited;
}

SmallVector<Value> WgmmaChunkIssuer::wait(int64_t groups, ArrayRef<Value> sums) {
  SmallVector<Value> result(sums);
  if (!promotes())
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, e.loc, groups);
  else if (groups == 0 && !pendingTemp.empty())
    addPending(0, result);
  // (Promoted, issue() already left at most the pending piece in flight.)
  return result;
}

SmallVector<int64_t> WgmmaChunkIssuer::fragmentRegs(const Issue &issue) const {
  // D register 4j + 2h + x: row register 2 * pair + h, column register
  // 2 * (n0 / 8 + j) + x.
  SmallVector<int64_t> regs;
  for (int64_t j = 0; j < issue.width / 8; ++j)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t x = 0; x < 2; ++x)
        regs.push_back(regOf(issue.batch, 2 * issue.pair + h, 2 * (issue.n0 / 8 + j) + x));
  return regs;
}

WgmmaChunkIssuer::StepOffsets WgmmaChunkIssuer::offsetsOf(Value k) {
  IndexMath m{e};
  int64_t stepK = WgmmaOperandType::of(aElement).stepK();
  // A k step is 32 bytes along A's rows (which the blocks continue) and,
  // for an N-major B, 16 of B's rows; a K-major B steps like A.
  Value kBytes = m.mul(k, kMmaStepBytes);
  Value aStep = staging.a.kStepOffset(m, kBytes);
  Value bStep =
      bKMajor ? staging.b.kStepOffset(m, kBytes) : m.mul(m.mul(k, stepK), staging.b.width);
  return {aStep, bStep};
}

SmallVector<Value> WgmmaChunkIssuer::step(Value k, int64_t staticK, int64_t k0, Value aAddress,
                                          Value bAddress, ValueRange carried, bool &emitted) {
  StepOffsets offsets = offsetsOf(k);
  SmallVector<Value> next(carried);
  for (const Issue &issue : issues) {
    SmallVector<int64_t> regs = fragmentRegs(issue);
    SmallVector<Value> d;
    for (int64_t reg : regs)
      d.push_back(next[reg]);
    FailureOr<SmallVector<Value>> out =
        emitWgmma(issue, offsets, staticK, k0, aAddress, bAddress, d, /*scaleD=*/true);
    if (failed(out)) {
      emitted = false;
      continue;
    }
    for (auto [reg, value] : llvm::zip(regs, *out))
      next[reg] = value;
  }
  return next;
}

FailureOr<SmallVector<Value>>
WgmmaChunkIssuer::emitWgmma(const Issue &issue, const StepOffsets &offsets, int64_t staticK,
                            int64_t k0, Value aAddress, Value bAddress, ArrayRef<Value> d,
                            bool scaleD) {
  Location loc = e.loc;
  MLIRContext *context = rewriter.getContext();
  IndexMath m{e};
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  WgmmaOperandType aType = WgmmaOperandType::of(aElement);
  int64_t stepK = aType.stepK();
  auto addBytes = [&](Value address, Value bytes) -> Value {
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i64, bytes);
    return LLVM::AddOp::create(rewriter, loc, address, wide);
  };
  Value block = m.add(m.mul(m.add(warpgroup, issue.batch * warpgroups), rowPairs), issue.pair);
  int64_t bOrigin = staging.bRowOffset(issue.batch, issue.n0);
  Value descB = emitMatrixDescriptor(e, addBytes(bAddress, m.add(offsets.b, bOrigin)), bLayoutBits);
  int64_t regs = issue.width / 2;
  Type fragmentType = LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(regs, f32));
  // (Without scale-d the fragment is not read: undefined, or a promoted
  // temporary's last values, whose registers it takes; see WgmmaChunks.h.)
  Value fragment = LLVM::UndefOp::create(rewriter, loc, fragmentType);
  for (auto [i, value] : llvm::enumerate(d))
    fragment = LLVM::InsertValueOp::create(rewriter, loc, fragment, value, i);
  Value out;
  if (aRegs) {
    assert(scaleD && "an A in registers accumulates");
    // The A fragment of rows 2 * pair + {0, 1} and k columns
    // 16 * kStep + {0..7, 8..15}: a0 (row 2p, first 8), a1 (row 2p + 1),
    // a2 and a3 the same for the second 8, each an element pair (column
    // registers 2c, 2c + 1 of 8-column block c).
    int64_t kBlock = (k0 + staticK * stepK) / 8;
    SmallVector<Value> aFragment;
    for (int64_t half = 0; half < 2; ++half)
      for (int64_t h = 0; h < 2; ++h) {
        SmallVector<Value> pair;
        for (int64_t x = 0; x < 2; ++x) {
          SmallVector<int64_t> perDim{2 * issue.pair + h, 2 * (kBlock + half) + x};
          if (s.batched)
            perDim.insert(perDim.begin(), issue.batch);
          pair.push_back(aRegs->regs.values[linearizeRegister(layout, aRegs->laid.shape, perDim)]);
        }
        Value packed = e.buildVector(VectorType::get({2}, aElement), pair);
        aFragment.push_back(LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), packed));
      }
    out = emitRegisterAWgmma(e, fragment, aFragment, descB, issue.width,
                             aElement.isBF16() ? "bf16" : "f16", bKMajor);
  } else {
    Value descA = emitMatrixDescriptor(
        e,
        addBytes(aAddress, m.add(m.mul(block, kWarpgroupRows * staging.a.width), offsets.a)),
        aLayoutBits);
    auto mma = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, fragmentType, fragment, descA, descB,
        NVVM::MMAShapeAttr::get(context, kWarpgroupRows, issue.width, stepK), aType.type,
        WgmmaOperandType::of(bElement).type, NVVM::WGMMATypes::f32,
        scaleD ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero, NVVM::WGMMAScaleIn::one,
        NVVM::WGMMAScaleIn::one,
        // A K-major (row-major), B N-major (row-major: transposed) or
        // K-major (column-major, the only form of tf32 and fp8).
        NVVM::MMALayout::row, bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row, nullptr);
    FailureOr<Value> result = emitAsInlinePtx(rewriter, mma.getOperation());
    if (failed(result))
      return failure();
    out = *result;
  }
  SmallVector<Value> values;
  for (int64_t i = 0; i < regs; ++i)
    values.push_back(LLVM::ExtractValueOp::create(rewriter, loc, out, i));
  return values;
}

SmallVector<Value> emitTiedWaitGroup(RegisterEmitter &e, int64_t groups, ArrayRef<Value> values) {
  OpBuilder &b = e.builder;
  int64_t count = values.size();
  std::string constraints;
  llvm::raw_string_ostream c(constraints);
  for (int64_t i = 0; i < count; ++i)
    c << (i ? "," : "") << "=f";
  for (int64_t i = 0; i < count; ++i)
    c << "," << i;
  SmallVector<Type> types;
  for (Value value : values)
    types.push_back(value.getType());
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  Value waited =
      LLVM::InlineAsmOp::create(b, e.loc, type, values,
                                ("wgmma.wait_group.sync.aligned " + llvm::Twine(groups) + ";").str(),
                                constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
                                LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                                ArrayAttr())
          .getResult(0);
  SmallVector<Value> results;
  for (int64_t i = 0; i < count; ++i)
    results.push_back(LLVM::ExtractValueOp::create(b, e.loc, waited, i));
  return results;
}

bool canLowerToWgmma(MmaFOp op) {
  if (!hasWgmmaForm(op))
    return false;
  FailureOr<MmaShape> shape = getMmaShape(op);
  return succeeded(shape) &&
         chooseChunk(getStagedShape(*shape, getAccumulatorLayout(op.getAcc().getType())),
                     getElementTypeOrSelf(op.getLhs().getType()), /*bGlobal=*/false) > 0;
}

bool canLowerToWgmma(MmaFGlobalOp op) {
  auto acc = cast<RankedTensorType>(op.getAcc().getType());
  if (!hasWgmmaAccumulator(op, acc))
    return false;
  FailureOr<MmaShape> shape =
      getMmaShape(cast<RankedTensorType>(op.getLhs().getType()).getShape(), acc.getShape());
  return succeeded(shape) &&
         chooseChunk(getStagedShape(*shape, getAccumulatorLayout(acc)),
                     getPointeeOrElementType(op.getLhs()),
                     isa<PtrType>(getElementTypeOrSelf(op.getRhs().getType()))) > 0;
}

LogicalResult lowerWgmma(MmaFOp op, Value lhs, Value rhs, Value acc,
                         const TypeConverter &converter,
                         ConversionPatternRewriter &rewriter) {
  RegisterEmitter e(rewriter, op.getLoc());
  FailureOr<StagedOperand> a = getStagedOperand(e, op, op.getLhs(), lhs, /*mask=*/{});
  FailureOr<StagedOperand> b = getStagedOperand(e, op, op.getRhs(), rhs, /*mask=*/{});
  if (failed(a) || failed(b))
    return failure();
  return emitWgmma(op, *a, *b, getElementTypeOrSelf(op.getLhs().getType()),
                   op.getLhs().getType(), acc, op.getAcc().getType(), converter, rewriter);
}

LogicalResult emitWgmma(Operation *op, const StagedOperand &a, const StagedOperand &b,
                        Type element, Type lhsType, Value acc, Type accTensorType,
                        const TypeConverter &converter, ConversionPatternRewriter &rewriter,
                        const std::optional<TmaView> &aView, const std::optional<TmaView> &bView) {
  Location loc = op->getLoc();
  FailureOr<Laid> accLaid = Laid::of(op, accTensorType);
  if (failed(accLaid))
    return failure();
  FailureOr<MmaShape> shape =
      getMmaShape(cast<RankedTensorType>(lhsType).getShape(), accLaid->shape);
  if (failed(shape))
    return failure();
  const MmaShape &s = *shape;
  unsigned rank = accLaid->shape.size();
  unsigned mDim = rank - 2;
  Type accElement = getElementTypeOrSelf(accTensorType);
  Type accType = converter.convertType(accElement);
  if (!accType)
    return op->emitOpError("accumulator element type has no LLVM form");
  BlockedAttr layout = accLaid->layout;
  int64_t warps = layout.getWarpsPerCTA()[mDim];
  int64_t threads = 32 * getWarpsInLayout(layout);
  int64_t warpgroups = warps / kWarpsPerWarpgroup;
  // Each thread's row registers, in pairs (one wgmma row block each); an
  // odd last one has a padding partner (getWgmmaAccumulatorLayout).
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, accLaid->shape);
  int64_t rowRegs = regsPerDim[mDim], rowPairs = llvm::divideCeil(rowRegs, 2);
  // The staging's shape: A with its padding rows.
  MmaShape staged = getStagedShape(s, layout);

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs c = unpackOperand(e, acc, *accLaid);
  Arithmetic arith{/*isFloat=*/true};
  arith.computeType = rewriter.getF32Type();
  SmallVector<Value> sums = widenAccumulator(e, c, accElement, arith);

  // A straight from registers (see the header) when it has the
  // accumulator's layout: its registers then are the A fragments.
  WgmmaOperandType aType = WgmmaOperandType::of(element);
  // B's type: e4m3 and e5m2 may mix.
  auto global = dyn_cast<MmaFGlobalOp>(op);
  Type bElement = getPointeeOrElementType(global ? global.getRhs() : op->getOperand(1));
  WgmmaOperandType bType = WgmmaOperandType::of(bElement);
  // What the staging stores: the operands' LLVM type (f32 for tf32, i8 for
  // fp8; mixed fp8 types share it).
  Type stored = converter.convertType(element);
  if (!stored)
    return op->emitOpError("operand element type has no LLVM form");
  // (Registers hold the k16 A fragment of 16-bit types only.)
  // (Not with padding rows, which A's registers do not have.)
  bool aInRegisters =
      !a.global && a.laid.layout == layout && aType.bytes == 2 && rowRegs % 2 == 0;
  // B is K-major for tf32 and fp8 (staged so) and where it is read from a
  // transposed view (FMHA's K^T: TMA lands it [N][chunk]); both are read
  // without imm-trans-b.
  bool bTransposed = bView && bView->transposed;
  bool bKMajor = !aType.readsBNMajor() || bTransposed;
  // TMA (TmaToLLVM.cpp) where B carries a view and A needs no staging, has
  // a view too or is global (copied by cp.async: the fused MoE kernel's
  // gathered rows, staged by the threads while TMA fills B), the multiply
  // is unbatched and the staging leaves room for the mbarriers after it. A
  // tf32/fp8 B from an N-major view lands N-major by TMA and is transposed
  // by the threads (as from cp.async). (An A stored from registers keeps B
  // on cp.async.)
  bool useTma = bView && (aInRegisters || aView || a.global) && !s.batched &&
                chooseChunk(staged, element, b.global, !aInRegisters, kTmaBarrierBytes,
                            bTransposed) > 0;
  bool aByTma = useTma && !aInRegisters && aView;
  if (bTransposed && !useTma)
    return op->emitOpError("has a K-major (transposed view) B, which only TMA reads, but A is "
                           "stored from registers, the multiply is batched or the staging "
                           "leaves no room for the mbarriers");
  uint64_t extraBytes = useTma ? kTmaBarrierBytes : 0;
  SwizzledStaging staging(
      staged, chooseChunk(staged, element, b.global, !aInRegisters, extraBytes, bTransposed),
      aType.bytes, !aInRegisters, bKMajor, /*bLands=*/b.global && !aType.readsBNMajor());
  FailureOr<Value> scratch =
      getSharedScratch(rewriter, loc, op, staging.bytes + extraBytes, kSwizzleAlignment);
  if (failed(scratch))
    return failure();
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };
  auto bytesAt = [&](uint64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, scratch->getType(), rewriter.getI8Type(), *scratch,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };

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

  Type i64 = rewriter.getI64Type();
  Value scratchAddress = LLVM::PtrToIntOp::create(rewriter, loc, i64, *scratch);
  auto addBytes = [&](Value address, Value bytes) -> Value {
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i64, bytes);
    return LLVM::AddOp::create(rewriter, loc, address, wide);
  };

  std::optional<TmaLoads> tma;
  if (useTma)
    tma.emplace(rewriter, e, op,
                getWgmmaTmaOperands(staging, s, warps, aByTma ? &*aView : nullptr, *bView,
                                    bTransposed),
                element, bytesAt(staging.bytes), staging.buffers);
  WgmmaChunkIssuer issuer(rewriter, e, s, layout, accLaid->shape, staging, element, bElement, bKMajor,
                          aInRegisters ? &a : nullptr);
  // fp8 sums promoted into f32 (tilepipe-promote-fp8-accumulation).
  if (auto interval =
          op->getAttrOfType<IntegerAttr>(kFp8PromotionIntervalAttrName)) {
    bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(element) ||
               isa<Float8E4M3FNType, Float8E5M2Type>(bElement);
    if (!fp8 || interval.getInt() <= 0)
      return op->emitOpError("has ") << kFp8PromotionIntervalAttrName << " = "
                                     << interval.getInt()
                                     << ", which only a positive number of k steps of a "
                                        "multiply with fp8 operands can have";
    issuer.promoteEvery(interval.getInt());
  }

  auto aRowOf = [&](size_t i) {
    return stagedRowOfA(batchOf(a.regs, i), a.regs.coords[mDim][i]);
  };
  int64_t chunks = llvm::divideCeil(s.k, staging.chunk);
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    int64_t k0 = chunk * staging.chunk, len = std::min(staging.chunk, s.k - k0);
    int64_t buffer = chunk % staging.buffers;
    uint64_t aStart = staging.aStart(buffer), bStart = staging.bStart(buffer);
    if (tma) {
      // Earlier readers of the scratch, and of this buffer the wgmmas of
      // chunk - 2, are done (see the header).
      emitCTABarrier(rewriter, loc);
      SmallVector<Value> dsts;
      if (aByTma)
        dsts.push_back(bytesAt(aStart));
      dsts.push_back(bytesAt(staging.bLands ? staging.landingStart(buffer) : bStart));
      tma->start(chunk, k0, dsts);
      // A copied by the threads while the boxes fly (after the barrier
      // above, which freed its buffer too).
      if (!aInRegisters && !aByTma &&
          failed(stageSwizzledChunk(e, rewriter, staging, buffer, *scratch, &a, nullptr, stored,
                                    s, k0, len, aRowOf, /*roundToTf32=*/false,
                                    /*freeBarrier=*/false)))
        return failure();
      if (failed(tma->wait(chunk)))
        return failure();
      // Every thread waited for the chunk: a tf32/fp8 B is transposed from
      // its landing array, tf32 rounded (SwizzledStaging.h), by all threads
      // through the generic proxy.
      if (staging.bLands || aType.roundsToTf32)
        finishLandedChunk(e, rewriter, staging, buffer, *scratch, stored, threads,
                          staging.bLands, aType.roundsToTf32, bType.roundsToTf32);
    } else if (failed(stageSwizzledChunk(e, rewriter, staging, buffer, *scratch,
                                         aInRegisters ? nullptr : &a, &b, stored, s, k0, len,
                                         aRowOf, aType.roundsToTf32 || bType.roundsToTf32))) {
      return failure();
    }
    FailureOr<SmallVector<Value>> next =
        issuer.issue(addBytes(scratchAddress, e.i32(aStart)),
                     addBytes(scratchAddress, e.i32(bStart)), k0, len, sums);
    if (failed(next))
      return failure();
    // The last chunk's group ends the multiply; before it, one group stays
    // in flight while the next chunk is staged.
    sums = issuer.wait(chunk + 1 == chunks ? 0 : 1, *next);
  }
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it
  if (tma)
    tma->finish();
  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

} // namespace tilepipe::tile_as
