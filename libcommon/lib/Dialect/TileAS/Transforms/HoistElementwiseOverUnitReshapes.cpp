//===- HoistElementwiseOverUnitReshapes.cpp - narrow before relabeling ----===//
//
// cuTile reshapes a 2-D result to its batched view's shape (1 x M x N, or
// FMHA's 1 x 1 x M x N) and only then converts it (FMHA: the f32 output
// tile to f16 right before its store). Layout assignment keys the
// tensor-core fragment layouts on the 2-D shape, so a reshape of the
// accumulator may have to move every element between threads, through
// shared memory; and it moves the wide elements. Applying the elementwise
// op to the reshape's source and reshaping its result instead computes the
// same elements (an elementwise op commutes with any relabeling of them)
// and leaves the reshape the narrow tile, which AssignLayouts can then give
// the accumulator's own layout (no data moves at all), and which
// StoreTilesByTma drops on sm_90a.
//
//===----------------------------------------------------------------------===//
#include "UnitReshapes.h"

#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/SetVector.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_HOISTELEMENTWISEOVERUNITRESHAPES
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;

/// Bits of an int or float element type; 0 for others (pointers).
static unsigned getElementBits(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
}

/// Whether `value` is a splat (tile_as.splat or a splat constant), which
/// rebuildSplat can make in any shape.
static bool isSplat(Value value) {
  if (value.getDefiningOp<SplatOp>())
    return true;
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  return constant && isa<SplatElementsAttr>(constant.getValue());
}

/// The splat `value` rebuilt with shape `shape`.
static Value rebuildSplat(OpBuilder &builder, Value value, ArrayRef<int64_t> shape) {
  auto reshaped = cast<RankedTensorType>(value.getType()).clone(shape);
  if (auto splat = value.getDefiningOp<SplatOp>())
    return SplatOp::create(builder, splat.getLoc(), reshaped, splat.getSrc());
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto dense = cast<SplatElementsAttr>(constant.getValue());
  return arith::ConstantOp::create(builder, constant.getLoc(), dense.resizeSplat(reshaped));
}

/// The unit reshape that defines `operand` and is used by nothing but `op`.
static ReshapeOp getOwnUnitReshape(Value operand, Operation *op) {
  auto reshape = operand.getDefiningOp<ReshapeOp>();
  if (!reshape || !isUnitReshape(reshape) ||
      llvm::any_of(reshape->getUsers(), [&](Operation *user) { return user != op; }))
    return nullptr;
  return reshape;
}

/// The shape `op` computes in once hoisted over the unit reshapes feeding
/// it; none where it does not qualify: an elementwise op with one tensor
/// result whose tensor operands are unit reshapes of one source shape, each
/// used only by `op`, or splats (at least one reshape), and whose result
/// elements are no wider than any reshaped operand's (else the reshape
/// would move more bytes, not fewer: an extf stays after its reshape).
static std::optional<ArrayRef<int64_t>> getHoistedShape(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return std::nullopt;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  unsigned resultBits = result ? getElementBits(result) : 0;
  if (!resultBits)
    return std::nullopt;
  std::optional<ArrayRef<int64_t>> shape;
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    ReshapeOp reshape = getOwnUnitReshape(operand, op);
    if (!reshape) {
      if (!isSplat(operand))
        return std::nullopt;
      continue;
    }
    RankedTensorType source = reshape.getSrc().getType();
    if ((shape && *shape != source.getShape()) || getElementBits(source) < resultBits)
      return std::nullopt;
    shape = source.getShape();
  }
  return shape;
}

/// Replaces elementwise(reshape(x), ...) by reshape(elementwise(x, ...)).
static void hoist(Operation *op) {
  std::optional<ArrayRef<int64_t>> shape = getHoistedShape(op);
  if (!shape)
    return;
  OpBuilder builder(op);
  SmallVector<Value> operands;
  llvm::SetVector<Operation *> inputs;
  for (Value operand : op->getOperands()) {
    if (Operation *def = operand.getDefiningOp())
      inputs.insert(def);
    if (!isa<RankedTensorType>(operand.getType()))
      operands.push_back(operand);
    else if (ReshapeOp reshape = getOwnUnitReshape(operand, op))
      operands.push_back(reshape.getSrc());
    else
      operands.push_back(rebuildSplat(builder, operand, *shape));
  }
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Operation *applied = builder.clone(*op);
  applied->setOperands(operands);
  applied->getResult(0).setType(type.clone(*shape));
  auto reshape = ReshapeOp::create(builder, op->getLoc(), type, applied->getResult(0));
  op->getResult(0).replaceAllUsesWith(reshape.getResult());
  op->erase();
  for (Operation *input : inputs)
    if (input->use_empty() && isa<ReshapeOp, SplatOp, arith::ConstantOp>(input))
      input->erase();
}

namespace {
struct HoistElementwiseOverUnitReshapesPass
    : tilepipe::tile_as::impl::HoistElementwiseOverUnitReshapesBase<
          HoistElementwiseOverUnitReshapesPass> {
  void runOnOperation() override {
    // In program order, so that a chain of elementwise ops after one
    // reshape moves over it op by op.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::Elementwise>())
        candidates.push_back(op);
    });
    for (Operation *op : candidates)
      hoist(op);
  }
};
} // namespace
