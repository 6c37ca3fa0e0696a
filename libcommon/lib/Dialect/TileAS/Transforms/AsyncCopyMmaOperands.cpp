//===- AsyncCopyMmaOperands.cpp - mmaf operands by cp.async ---------------===//
//
// The mma.sync lowering stages A and B in shared memory. When they come from
// global memory, loading them into registers only to store them to shared
// memory keeps a whole tile per operand live in registers; fusing the loads
// into a tile_as.mmaf_global lets the lowering copy global to shared memory
// with cp.async instead. See Passes.td for when a load qualifies.
//
// On the mma.sync path a tf32 operand is usually an f32 load rounded by
// cuTile's ftof (arith.truncf f32 -> tf32). The truncf is fused too
// (lhs_tf32/rhs_tf32): the raw f32 tile is copied and the lowering rounds
// the fragment registers after ldmatrix exactly as the truncf would have,
// instead of rounding a whole tile in registers and storing it to shared
// memory (32x32 MatMul: no cp.async; AllGatherMatmul's 128x128 tiles: both
// operands and the accumulator in registers at once, and ptxas spilled).
// On the wgmma path the truncf fuses too, unmarked (an f32 pointer operand
// there is tf32): that lowering rounds the landed f32 in shared memory. On
// the tcgen05 path it fuses marked, and that lowering rounds in shared
// memory too (AllGatherMatmul's 128x128 tf32 tiles staged from registers
// spilled 1 KiB there).
//
//===----------------------------------------------------------------------===//
#include "TiledViewMatch.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/WgmmaChoice.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_ASYNCCOPYMMAOPERANDS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Bytes of the longest (cp.async.cg) and the shortest cp.async.
static constexpr int64_t kLongestCopyBytes = 16, kShortestCopyBytes = 4;

/// Whether `op` (or an op nested in it) may write memory.
static bool mayWriteMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    return mightHaveEffect<MemoryEffects::Write>(nested) ? WalkResult::interrupt()
                                                         : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// An operand of an mmaf that can be read by tile_as.mmaf_global: a load,
/// possibly reshaped to drop leading unit dimensions (a batch of one, as
/// cuTile's 3-D views give, or the [1, 1, S, D] blocks of 4-D views) and,
/// where the multiply can round after the copy, rounded from f32 to tf32
/// (before or after the reshape); `layout` is the operand's layout for the
/// pointers and mask.
struct FusibleOperand {
  // Op handles are non-const so that reshaped() and erasing can use them.
  mutable LoadOp load;
  mutable ReshapeOp reshape;
  /// An f32 -> tf32 conversion of the load, which the lowering does once
  /// the f32 landed: in shared memory on the wgmma path (an f32 pointer
  /// operand there is tf32), on the fragments after ldmatrix on the
  /// mma.sync path (lhs_tf32 / rhs_tf32).
  mutable arith::TruncFOp round;
  /// Elements per copy where the load proves less than its layout's runs
  /// (0: the layout's; tf32 on mma.sync or wgmma only: lhs_run / rhs_run).
  int64_t shortRun = 0;
  /// B's runs go along K (tcgen05 only: rhs_k_runs).
  bool kRuns = false;
  /// The reshape and the rounding there are, the mmaf's operand first.
  SmallVector<Operation *, 2> between;
  BlockedAttr layout;

  /// `value` (the load's pointers or mask) in the operand's shape.
  Value reshaped(OpBuilder &builder, Value value) const {
    if (!value || !reshape)
      return value;
    auto type = cast<RankedTensorType>(value.getType());
    auto shape = cast<RankedTensorType>(reshape.getType()).getShape();
    return ReshapeOp::create(builder, reshape.getLoc(),
                             RankedTensorType::get(shape, type.getElementType(), layout),
                             value);
  }
};

/// Whether `op` is a tf32 multiply on the mma.sync path (no wgmma or
/// tcgen05 accumulator), whose fragments the lowering can round.
static bool takesTF32MmaSync(MmaFOp op) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  return form && isa<FloatTF32Type>(getElementTypeOrSelf(op.getLhs().getType())) &&
         !hasWgmmaAccumulator(op, op.getAcc().getType()) && !targetsTcgen05(op);
}

/// Whether `op` rounds f32 to tf32 as the lowering does after the copy (to
/// nearest even, the truncf default), for one user.
static bool isTF32Rounding(arith::TruncFOp op) {
  return isa<FloatTF32Type>(getElementTypeOrSelf(op.getType())) &&
         getElementTypeOrSelf(op.getIn().getType()).isF32() &&
         op.getRoundingmode().value_or(arith::RoundingMode::to_nearest_even) ==
             arith::RoundingMode::to_nearest_even &&
         op.getResult().hasOneUse();
}

/// The global load `operand` of `mmaf` comes from, where it can be read at
/// the mmaf instead: used by nothing else, in the mmaf's block, unordered,
/// with +0.0 padding (cp.async and TMA zero-fill) and no write to memory
/// between the load and the mmaf; nullopt where it cannot. `layout` is left
/// to the caller.
static std::optional<FusibleOperand> getMovableLoad(Value operand, MmaFOp mmaf) {
  FusibleOperand fusible;
  // The wgmma and tcgen05 lowerings round landed f32 to tf32 in shared
  // memory (SwizzledStaging.cpp), the mma.sync one the fragments after
  // ldmatrix (MmaSyncToLLVM.cpp).
  bool rounds = hasWgmmaForm(mmaf) || hasTcgen05Form(mmaf) || takesTF32MmaSync(mmaf);
  // At most one reshape and one rounding, in either order.
  for (;;) {
    if (auto reshape = operand.getDefiningOp<ReshapeOp>(); reshape && !fusible.reshape) {
      auto from = cast<RankedTensorType>(reshape.getSrc().getType());
      if (!reshape.getResult().hasOneUse() || from.getRank() < 3 ||
          llvm::any_of(from.getShape().drop_back(2), [](int64_t d) { return d != 1; }))
        return std::nullopt;
      fusible.reshape = reshape;
      fusible.between.push_back(reshape);
      operand = reshape.getSrc();
      continue;
    }
    if (auto round = operand.getDefiningOp<arith::TruncFOp>();
        round && rounds && !fusible.round && isTF32Rounding(round)) {
      fusible.round = round;
      fusible.between.push_back(round);
      operand = round.getIn();
      continue;
    }
    break;
  }
  auto load = operand.getDefiningOp<LoadOp>();
  // Unordered, global, +0.0 padding (cp.async zero-fills what it does not
  // read).
  if (!load || !load.getResult().hasOneUse() || load->getBlock() != mmaf->getBlock() ||
      !isCopyableLoad(load))
    return std::nullopt;
  for (Operation *op = load->getNextNode(); op != mmaf; op = op->getNextNode())
    if (mayWriteMemory(op))
      return std::nullopt;
  fusible.load = load;
  return fusible;
}

/// `fusible` with its `layout`: the load's, less the leading unit
/// dimensions a reshape drops; nullopt where the load has no blocked layout.
static std::optional<FusibleOperand> withLayout(FusibleOperand fusible) {
  auto type = fusible.load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  if (!layout)
    return std::nullopt;
  fusible.layout =
      fusible.reshape ? dropLeadingUnitDims(layout, type.getRank() - 2) : layout;
  if (!fusible.layout)
    return std::nullopt;
  return fusible;
}

/// How `operand` of `mmaf` comes from a load that can become part of a
/// tile_as.mmaf_global; nullopt where it cannot. `isRhs`: the operand is B.
static std::optional<FusibleOperand> getFusibleOperand(Value operand, MmaFOp mmaf, bool isRhs) {
  std::optional<FusibleOperand> fusible = getMovableLoad(operand, mmaf);
  if (!fusible)
    return std::nullopt;
  // Each thread's registers come in runs along the innermost dimension
  // (sizePerThread there, at most 16 bytes: one cp.async each) that the
  // load's contiguity proves adjacent, aligned and under one mask bit. Runs
  // of 16 bytes copy by cp.async.cg; where only 8 or 4 are proven (a row
  // stride or bound dividing by 4 or 2 elements only), by cp.async.ca.
  // On the tcgen05 path, which reads B K-major as well, B's runs may go
  // along K instead (a transposed view, as the fused MoE kernel's expert
  // weights are read), proven by the load's transposed contiguity; B is
  // then copied K-major (rhs_k_runs).
  LoadOp load = fusible->load;
  auto type = load.getType();
  auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
  if (!layout)
    return std::nullopt;
  unsigned innermost = type.getRank() - 1;
  unsigned runDim = getRegisterRunDim(layout, type.getShape());
  int64_t contiguity = load.getContiguity();
  if (runDim != innermost) {
    if (!isRhs || !hasTcgen05Form(mmaf) || runDim != innermost - 1)
      return std::nullopt;
    fusible->kRuns = true;
    contiguity = load.getTransposedContiguity();
  }
  int64_t elementBytes = getElementBytes(type.getElementType());
  int64_t run = std::gcd(layout.getSizePerThread()[runDim], kLongestCopyBytes / elementBytes);
  // A tf32 operand may copy fewer elements at a time than its layout's
  // runs, down to one 4-byte element with its own mask bit (a non-multiple
  // f32 MatMul's loads prove no runs): a shorter run stays within its
  // 16-byte piece of the swizzled staging (wgmma, tcgen05) or of the
  // padded mma.sync staging. (TMA, where the view is aligned, needs no runs
  // at all.)
  if ((takesTF32MmaSync(mmaf) || hasWgmmaForm(mmaf) || hasTcgen05Form(mmaf)) &&
      elementBytes == 4 && contiguity % run != 0) {
    fusible->shortRun = std::gcd(run, contiguity);
    run = fusible->shortRun;
  }
  if (run * elementBytes < kShortestCopyBytes || contiguity % run != 0)
    return std::nullopt;
  return withLayout(*fusible);
}

/// Elements of `load`'s type in 16 bytes: the alignment TMA needs of a
/// view's base and strides (and the run of a cp.async.cg).
static int64_t getLongestRun(LoadOp load) {
  return kLongestCopyBytes / getElementBytes(load.getType().getElementType());
}

/// On the wgmma path, B of `mmaf` as a K-major view that only TMA reads: a
/// movable load (getMovableLoad) of a transposed partition view (FMHA's
/// K^T: B's K is the unit-stride dimension, so its pointers have no runs
/// for cp.async) whose transposed contiguity proves the 16-byte aligned
/// base and strides TMA needs. The lowering takes TMA for B on unbatched
/// (rank-2) multiplies whose A needs no staging of its own (it arrives in
/// the accumulator's layout) or is fused (`lhs`): by TMA where it carries
/// a view too, else by cp.async (the fused MoE kernel's gathered rows,
/// staged by the threads while TMA fills B); elsewhere B stays in
/// registers. Sets `view`.
static std::optional<FusibleOperand> getTransposedViewOperand(
    OpBuilder &builder, MmaFOp mmaf, const std::optional<FusibleOperand> &lhs, TiledView &view) {
  auto acc = cast<RankedTensorType>(mmaf.getAcc().getType());
  auto lhsType = cast<RankedTensorType>(mmaf.getLhs().getType());
  bool aInRegisters = !lhs && lhsType.getEncoding() == acc.getEncoding();
  if (acc.getRank() != 2 || !(aInRegisters || lhs))
    return std::nullopt;
  std::optional<FusibleOperand> rhs = getMovableLoad(mmaf.getRhs(), mmaf);
  if (!rhs || rhs->load.getTransposedContiguity() % getLongestRun(rhs->load) != 0)
    return std::nullopt;
  std::optional<TiledView> matched =
      matchTiledView(builder, rhs->load.getPtrs(), rhs->load.getMask());
  if (!matched || !matched->transposed)
    return std::nullopt;
  view = *matched;
  return withLayout(*rhs);
}

/// Whether the wgmma staging of a tf32 or fp8 mmaf with a copied B fits
/// static shared memory at its smallest K chunk (one 32-byte k step): A and
/// B K-major, and B's N-major landing array, each swizzled array 1024-byte
/// aligned, twice when K takes more than one step (SwizzledStaging.h, which
/// the lowering uses). Their mma.sync staging takes registers only, so a
/// larger one must stay unfused.
static bool fitsWgmmaLanding(MmaFOp op) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto accType = cast<RankedTensorType>(op.getAcc().getType());
  ArrayRef<int64_t> acc = accType.getShape();
  int64_t batch = acc.size() == 3 ? acc[0] : 1, n = acc.back();
  // A as staged: with its padding rows (hasWgmmaForm: the wgmma layout).
  auto layout = cast<BlockedAttr>(accType.getEncoding());
  int64_t m = getWgmmaStagedRows(acc[acc.size() - 2], layout.getWarpsPerCTA()[acc.size() - 2]);
  unsigned elementBytes = getElementBytes(lhs.getElementType());
  int64_t stepK = kMmaStepBytes / elementBytes;
  uint64_t buffer = 0;
  for (SwizzledArrayGeometry array :
       {SwizzledArrayGeometry(batch * m, stepK, elementBytes),
        SwizzledArrayGeometry(batch * n, stepK, elementBytes),
        SwizzledArrayGeometry(batch * stepK, n, elementBytes)})
    buffer += array.blocks * llvm::alignTo(array.blockBytes(), kSwizzleAlignment);
  return (lhs.getShape().back() > stepK ? 2 : 1) * buffer <= kMaxStaticSharedBytes;
}

/// Whether the mma.sync staging of `op` (MmaStaging.h) fits static shared
/// memory at its smallest K chunk (one instruction's k): the mmaf_global
/// lowering has no other staging, while an unfused mmaf falls back to the
/// FMA path where it does not fit.
static bool fitsMmaSyncStaging(MmaFOp op, const MmaSyncForm &form) {
  auto acc = cast<RankedTensorType>(op.getAcc().getType());
  ArrayRef<int64_t> shape = acc.getShape();
  int64_t batch = shape.size() == 3 ? shape[0] : 1;
  bool bTransposed = stagesMmaSyncBTransposed(form, cast<BlockedAttr>(acc.getEncoding()));
  MmaSyncStaging staging(batch, shape[shape.size() - 2], shape.back(), form.k, form.elementBytes,
                         bTransposed);
  return staging.bytes <= kMaxStaticSharedBytes;
}

/// The views of a tcgen05 mmaf's fused operands that TMA reads (the
/// lowering, Tcgen05ToLLVM.cpp, loads by TMA exactly where B has one): B
/// with a view (N-major, unbatched; f16/bf16, fp8, or f32 loads rounded to
/// tf32, which the lowering rounds once landed), and A with one too or left
/// in registers in the accumulator layout (which the lowering moves to
/// tensor memory); else none, and both are copied by cp.async. A 32-row
/// tile's A (the M = 64 form) lands in boxes of 8 rows between its padding
/// rows. `viewOf` matches an operand's view. Says what took TMA in a remark
/// (-v).
static std::pair<TiledView, TiledView>
getTcgen05TmaViews(MmaFOp op, const std::optional<FusibleOperand> &lhs,
                   const std::optional<FusibleOperand> &rhs,
                   llvm::function_ref<TiledView(const std::optional<FusibleOperand> &)> viewOf) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  bool tf32 = isa<FloatTF32Type>(lhsType.getElementType());
  auto acc = cast<RankedTensorType>(op.getAcc().getType());
  if (!rhs || rhs->kRuns || (!tf32 && lhsType.getElementTypeBitWidth() > 16) ||
      acc.getRank() != 2)
    return {};
  TiledView rhsView = viewOf(rhs), lhsView = viewOf(lhs);
  auto lhsLayout = dyn_cast_or_null<BlockedAttr>(lhsType.getEncoding());
  bool aInTmem = !lhs && lhsLayout && isTcgen05AccumulatorLayout(lhsLayout, lhsType.getShape());
  if (!rhsView.base || (!lhsView.base && !aInTmem))
    return {};
  StringAttr target;
  for (Operation *parent = op; parent && !target; parent = parent->getParentOp())
    target = parent->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName);
  emitRemark(op.getLoc()) << (target ? target.getValue() : "tcgen05")
                          << ": tcgen05.mma operands by TMA (cp.async.bulk.tensor into the "
                             "swizzled staging, mbarrier expect_tx): "
                          << (lhsView.base ? "A and B" : "B (A from tensor memory)");
  return {lhsView, rhsView};
}

namespace {
struct AsyncCopyMmaOperandsPass
    : tilepipe::tile_as::impl::AsyncCopyMmaOperandsBase<AsyncCopyMmaOperandsPass> {
  void runOnOperation() override {
    SmallVector<MmaFOp> candidates;
    getOperation().walk([&](MmaFOp op) {
      auto acc = cast<RankedTensorType>(op.getAcc().getType());
      auto layout = dyn_cast_or_null<BlockedAttr>(acc.getEncoding());
      // The mmafs of the mma.sync path (every form, with an mma.sync
      // accumulator layout), of the wgmma path on sm_90a (f16/bf16, and
      // tf32/fp8 where B's landing fits) and (on sm_100) of the tcgen05
      // path: all stage their operands with cp.async from an mmaf_global.
      bool wgmmaPath = hasWgmmaForm(op);
      std::optional<MmaSyncForm> syncForm = getMmaSyncForm(op);
      bool stagedForm =
          wgmmaPath ? hasMmaSyncForm(op) || fitsWgmmaLanding(op)
                    : layout && syncForm && fitsMmaSyncStaging(op, *syncForm) &&
                          isMmaAccumulatorLayout(layout, acc.getShape());
      if (layout && (stagedForm || hasTcgen05Form(op)))
        candidates.push_back(op);
    });
    for (MmaFOp op : candidates) {
      std::optional<FusibleOperand> lhs = getFusibleOperand(op.getLhs(), op, /*isRhs=*/false);
      std::optional<FusibleOperand> rhs = getFusibleOperand(op.getRhs(), op, /*isRhs=*/true);
      // A B that the mma.sync path stages transposed (K contiguous, unlike
      // global memory) has no runs to copy: it stays in registers. (wgmma
      // lands a tf32/fp8 B N-major and transposes it in shared memory.)
      std::optional<MmaSyncForm> form = getMmaSyncForm(op);
      auto accLayout =
          cast<BlockedAttr>(cast<RankedTensorType>(op.getAcc().getType()).getEncoding());
      if (!hasTcgen05Form(op) && !hasWgmmaForm(op) && form &&
          stagesMmaSyncBTransposed(*form, accLayout))
        rhs.reset();
      // An operand that does not qualify stays in registers and is stored
      // to the staging as tile_as.mmaf stores both.
      OpBuilder builder(op);
      auto source = [&](const std::optional<FusibleOperand> &operand, Value value) {
        return operand ? operand->reshaped(builder, operand->load.getPtrs()) : value;
      };
      auto mask = [&](const std::optional<FusibleOperand> &operand) {
        return operand ? operand->reshaped(builder, operand->load.getMask()) : Value();
      };
      // The wgmma path reads a global operand with TMA where its view is
      // known (the load's address arithmetic is a view's, TiledViewMatch)
      // and its base and row strides are proven 16-byte aligned (the load's
      // view_alignment). The extents need no divisor: TMA checks bounds per
      // element, so a non-multiple view whose runs cp.async could only copy
      // 4 bytes at a time is still read by TMA.
      // Every wgmma type: a tf32/fp8 B (read K-major) lands N-major by TMA
      // and the threads transpose it (SwizzledStaging.h).
      // The tcgen05 path reads f16/bf16 and fp8 operands with TMA too
      // (unbatched, B N-major; tf32 is rounded by all threads once landed,
      // so it keeps cp.async): see getTcgen05TmaViews.
      // On sm_120a/121a the mma.sync multiplies (f16/bf16, tf32, fp8 with
      // B N-major) keep their views too: tilepipe-pipeline-mma-loops streams
      // their K loops through a TMA ring (the other mma.sync lowerings
      // ignore the views).
      bool wgmma = hasWgmmaForm(op);
      bool mmaSyncTma = hasMmaSyncTensorMaps(op) && form && !hasTcgen05Form(op);
      auto viewOf = [&](const std::optional<FusibleOperand> &operand) {
        if (operand && operand->load.getViewAlignment() % getLongestRun(operand->load) == 0)
          if (std::optional<TiledView> view =
                  matchTiledView(builder, operand->load.getPtrs(), operand->load.getMask());
              view && !view->transposed)
            return *view;
        return TiledView();
      };
      TiledView lhsView, rhsView;
      if (wgmma || mmaSyncTma) {
        lhsView = viewOf(lhs);
        rhsView = viewOf(rhs);
      } else if (hasTcgen05Form(op)) {
        std::tie(lhsView, rhsView) = getTcgen05TmaViews(op, lhs, rhs, viewOf);
      }
      // A B that only TMA can read (K-major, transposed view; f16/bf16,
      // the types wgmma reads N-major too, FMHA's K^T).
      if (wgmma && hasMmaSyncForm(op) && !rhs)
        rhs = getTransposedViewOperand(builder, op, lhs, rhsView);
      if (!lhs && !rhs)
        continue;
      // The rounding and shortened runs a fused operand brings along, marked
      // on the mma.sync and tcgen05 paths (on the wgmma path an f32 pointer
      // operand is tf32, rounded once landed).
      bool marksRounding = !hasWgmmaForm(op);
      auto toTF32 = [&](const std::optional<FusibleOperand> &operand) {
        return operand && operand->round && marksRounding;
      };
      auto shortRun = [&](const std::optional<FusibleOperand> &operand) {
        return operand && operand->shortRun ? builder.getI64IntegerAttr(operand->shortRun)
                                            : IntegerAttr();
      };
      auto fused = MmaFGlobalOp::create(
          builder, op.getLoc(), op.getType(), source(lhs, op.getLhs()), mask(lhs),
          source(rhs, op.getRhs()), mask(rhs), op.getAcc(), lhsView.base, lhsView.flattened(),
          rhsView.base, rhsView.flattened(), toTF32(lhs), toTF32(rhs), shortRun(lhs),
          shortRun(rhs), rhsView.transposed, rhs && rhs->kRuns);
      op.replaceAllUsesWith(fused.getResult());
      op.erase();
      for (const std::optional<FusibleOperand> &operand : {lhs, rhs}) {
        if (!operand)
          continue;
        for (Operation *between : operand->between)
          between->erase();
        operand->load.erase();
      }
    }
  }
};
} // namespace
