//===- RegisterConversion.cpp - Layout changes without shared memory ------===//
//
// See RegisterConversion.h.
//
//===----------------------------------------------------------------------===//
#include "RegisterConversion.h"
#include "MatrixLowering.h"

#include "tilepipe/Dialect/TileAS/IR/LayoutConversion.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The module's warp count (tile_as.num_warps; 4 as the launch assumes).
unsigned getNumWarps(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  while (module && !module->hasAttr(TileASDialect::kNumWarpsAttrName))
    module = module->getParentOfType<ModuleOp>();
  if (auto attr = module ? module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName)
                         : IntegerAttr())
    return attr.getInt();
  return 4;
}

/// The XOR of `bases[i]` over the bits i set in `lane` (i32): the lane
/// part of the plan's source lane. The lane itself where each bit selects
/// itself.
Value laneTerm(RegisterEmitter &e, const LayoutConversionPlan &plan, Value lane) {
  if (plan.lanesMapToThemselves())
    return lane;
  IndexMath m{e};
  Value term = e.i32(0);
  for (auto [bit, basis] : llvm::enumerate(plan.laneBases))
    if (basis)
      term = m.bitXor(term, m.mul(m.bits(lane, bit, 1), basis));
  return term;
}

/// One shfl.sync.idx per distinct (source register, lane offset); a result
/// register a thread already holds (offset 0, lanes unchanged) is no shuffle.
Value shuffleWithinWarps(RegisterEmitter &e, Value source, const LayoutConversionPlan &plan,
                         VectorType type) {
  IndexMath m{e};
  Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
  Value term = laneTerm(e, plan, m.bits(tid, 0, 31));
  llvm::DenseMap<std::pair<int32_t, int32_t>, Value> moved;
  SmallVector<Value> results;
  for (auto [reg, offset] : llvm::zip(plan.sourceRegister, plan.laneOffset)) {
    Value &result = moved[{reg, offset}];
    if (!result) {
      Value value = e.extract(source, reg);
      if (offset == 0 && plan.lanesMapToThemselves())
        result = value;
      else
        result = e.shuffle(value, offset ? m.bitXor(term, e.i32(offset)) : term,
                           NVVM::ShflKind::idx);
    }
    results.push_back(result);
  }
  return e.buildVector(type, results);
}

} // namespace

Value convertInRegisters(RegisterEmitter &e, Operation *op, Value source, const Laid &from,
                         const Laid &to, VectorType type) {
  unsigned numWarps = getNumWarps(op);
  std::optional<LinearLayout> fromLinear = toLinearLayout(from.layout, from.shape, numWarps);
  std::optional<LinearLayout> toLinear = toLinearLayout(to.layout, to.shape, numWarps);
  if (!fromLinear || !toLinear)
    return {};
  LayoutConversionPlan plan = planLayoutConversion(*fromLinear, *toLinear);
  switch (plan.kind) {
  case LayoutConversionPlan::Kind::Registers:
    return LLVM::ShuffleVectorOp::create(e.builder, e.loc, source, source, plan.sourceRegister);
  case LayoutConversionPlan::Kind::WarpShuffles:
    return shuffleWithinWarps(e, source, plan, type);
  case LayoutConversionPlan::Kind::SharedMemory:
    return {};
  }
  llvm_unreachable("unknown plan");
}

} // namespace tilepipe::tile_as
