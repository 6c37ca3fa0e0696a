//===- StoreAddressSlice.cpp - a store's own pointer and mask arithmetic --===//
#include "StoreAddressSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace tilepipe::tile_as;

/// Whether `op` is index arithmetic that a copy recomputes for free of
/// side effects: what tile-lower makes a view's pointers and masks of.
static bool isIndexArithmetic(Operation *op) {
  return op->getNumRegions() == 0 &&
         (isa<arith::ArithDialect>(op->getDialect()) ||
          isa<IotaOp, SplatOp, BroadcastOp, AddPtrOp>(op));
}

FailureOr<SmallVector<Operation *>> tilepipe::tile_as::getStoreAddressSlice(StoreOp store) {
  ArrayRef<int64_t> shape = store.getValue().getType().getShape();
  auto inShape = [&](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.getShape() == shape;
  };
  // Operands before their users (a post-order walk), so that the copies
  // can be made in this order.
  llvm::SetVector<Operation *> slice;
  std::function<LogicalResult(Value)> visit = [&](Value value) -> LogicalResult {
    if (!inShape(value))
      return success();
    Operation *def = value.getDefiningOp();
    if (!def || !isIndexArithmetic(def))
      return failure();
    if (slice.contains(def))
      return success();
    for (Value operand : def->getOperands())
      if (failed(visit(operand)))
        return failure();
    slice.insert(def);
    return success();
  };
  if (failed(visit(store.getPtrs())) || (store.getMask() && failed(visit(store.getMask()))))
    return failure();
  return SmallVector<Operation *>(slice.begin(), slice.end());
}

void tilepipe::tile_as::cloneStoreAddressSlice(StoreOp store, ArrayRef<Operation *> slice) {
  // Right before the store: every original dominates it, and so do the
  // values the copies read; the copies then live no longer than the store
  // needs them (not across a loop between the originals and the store).
  OpBuilder builder(store);
  IRMapping mapping;
  for (Operation *op : slice)
    builder.clone(*op, mapping);
  store.getPtrsMutable().assign(mapping.lookupOrDefault(store.getPtrs()));
  if (Value mask = store.getMask())
    store.getMaskMutable().assign(mapping.lookupOrDefault(mask));
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      op->erase();
}
