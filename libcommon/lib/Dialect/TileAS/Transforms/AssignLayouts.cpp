//===- AssignLayouts.cpp - Blocked register layouts for every tensor ------===//
//
// The layout decision of tile-sched for elementwise kernels. The widest
// vector access the memory ops allow (16 bytes per thread, bounded by their
// proven contiguity) sets sizePerThread along the innermost dimension; all
// tensors of one shape share the layout, so elementwise ops need no layout
// conversions. Ragged tails stay masked element-group by element-group.
//
//===----------------------------------------------------------------------===//
#include "StoreAddressSlice.h"
#include "UnitReshapes.h"

#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/WgmmaChoice.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Largest access of one thread, in bytes (ld.global.v4.b32).
static constexpr unsigned kMaxAccessBytes = 16;

namespace {
using ShapeKey = std::vector<int64_t>;

struct AssignLayoutsPass
    : public tilepipe::tile_as::impl::AssignLayoutsBase<AssignLayoutsPass> {
  using AssignLayoutsBase::AssignLayoutsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = 4;
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            TileASDialect::kNumWarpsAttrName))
      numWarps = attr.getInt();
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(assignInFunction(func, numWarps)))
        return signalPassFailure();
  }

  /// Vector width (elements per thread along the innermost dimension) the
  /// memory ops of each shape allow: the fallback for tensors that no memory
  /// op reaches (see collectClassWidths).
  static std::map<ShapeKey, unsigned> collectVectorWidths(func::FuncOp func) {
    std::map<ShapeKey, unsigned> widths;
    func.walk([&](Operation *op) {
      std::optional<std::pair<Value, unsigned>> access = getAccessWidth(op);
      if (!access)
        return;
      auto type = cast<RankedTensorType>(access->first.getType());
      ShapeKey key(type.getShape().begin(), type.getShape().end());
      auto [it, inserted] = widths.try_emplace(key, access->second);
      if (!inserted)
        it->second = std::min(it->second, access->second);
    });
    propagateThroughUnitReshapes(func, widths);
    return widths;
  }

  /// The value a load or store moves and the widest run of it one thread
  /// may access at once: 16 bytes of its element type (getElementBytes),
  /// bounded by the access's proven contiguity.
  static std::optional<std::pair<Value, unsigned>> getAccessWidth(Operation *op) {
    Value value;
    int64_t contiguity = 1;
    if (auto load = dyn_cast<LoadOp>(op))
      value = load.getResult(), contiguity = load.getContiguity();
    else if (auto store = dyn_cast<StoreOp>(op))
      value = store.getValue(), contiguity = store.getContiguity();
    else
      return std::nullopt;
    auto type = cast<RankedTensorType>(value.getType());
    unsigned width =
        std::max<unsigned>(1, kMaxAccessBytes / getElementBytes(type.getElementType()));
    return std::make_pair(value, unsigned(std::min<int64_t>(width, contiguity)));
  }

  /// The vector width of each class of tensors that must share a layout.
  /// Tensors of one shape that an op ties together (an elementwise op's
  /// operands and results, a load's pointers and value, a loop's carried
  /// values; see tieTensors) form a class, and the class takes the narrowest
  /// width its memory ops allow. Classes no data flows between may differ:
  /// an fp8 operand tile loaded 16 elements per thread keeps that width
  /// where the f32 result tile of the same shape is stored 4 at a time
  /// (BatchMatMul's 128x256 B and C), so the operand arrives in the 16-byte
  /// runs that cp.async copies. A class without memory ops takes the width
  /// of a unit-reshape partner class, else its shape's (collectVectorWidths).
  static llvm::DenseMap<Value, unsigned>
  collectClassWidths(func::FuncOp func, llvm::EquivalenceClasses<Value> &classes,
                     const std::map<ShapeKey, unsigned> &shapeWidths) {
    llvm::DenseMap<Value, unsigned> classWidth; // by class leader
    auto leaderOf = [&](Value value) { return classes.getOrInsertLeaderValue(value); };
    func.walk([&](Operation *op) {
      std::optional<std::pair<Value, unsigned>> access = getAccessWidth(op);
      if (!access)
        return;
      auto [it, inserted] = classWidth.try_emplace(leaderOf(access->first), access->second);
      if (!inserted)
        it->second = std::min(it->second, access->second);
    });
    func.walk([&](ReshapeOp op) {
      if (!isUnitReshape(op))
        return;
      Value from = leaderOf(op.getSrc()), to = leaderOf(op.getResult());
      bool fromKnown = classWidth.count(from), toKnown = classWidth.count(to);
      if (fromKnown && !toKnown)
        classWidth[to] = classWidth[from];
      else if (toKnown && !fromKnown)
        classWidth[from] = classWidth[to];
    });
    llvm::DenseMap<Value, unsigned> widths;
    for (auto it = classes.begin(); it != classes.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      Value leader = (*it)->getData();
      std::optional<unsigned> width;
      if (auto known = classWidth.find(leader); known != classWidth.end())
        width = known->second;
      for (Value member : classes.members(**it)) {
        if (!width) {
          auto type = cast<RankedTensorType>(member.getType());
          auto shaped = shapeWidths.find(ShapeKey(type.getShape().begin(), type.getShape().end()));
          width = shaped == shapeWidths.end() ? 1 : shaped->second;
        }
        widths[member] = *width;
      }
    }
    return widths;
  }

  /// Puts the ranked tensors of `op` that must share a layout into one
  /// class: for most ops every tensor operand and result of the same shape
  /// (elementwise ops and memory ops need their operands laid out alike),
  /// and for an op with regions also its regions' arguments and the
  /// operands of their terminators (a loop's init, iteration argument,
  /// yield and result). Ops that move data between layouts tie nothing
  /// (reshape, convert_layout, permute), and a multiply only its
  /// accumulator and result: its A and B are staged through shared memory
  /// whatever their layouts. A store in `valueOnly` ties nothing either
  /// (untieReshapedAccumulatorStores asks what its value's class would be
  /// with pointers and mask of its own).
  static void tieTensors(Operation *op, llvm::EquivalenceClasses<Value> &classes,
                         const llvm::DenseSet<Operation *> &valueOnly = {}) {
    if (isa<ReshapeOp, ConvertLayoutOp, PermuteOp>(op) || valueOnly.contains(op))
      return;
    SmallVector<Value> tensors;
    auto add = [&](ValueRange values) {
      for (Value value : values)
        if (auto type = dyn_cast<RankedTensorType>(value.getType()); type && type.getRank())
          tensors.push_back(value);
    };
    if (op->hasTrait<OpTrait::IsTerminator>() && op->getParentOp() &&
        op->getParentOp()->getNumRegions())
      return; // tied by the op with the regions, below
    if (getMmaSyncForm(op) || isa<MmaFGlobalOp>(op)) {
      add(op->getResults());
      add(op->getOperand(2));
    } else {
      add(op->getOperands());
      add(op->getResults());
    }
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        add(block.getArguments());
        if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
          add(block.back().getOperands());
      }
    for (Value value : tensors)
      classes.insert(value);
    for (auto [i, value] : llvm::enumerate(tensors))
      for (Value other : ArrayRef<Value>(tensors).drop_front(i + 1))
        if (cast<RankedTensorType>(value.getType()).getShape() ==
            cast<RankedTensorType>(other.getType()).getShape()) {
          classes.unionSets(value, other);
          break; // the rest of the shape joins through `other`
        }
  }

  /// A shape no memory op anchors takes the width of a reshape partner that
  /// differs from it only in unit dimensions: both then map registers to
  /// elements alike and the reshape moves no data (cuTile loads a batched
  /// operand as 1xMxK and reshapes it to MxK for the matrix multiply).
  static void propagateThroughUnitReshapes(func::FuncOp func,
                                           std::map<ShapeKey, unsigned> &widths) {
    func.walk([&](ReshapeOp op) {
      if (!isUnitReshape(op))
        return;
      auto from = cast<RankedTensorType>(op.getSrc().getType());
      auto to = cast<RankedTensorType>(op.getType());
      ShapeKey fromKey(from.getShape().begin(), from.getShape().end());
      ShapeKey toKey(to.getShape().begin(), to.getShape().end());
      bool fromKnown = widths.count(fromKey), toKnown = widths.count(toKey);
      if (fromKnown && !toKnown)
        widths[toKey] = widths[fromKey];
      else if (toKnown && !fromKnown)
        widths[fromKey] = widths[toKey];
    });
  }

  /// The tensor-core accumulator layout (tcgen05, wgmma or mma.sync) of
  /// each accumulator shape of an mmaf or mmai that has an mma.sync form.
  static std::map<ShapeKey, BlockedAttr> collectMmaLayouts(func::FuncOp func,
                                                           unsigned numWarps) {
    std::map<ShapeKey, BlockedAttr> layouts;
    func.walk([&](Operation *op) {
      if (!getMmaSyncForm(op))
        return;
      auto acc = cast<RankedTensorType>(op->getOperand(2).getType());
      // The tcgen05 layout on Blackwell (f16/bf16, tf32 and fp8 operands,
      // and block-scaled mmaf_scaled: kind::mxf8f6f4/mxf4/mxf4nvf4), the
      // wgmma layout on Hopper (sm_90a; f16/bf16, tf32 and fp8 operands) unless a gather
      // keeps mma.sync (WgmmaChoice.h), where they tile; else the mma.sync one.
      // (A gather-fed mmaf whose mma.sync grid puts every warp along M, a
      // tall narrow tile, still ends up on wgmma: the two layouts are then
      // the same.)
      BlockedAttr layout;
      auto mmaf = dyn_cast<MmaFOp>(op);
      if ((mmaf && hasTcgen05Kind(mmaf)) || (isa<MmaFScaledOp>(op) && targetsTcgen05(func)))
        layout = getTcgen05AccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      // -v: which block-scaled instruction the multiply becomes.
      if (layout && isa<MmaFScaledOp>(op))
        emitRemark(op->getLoc()) << "tcgen05.mma " << describeTcgen05BlockScale(op)
                                 << " for this mmaf_scaled";
      else if (mmaf && takesWgmma(mmaf))
        layout = getWgmmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      // fp8 multiplies pair their columns (getMmaAccumulatorLayout), so
      // that B can be staged as global memory holds it and copied by
      // cp.async (stagesMmaSyncBTransposed); not the block-scaled ones,
      // whose scale lookup expects the plain fragment.
      std::optional<MmaSyncForm> form = getMmaSyncForm(op);
      bool paired = mmaf && form->elementBytes == 1;
      if (!layout && paired)
        layout = getMmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps, true);
      // (Paired columns need N in 16-column spans; else the plain form.)
      if (!layout)
        layout = getMmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      if (!layout)
        return;
      ShapeKey key(acc.getShape().begin(), acc.getShape().end());
      auto [it, inserted] = layouts.try_emplace(key, layout);
      if (inserted || it->second == layout)
        return;
      // Multiplies of one accumulator shape that want different layouts:
      // the last one's, but where one wanted paired columns the plain
      // fragment, which every mma.sync kind reads.
      if (hasPairedMmaColumns(it->second) || hasPairedMmaColumns(layout))
        layout = getMmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      it->second = layout;
    });
    return layouts;
  }

  /// The layouts of classes that a reshape adding leading unit dimensions
  /// makes from a tensor-core accumulator (cuTile's batched stores: the
  /// f16 accumulator reshaped to 1 x M x N; FMHA's Out, to 1 x 1 x M x N):
  /// the accumulator's layout under the added dimensions (addLeadingUnitDims),
  /// so that the reshape moves nothing. By default the class took a
  /// vector-width layout, and the reshape exchanged the whole tile through
  /// shared memory to save some st.global instructions (as for MatMul's
  /// 2-D store, which stores the fragment layout itself). A class holding a
  /// load keeps the width its loads want; a class that two such reshapes
  /// make takes the first one's. Not on tcgen05 targets: there BatchMatMul's
  /// 1 x 128 x 256 store in the tcgen05 layout made ptxas spill 1-2.7 KB
  /// (sm_100a), where the exchange it saves spilled nothing.
  static llvm::DenseMap<Value, BlockedAttr>
  collectReshapedAccumulatorLayouts(func::FuncOp func, llvm::EquivalenceClasses<Value> &classes,
                                    const std::map<ShapeKey, BlockedAttr> &mmaLayouts,
                                    const llvm::DenseSet<Value> &flexibleOperands) {
    llvm::DenseMap<Value, BlockedAttr> layouts;
    if (targetsTcgen05(func))
      return layouts;
    func.walk([&](ReshapeOp op) {
      auto mma = findReshapedAccumulator(op, mmaLayouts, flexibleOperands);
      if (mma == mmaLayouts.end() || layouts.count(op.getResult()))
        return;
      auto members = classes.members(classes.getOrInsertLeaderValue(op.getResult()));
      if (llvm::any_of(members, isLoaded))
        return;
      BlockedAttr layout = addLeadingUnitDims(mma->second, getAddedLeadingUnitDims(op));
      for (Value member : members)
        layouts.try_emplace(member, layout);
    });
    return layouts;
  }

  static bool isLoaded(Value value) { return isa_and_nonnull<LoadOp>(value.getDefiningOp()); }

  /// The accumulator layout whose shape `op` adds leading unit dimensions
  /// to (collectReshapedAccumulatorLayouts), or mmaLayouts.end() where `op`
  /// is no such reshape: its source is an operand that keeps a vector
  /// layout (flexibleOperands), or its result is itself an accumulator shape.
  static std::map<ShapeKey, BlockedAttr>::const_iterator
  findReshapedAccumulator(ReshapeOp op, const std::map<ShapeKey, BlockedAttr> &mmaLayouts,
                          const llvm::DenseSet<Value> &flexibleOperands) {
    ArrayRef<int64_t> source = op.getSrc().getType().getShape();
    ArrayRef<int64_t> result = op.getType().getShape();
    if (!getAddedLeadingUnitDims(op) || flexibleOperands.contains(op.getSrc()) ||
        mmaLayouts.count(ShapeKey(result.begin(), result.end())))
      return mmaLayouts.end();
    return mmaLayouts.find(ShapeKey(source.begin(), source.end()));
  }

  /// The class of a reshaped accumulator (collectReshapedAccumulatorLayouts)
  /// may hold a load only through a store of it whose pointer and mask
  /// arithmetic is shared with that load: tile-lower's CSE merges the
  /// index tensors of views of one tile shape at the same block
  /// coordinates (FMHA's Out store and Q load). The class then took the
  /// load's vector layout, and the reshape exchanged the whole output tile
  /// through shared memory (FMHA on sm_80: 31 st.shared, 7 ld.shared, 3
  /// barriers and 3 registers more than storing the fragments, if by 16
  /// st.global.b32 per thread instead of 4 st.global.v4). Such a store
  /// gets its own copy of that arithmetic (StoreAddressSlice.h), so the
  /// class can take the accumulator's layout; a store whose value class
  /// holds a load by itself (say an accumulator added to a loaded tile)
  /// keeps sharing. `classes` are stale afterwards.
  static void untieReshapedAccumulatorStores(func::FuncOp func,
                                             llvm::EquivalenceClasses<Value> &classes,
                                             const std::map<ShapeKey, BlockedAttr> &mmaLayouts,
                                             const llvm::DenseSet<Value> &flexibleOperands) {
    if (targetsTcgen05(func))
      return;
    llvm::SetVector<Operation *> stores;
    func.walk([&](ReshapeOp op) {
      if (findReshapedAccumulator(op, mmaLayouts, flexibleOperands) == mmaLayouts.end())
        return;
      auto members = classes.members(classes.getOrInsertLeaderValue(op.getResult()));
      if (llvm::none_of(members, isLoaded))
        return;
      for (Value member : members)
        for (Operation *user : member.getUsers()) {
          auto store = dyn_cast<StoreOp>(user);
          if (store && store.getValue() == member && succeeded(getStoreAddressSlice(store)))
            stores.insert(store);
        }
    });
    if (stores.empty())
      return;
    // The value classes these stores would have with addresses of their own.
    llvm::DenseSet<Operation *> valueOnly(stores.begin(), stores.end());
    llvm::EquivalenceClasses<Value> valueClasses;
    func.walk([&](Operation *op) { tieTensors(op, valueClasses, valueOnly); });
    for (Operation *op : stores) {
      auto store = cast<StoreOp>(op);
      valueClasses.insert(store.getValue());
      if (llvm::any_of(valueClasses.members(valueClasses.getOrInsertLeaderValue(store.getValue())),
                       isLoaded))
        continue;
      // (Taken again: a store before this one may have copied part of it.)
      cloneStoreAddressSlice(store, *getStoreAddressSlice(store));
    }
  }

  LogicalResult assignInFunction(func::FuncOp func, unsigned numWarps) {
    std::map<ShapeKey, BlockedAttr> mmaLayouts =
        tensorCores ? collectMmaLayouts(func, numWarps) : std::map<ShapeKey, BlockedAttr>{};
    // An A or B operand of the accumulator's shape (B of a 128x128 by
    // 128x256 multiply into 128x256) that a reshape makes (of a batched
    // load, say) keeps the vector-width layout, which the reshape then
    // carries over for free: the fragment layout would cost it a layout
    // exchange, and the multiply takes any operand layout (but see wgmma's A
    // below). (A reshape's
    // source has another shape, so no other op needs to share its layout.)
    llvm::DenseSet<Value> flexibleOperands;
    if (!mmaLayouts.empty())
      func.walk([&](Operation *op) {
        if (!getMmaSyncForm(op))
          return;
        for (auto [index, operand] : llvm::enumerate(op->getOperands().take_front(2))) {
          // The wgmma path reads an A in the accumulator's layout straight
          // from registers, with no staging at all: worth the exchange.
          auto mmaf = dyn_cast<MmaFOp>(op);
          if (index == 0 && mmaf && takesWgmma(mmaf))
            continue;
          if (isa_and_nonnull<ReshapeOp>(operand.getDefiningOp()))
            flexibleOperands.insert(operand);
        }
      });
    // The block-scaled multiply (tcgen05 and mma.sync alike) stages A, B
    // and the scales from any register layout: a permuted one (B and its
    // scales loaded N x K, K contiguous, as cuTile's column-major B is)
    // takes its source's layout permuted, so that the permute moves no data
    // (through shared memory it took the whole B tile's registers twice,
    // and ptxas spilled on tcgen05; on sm_120a each K step stored and
    // reloaded B and its scales once more) and B's registers keep their
    // runs along K, which both stagings (B K-major) store 16 bytes at a
    // time. (Only where the multiply is the permute's one user: others may
    // need the layout of their class.)
    llvm::DenseSet<Value> permutedOperands;
    if (!mmaLayouts.empty())
      func.walk([&](MmaFScaledOp op) {
        for (Value operand : {op.getLhs(), op.getRhs(), op.getLhsScale(), op.getRhsScale()})
          if (isa_and_nonnull<PermuteOp>(operand.getDefiningOp()) && operand.hasOneUse())
            permutedOperands.insert(operand);
      });
    {
      llvm::EquivalenceClasses<Value> shared;
      func.walk([&](Operation *op) { tieTensors(op, shared); });
      untieReshapedAccumulatorStores(func, shared, mmaLayouts, flexibleOperands);
    }
    llvm::EquivalenceClasses<Value> classes;
    func.walk([&](Operation *op) { tieTensors(op, classes); });
    llvm::DenseMap<Value, unsigned> widths =
        collectClassWidths(func, classes, collectVectorWidths(func));
    llvm::DenseMap<Value, BlockedAttr> reshapedAccumulators =
        collectReshapedAccumulatorLayouts(func, classes, mmaLayouts, flexibleOperands);
    MLIRContext *context = func.getContext();
    auto withLayout = [&](Value value, bool flexible = false) -> Type {
      Type type = value.getType();
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getEncoding() || tensor.getRank() == 0)
        return type;
      ShapeKey key(tensor.getShape().begin(), tensor.getShape().end());
      BlockedAttr layout;
      auto permute = dyn_cast_or_null<PermuteOp>(value.getDefiningOp());
      auto source = permute ? dyn_cast_or_null<BlockedAttr>(
                                  cast<RankedTensorType>(permute.getSrc().getType()).getEncoding())
                            : BlockedAttr();
      if (source && permutedOperands.contains(value)) {
        layout = permuteLayout(source, permute.getPermutation());
      } else if (auto mma = mmaLayouts.find(key); mma != mmaLayouts.end() && !flexible) {
        layout = mma->second;
      } else if (auto reshaped = reshapedAccumulators.find(value);
                 reshaped != reshapedAccumulators.end()) {
        layout = reshaped->second;
      } else {
        auto it = widths.find(value);
        layout = getDefaultBlockedLayout(context, tensor.getShape(),
                                         it == widths.end() ? 1 : it->second, numWarps);
      }
      return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                   layout);
    };
    WalkResult result = func.walk([&](Operation *op) -> WalkResult {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(withLayout(arg));
      for (OpResult value : op->getResults())
        value.setType(withLayout(value, flexibleOperands.contains(value)));
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (dense && dense.getType() != constant.getType())
          constant.setValueAttr(
              dense.reshape(cast<ShapedType>(constant.getType())));
        else if (!dense && isa<RankedTensorType>(constant.getType()))
          return op->emitOpError("tensor constant must be dense");
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }
};
} // namespace
