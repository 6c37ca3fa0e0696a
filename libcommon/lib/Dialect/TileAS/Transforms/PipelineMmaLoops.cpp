//===- PipelineMmaLoops.cpp - Multi-stage cp.async ring across K loops ----===//
//
// A K loop whose body only computes the addresses of one tile_as.mmaf_global
// (both operands global) and runs it waits every iteration for its own
// copies. This pass streams the multiply's K chunks, iteration after
// iteration, through a ring of S shared-memory slots instead: the copies of
// chunk t + S - 1 are started right before chunk t's multiply (once every
// thread is done with the slot they refill), so S - 1 chunks are in flight
// while one is multiplied.
//
// The unit of the ring is a K chunk, not a loop iteration: with only the
// 48 KiB of static shared memory (below), not even two whole K tiles of the
// corpus kernels fit (MatMul's 128x64 by 64x256 f16 tile needs 52 KiB
// staged), while three 16-deep chunks do. So the pass does its own modulo
// schedule over the flattened chunk index t = i * C + j (i the iteration,
// C chunks per tile) rather than mlir::scf::pipelineForLoop's, whose stages
// are whole iterations. For chunk j of iteration i the body becomes
//
//   tile_as.async_wait {pending = S - 2}   // chunk t has landed, slot t-1 free
//   tile_as.mma_stage_copy (addresses of iteration i + (j + S - 1) / C)
//       slot ((t + S - 1) % S) if (that iteration < ub)
//   acc = tile_as.mmaf_stage acc slot (t % S)
//
// with the address computation cloned at the later iteration. The prologue
// before the loop (after a barrier: the ring overlays the shared scratch)
// starts the copies of chunks 0 .. S - 2; a copy past the last iteration is
// kept but reads nothing, so every slot closes one async group and the wait
// count stays S - 2 to the end, with no epilogue to peel; after the loop an
// async_wait {pending = 0} drains the ring before the scratch is reused.
//
// On sm_90a (the wgmma path: an f32 accumulator in the wgmma layout, A and
// B with their views, which TMA loads) the same schedule runs through a
// TMA ring (runTma; TileASPipelineOps.td): mbarriers instead of async
// groups and CTA barriers. full[s] completes when a chunk has landed in
// slot s, empty[s] when every warp's wgmmas that read it have completed;
// the parity a wait names comes from the chunk index, so no phase is
// carried through the loop. Each chunk's wgmma_stage leaves its group in
// flight (wait_group 1) across the next load and the loop's back edge,
// and releases the previous chunk's slot, which the load then refills.
// Its slots are the swizzled wgmma staging (getSwizzledChunkBytes), with
// 16 bytes of mbarriers per slot; the cost rule does not apply (TMA keeps
// no per-thread addresses). On sm_120a/121a (hasMmaSyncTensorMaps: the
// kernel can build tensor maps) a loop on the mma.sync path with both views
// takes the same TMA ring, its consumer ldmatrix + mma.sync from the
// swizzled slots (mmaf_tma_stage), which releases its own slot at once:
// mma.sync has nothing in flight after it. That ring also takes tf32 and
// fp8 operands (chunks of a multiple of 32 bytes of K: 8 tf32, 32 fp8;
// the ring ops name the multiplied type, tf32 for f32 loads the mma.sync
// rounds after reading them).
//
// Where the K loop runs once per iteration of an enclosing scf.for (the
// persistent matmul's tile loop; getCarryingLoop), the TMA ring is carried
// across that loop: tma_ring_begin (maps, mbarriers) once before it, an
// i32 iter_arg counting the chunks of the iterations before, from which
// slots and parities go on, a tma_ring_resume barrier where each iteration's
// ring began (the epilogue's TMA-store staging overlays the slots), a
// `carried` tma_ring_end (the wgmmas drained, nothing else) and
// tma_ring_close after the loop. Each chunk's slot is released by the next
// chunk's wgmma_stage, the next iteration's first for an iteration's last.
//
// On sm_100a/103a/110a (the tcgen05 accumulator layout: M a multiple of
// 128, or a 32-row tile of 4 warps, whose slots stage A with the padding
// rows of its M = 64 form; A and B with their views, B N-major, unbatched;
// f16/bf16, one fp8 type, whose chunks are 32 deep: one 32-byte k step, or
// tf32, 8 deep, f32 loads that every thread rounds in the slot) the same
// TMA ring feeds tcgen05.mma (tcgen05_stage): one thread issues the loads and the
// MMAs, and a slot's empty mbarrier is the tcgen05.commit that follows the
// MMAs reading it, so the MMAs stay asynchronous across chunks and
// iterations: the thread waits for a commit only when its slot is refilled
// S - 1 chunks later. The accumulator stays in tensor memory through the
// loop (acc_to_tmem before the ring, acc_from_tmem after tma_ring_end,
// which waits for the last MMAs), as tilepipe-keep-accumulators-in-tmem
// keeps it for the unpipelined loop; the ring then leaves 1 KiB of static
// shared memory to the tensor-memory address word and the mbarriers.
//
// S is 3 (cuTile's bytecode carries no stage count: its hints are
// occupancy, num_worker_warps and per-load latency), fewer where the ring
// does not fit the shared memory; a loop keeps the unpipelined mmaf_global
// where not even two 16-deep chunks fit.
//
// Shared-memory budget: 48 KiB (kMaxStaticSharedBytes), on every target,
// although a CTA may use up to 163 KiB (sm_80), 99 KiB (sm_86/89/120) or
// 227 KiB (sm_90). More than 48 KiB is dynamic shared memory only, which a
// launch must both opt into (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
// and pass (sharedMemBytes); ptxas rejects static .shared above 0xc000.
// cuTile's launcher does neither for a tile kernel: its compile callback
// returns only the cubin and the symbol, and the launch passes
// sharedMemBytes = 0; cutile-python's cext/tile_kernel.cpp raises the limit
// only when the compile result carries a dynamic-shared-size host program,
// which only cuda.lang SIMT kernels (compile_simt) have. The seed wiki's
// original declares an `.extern .shared global_smem[]` sized by its
// scheduler against a 227 KiB cap, but nothing public shows how its cubins
// get that memory at such a launch, so a larger ring would fail to launch.
//
// Cost rule (max-ring-registers): through the ring, the accumulator and the
// addresses of the next iteration's copies (its chunks are unrolled) are
// live together across the loop body, next to a chunk's fragments. The
// pass estimates accumulator registers plus two per 16-byte cp.async run of
// one iteration's A and B tiles (a 64-bit address each) and keeps the
// unpipelined loop where that exceeds 160 per thread. Measured with ptxas
// 13.0 on sm_80, sm_89, sm_90 (mma.sync) and sm_120: cuTile's MatMul and
// persistent MatMul (128x256 f32 accumulator on 8 warps, 128 registers; A
// 128x64 and B 64x256 f16, 24) reach 255 registers and spill nothing;
// BatchMatMul (K tile 128: 48 address registers) spilled 24-64 bytes through
// the ring and none without it. The mma.sync lowering reaches a k step's
// fragments from one address per operand and keeps such k loops rolled
// (MmaSyncToLLVM.cpp), which leaves room for the addresses.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/TmaStoreStaging.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_PIPELINEMMALOOPS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// The k of one 16-bit mma.sync or wgmma step: chunks are multiples of it
/// (of 32 bytes of K for the TMA ring's other operand widths).
static constexpr int64_t kStepK = 16;
/// Rows of one cta_group::1 tcgen05.mma (the ring's M is a multiple) and
/// the tensor-memory columns the accumulator must fit.
static constexpr int64_t kTcgen05RingRows = 128, kTcgen05TmemColumns = 512;

/// The rows of A a tcgen05 ring's slot stages for a tile of `m` rows: `m`
/// (a multiple of 128), or the 64 of a 32-row tile's M = 64 form, its 8-row
/// groups in 16-row slices with padding rows between (Tcgen05RowBlocks,
/// Tcgen05Lowering.h, which the slots' lowering follows).
static int64_t getTcgen05StagedRows(int64_t m) {
  constexpr int64_t kPaddedRows = 64;
  return m % kTcgen05RingRows == 0 ? m : kPaddedRows;
}

namespace {
/// A loop to pipeline and how.
struct Candidate {
  scf::ForOp loop;
  MmaFGlobalOp mma;
  /// The body ops computing the mma's pointers and masks, in order.
  SetVector<Operation *> slice;
  int64_t step = 0, stages = 0, chunk = 0, k = 0;
  /// The operands' element bytes and the K of one multiply step (32 bytes
  /// of K); chunks are multiples of it.
  unsigned elementBytes = 2;
  int64_t kStep = kStepK;
  /// The wgmma path's TMA ring (mbarriers) rather than the cp.async ring.
  bool tma = false;
  /// A TMA ring whose consumer is ldmatrix + mma.sync (sm_120a/121a).
  bool mmaSync = false;
  /// A TMA ring whose consumer is tcgen05.mma (sm_100a/103a/110a).
  bool tcgen05 = false;
};
} // namespace

/// Whether `op` lowers to register arithmetic alone (no shared scratch, no
/// memory): the ops cuTile's address computations are made of. Anything
/// else in the loop body keeps the loop unpipelined, since the ring
/// overlays the scratch.
static bool isRegisterOnlyAddressOp(Operation *op) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  if (isa<arith::ArithDialect>(op->getDialect()))
    return true;
  if (isa<SplatOp, IotaOp, AddPtrOp, IntToPtrOp, PtrToIntOp, PtrToPtrOp>(op))
    return true;
  // A reshape dropping leading unit dimensions keeps the registers.
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    auto from = cast<RankedTensorType>(reshape.getSrc().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    auto fromLayout = dyn_cast_or_null<BlockedAttr>(from.getEncoding());
    unsigned dropped = from.getRank() - to.getRank();
    return fromLayout && from.getRank() > to.getRank() &&
           from.getShape().drop_front(dropped) == to.getShape() &&
           llvm::all_of(from.getShape().take_front(dropped),
                        [](int64_t d) { return d == 1; }) &&
           dropLeadingUnitDims(fromLayout, dropped) == to.getEncoding();
  }
  return false;
}

/// The stage count and chunk for a multiply of the given shape: the most
/// stages up to `maxStages`, then the deepest chunk dividing K evenly,
/// whose ring fits the static shared memory; nullopt below two stages.
static std::optional<std::pair<int64_t, int64_t>>
chooseRing(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t maxStages) {
  for (int64_t stages = maxStages; stages >= 2; --stages)
    for (int64_t chunk = k; chunk >= kStepK; chunk -= kStepK)
      if (k % chunk == 0 &&
          stages * MmaSyncStaging(batch, m, n, chunk).slotBytes() <= kMaxStaticSharedBytes)
        return std::make_pair(stages, chunk);
  return std::nullopt;
}

/// The stage count and chunk of a TMA ring for an [M, N] f32 accumulator
/// and operands of `elementBytes` bytes (chunks multiples of `kStep`): as
/// chooseRing, with the swizzled slots and the two mbarriers per slot after
/// them, within `limit` bytes.
static std::optional<std::pair<int64_t, int64_t>>
chooseTmaRing(int64_t m, int64_t n, int64_t k, unsigned elementBytes, int64_t kStep,
              int64_t maxStages, uint64_t limit) {
  for (int64_t stages = maxStages; stages >= 2; --stages)
    for (int64_t chunk = k; chunk >= kStep; chunk -= kStep)
      if (k % chunk == 0 &&
          stages * (getSwizzledChunkBytes(m, n, chunk, elementBytes) + kTmaRingBarrierBytes) <=
              limit)
        return std::make_pair(stages, chunk);
  return std::nullopt;
}

/// Registers per thread that the addresses of the copies of `ptrs` (a tile
/// of global pointers) take: one 64-bit address, two registers, per run of
/// contiguous elements one cp.async moves (at most 16 bytes).
static int64_t getCopyAddressRegisters(Value ptrs) {
  auto type = cast<RankedTensorType>(ptrs.getType());
  auto layout = cast<BlockedAttr>(type.getEncoding());
  Type pointee = cast<PtrType>(type.getElementType()).getPointeeType();
  int64_t run = std::clamp<int64_t>(getContiguousRegisters(layout, type.getShape()),
                                    1, 16 / getElementBytes(pointee));
  return 2 * llvm::divideCeil(getElemsPerThread(layout, type.getShape()), run);
}

/// The loop of `mma` when it has the shape the ring is built for: the body
/// is nothing but the mma (both operands global, accumulator carried) and
/// the register arithmetic computing its pointers and masks from the
/// induction variable and values from outside; nullopt otherwise.
static std::optional<Candidate> matchLoop(scf::ForOp loop) {
  Block *body = loop.getBody();
  Candidate c;
  c.loop = loop;
  for (Operation &op : *body)
    if (auto mma = dyn_cast<MmaFGlobalOp>(&op)) {
      if (c.mma)
        return std::nullopt;
      c.mma = mma;
    }
  if (!c.mma || !MmaFGlobalOp::isGlobal(c.mma.getLhs()) ||
      !MmaFGlobalOp::isGlobal(c.mma.getRhs()))
    return std::nullopt;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0 || !loop.getInductionVar().getType().isSignlessInteger())
    return std::nullopt;
  c.step = *step;
  // The accumulator is carried by the loop and nothing else uses it.
  auto acc = dyn_cast<BlockArgument>(c.mma.getAcc());
  if (!acc || acc.getOwner() != body || acc == loop.getInductionVar() || !acc.hasOneUse() ||
      !c.mma.getResult().hasOneUse())
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpOperand &yielded = *c.mma.getResult().getUses().begin();
  if (yielded.getOwner() != yield ||
      yielded.getOperandNumber() != acc.getArgNumber() - loop.getNumInductionVars())
    return std::nullopt;

  BackwardSliceOptions options;
  options.filter = [&](Operation *op) { return op->getBlock() == body; };
  options.omitBlockArguments = true;
  options.inclusive = true;
  // The pointers and masks (the cp.async ring), the views (the TMA ring).
  SmallVector<Value> operands{c.mma.getLhs(), c.mma.getLhsMask(), c.mma.getRhs(),
                              c.mma.getRhsMask()};
  llvm::append_range(operands, c.mma.getLhsView());
  llvm::append_range(operands, c.mma.getRhsView());
  for (Value operand : operands)
    if (operand && operand.getDefiningOp() && operand.getDefiningOp()->getBlock() == body)
      if (failed(getBackwardSlice(operand, &c.slice, options)))
        return std::nullopt;
  // The body is the address computation and the multiply, computed from the
  // induction variable and values from outside only (so that it can be
  // computed for a later iteration early).
  for (Operation &op : *body) {
    if (&op == c.mma || &op == yield)
      continue;
    if (!c.slice.contains(&op) || !isRegisterOnlyAddressOp(&op))
      return std::nullopt;
    for (Value operand : op.getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == body && arg != loop.getInductionVar())
        return std::nullopt;
  }
  for (Value operand : operands)
    if (auto arg = dyn_cast_or_null<BlockArgument>(operand); arg && arg.getOwner() == body)
      return std::nullopt;
  c.slice = topologicalSort(c.slice);

  auto accType = cast<RankedTensorType>(c.mma.getAcc().getType());
  int64_t rank = accType.getRank();
  c.k = cast<RankedTensorType>(c.mma.getLhs().getType()).getShape().back();
  auto hasBlockedLayout = [](Value value) {
    return isa_and_nonnull<BlockedAttr>(cast<RankedTensorType>(value.getType()).getEncoding());
  };
  // The cost rule reads the registers of the accumulator and of the copies.
  if ((rank != 2 && rank != 3) || !hasBlockedLayout(c.mma.getAcc()) ||
      !hasBlockedLayout(c.mma.getLhs()) || !hasBlockedLayout(c.mma.getRhs()))
    return std::nullopt;
  // The cp.async ring's and wgmma's staging is the 16-bit form's (mma.sync
  // m16n8k16, wgmma k16 with B N-major); the mma.sync TMA ring also takes
  // tf32 (m16n8k8) and fp8 (m16n8k32, the paired-column accumulator) of
  // one type, the tcgen05 TMA ring fp8 of one type (kind::f8f6f4 from the
  // same swizzled slots), k steps of 32 bytes. Other mmaf_globals keep the
  // staging of their own form.
  Type element = c.mma.getLhsMultipliedType();
  bool sixteenBit = element.isF16() || element.isBF16();
  bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(element) &&
             element == c.mma.getRhsMultipliedType();
  bool tf32 = isa<FloatTF32Type>(element) && element == c.mma.getRhsMultipliedType();
  c.elementBytes = getElementBytes(element);
  c.kStep = kMmaStepBytes / c.elementBytes;
  if (c.k % c.kStep != 0)
    return std::nullopt;
  // The wgmma path (sm_90a, the wgmma accumulator layout) takes the TMA
  // ring where TMA would load both operands anyway (both views, B not
  // transposed, unbatched) into an f32 accumulator, whose registers then
  // stay untouched while a wgmma group is in flight across iterations.
  auto takesTma = [&] {
    return rank == 2 && accType.getElementType().isF32() && c.mma.getLhsBase() &&
           c.mma.getRhsBase() && !c.mma.getRhsViewTransposed();
  };
  // The tcgen05 path (sm_100a/103a/110a) where its own staging would load
  // both operands by TMA (B N-major; a 32-row tile's A into the 16-row
  // slices of its M = 64 form) and the accumulator fits tensor memory for
  // the loop. tf32: f32 loads rounded by ftof, which the slots take as
  // they landed (f32 maps) and the consumer rounds in place.
  if (hasTcgen05Accumulator(c.mma, accType)) {
    if ((!sixteenBit && !fp8 && !tf32) || !takesTma() || c.mma.getRhsKRuns() ||
        getTcgen05TmemColumns(accType.getShape(), c.k, /*scaleBlock=*/0) > kTcgen05TmemColumns)
      return std::nullopt;
    c.tma = c.tcgen05 = true;
    return c;
  }
  // (Not a 32-row tile of one warpgroup, whose A the wgmmas read with
  // padding rows: the ring's slots hold A's rows unpadded.)
  if (hasWgmmaAccumulator(c.mma, accType)) {
    int64_t rows = accType.getShape()[0];
    int64_t warps = cast<BlockedAttr>(accType.getEncoding()).getWarpsPerCTA()[0];
    if (!takesTma() || getWgmmaStagedRows(rows, warps) != rows)
      return std::nullopt;
    c.tma = true;
  } else if (hasMmaSyncTensorMaps(c.mma) && takesTma() &&
             element == c.mma.getRhsMultipliedType() &&
             getMmaFSyncForm(element, element, accType.getElementType(),
                             getTargetComputeCapability(c.mma))) {
    // sm_120a/121a: the same ring with ldmatrix + mma.sync reading the
    // swizzled slots (AsyncCopyMmaOperands kept the views for it).
    c.tma = c.mmaSync = true;
  }
  if (!sixteenBit && !c.mmaSync)
    return std::nullopt;
  return c;
}

/// Sizes the ring of a matched loop: the cost rule (registers), then the
/// shared-memory budget. Says why (a remark at the multiply) either way.
static LogicalResult sizeRing(Candidate &c, int64_t maxStages, int64_t maxRingRegisters) {
  auto accType = cast<RankedTensorType>(c.mma.getAcc().getType());
  int64_t rank = accType.getRank();
  int64_t accRegisters =
      getElemsPerThread(cast<BlockedAttr>(accType.getEncoding()), accType.getShape());
  int64_t addressRegisters =
      getCopyAddressRegisters(c.mma.getLhs()) + getCopyAddressRegisters(c.mma.getRhs());
  // At the multiply's location, without the op printed after it.
  InFlightDiagnostic remark = emitRemark(c.mma.getLoc());
  if (c.tma) {
    // TMA needs no per-thread addresses: the cost rule has nothing to add
    // to the accumulator, which the unpipelined loop keeps live as well.
    // tcgen05: 1 KiB for the tensor-memory address word and mbarriers,
    // which precede the 1024-byte aligned scratch (Tcgen05ToLLVM.cpp).
    uint64_t limit = kMaxStaticSharedBytes - (c.tcgen05 ? kSwizzleAlignment : 0);
    int64_t rows = accType.getShape()[0];
    std::optional<std::pair<int64_t, int64_t>> ring =
        chooseTmaRing(c.tcgen05 ? getTcgen05StagedRows(rows) : rows, accType.getShape()[1], c.k,
                      c.elementBytes, c.kStep, maxStages, limit);
    if (!ring) {
      remark << "K loop not pipelined: not even two " << c.kStep
             << "-deep chunks of A and B and their mbarriers fit the " << kMaxStaticSharedBytes
             << " bytes of static shared memory";
      return failure();
    }
    std::tie(c.stages, c.chunk) = *ring;
    remark << "K loop pipelined: a TMA ring of " << c.stages << " stages of " << c.chunk
           << "-deep K chunks, full and empty mbarriers per stage, ";
    if (c.tcgen05)
      remark << "tcgen05.mma from the swizzled slots, each slot released by the "
                "tcgen05.commit of its MMAs (the accumulator in tensor memory"
             << (rows % kTcgen05RingRows ? "; M = 64 with padding rows between A's 8-row groups"
                                         : "")
             << (isa<FloatTF32Type>(c.mma.getLhsMultipliedType())
                     ? "; every thread rounds each landed chunk to tf32 in place"
                     : "")
             << ")";
    else
      remark << (c.mmaSync ? "ldmatrix + mma.sync from the swizzled slots ("
                           : "one wgmma group in flight (")
             << accRegisters << " accumulator registers per thread)";
    return success();
  }
  if (accRegisters + addressRegisters > maxRingRegisters) {
    remark << "K loop not pipelined: the ring would keep " << accRegisters
           << " accumulator and " << addressRegisters
           << " copy-address registers per thread live, over max-ring-registers = "
           << maxRingRegisters;
    return failure();
  }
  std::optional<std::pair<int64_t, int64_t>> ring =
      chooseRing(rank == 3 ? accType.getShape()[0] : 1, accType.getShape()[rank - 2],
                 accType.getShape()[rank - 1], c.k, maxStages);
  if (!ring) {
    remark << "K loop not pipelined: not even two " << kStepK
           << "-deep chunks of A and B fit the " << kMaxStaticSharedBytes
           << " bytes of static shared memory";
    return failure();
  }
  std::tie(c.stages, c.chunk) = *ring;
  remark << "K loop pipelined: a cp.async ring of " << c.stages << " stages of " << c.chunk
         << "-deep K chunks (" << accRegisters << " accumulator and " << addressRegisters
         << " copy-address registers per thread)";
  return success();
}

/// The values of a view (tile_as.mmaf_global: sizes, strides, starts)
/// before its starts.
static ValueRange getViewShape(ValueRange view) {
  return view.drop_back((view.size() + 1) / 3);
}

/// The loop a TMA ring is carried across (see the header): the scf.for
/// whose body holds the K loop, where the views' bases, sizes and strides
/// come from outside it and the body's other ops leave the ring's
/// mbarriers (after its slots in the scratch) alone between two runs:
/// register arithmetic, st.global stores, TMA stores (their staging chunks
/// end below the mbarriers) and CTA barriers. Null where there is none.
static scf::ForOp getCarryingLoop(Candidate &c) {
  auto outer = dyn_cast<scf::ForOp>(c.loop->getParentOp());
  if (!c.tma || !outer)
    return {};
  for (Value base : {c.mma.getLhsBase(), c.mma.getRhsBase()})
    if (!outer.isDefinedOutsideOfLoop(base))
      return {};
  for (ValueRange view : {c.mma.getLhsView(), c.mma.getRhsView()})
    for (Value v : getViewShape(view))
      if (!outer.isDefinedOutsideOfLoop(v))
        return {};
  auto accType = cast<RankedTensorType>(c.mma.getAcc().getType());
  uint64_t slotBytes =
      c.stages * getSwizzledChunkBytes(accType.getShape()[0], accType.getShape()[1], c.chunk, 2);
  for (Operation &op : *outer.getBody()) {
    if (&op == c.loop.getOperation() || op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (op.getNumRegions() != 0)
      return {};
    // (nvvm.barrier0 by name: this library does not link the NVVM dialect.)
    if (isMemoryEffectFree(&op) || isa<StoreOp>(op) ||
        op.getName().getStringRef() == "nvvm.barrier0" ||
        (isa<StoreTmaOp>(op) && kTmaStoreChunkBytes <= slotBytes))
      continue;
    return {};
  }
  return outer;
}

namespace {
/// Builds the pipelined loop of one candidate.
class Pipeliner {
public:
  Pipeliner(Candidate &c, bool carryRings) : c(c), builder(c.loop), carryRings(carryRings) {}

  void run() {
    if (c.tma)
      return runTma();
    scf::ForOp loop = c.loop;
    Location loc = c.mma.getLoc();
    int64_t chunks = c.k / c.chunk, stages = c.stages;
    Type element = cast<PtrType>(getElementTypeOrSelf(c.mma.getLhs().getType())).getPointeeType();

    // Prologue: the scratch's earlier users are done, then chunks 0..S-2.
    builder.setInsertionPoint(loop);
    AsyncWaitOp::create(builder, loc, int64_t{0});
    for (int64_t t = 0; t + 1 < stages; ++t) {
      Value iv = addConstant(loop.getLowerBound(), (t / chunks) * c.step);
      emitCopy(iv, constantI32(t), t % chunks);
    }

    // Body: per chunk, wait, multiply, refill the slot freed last.
    builder.setInsertionPoint(c.mma);
    Value iv = loop.getInductionVar();
    Value index = arith::DivSIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, iv, loop.getLowerBound()),
        constant(iv.getType(), c.step));
    Value first = arith::MulIOp::create(builder, loc, toI32(index), constantI32(chunks));
    Value acc = c.mma.getAcc();
    for (int64_t j = 0; j < chunks; ++j) {
      AsyncWaitOp::create(builder, loc, stages - 2);
      // The copies go first, to have the whole multiply to land in, and so
      // that the addresses they need die before it (fewer registers live
      // across the mma.syncs, next to the accumulator).
      int64_t ahead = j + stages - 1;
      emitCopy(addConstant(iv, (ahead / chunks) * c.step), slotOf(first, ahead),
               ahead % chunks);
      acc = MmaFStageOp::create(builder, loc, acc.getType(), acc, slotOf(first, j), element,
                                c.chunk, c.chunk, stages);
    }
    c.mma.getResult().replaceAllUsesWith(acc);
    c.mma.erase();
    for (Operation *op : llvm::reverse(c.slice))
      if (op->use_empty())
        op->erase();

    // Drain: nothing in flight, nobody reading, when the scratch is reused.
    builder.setInsertionPointAfter(loop);
    AsyncWaitOp::create(builder, loc, int64_t{0});
  }

private:
  /// The TMA ring (see the header; the schedule is the cp.async ring's,
  /// the discipline full/empty mbarriers): for chunk j of iteration i
  ///
  ///   acc = tile_as.wgmma_stage acc slot (t % S) phase (t / S % 2)
  ///         release ((t + S - 1) % S) if (t >= 1)
  ///   tile_as.tma_stage_load (view starts of iteration i + (j + S - 1) / C)
  ///         slot ((t + S - 1) % S) phase ((t + S - 1) / S % 2) if (< ub)
  ///
  /// The multiply goes first: its wait for chunk t is also what lets the
  /// previous chunk's slot, which the loads refill, be released (wgmma
  /// wait_group 1), and the one thread issuing the loads waits for every
  /// warp's release of that slot. tma_ring_begin before the prologue
  /// builds the maps and mbarriers; tma_ring_end after the loop drains the
  /// wgmmas still in flight. A tcgen05 ring multiplies with tcgen05_stage
  /// (its commit releases the chunk's own slot, refilled by chunk t + S)
  /// onto the accumulator's tensor-memory copy: acc_to_tmem before the
  /// ring, acc_from_tmem after its end.
  void runTma() {
    scf::ForOp loop = c.loop;
    Location loc = c.mma.getLoc();
    int64_t chunks = c.k / c.chunk, stages = c.stages;
    auto accType = cast<RankedTensorType>(c.mma.getAcc().getType());
    // The multiplied type: tf32 for f32 loads rounded on the way (their
    // maps move f32, tma_ring_begin reads the pointee), else the pointee.
    Type element = c.mma.getLhsMultipliedType();
    // The loop result the accumulator leaves by (matchLoop: it is carried).
    unsigned accResult =
        cast<BlockArgument>(c.mma.getAcc()).getArgNumber() - loop.getNumInductionVars();
    SetVector<Operation *> viewSlice;
    BackwardSliceOptions options;
    options.filter = [&](Operation *op) { return op->getBlock() == loop.getBody(); };
    options.omitBlockArguments = true;
    options.inclusive = true;
    for (ValueRange view : {c.mma.getLhsView(), c.mma.getRhsView()})
      for (Value v : view)
        if (Operation *def = v.getDefiningOp(); def && def->getBlock() == loop.getBody())
          (void)getBackwardSlice(v, &viewSlice, options);
    cloneOnly.emplace(viewSlice.begin(), viewSlice.end());
    if (c.tcgen05) {
      builder.setInsertionPoint(loop);
      OpOperand &init = loop.getInitArgsMutable()[accResult];
      init.set(AccToTmemOp::create(builder, loc, init.get().getType(), init.get()));
    }
    // A ring carried across an enclosing loop begins before it, with the
    // count of the chunks before as the loop's new iter_arg. tcgen05 rings
    // are not carried: each iteration's tma_ring_end waits for its MMAs.
    scf::ForOp outer = carryRings && !c.tcgen05 ? getCarryingLoop(c) : scf::ForOp();
    Value base;
    if (outer) {
      builder.setInsertionPoint(outer);
      outer = carryChunkCount(outer);
      base = outer.getRegionIterArgs().back();
      builder.setInsertionPoint(outer); // (the old loop is gone)
    }
    auto [lhsMap, rhsMap] = [&] {
      Type i64 = builder.getI64Type();
      if (outer) {
        // Before the enclosing loop, which defines the starts: the maps
        // do not read them (zeros stand in).
        auto views = [&](ValueRange view) {
          SmallVector<Value> values(getViewShape(view));
          for (Value start : view.drop_front(values.size()))
            values.push_back(constant(start.getType(), 0));
          return values;
        };
        auto begin = TmaRingBeginOp::create(builder, loc, i64, i64, c.mma.getLhsBase(),
                                            views(c.mma.getLhsView()), c.mma.getRhsBase(),
                                            views(c.mma.getRhsView()), accType, c.chunk, stages);
        builder.setInsertionPoint(loop);
        TmaRingResumeOp::create(builder, loc, accType);
        return std::make_pair(begin.getLhsMap(), begin.getRhsMap());
      }
      builder.setInsertionPoint(loop);
      Value lb = loop.getLowerBound();
      auto views = [&](ValueRange view) {
        return llvm::map_to_vector(view, [&](Value v) { return at(v, lb); });
      };
      auto begin = TmaRingBeginOp::create(
          builder, loc, i64, i64, at(c.mma.getLhsBase(), lb), views(c.mma.getLhsView()),
          at(c.mma.getRhsBase(), lb),
          views(c.mma.getRhsView()), accType, c.chunk, stages);
      return std::make_pair(begin.getLhsMap(), begin.getRhsMap());
    }();
    auto emitLoad = [&](Value iv, Value slot, Value phase, int64_t j) {
      auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
      Value inRange = arith::CmpIOp::create(builder, loc, predicate, iv, loop.getUpperBound());
      auto starts = [&](ValueRange view) {
        return llvm::map_to_vector(view.take_back((view.size() + 1) / 3),
                                   [&](Value v) { return at(v, iv); });
      };
      TmaStageLoadOp::create(builder, loc, lhsMap, rhsMap, starts(c.mma.getLhsView()),
                             starts(c.mma.getRhsView()), slot, phase, inRange,
                             accType, element, j * c.chunk,
                             c.chunk, stages);
    };
    // Prologue: chunks 0..S-2, each the first use of its slot (in a
    // carried ring: chunks base..base+S-2, slots and parities going on).
    for (int64_t t = 0; t + 1 < stages; ++t)
      emitLoad(addConstant(loop.getLowerBound(), (t / chunks) * c.step),
               base ? slotOf(base, t) : constantI32(t), base ? phaseOf(base, t) : constantI32(0),
               t % chunks);

    builder.setInsertionPoint(c.mma);
    Value iv = loop.getInductionVar();
    Value index = arith::DivSIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, iv, loop.getLowerBound()),
        constant(iv.getType(), c.step));
    Value first = arith::MulIOp::create(builder, loc, toI32(index), constantI32(chunks));
    if (base)
      first = arith::AddIOp::create(builder, loc, base, first);
    Value acc = c.mma.getAcc();
    for (int64_t j = 0; j < chunks; ++j) {
      int64_t ahead = j + stages - 1;
      // The slot chunk t - 1 releases is the one chunk t + S - 1 refills
      // (wgmma); mma.sync releases chunk t's own slot, refilled by chunk
      // t + S (its fragments are in registers once the mma.syncs ran).
      Value refilled = slotOf(first, ahead);
      if (c.tcgen05) {
        acc = Tcgen05StageOp::create(builder, loc, acc.getType(), acc, slotOf(first, j),
                                     phaseOf(first, j), element, c.chunk, stages);
      } else if (c.mmaSync) {
        acc = MmaFTmaStageOp::create(builder, loc, acc.getType(), acc, slotOf(first, j),
                                     phaseOf(first, j), element, c.chunk, stages);
      } else {
        Value notFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                               addI32(first, j), constantI32(0));
        acc = WgmmaStageOp::create(builder, loc, acc.getType(), acc, slotOf(first, j),
                                   phaseOf(first, j), refilled, notFirst, element, c.chunk,
                                   stages);
      }
      emitLoad(addConstant(iv, (ahead / chunks) * c.step), refilled, phaseOf(first, ahead),
               ahead % chunks);
    }
    c.mma.getResult().replaceAllUsesWith(acc);
    c.mma.erase();
    for (Operation *op : llvm::reverse(c.slice))
      if (op->use_empty())
        op->erase();

    // Drain: the accumulator is defined once the last group completed.
    builder.setInsertionPointAfter(loop);
    Value result = loop.getResult(accResult);
    auto end = TmaRingEndOp::create(builder, loc, result.getType(), result, element, c.chunk,
                                    stages, /*warp_specialized=*/false, /*carried=*/bool(outer));
    Value drained = end.getResult();
    if (c.tcgen05)
      drained = AccFromTmemOp::create(builder, loc, result.getType(), drained);
    result.replaceAllUsesExcept(drained, end);
    if (!outer)
      return;
    // The next iteration's ring goes on after this one's chunks; the ring
    // ends after the enclosing loop.
    auto yield = cast<scf::YieldOp>(outer.getBody()->getTerminator());
    yield->setOperand(yield.getNumOperands() - 1,
                      arith::AddIOp::create(builder, loc, base, countChunks()));
    builder.setInsertionPointAfter(outer);
    TmaRingCloseOp::create(builder, loc, accType, element, c.chunk, stages);
  }

  /// `outer` with one more i32 iter_arg, starting at 0 and yielded
  /// unchanged (runTma yields the count of chunks so far).
  scf::ForOp carryChunkCount(scf::ForOp outer) {
    IRRewriter rewriter(builder);
    rewriter.setInsertionPoint(outer);
    FailureOr<LoopLikeOpInterface> grown =
        cast<LoopLikeOpInterface>(outer.getOperation())
            .replaceWithAdditionalYields(
                rewriter, ValueRange{constantI32(0)}, /*replaceInitOperandUsesInLoop=*/false,
                [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                  return SmallVector<Value>{args.back()};
                });
    return cast<scf::ForOp>(grown->getOperation());
  }

  /// The K chunks of the whole K loop: its trip count (0 where it runs not
  /// at all) times the chunks of an iteration, as an i32.
  Value countChunks() {
    scf::ForOp loop = c.loop;
    Location loc = loop.getLoc();
    bool isUnsigned = loop.getUnsignedCmp();
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
    Value runs = arith::CmpIOp::create(
        builder, loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, lb, ub);
    Value span = arith::SubIOp::create(builder, loc, ub, lb);
    Value step = constant(lb.getType(), c.step);
    Value trips = isUnsigned ? Value(arith::CeilDivUIOp::create(builder, loc, span, step))
                             : Value(arith::CeilDivSIOp::create(builder, loc, span, step));
    Value chunks = arith::MulIOp::create(builder, loc, toI32(trips),
                                         constantI32(c.k / c.chunk));
    return arith::SelectOp::create(builder, loc, runs, chunks, constantI32(0));
  }

  Candidate &c;
  OpBuilder builder;
  bool carryRings;
  /// The address computation per induction value it was cloned for.
  DenseMap<Value, IRMapping> clones;
  /// Where set, the part of the slice to clone (the TMA ring reads the
  /// views alone, not the pointers and masks).
  std::optional<DenseSet<Operation *>> cloneOnly;

  Value constant(Type type, int64_t value) {
    return arith::ConstantOp::create(builder, c.loop.getLoc(), builder.getIntegerAttr(type, value));
  }
  Value constantI32(int64_t value) { return constant(builder.getI32Type(), value); }
  Value addConstant(Value value, int64_t offset) {
    if (offset == 0)
      return value;
    return arith::AddIOp::create(builder, c.loop.getLoc(), value,
                                 constant(value.getType(), offset));
  }
  Value toI32(Value value) {
    Type i32 = builder.getI32Type();
    if (value.getType() == i32)
      return value;
    if (value.getType().isIndex())
      return arith::IndexCastOp::create(builder, c.loop.getLoc(), i32, value);
    return arith::TruncIOp::create(builder, c.loop.getLoc(), i32, value);
  }
  Value addI32(Value value, int64_t offset) {
    return arith::AddIOp::create(builder, c.loop.getLoc(), value, constantI32(offset));
  }
  /// The parity of the use of its slot that chunk `first + offset` is.
  Value phaseOf(Value first, int64_t offset) {
    Location loc = c.loop.getLoc();
    Value use = arith::DivUIOp::create(builder, loc, addI32(first, offset),
                                       constantI32(c.stages));
    return arith::AndIOp::create(builder, loc, use, constantI32(1));
  }
  /// The ring slot of chunk `first + offset`.
  Value slotOf(Value first, int64_t offset) {
    Location loc = c.loop.getLoc();
    Value t = arith::AddIOp::create(builder, loc, first, constantI32(offset));
    return arith::RemUIOp::create(builder, loc, t, constantI32(c.stages));
  }

  /// `value` (a pointer or mask operand of the mma) as computed for the
  /// induction value `iv`: the original where `iv` is the loop's own.
  Value at(Value value, Value iv) {
    if (!value || iv == c.loop.getInductionVar())
      return value;
    auto [it, inserted] = clones.try_emplace(iv);
    IRMapping &mapping = it->second;
    if (inserted) {
      mapping.map(c.loop.getInductionVar(), iv);
      for (Operation *op : c.slice)
        if (!cloneOnly || cloneOnly->contains(op))
          builder.clone(*op, mapping);
    }
    return mapping.lookupOrDefault(value);
  }

  /// The copies of K chunk `j` of the iteration with induction value `iv`
  /// into `slot`, reading nothing past the loop's end.
  void emitCopy(Value iv, Value slot, int64_t j) {
    Location loc = c.mma.getLoc();
    auto predicate = c.loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                             : arith::CmpIPredicate::slt;
    Value inRange = arith::CmpIOp::create(builder, loc, predicate, iv, c.loop.getUpperBound());
    MmaStageCopyOp::create(builder, loc, at(c.mma.getLhs(), iv), at(c.mma.getLhsMask(), iv),
                           at(c.mma.getRhs(), iv), at(c.mma.getRhsMask(), iv), slot, inRange,
                           j * c.chunk, c.chunk, c.chunk, c.stages);
  }
};

struct PipelineMmaLoopsPass
    : tilepipe::tile_as::impl::PipelineMmaLoopsBase<PipelineMmaLoopsPass> {
  using PipelineMmaLoopsBase::PipelineMmaLoopsBase;
  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<Candidate> c = matchLoop(loop);
          c && succeeded(sizeRing(*c, maxStages, maxRingRegisters)))
        candidates.push_back(std::move(*c));
    });
    for (Candidate &c : candidates)
      Pipeliner(c, carryRings).run();
  }
};
} // namespace
