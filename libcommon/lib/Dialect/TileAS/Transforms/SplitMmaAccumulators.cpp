//===- SplitMmaAccumulators.cpp - K loops per output sub-tile --------------===//
//
// A K loop carrying a 256x256 f32 accumulator (cuTile's BlockScaledMatMul
// tile) holds 256 KiB, the whole register file of an SM: on 8 warps that is
// 256 registers per thread before any operand, and ptxas spills kilobytes.
// No lowering of the multiply itself can fix that, since the accumulator
// lives across the loop. This pass re-tiles the work instead: the loop and
// the store of its result become one loop and one store per output
// sub-tile, one after the other, each loop reading only the rows of A and
// the columns of B (and of their scales) its sub-tile needs (M is split
// first, so each loop reads all of B):
//
//   acc = for k { mmaf(load A[:, k], load B[k, :], acc) }; store C, acc
// ->
//   acc00 = for k { mmaf(load A[0:m, k], load B[k, 0:n], acc00) }
//   store C[0:m, 0:n], acc00
//   acc01 = for k { ... }; store C[0:m, n:2n], acc01 ...
//
// Only one sub-accumulator is live at a time; A and B tiles are read once
// per sub-tile column and row respectively instead of once. On sm_120a
// BlockScaledMatMul's 256x256 tile spilled 9748 bytes unsplit, 312 in
// 64x256 sub-tiles and none in 32x256 ones (the default; 36 with the
// swizzled scales). On tcgen05 targets the accumulator lives in tensor
// memory during the loop (KeepAccumulatorsInTmem.cpp), so the limits there
// are its 512 columns (the 256x256 block-scaled tile's D takes all of them,
// its scales 16 more) and the registers the sum is read back into after the
// loop: 128x256 sub-tiles.
//
// The values a loop needs are rebuilt for the sub-tile ("sliced") from
// their definitions: an iota gets the sub-tile's offset added, a splat or
// a constant splat gets the smaller type, elementwise ops, loads and
// stores take sliced operands (elementwise, so slicing commutes with
// them; an access keeps the contiguity its innermost range allows), a
// permute slices its source along the permuted dimensions (and becomes a
// reshape where it then only moves size-1 ones; reshapes of reshapes
// fold), a broadcast
// along its non-broadcast ones, and a reshape where, within each group of
// dimensions it splits or merges, the sub-tile is one contiguous row-major
// run that is also a sub-tile of the source group (the swizzled scale
// tiles' reshapes). A value none of these fits is computed whole and the
// sub-tile extracted; a loop where even that fails stays as it
// is. Scalars computed in the loop body are cloned into each new loop.
//
// Loops without a multiply that add up tiles elementwise are split the same
// way: cuTile's LayerNorm backward sums two 32x1024 f32 tiles over rows (512
// registers per thread on 4 warps, 13-19 KB spilled) and stores their column
// sums; each 32x128 column strip now has its own loop, reduces and stores.
// Only dimensions no reduce removes are split, so each element is computed
// by the same operations in the same order as before.
//
// Reordering is sound because the body only reads memory (loads carry no
// memory order) and the store is the one write: loads of a later sub-tile
// now follow the stores of earlier ones, which the Tile IR token order
// permits (the cuTile loads and the store only depend on make_token, and
// weak accesses that no token orders are unordered), and cuTile's inputs
// and output are distinct arrays.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include <map>

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_SPLITMMAACCUMULATORS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Smallest sub-tile extent along M or N: two m16 fragments, so that the
/// accumulator layouts (warps along M and N) still tile it.
static constexpr int64_t kMinSubTile = 32;

namespace {
/// A rectangular part of a tensor: `offsets` and `sizes` per dimension.
struct Slice {
  SmallVector<int64_t> offsets, sizes;
  bool operator<(const Slice &other) const {
    return std::tie(offsets, sizes) < std::tie(other.offsets, other.sizes);
  }
  bool operator==(const Slice &other) const {
    return offsets == other.offsets && sizes == other.sizes;
  }
};

/// The ops from one of a loop's results to the store of it.
struct ResultChain {
  SmallVector<Operation *> ops; // the result's users up to the store
  StoreOp store;
  /// The loop result's dimension a tile_as.reduce in `ops` removes.
  std::optional<unsigned> reducedAxis;
};

/// A loop this pass re-tiles: its one multiply (null where the loop adds up
/// tiles elementwise), and the chain from each of the loop's results to its
/// store.
struct Candidate {
  scf::ForOp loop;
  Operation *mma;
  SmallVector<ResultChain> results;
};
} // namespace

/// The whole of a tensor of shape `shape`.
static Slice wholeOf(ArrayRef<int64_t> shape) {
  return Slice{SmallVector<int64_t>(shape.size(), 0), llvm::to_vector(shape)};
}

/// `mma`'s operand slices for the accumulator slice `acc`: A keeps its K
/// columns, B its K rows (and the scales their k blocks); leading batch
/// dimensions go with the accumulator's.
static SmallVector<Slice> getMmaOperandSlices(Operation *mma, const Slice &acc) {
  SmallVector<Slice> slices;
  unsigned rank = acc.offsets.size(), mDim = rank - 2, nDim = rank - 1;
  for (auto [index, operand] : llvm::enumerate(mma->getOperands())) {
    Slice slice = wholeOf(cast<RankedTensorType>(operand.getType()).getShape());
    for (unsigned d = 0; d < mDim; ++d)
      slice.offsets[d] = acc.offsets[d], slice.sizes[d] = acc.sizes[d];
    // Operands: lhs, rhs, acc (, lhs_scale, rhs_scale).
    bool rowsOfA = index == 0 || index == 3, columnsOfB = index == 1 || index == 4;
    if (rowsOfA || index == 2)
      slice.offsets[mDim] = acc.offsets[mDim], slice.sizes[mDim] = acc.sizes[mDim];
    if (columnsOfB || index == 2)
      slice.offsets[nDim] = acc.offsets[nDim], slice.sizes[nDim] = acc.sizes[nDim];
    slices.push_back(std::move(slice));
  }
  return slices;
}

/// The slice of a reshape's source holding the slice `slice` of its result,
/// where the result slice is one contiguous row-major run that is a slice
/// of the source too; nullopt otherwise.
static std::optional<Slice> getRunSourceSlice(ArrayRef<int64_t> result,
                                                  ArrayRef<int64_t> source,
                                                  const Slice &slice) {
  // The run: dimensions before the first partial one take one index, the
  // ones after it are whole.
  unsigned rank = result.size(), first = 0;
  while (first + 1 < rank && slice.sizes[first] == 1)
    ++first;
  int64_t inner = 1, start = 0;
  for (unsigned d = first + 1; d < rank; ++d) {
    if (slice.sizes[d] != result[d])
      return std::nullopt;
    inner *= result[d];
  }
  for (unsigned d = 0; d < rank; ++d)
    start = start * result[d] + slice.offsets[d];
  int64_t length = slice.sizes[first] * inner;
  // The innermost source dimension q where the run is whole dimensions
  // after q and a range within one index of those before.
  int64_t sourceInner = 1;
  for (int q = source.size() - 1; q >= 0; sourceInner *= source[q], --q) {
    if (start % sourceInner || length % sourceInner)
      continue;
    int64_t count = length / sourceInner, outer = start / sourceInner;
    if (outer % source[q] + count > source[q])
      continue;
    Slice result = wholeOf(source);
    result.offsets[q] = outer % source[q];
    result.sizes[q] = count;
    outer /= source[q];
    for (int d = q - 1; d >= 0; --d) {
      result.offsets[d] = outer % source[d];
      result.sizes[d] = 1;
      outer /= source[d];
    }
    return result;
  }
  return std::nullopt;
}

/// The slice of a reshape's source holding the slice `slice` of its result.
/// The shapes split into groups of dimensions with equal products (a
/// reshape only splits or merges dimensions within each: 2x1x32x16 to
/// 2x1x32x4x4 splits the 16); within each group the slice must be one
/// contiguous run that is a slice of the source group (getRunSourceSlice).
/// Nullopt otherwise.
static std::optional<Slice> getReshapeSourceSlice(ArrayRef<int64_t> result,
                                                  ArrayRef<int64_t> source,
                                                  const Slice &slice) {
  Slice sourceSlice = wholeOf(source);
  size_t r = 0, s = 0;
  while (r < result.size() || s < source.size()) {
    // One group: take dimensions from the side with the smaller product
    // until both products agree (size-1 dimensions join the current group).
    size_t r0 = r, s0 = s;
    if (r == result.size() || s == source.size()) {
      // What is left of the other side is size-1 dimensions: index 0.
      for (; s < source.size(); ++s)
        sourceSlice.sizes[s] = 1;
      break;
    }
    int64_t resultProduct = 1, sourceProduct = 1;
    do {
      if (s >= source.size() || (r < result.size() && resultProduct <= sourceProduct))
        resultProduct *= result[r++];
      else
        sourceProduct *= source[s++];
    } while (resultProduct != sourceProduct || (r < result.size() && result[r] == 1) ||
             (s < source.size() && source[s] == 1) || r == r0 || s == s0);
    Slice part{SmallVector<int64_t>(slice.offsets.begin() + r0, slice.offsets.begin() + r),
               SmallVector<int64_t>(slice.sizes.begin() + r0, slice.sizes.begin() + r)};
    std::optional<Slice> from =
        getRunSourceSlice(result.slice(r0, r - r0), source.slice(s0, s - s0), part);
    if (!from)
      return std::nullopt;
    llvm::copy(from->offsets, sourceSlice.offsets.begin() + s0);
    llvm::copy(from->sizes, sourceSlice.sizes.begin() + s0);
  }
  return sourceSlice;
}

/// The contiguity (a power of two) an access of contiguity `contiguity`
/// keeps on the innermost range [offset, offset + size): runs of it stay
/// adjacent and aligned where they divide the offset and the size.
static int64_t getSlicedContiguity(int64_t contiguity, int64_t offset, int64_t size) {
  while (contiguity > 1 && (offset % contiguity || size % contiguity))
    contiguity /= 2;
  return contiguity;
}

namespace {
/// Rebuilds values for sub-tiles of one candidate: the new loops' bodies,
/// the slices of values from outside the loop (created before the new
/// loop), and the store chain after it.
class Slicer {
public:
  Slicer(OpBuilder &builder, scf::ForOp loop) : builder(builder), original(loop) {}

  /// `value` restricted to `slice`, built at the builder's insertion point;
  /// null where some definition cannot be sliced.
  Value slice(Value value, const Slice &slice);

  /// `value`, a scalar, as the current new loop sees it.
  Value scalar(Value value);

  /// Starts the body of a new loop: `loop` replaces the original; its
  /// iteration arguments are the original's restricted to `accSlice`.
  void enterLoop(scf::ForOp loop, const Slice &accSlice) {
    inLoop = {};
    scalars.clear();
    current = loop;
    currentAcc = accSlice;
    scalars.map(original.getInductionVar(), loop.getInductionVar());
  }
  void leaveLoop() { current = nullptr; }

  /// Records that `value` (the original loop's result) is `replacement` on `at`.
  void bind(Value value, const Slice &at, Value replacement) {
    outside[{value.getAsOpaquePointer(), at}] = replacement;
  }

private:
  Value build(Operation *op, const Slice &slice, RankedTensorType type);
  /// `value` reshaped to `type`; a reshape of a reshape reads the first
  /// one's source (the sliced swizzled scales are chains of them).
  Value reshape(Value value, RankedTensorType type) {
    if (auto inner = value.getDefiningOp<ReshapeOp>())
      value = inner.getSrc();
    if (value.getType() == type)
      return value;
    return ReshapeOp::create(builder, value.getLoc(), type, value);
  }
  /// `value` whole, then the block `slice` of it (an extract): for what
  /// cannot be sliced itself.
  Value extractFromWhole(Value value, const Slice &slice);

  bool isInLoop(Value value) const {
    return original->isAncestor(value.getParentRegion()->getParentOp());
  }

  OpBuilder &builder;
  scf::ForOp original, current;
  Slice currentAcc;
  IRMapping scalars;
  using Key = std::pair<const void *, Slice>;
  std::map<Key, Value> inLoop, outside;
};
} // namespace

Value Slicer::scalar(Value value) {
  if (!isInLoop(value) || isa<RankedTensorType>(value.getType()))
    return value;
  if (Value mapped = scalars.lookupOrNull(value))
    return mapped;
  if (!current)
    return nullptr;
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumRegions() || !isMemoryEffectFree(op))
    return nullptr;
  // Operands from outside the loop map to themselves; tensors from inside
  // would need a slice, which a scalar op cannot say.
  for (Value operand : op->getOperands())
    if ((isa<RankedTensorType>(operand.getType()) && isInLoop(operand)) || !scalar(operand))
      return nullptr;
  Operation *clone = builder.clone(*op, scalars);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

Value Slicer::slice(Value value, const Slice &at) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return scalar(value);
  bool local = isInLoop(value);
  std::map<Key, Value> &memo = local ? inLoop : outside;
  Key key{value.getAsOpaquePointer(), at};
  if (auto found = memo.find(key); found != memo.end())
    return found->second;
  Value result;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Only an iteration argument (an accumulator), as the new loop carries it.
    if (current && local && arg.getOwner() == original.getBody() &&
        arg.getArgNumber() >= original.getNumInductionVars() && at == currentAcc)
      result = current.getRegionIterArgs()[arg.getArgNumber() - original.getNumInductionVars()];
  } else {
    // Values from before the loop are sliced before the new loop, once.
    OpBuilder::InsertionGuard guard(builder);
    if (current && !local)
      builder.setInsertionPoint(current);
    result = build(value.getDefiningOp(), at,
                   RankedTensorType::get(at.sizes, type.getElementType()));
    if (!result)
      result = extractFromWhole(value, at);
  }
  if (result)
    memo[key] = result;
  return result;
}

Value Slicer::extractFromWhole(Value value, const Slice &at) {
  auto type = cast<RankedTensorType>(value.getType());
  Slice whole = wholeOf(type.getShape());
  if (at == whole)
    return nullptr;
  SmallVector<Value> indices;
  for (auto [offset, size] : llvm::zip(at.offsets, at.sizes)) {
    if (offset % size)
      return nullptr;
    indices.push_back(arith::ConstantOp::create(builder, value.getLoc(),
                                                builder.getI32IntegerAttr(offset / size)));
  }
  Value source = slice(value, whole);
  if (!source)
    return nullptr;
  return ExtractOp::create(builder, value.getLoc(),
                           RankedTensorType::get(at.sizes, type.getElementType()), source,
                           indices);
}

/// Whether `op` may be rebuilt (or moved between loops): it reads memory
/// at most, with no memory order, and has no regions.
static bool isRebuildable(Operation *op) {
  if (op->getNumRegions())
    return false;
  if (auto load = dyn_cast<LoadOp>(op))
    return !load->hasAttr("memory_order");
  return isMemoryEffectFree(op);
}

Value Slicer::build(Operation *op, const Slice &at, RankedTensorType type) {
  Location loc = op->getLoc();
  // The whole of a value: the op itself on whole operands.
  if (at == wholeOf(cast<RankedTensorType>(op->getResult(0).getType()).getShape()) &&
      op->getNumResults() == 1 && isRebuildable(op)) {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(operand.getType());
      operands.push_back(tensor ? slice(operand, wholeOf(tensor.getShape())) : scalar(operand));
      if (!operands.back())
        return nullptr;
    }
    OperationState state(loc, op->getName(), operands, TypeRange{type}, op->getAttrs());
    return builder.create(state)->getResult(0);
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return nullptr;
    return arith::ConstantOp::create(builder, loc, dense.resizeSplat(type));
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    Value source = scalar(splat.getSrc());
    return source ? SplatOp::create(builder, loc, type, source).getResult() : nullptr;
  }
  if (auto iota = dyn_cast<IotaOp>(op)) {
    Value result = IotaOp::create(builder, loc, type, iota.getAxis());
    int64_t offset = at.offsets[iota.getAxis()];
    if (!offset)
      return result;
    Value shift = arith::ConstantOp::create(
        builder, loc, SplatElementsAttr::get(type, builder.getIntegerAttr(
                                                       type.getElementType(), offset)));
    return arith::AddIOp::create(builder, loc, result, shift);
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    Slice source = at;
    for (auto [i, d] : llvm::enumerate(permute.getPermutation()))
      source.offsets[d] = at.offsets[i], source.sizes[d] = at.sizes[i];
    Value src = slice(permute.getSrc(), source);
    if (!src)
      return nullptr;
    // A permute that only moves size-1 dimensions keeps the row-major order:
    // a reshape.
    SmallVector<int32_t> moved;
    for (int32_t d : permute.getPermutation())
      if (source.sizes[d] != 1)
        moved.push_back(d);
    if (llvm::is_sorted(moved))
      return reshape(src, type);
    return PermuteOp::create(builder, loc, type, src, permute.getPermutation()).getResult();
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    Slice source = at;
    auto from = broadcast.getSrc().getType().getShape();
    for (auto [d, size] : llvm::enumerate(from))
      if (size == 1)
        source.offsets[d] = 0, source.sizes[d] = 1;
    Value src = slice(broadcast.getSrc(), source);
    return src ? BroadcastOp::create(builder, loc, type, src).getResult() : nullptr;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    // Along an axis the slice leaves whole: the reduction of the sliced
    // source, with the same combiner.
    if (reduce->getNumOperands() != 1 || reduce->getNumResults() != 1)
      return nullptr;
    Value operand = reduce.getOperands().front();
    unsigned axis = reduce.getAxis();
    Slice source = at;
    source.offsets.insert(source.offsets.begin() + axis, 0);
    source.sizes.insert(source.sizes.begin() + axis,
                        cast<RankedTensorType>(operand.getType()).getDimSize(axis));
    Value src = slice(operand, source);
    if (!src)
      return nullptr;
    auto sliced = ReduceOp::create(builder, loc, TypeRange{type}, ValueRange{src},
                                   reduce.getAxisAttr(), reduce.getIdentitiesAttr());
    IRMapping none;
    reduce.getCombiner().cloneInto(&sliced.getCombiner(), none);
    return sliced->getResult(0);
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    std::optional<Slice> source = getReshapeSourceSlice(
        reshape.getType().getShape(), reshape.getSrc().getType().getShape(), at);
    Value src = source ? slice(reshape.getSrc(), *source) : nullptr;
    return src ? this->reshape(src, type) : nullptr;
  }
  // Elementwise ops and loads: the same op on sliced operands (a load with
  // the contiguity its innermost range keeps, and the transposed contiguity
  // its next-innermost range keeps).
  auto load = dyn_cast<LoadOp>(op);
  if (load ? !isRebuildable(op)
           : !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
                 !isRebuildable(op))
    return nullptr;
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    Value sliced = isa<RankedTensorType>(operand.getType()) ? slice(operand, at) : scalar(operand);
    if (!sliced)
      return nullptr;
    operands.push_back(sliced);
  }
  OperationState state(loc, op->getName(), operands, TypeRange{type}, op->getAttrs());
  Operation *sliced = builder.create(state);
  if (load) {
    auto slicedLoad = cast<LoadOp>(sliced);
    slicedLoad.setContiguity(
        getSlicedContiguity(load.getContiguity(), at.offsets.back(), at.sizes.back()));
    if (size_t rank = at.offsets.size(); rank >= 2)
      slicedLoad.setTransposedContiguity(getSlicedContiguity(
          load.getTransposedContiguity(), at.offsets[rank - 2], at.sizes[rank - 2]));
  }
  return sliced->getResult(0);
}

/// The accumulator registers one thread holds: a tensor's elements spread
/// over the CTA's threads.
static int64_t getRegistersPerThread(RankedTensorType acc, int64_t threads) {
  return acc.getNumElements() * std::max<int64_t>(1, acc.getElementTypeBitWidth() / 32) /
         threads;
}

/// The sub-tile size: M halved, then N, until one thread's share is at
/// most `maxRegisters` (never below kMinSubTile). M first keeps B's tile
/// whole (each loop reads all of it, and only its rows of A), and keeps
/// the accumulator's shape apart from A's and B's below 128 rows:
/// AssignLayouts gives every tensor of the accumulator's shape the fragment
/// layout, which would cost the operand loads their vector width.
static SmallVector<int64_t> getSubTileShape(RankedTensorType acc, int64_t threads,
                                            int64_t maxRegisters) {
  SmallVector<int64_t> shape = llvm::to_vector(acc.getShape());
  auto registers = [&] {
    return getRegistersPerThread(RankedTensorType::get(shape, acc.getElementType()), threads);
  };
  for (unsigned d : {shape.size() - 2, shape.size() - 1})
    while (registers() > maxRegisters && shape[d] % 2 == 0 && shape[d] / 2 >= kMinSubTile)
      shape[d] /= 2;
  return shape;
}

/// The sub-tile size on a tcgen05 target, where the accumulator lives in
/// tensor memory during the loop (KeepAccumulatorsInTmem) and in registers
/// only after it: M halved down to 128 (the rows of one cta_group::1
/// tcgen05.mma), then N (never below kMinSubTile), while D and a
/// block-scaled (`scaleBlock`: getTcgen05ScaleBlock) multiply's scales of K `k` take more than the
/// 512 tensor-memory columns or one thread's share of the read-back sum is
/// more than `maxRegisters` (cuTile's 256x256 block-scaled tile: 512 columns
/// of D and 16 of scales; 128x256 sub-tiles take 268 and 128 registers).
static SmallVector<int64_t> getTcgen05SubTileShape(RankedTensorType acc, int64_t k,
                                                   int64_t scaleBlock,
                                                   int64_t threads, int64_t maxRegisters) {
  constexpr int64_t kTmemColumns = 512, kTcgen05Rows = 128;
  SmallVector<int64_t> shape = llvm::to_vector(acc.getShape());
  auto tooBig = [&] {
    return getTcgen05TmemColumns(shape, k, scaleBlock) > kTmemColumns ||
           getRegistersPerThread(RankedTensorType::get(shape, acc.getElementType()), threads) >
               maxRegisters;
  };
  unsigned mDim = shape.size() - 2, nDim = shape.size() - 1;
  for (auto [d, least] : {std::pair{mDim, kTcgen05Rows}, std::pair{nDim, kMinSubTile}})
    while (tooBig() && shape[d] % 2 == 0 && shape[d] / 2 >= least)
      shape[d] /= 2;
  return shape;
}

/// Whether `loop`'s body writes no memory (loads without a memory order
/// only read it).
static bool writesNoMemory(scf::ForOp loop) {
  WalkResult writes = loop.getBody()->walk([](Operation *op) {
    if (isa<scf::YieldOp>(op) || isMemoryEffectFree(op))
      return WalkResult::advance();
    auto load = dyn_cast<LoadOp>(op);
    return load && !load->hasAttr("memory_order") ? WalkResult::advance()
                                                  : WalkResult::interrupt();
  });
  return !writes.wasInterrupted();
}

/// The chain from `result` to the one store of it: single-use elementwise
/// ops and, where `allowReduce`, one single-operand tile_as.reduce to a
/// tensor, all in `result`'s block.
static std::optional<ResultChain> getResultChain(Value result, bool allowReduce) {
  ResultChain chain;
  Value value = result;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (user->getBlock() != result.getParentBlock())
      return std::nullopt;
    if (auto store = dyn_cast<StoreOp>(user)) {
      if (store.getValue() != value || store->hasAttr("memory_order"))
        return std::nullopt;
      chain.store = store;
      return chain;
    }
    auto reduce = dyn_cast<ReduceOp>(user);
    if (reduce && allowReduce && !chain.reducedAxis && reduce->getNumOperands() == 1 &&
        isa<RankedTensorType>(reduce->getResult(0).getType())) {
      chain.reducedAxis = reduce.getAxis();
    } else if (!user->hasTrait<OpTrait::Elementwise>() || user->getNumResults() != 1 ||
               !isMemoryEffectFree(user)) {
      return std::nullopt;
    }
    chain.ops.push_back(user);
    value = user->getResult(0);
  }
  return std::nullopt;
}

/// `loop` as a multiply candidate: one iteration argument, the accumulator
/// of the one multiply its body yields, a body that writes no memory, and a
/// result that only reaches one store through single-use elementwise ops.
static std::optional<Candidate> getMmaCandidate(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  Value yielded = loop.getBody()->getTerminator()->getOperand(0);
  Operation *mma = yielded.getDefiningOp();
  if (!mma || !isa<MmaFOp, MmaIOp, MmaFScaledOp>(mma) || mma->getBlock() != loop.getBody() ||
      mma->getOperand(2) != loop.getRegionIterArgs().front() ||
      !loop.getRegionIterArgs().front().hasOneUse() || !writesNoMemory(loop))
    return std::nullopt;
  std::optional<ResultChain> chain = getResultChain(loop.getResult(0), /*allowReduce=*/false);
  if (!chain)
    return std::nullopt;
  return Candidate{loop, mma, {std::move(*chain)}};
}

/// The last of `c`'s stores in its block: where the new loops go.
static StoreOp getLastStore(const Candidate &c) {
  StoreOp last;
  for (const ResultChain &chain : c.results)
    if (!last || last->isBeforeInBlock(chain.store))
      last = chain.store;
  return last;
}

/// `loop` as an elementwise candidate (cuTile's LayerNorm backward sums two
/// 32x1024 f32 tiles over rows: 512 registers per thread on 4 warps): tensor
/// iteration arguments of one shape, a body with no multiply that writes no
/// memory, and results that each reach a store of their own through
/// single-use elementwise ops and at most one reduce. Only the dimensions no
/// reduce removes are split, so every sub-tile's values are computed as the
/// whole tile's were.
static std::optional<Candidate> getElementwiseCandidate(scf::ForOp loop) {
  if (loop.getNumResults() == 0)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(loop.getResult(0).getType());
  for (Value result : loop.getResults()) {
    auto other = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !other || other.getShape() != type.getShape())
      return std::nullopt;
  }
  WalkResult multiplies = loop.getBody()->walk([](Operation *op) {
    return isa<MmaFOp, MmaIOp, MmaFScaledOp, MmaFGlobalOp>(op) ? WalkResult::interrupt()
                                                                : WalkResult::advance();
  });
  if (multiplies.wasInterrupted() || !writesNoMemory(loop))
    return std::nullopt;
  Candidate candidate{loop, nullptr, {}};
  for (Value result : loop.getResults()) {
    std::optional<ResultChain> chain = getResultChain(result, /*allowReduce=*/true);
    if (!chain)
      return std::nullopt;
    candidate.results.push_back(std::move(*chain));
  }
  // The new loops and stores go where the last store was: nothing between
  // the loop and it may touch memory but the chains' stores.
  StoreOp last = getLastStore(candidate);
  for (Operation *op = loop->getNextNode(); op != last; op = op->getNextNode())
    if (!isMemoryEffectFree(op) &&
        llvm::none_of(candidate.results, [&](const ResultChain &c) { return c.store == op; }))
      return std::nullopt;
  return candidate;
}

/// The new loop's body for the accumulator slice `acc`: the multiply on
/// its operands' slices, or each yielded value's slice. False where
/// something cannot be sliced.
static bool buildSlicedBody(OpBuilder &builder, Slicer &slicer, Candidate &c,
                            const Slice &acc, TypeRange accTypes) {
  SmallVector<Value> yielded;
  if (c.mma) {
    SmallVector<Value> operands;
    for (auto [operand, slice] : llvm::zip(c.mma->getOperands(), getMmaOperandSlices(c.mma, acc))) {
      operands.push_back(slicer.slice(operand, slice));
      if (!operands.back())
        return false;
    }
    OperationState state(c.mma->getLoc(), c.mma->getName(), operands, accTypes,
                         c.mma->getAttrs());
    yielded.push_back(builder.create(state)->getResult(0));
  } else {
    for (Value value : c.loop.getBody()->getTerminator()->getOperands()) {
      yielded.push_back(slicer.slice(value, acc));
      if (!yielded.back())
        return false;
    }
  }
  scf::YieldOp::create(builder, c.loop.getLoc(), yielded);
  return true;
}

/// Replaces `c` by one loop and store(s) per sub-tile of shape `sub`;
/// leaves the IR as it was and fails where something cannot be sliced.
static LogicalResult splitLoop(Candidate c, ArrayRef<int64_t> sub) {
  auto accType = cast<RankedTensorType>(c.loop.getResult(0).getType());
  StoreOp last = getLastStore(c);
  OpBuilder builder(last);
  Slicer slicer(builder, c.loop);
  // Everything this creates lands between `before` and the last store.
  Operation *before = last->getPrevNode();
  auto ok = [&]() -> bool {
    // Sub-tiles in row-major order.
    SmallVector<int64_t> at(sub.size(), 0);
    while (true) {
      Slice acc{at, llvm::to_vector(sub)};
      SmallVector<Value> inits;
      for (Value init : c.loop.getInitArgs()) {
        inits.push_back(slicer.slice(init, acc));
        if (!inits.back())
          return false;
      }
      auto loop = scf::ForOp::create(builder, c.loop.getLoc(), c.loop.getLowerBound(),
                                     c.loop.getUpperBound(), c.loop.getStep(), inits);
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(loop.getBody());
        slicer.enterLoop(loop, acc);
        if (!buildSlicedBody(builder, slicer, c, acc, loop.getResultTypes()))
          return false;
        slicer.leaveLoop();
      }
      for (auto [result, replacement] : llvm::zip(c.loop.getResults(), loop.getResults()))
        slicer.bind(result, acc, replacement);
      for (const ResultChain &chain : c.results) {
        Slice stored = acc;
        if (chain.reducedAxis) {
          stored.offsets.erase(stored.offsets.begin() + *chain.reducedAxis);
          stored.sizes.erase(stored.sizes.begin() + *chain.reducedAxis);
        }
        StoreOp store = chain.store;
        Value ptrs = slicer.slice(store.getPtrs(), stored);
        Value value = slicer.slice(store.getValue(), stored);
        Value mask = store.getMask() ? slicer.slice(store.getMask(), stored) : Value();
        if (!ptrs || !value || (store.getMask() && !mask))
          return false;
        StoreOp::create(builder, store.getLoc(), ptrs, value, mask,
                        getSlicedContiguity(store.getContiguity(), stored.offsets.back(),
                                            stored.sizes.back()));
      }
      // The next sub-tile: the innermost dimension fastest.
      int d = sub.size() - 1;
      for (; d >= 0; --d) {
        at[d] += sub[d];
        if (at[d] < accType.getDimSize(d))
          break;
        at[d] = 0;
      }
      if (d < 0)
        return true;
    }
  }();
  if (!ok) {
    SmallVector<Operation *> created;
    for (Operation *op = before->getNextNode(); op != last; op = op->getNextNode())
      created.push_back(op);
    for (Operation *op : created)
      op->dropAllReferences();
    for (Operation *op : created)
      op->erase();
    return failure();
  }
  for (ResultChain &chain : c.results) {
    chain.store.erase();
    for (Operation *op : llvm::reverse(chain.ops))
      op->erase();
  }
  c.loop.erase();
  return success();
}

/// Registers per thread of all of `loop`'s results (tensors of one shape),
/// each as a tensor of `shape`.
static int64_t getLoopRegistersPerThread(scf::ForOp loop, ArrayRef<int64_t> shape,
                                         int64_t threads) {
  int64_t total = 0;
  for (Value result : loop.getResults())
    total += getRegistersPerThread(
        RankedTensorType::get(shape, getElementTypeOrSelf(result.getType())), threads);
  return total;
}

/// The sub-tile shape of an elementwise candidate: the dimensions no chain
/// reduces halved, outermost first, until its accumulators together take
/// at most `maxRegisters` per accumulator and thread (never below
/// kMinSubTile).
static SmallVector<int64_t> getElementwiseSubTileShape(Candidate &c, int64_t threads,
                                                       int64_t maxRegisters) {
  auto type = cast<RankedTensorType>(c.loop.getResult(0).getType());
  SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  auto registers = [&] { return getLoopRegistersPerThread(c.loop, shape, threads); };
  int64_t budget = maxRegisters * c.loop.getNumResults();
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (llvm::any_of(c.results, [&](const ResultChain &chain) { return chain.reducedAxis == d; }))
      continue;
    while (registers() > budget && shape[d] % 2 == 0 && shape[d] / 2 >= kMinSubTile)
      shape[d] /= 2;
  }
  return shape;
}

/// Erases the ops of `func`'s body left without users (the original
/// store's address computation), last first so that chains go too.
static void eraseDeadOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.getBody().walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

namespace {
struct SplitMmaAccumulatorsPass
    : tilepipe::tile_as::impl::SplitMmaAccumulatorsBase<SplitMmaAccumulatorsPass> {
  using SplitMmaAccumulatorsBase::SplitMmaAccumulatorsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t threads = 4 * 32;
    if (auto warps = module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName))
      threads = warps.getInt() * 32;
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Candidate> candidates;
      func.walk([&](scf::ForOp loop) {
        if (std::optional<Candidate> candidate = getMmaCandidate(loop))
          candidates.push_back(*candidate);
        else if (std::optional<Candidate> elementwise = getElementwiseCandidate(loop))
          candidates.push_back(*elementwise);
      });
      bool changed = false;
      for (Candidate &candidate : candidates) {
        auto acc = cast<RankedTensorType>(candidate.loop.getResult(0).getType());
        SmallVector<int64_t> sub;
        if (!candidate.mma) {
          if (getLoopRegistersPerThread(candidate.loop, acc.getShape(), threads) <=
              maxAccRegisters)
            continue;
          sub = getElementwiseSubTileShape(candidate, threads, subTileRegisters);
        } else if (targetsTcgen05(candidate.loop)) {
          int64_t k =
              cast<RankedTensorType>(candidate.mma->getOperand(0).getType()).getShape().back();
          sub = getTcgen05SubTileShape(acc, k, getTcgen05ScaleBlock(candidate.mma), threads,
                                       maxAccRegisters);
        } else if (getRegistersPerThread(acc, threads) > maxAccRegisters) {
          sub = getSubTileShape(acc, threads, subTileRegisters);
        } else {
          continue;
        }
        if (sub != acc.getShape())
          changed |= succeeded(splitLoop(candidate, sub));
      }
      if (changed)
        eraseDeadOps(func);
    }
  }
};
} // namespace
