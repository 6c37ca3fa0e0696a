//===- AssignLayouts.cpp - Blocked register layouts for every tensor ------===//
//
// The layout decision of tile-sched for elementwise kernels. The widest
// vector access the memory ops allow (16 bytes per thread, bounded by their
// proven contiguity) sets sizePerThread along the innermost dimension; all
// tensors of one shape share the layout, so elementwise ops need no layout
// conversions. Ragged tails stay masked element-group by element-group.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/WgmmaChoice.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

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
  /// memory ops of each shape allow.
  static std::map<ShapeKey, unsigned> collectVectorWidths(func::FuncOp func) {
    std::map<ShapeKey, unsigned> widths;
    auto note = [&](RankedTensorType valueType, int64_t contiguity) {
      unsigned width = std::max<unsigned>(
          1, kMaxAccessBytes / getElementBytes(valueType.getElementType()));
      width = std::min<int64_t>(width, contiguity);
      ShapeKey key(valueType.getShape().begin(), valueType.getShape().end());
      auto [it, inserted] = widths.try_emplace(key, width);
      if (!inserted)
        it->second = std::min(it->second, width);
    };
    func.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        note(load.getResult().getType(), load.getContiguity());
      else if (auto store = dyn_cast<StoreOp>(op))
        note(store.getValue().getType(), store.getContiguity());
    });
    propagateThroughUnitReshapes(func, widths);
    return widths;
  }

  /// A shape no memory op anchors takes the width of a reshape partner that
  /// differs from it only in unit dimensions: both then map registers to
  /// elements alike and the reshape moves no data (cuTile loads a batched
  /// operand as 1xMxK and reshapes it to MxK for the matrix multiply).
  static void propagateThroughUnitReshapes(func::FuncOp func,
                                           std::map<ShapeKey, unsigned> &widths) {
    auto squeeze = [](ArrayRef<int64_t> shape) {
      ShapeKey squeezed;
      for (int64_t extent : shape)
        if (extent != 1)
          squeezed.push_back(extent);
      return squeezed;
    };
    func.walk([&](ReshapeOp op) {
      auto from = cast<RankedTensorType>(op.getSrc().getType());
      auto to = cast<RankedTensorType>(op.getType());
      if (squeeze(from.getShape()) != squeeze(to.getShape()))
        return;
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
      // and block-scaled mmaf_scaled: kind::mxf8f6f4.block_scale), the
      // wgmma layout on Hopper (sm_90a; f16/bf16, tf32 and fp8 operands) unless an operand
      // is a gather (WgmmaChoice.h), where they tile; else the mma.sync one.
      // (A gather-fed mmaf whose mma.sync grid puts every warp along M, a
      // tall narrow tile, still ends up on wgmma: the two layouts are then
      // the same.)
      BlockedAttr layout;
      auto mmaf = dyn_cast<MmaFOp>(op);
      if ((mmaf && hasTcgen05Kind(mmaf)) || (isa<MmaFScaledOp>(op) && targetsTcgen05(func)))
        layout = getTcgen05AccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      else if (mmaf && takesWgmma(mmaf))
        layout = getWgmmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      if (!layout)
        layout = getMmaAccumulatorLayout(func.getContext(), acc.getShape(), numWarps);
      if (layout)
        layouts[ShapeKey(acc.getShape().begin(), acc.getShape().end())] = layout;
    });
    return layouts;
  }

  LogicalResult assignInFunction(func::FuncOp func, unsigned numWarps) {
    std::map<ShapeKey, unsigned> widths = collectVectorWidths(func);
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
    MLIRContext *context = func.getContext();
    auto withLayout = [&](Type type, bool flexible = false) -> Type {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getEncoding() || tensor.getRank() == 0)
        return type;
      ShapeKey key(tensor.getShape().begin(), tensor.getShape().end());
      BlockedAttr layout;
      if (auto mma = mmaLayouts.find(key); mma != mmaLayouts.end() && !flexible) {
        layout = mma->second;
      } else {
        auto it = widths.find(key);
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
            arg.setType(withLayout(arg.getType()));
      for (OpResult value : op->getResults())
        value.setType(withLayout(value.getType(), flexibleOperands.contains(value)));
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
