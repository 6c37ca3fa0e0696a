//===- StoreTilesByTma.cpp - 16-bit partition-view stores by TMA ----------===//
//
// On sm_90a, on the tcgen05 targets (sm_100/103/110, whose PTX is
// sm_100a etc.) for tiles in the tcgen05 accumulator layout (the epilogue
// of a tcgen05 multiply, whose tcgen05.ld registers hold runs of a row),
// and on sm_120a/121a/120f (which build tensor maps for their TMA rings
// too) for tiles in the mma.sync fragment layout (stmatrix's), a
// tile_as.store whose pointers and mask are a partition view's
// (TiledViewMatch.h) becomes tile_as.store_tma: registers -> swizzled shared
// memory -> cp.async.bulk.tensor (TmaStoreToLLVM.cpp). One bulk store per
// 128-byte block replaces a st.global per register run (64 of them per
// thread in cuTile's 128x256 MatMul epilogue), and TMA drops the elements
// outside the view, so ragged edges cost nothing. The registers go to shared
// memory by stmatrix where their layout holds its fragments (StmatrixStores),
// by st.shared otherwise. Every candidate (a 16-bit
// global store of rank 2 or more) gets a remark saying which way it went.
//
//===----------------------------------------------------------------------===//
#include "TiledViewMatch.h"
#include "UnitReshapes.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/TmaStoreStaging.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_STORETILESBYTMA
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// 16 bytes: TMA's alignment of the global base and strides.
static constexpr int64_t kTmaAlignmentElements = 8;
static constexpr unsigned kGlobalSpace = 1;

/// Whether an op that runs after `op` (later in its block or an enclosing
/// one, or in the next iteration of an enclosing loop) may read memory: the
/// bulk store's global writes must then be complete before `op` returns.
static bool mayBeReadAfter(Operation *op) {
  auto mayRead = [](Operation *o) {
    WalkResult result = o->walk([](Operation *nested) {
      return mightHaveEffect<MemoryEffects::Read>(nested) ? WalkResult::interrupt()
                                                          : WalkResult::advance();
    });
    return result.wasInterrupted();
  };
  for (Operation *at = op; at && !isa<FunctionOpInterface>(at); at = at->getParentOp()) {
    for (Operation *next = at->getNextNode(); next; next = next->getNextNode())
      if (mayRead(next))
        return true;
    if (at != op && isa<LoopLikeOpInterface>(at) && mayRead(at))
      return true;
  }
  return false;
}

/// The tile a store writes, without the leading unit dimensions a
/// tile_as.reshape added (cuTile's batched views: a 1 x M x N store of the
/// M x N accumulator); store_tma takes it that way. (An elementwise op
/// after such a reshape, as FMHA's truncf of its f32 output, came before it
/// in tilepipe-hoist-elementwise-over-unit-reshapes.)
static Value getStoredTile(Value value) {
  auto reshape = value.getDefiningOp<ReshapeOp>();
  if (reshape && reshape.getSrc().getType().getRank() >= 2 && getAddedLeadingUnitDims(reshape))
    return reshape.getSrc();
  return value;
}

/// The store_tma replacing `store`, or why it stays (`why`).
static LogicalResult replaceByTma(StoreOp store, std::string &why) {
  Value tile = getStoredTile(store.getValue());
  auto value = cast<RankedTensorType>(tile.getType());
  ArrayRef<int64_t> shape = value.getShape();
  int64_t rank = shape.size();
  auto layout = dyn_cast_or_null<BlockedAttr>(value.getEncoding());
  if (store->hasAttr("memory_order")) {
    why = "it is an ordered store";
    return failure();
  }
  if (int64_t(store.getContiguity()) % kTmaAlignmentElements != 0) {
    why = "its pointers prove no 16-byte aligned runs (TMA needs a 16-byte aligned base and "
          "strides)";
    return failure();
  }
  // (The tcgen05 accumulator's order puts M first, but its registers only
  // vary along the columns: getRegisterRunDim.)
  if (!layout || (layout.getOrder().front() != rank - 1 &&
                  getRegisterRunDim(layout, value.getShape()) != rank - 1)) {
    why = "its registers do not run along the rows";
    return failure();
  }
  // On the tcgen05 targets the epilogues of the tcgen05 multiplies: tiles
  // in the tcgen05.ld layout (the accumulator, converted); on sm_120a/121a/
  // 120f those of the mma.sync multiplies, in the fragment layout.
  if (targetsTcgen05(store) && !isTcgen05AccumulatorLayout(layout, shape)) {
    why = "on this target only tiles in the tcgen05 accumulator layout (a multiply's "
          "epilogue) go by TMA";
    return failure();
  }
  if (hasMmaSyncTensorMaps(store) && !isMmaAccumulatorLayout(layout, shape)) {
    why = "on this target only tiles in the mma.sync accumulator layout (a multiply's "
          "epilogue) go by TMA";
    return failure();
  }
  if (llvm::any_of(shape.drop_back(2), [](int64_t d) { return d != 1; })) {
    why = "its dimensions before the last two are not 1";
    return failure();
  }
  std::optional<TmaStoreChunks> chunks =
      TmaStoreChunks::get(shape[rank - 2], shape[rank - 1], getLayoutExtent(layout, rank - 1),
                          layout.getSizePerThread()[rank - 1], why);
  if (!chunks)
    return failure();
  OpBuilder builder(store);
  std::optional<TiledView> view = matchTiledView(builder, store.getPtrs(), store.getMask());
  if (!view || view->transposed) {
    if (view) // the constants rebuilt for the match
      for (Value v : view->flattened())
        if (Operation *def = v.getDefiningOp(); def && def->use_empty())
          def->erase();
    why = "its pointers and mask are no partition view's";
    return failure();
  }
  auto replacement = StoreTmaOp::create(builder, store.getLoc(), tile,
                                        view->base, view->flattened(), mayBeReadAfter(store));
  why = std::to_string(chunks->chunks()) + " chunk(s) of " + std::to_string(chunks->chunkCols()) +
        " columns, " + std::to_string(chunks->tile.width) + "-byte swizzle" +
        (replacement.getAwaitWrites() ? ", waiting for the writes (memory is read after it)" : "");
  // How the registers reach shared memory (TmaStoreToLLVM.cpp decides the
  // same way).
  std::string notMatrices;
  if (std::optional<StmatrixStores> matrices =
          StmatrixStores::get(layout, shape, chunks->chunkCols(), notMatrices))
    why += "; stmatrix.x" + std::to_string(matrices->count) + ", " +
           std::to_string(matrices->groups) + " per thread";
  else
    why += "; st.shared, not stmatrix: " + notMatrices;
  Operation *reshape = tile != store.getValue() ? store.getValue().getDefiningOp() : nullptr;
  store.erase();
  if (reshape && reshape->use_empty())
    reshape->erase();
  return success();
}

namespace {
struct StoreTilesByTmaPass : tilepipe::tile_as::impl::StoreTilesByTmaBase<StoreTilesByTmaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = module->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName);
    SmallVector<StoreOp> candidates;
    module.walk([&](StoreOp store) {
      auto ptrs = cast<RankedTensorType>(store.getPtrs().getType());
      auto element = cast<PtrType>(ptrs.getElementType());
      Type type = element.getPointeeType();
      if ((targetsWgmma(store) || targetsTcgen05(store) || hasMmaSyncTensorMaps(store)) &&
          ptrs.getRank() >= 2 && (type.isF16() || type.isBF16()) &&
          element.getAddressSpace() == kGlobalSpace)
        candidates.push_back(store);
    });
    for (StoreOp store : candidates) {
      Location loc = store.getLoc();
      std::string why;
      bool tma = succeeded(replaceByTma(store, why));
      // At the store's location, without the op printed after it.
      InFlightDiagnostic remark = emitRemark(loc) << target.getValue();
      if (tma)
        remark << ": this store goes through shared memory by TMA (cp.async.bulk.tensor; " << why
               << ")";
      else
        remark << ": st.global for this store, not TMA: " << why;
    }
  }
};
} // namespace
