//===- LayoutConversionToLLVM.cpp - convert_layout as its plan says -------===//
//
// See LayoutConversionToLLVM.h.
//
//===----------------------------------------------------------------------===//
#include "LayoutConversionToLLVM.h"
#include "MatrixLowering.h"
#include "SharedExchange.h"

#include "tilepipe/Dialect/TileAS/IR/LayoutConversion.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// The alignment of the shared scratch buffer (SharedScratch.h).
constexpr unsigned kScratchAlignment = 16;

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

/// The slot of each register of `layout` under `slots`: the composed map
/// is linear, so a register's slot is its constant (register bits) XOR
/// one per-thread term (lane and warp bits), an add where their bits are
/// disjoint (which LLVM folds into the addresses). Each slot's alignment
/// follows from the lowest bit the term and the constant can set.
SlottedRegisters registerSlots(RegisterEmitter &e, Value registers, const LinearLayout &layout,
                               const LinearLayout &slots, unsigned elementBytes) {
  IndexMath m{e};
  LinearLayout placed = cantFail(layout.compose(slots));
  Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
  Value lane = m.bits(tid, 0, 31), warp = m.div(tid, 32);
  Value term = e.i32(0);
  int32_t threadBits = 0;
  for (auto [dim, id] : {std::pair(kLaneDim, lane), std::pair(kWarpDim, warp)})
    for (unsigned bit = 0, n = placed.getInDimSizeLog2(dim); bit < n; ++bit)
      if (int32_t basis = placed.getBasis(dim, bit)[0]) {
        term = m.bitXor(term, m.mul(m.bits(id, bit, 1), basis));
        threadBits |= basis;
      }
  SlottedRegisters result{registers, {}, {}};
  for (int32_t reg = 0, n = placed.getInDimSize(kRegisterDim); reg < n; ++reg) {
    int32_t constant = placed.apply({reg, 0, 0})[0];
    uint64_t bits = uint64_t(threadBits | constant) * elementBytes | kScratchAlignment;
    result.alignments.push_back(unsigned(bits & -bits));
    // Slots are below 2^30: the add wraps neither way, which lets LLVM see
    // a thread's adjacent slots as one vector access.
    result.slots.push_back((constant & threadBits)
                         ? m.bitXor(term, e.i32(constant))
                         : LLVM::AddOp::create(e.builder, e.loc, term, e.i32(constant),
                                               LLVM::IntegerOverflowFlags::nsw |
                                                   LLVM::IntegerOverflowFlags::nuw)
                               .getResult());
  }
  return result;
}

} // namespace

FailureOr<Value> lowerLayoutConversion(RegisterEmitter &e, Operation *op, Value source,
                                       const Laid &from, const Laid &to, VectorType type) {
  unsigned numWarps = getNumWarps(op);
  std::optional<LinearLayout> fromLinear = toLinearLayout(from.layout, from.shape, numWarps);
  std::optional<LinearLayout> toLinear = toLinearLayout(to.layout, to.shape, numWarps);
  if (!fromLinear || !toLinear)
    return Value();
  LayoutConversionPlan plan = planLayoutConversion(*fromLinear, *toLinear);
  switch (plan.kind) {
  case LayoutConversionPlan::Kind::Registers:
    return Value(
        LLVM::ShuffleVectorOp::create(e.builder, e.loc, source, source, plan.sourceRegister));
  case LayoutConversionPlan::Kind::WarpShuffles:
    return shuffleWithinWarps(e, source, plan, type);
  case LayoutConversionPlan::Kind::SharedMemory: {
    // Row-major slots (the caller's exchange) unless a swizzle saves
    // bank conflicts.
    std::optional<LinearLayout> slots =
        exchangeSlotLayout(*fromLinear, *toLinear, getByteSize(type.getElementType()));
    if (!slots)
      return Value();
    unsigned bytes = getByteSize(type.getElementType());
    return exchangeSlots(e.builder, op, {registerSlots(e, source, *fromLinear, *slots, bytes)},
                         registerSlots(e, Value(), *toLinear, *slots, bytes), type,
                         slots->getOutDimSize(kOffsetDim));
  }
  }
  llvm_unreachable("unknown plan");
}

} // namespace tilepipe::tile_as
