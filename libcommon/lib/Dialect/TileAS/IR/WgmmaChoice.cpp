//===- WgmmaChoice.cpp - Which mmafs take wgmma on Hopper -----------------===//
#include "tilepipe/Dialect/TileAS/IR/WgmmaChoice.h"

#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tilepipe::tile_as;

/// Bytes of one cp.async.cg, the unit a contiguous operand is copied in,
/// and of the shortest cp.async (.ca), the least a gathered row copies.
static constexpr int64_t kCopyBytes = 16, kShortestCopyBytes = 4;
static constexpr unsigned kGlobalAddressSpace = 1;

/// Whether `op` reads memory into a result of more than one element: data
/// that can differ from row to row (a scalar read, an expert's index say,
/// moves the whole tile alike and keeps it affine).
static bool readsPerElementData(Operation *op) {
  if (op->getNumRegions() != 0 || !mightHaveEffect<MemoryEffects::Read>(op))
    return false;
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getNumElements() > 1;
  });
}

/// Adds to `worklist` the values `value` is computed from. A loop-carried
/// value comes from its init and what the body yields for it, an induction
/// variable from the loop's other operands (bounds and step), an scf.if
/// result from what its branches yield; any other block argument from all
/// operands of its op.
static void appendSources(Value value, SmallVectorImpl<Value> &worklist) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (!parent)
      return;
    auto loop = dyn_cast<LoopLikeOpInterface>(parent);
    if (OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr) {
      worklist.push_back(init->get());
      if (OpOperand *yielded = loop.getTiedLoopYieldedValue(arg))
        worklist.push_back(yielded->get());
      return;
    }
    MutableArrayRef<OpOperand> inits = loop ? loop.getInitsMutable() : MutableArrayRef<OpOperand>();
    for (OpOperand &operand : parent->getOpOperands())
      if (llvm::none_of(inits, [&](OpOperand &init) { return &init == &operand; }))
        worklist.push_back(operand.get());
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (op->getNumRegions() == 0) {
    llvm::append_range(worklist, op->getOperands());
    return;
  }
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    if (BlockArgument iterArg = loop.getTiedLoopRegionIterArg(result)) {
      worklist.push_back(iterArg);
      return;
    }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>() &&
          block.back().getNumOperands() > result.getResultNumber())
        worklist.push_back(block.back().getOperand(result.getResultNumber()));
}

/// Whether the addresses `ptrs` depend on per-element loaded data. A
/// scalar is the same for every element however it was computed (a base
/// pointer picked from a loaded table, as AllGatherMatmul's per-rank
/// inputs are): the tile stays affine, so the walk stops there.
static bool dependsOnLoadedData(Value ptrs) {
  SmallVector<Value> worklist = {ptrs};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!isa<ShapedType>(value.getType()) || !visited.insert(value).second)
      continue;
    if (Operation *op = value.getDefiningOp(); op && readsPerElementData(op))
      return true;
    appendSources(value, worklist);
  }
  return false;
}

/// The kind of a load's result.
static MmaOperandKind classifyLoad(LoadOp load) {
  if (dependsOnLoadedData(load.getPtrs()))
    return MmaOperandKind::Gather;
  auto ptrType = cast<PtrType>(load.getPtrs().getType().getElementType());
  int64_t elementBytes = getElementBytes(load.getType().getElementType());
  if (ptrType.getAddressSpace() == kGlobalAddressSpace &&
      load.getContiguity() % (kCopyBytes / elementBytes) == 0)
    return MmaOperandKind::ContiguousLoad;
  return MmaOperandKind::StridedLoad;
}

/// The load `operand` is, possibly reshaped (cuTile loads a batched operand
/// as 1xMxK), or null.
static LoadOp getOperandLoad(Value operand) {
  if (auto reshape = operand.getDefiningOp<ReshapeOp>())
    operand = reshape.getSrc();
  return operand.getDefiningOp<LoadOp>();
}

/// Whether every element of `value` is +0.0: a constant, or a splat of one
/// (cuTile writes a pointer load's padding as a broadcast scalar).
static bool isPositiveZero(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    value = splat.getSrc();
  return matchPattern(value, m_PosZeroFloat());
}

bool tilepipe::tile_as::isCopyableLoad(LoadOp load) {
  // An ordered (relaxed/acquire) load keeps its ld qualifier.
  if (load->hasAttr("memory_order"))
    return false;
  auto ptrType = cast<PtrType>(load.getPtrs().getType().getElementType());
  if (ptrType.getAddressSpace() != kGlobalAddressSpace)
    return false;
  Value other = load.getOther();
  return !other || isPositiveZero(other);
}

bool tilepipe::tile_as::isCopyableGather(Value operand) {
  LoadOp load = getOperandLoad(operand);
  if (!load || !isCopyableLoad(load))
    return false;
  int64_t elementBytes = getElementBytes(load.getType().getElementType());
  return elementBytes <= kShortestCopyBytes &&
         load.getContiguity() % (kShortestCopyBytes / elementBytes) == 0;
}

MmaOperandKind tilepipe::tile_as::classifyMmaOperand(Value operand) {
  if (LoadOp load = getOperandLoad(operand))
    return classifyLoad(load);
  // Else the register ops that compute it, back to the loads they start
  // from; a matrix multiply's result is register data whatever fed it.
  SmallVector<Value> worklist = {operand};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    Operation *op = value.getDefiningOp();
    if (!op || isa<MmaFOp, MmaIOp, MmaFScaledOp, MmaFGlobalOp>(op))
      continue;
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (classifyLoad(load) == MmaOperandKind::Gather)
        return MmaOperandKind::Gather;
      continue;
    }
    llvm::append_range(worklist, op->getOperands());
  }
  return MmaOperandKind::Registers;
}

llvm::StringRef tilepipe::tile_as::describeMmaOperandKind(MmaOperandKind kind) {
  switch (kind) {
  case MmaOperandKind::ContiguousLoad:
    return "a contiguous load";
  case MmaOperandKind::StridedLoad:
    return "a strided load";
  case MmaOperandKind::Registers:
    return "computed in registers";
  case MmaOperandKind::Gather:
    return "a gather (addresses from loaded indices)";
  }
  return "";
}

std::optional<unsigned> tilepipe::tile_as::findGatheredMmaOperand(MmaFOp op) {
  for (unsigned index : {0u, 1u})
    if (classifyMmaOperand(op->getOperand(index)) == MmaOperandKind::Gather)
      return index;
  return std::nullopt;
}

std::optional<unsigned> tilepipe::tile_as::findWgmmaBlockingGather(MmaFOp op) {
  if (classifyMmaOperand(op.getRhs()) == MmaOperandKind::Gather)
    return 1;
  if (classifyMmaOperand(op.getLhs()) == MmaOperandKind::Gather &&
      !isCopyableGather(op.getLhs()))
    return 0;
  return std::nullopt;
}

bool tilepipe::tile_as::takesWgmma(MmaFOp op) {
  return targetsWgmma(op) && hasWgmmaKind(op) && !findWgmmaBlockingGather(op);
}
