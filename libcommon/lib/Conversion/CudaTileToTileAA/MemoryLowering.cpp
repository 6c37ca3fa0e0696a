//===- MemoryLowering.cpp - cuda_tile memory ops -> tile_aa -----------===//
//
// The patterns of this op family; ConvertCudaTileToTileAAPass registers them
// through populateMemoryLoweringPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "ViewLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe {
namespace ct = cuda_tile;

bool hasTileBlockAlloca(ct::EntryOp entry) {
  return entry
      .walk([](ct::AllocaOp alloca) {
        return alloca.getGlobal() ? WalkResult::advance() : WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// `type` (a pointer or pointer tensor) with generic pointers, or with i64
/// addresses when `asInteger`.
static Type withGenericElements(Type type, bool asInteger) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto ptr = cast<tile_aa::PtrType>(tensor ? tensor.getElementType() : type);
  Type element = asInteger ? Type(IntegerType::get(type.getContext(), 64))
                           : Type(tile_aa::PtrType::get(type.getContext(),
                                                        ptr.getPointeeType(), 0));
  return tensor ? Type(tensor.clone(element)) : element;
}

static bool addressesGenerically(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  return func && func->hasAttr(kGenericAddressingAttrName);
}

/// Set by markAccessesAfterWrites on an access whose token may carry a
/// write of the tile block.
static constexpr llvm::StringLiteral kAfterWriteAttrName = "tile_aa.after_write";

/// The loop (for or loop) a break or continue leaves or repeats: the
/// innermost one around it.
static Operation *getTargetLoop(Operation *terminator) {
  for (Operation *op = terminator->getParentOp(); op; op = op->getParentOp())
    if (isa<ct::ForOp, ct::LoopOp>(op))
      return op;
  return nullptr;
}

/// Operand `index` of every terminator of kind `Terminator` inside `op`
/// that passes values to `op` (a yield to its if, a break or continue to its
/// loop).
template <typename Terminator>
static void appendPassedValues(Operation *op, unsigned index, SmallVectorImpl<Value> &values) {
  op->walk([&](Terminator terminator) {
    Operation *target = std::is_same_v<Terminator, ct::YieldOp>
                            ? terminator->getParentOp()
                            : getTargetLoop(terminator);
    if (target == op && index < terminator->getNumOperands())
      values.push_back(terminator->getOperand(index));
  });
}

/// The values a region argument or a result of control flow may carry: a
/// loop's iteration value is its initial value or what a continue passes
/// back; a for's result its initial value or the last continue's; a loop's
/// result what a break passes; an if's result what its branches yield.
/// Failure for anything else (a kernel argument, another op's result).
static FailureOr<SmallVector<Value>> getCarriedValues(Value value) {
  SmallVector<Value> values;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    unsigned index = argument.getArgNumber();
    if (auto forOp = dyn_cast<ct::ForOp>(owner)) {
      if (index == 0) // the induction variable
        return failure();
      values.push_back(forOp.getInitValues()[index - 1]);
      appendPassedValues<ct::ContinueOp>(owner, index - 1, values);
      return values;
    }
    if (auto loop = dyn_cast<ct::LoopOp>(owner)) {
      values.push_back(loop.getInitValues()[index]);
      appendPassedValues<ct::ContinueOp>(owner, index, values);
      return values;
    }
    return failure();
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto forOp = dyn_cast<ct::ForOp>(owner)) {
    values.push_back(forOp.getInitValues()[index]);
    appendPassedValues<ct::ContinueOp>(owner, index, values);
    appendPassedValues<ct::BreakOp>(owner, index, values);
    return values;
  }
  if (isa<ct::LoopOp>(owner)) {
    appendPassedValues<ct::BreakOp>(owner, index, values);
    return values;
  }
  if (isa<ct::IfOp>(owner)) {
    appendPassedValues<ct::YieldOp>(owner, index, values);
    return values;
  }
  return failure();
}

/// Whether memory token `token` may order after a write of the tile block:
/// it comes (through joins and loads, which pass their token on, and
/// through loops and ifs, which carry it) from a store, an atomic, a fence,
/// or from where this walk cannot see. A token carried around a loop whose
/// body only loads (or does not touch it) orders after no write.
static bool mayFollowWrite(Value token) {
  SmallVector<Value> work{token};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    Operation *def = value.getDefiningOp();
    if (!def || isa<ct::ForOp, ct::LoopOp, ct::IfOp>(def)) {
      FailureOr<SmallVector<Value>> carried = getCarriedValues(value);
      if (failed(carried))
        return true;
      llvm::append_range(work, *carried);
      continue;
    }
    if (isa<ct::MakeTokenOp>(def))
      continue;
    if (!isa<ct::JoinTokensOp, ct::LoadViewTkoOp, ct::LoadPtrTkoOp>(def))
      return true;
    for (Value operand : def->getOperands())
      if (isa<ct::TokenType>(operand.getType()))
        work.push_back(operand);
  }
  return false;
}

void markAccessesAfterWrites(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<ct::LoadViewTkoOp, ct::LoadPtrTkoOp, ct::StoreViewTkoOp, ct::StorePtrTkoOp,
             ct::AtomicCASTkoOp, ct::AtomicRMWTkoOp, ct::AtomicRedViewTkoOp>(op))
      return;
    for (Value operand : op->getOperands())
      if (isa<ct::TokenType>(operand.getType()) && mayFollowWrite(operand))
        op->setAttr(kAfterWriteAttrName, UnitAttr::get(op->getContext()));
  });
}

void waitForTokenWrites(ConversionPatternRewriter &rewriter, Operation *op) {
  // A kernel that addresses generically has a barrier after every access.
  if (op->hasAttr(kAfterWriteAttrName) && !addressesGenerically(op))
    NVVM::Barrier0Op::create(rewriter, op->getLoc());
}

void recordMemoryOrder(Operation *op, Operation *access) {
  auto ordering = op->getAttrOfType<ct::MemoryOrderingSemanticsAttr>(
      "memory_ordering_semantics");
  auto scope = op->getAttrOfType<ct::MemoryScopeAttr>("memory_scope");
  if (!ordering || ordering.getValue() == ct::MemoryOrderingSemantics::WEAK || !scope)
    return;
  StringRef ptxScope = "sys";
  if (scope.getValue() == ct::MemoryScope::TL_BLK)
    ptxScope = "cta";
  else if (scope.getValue() == ct::MemoryScope::DEVICE)
    ptxScope = "gpu";
  access->setAttr("memory_order",
                  StringAttr::get(op->getContext(),
                                  ct::stringifyMemoryOrderingSemantics(ordering.getValue()) +
                                      "." + ptxScope));
}

void orderAccess(ConversionPatternRewriter &rewriter, Operation *op) {
  // NVVM ops pass through the later stages untouched.
  if (addressesGenerically(op))
    NVVM::Barrier0Op::create(rewriter, op->getLoc());
}

Value accessPointers(ConversionPatternRewriter &rewriter, Operation *op, Value ptrs) {
  if (!ptrs || !addressesGenerically(op))
    return ptrs;
  // Through the integer address, not ptr_to_ptr: a scalar ptr_to_ptr is an
  // LLVM addrspacecast (cvta), which must not touch a generic address.
  Location loc = op->getLoc();
  Value bits = tile_aa::PtrToIntOp::create(
      rewriter, loc, withGenericElements(ptrs.getType(), true), ptrs);
  return tile_aa::IntToPtrOp::create(
      rewriter, loc, withGenericElements(ptrs.getType(), false), bits);
}

namespace {

/// alloca (tile block): a shared-memory buffer (tile_aa.alloca, a generic
/// address) seen as the kernel's pointer type; the kernel is marked for
/// generic accesses (hasTileBlockAlloca). A `global` alloca is a buffer per
/// tile block in global memory, taken from the device heap when the kernel
/// starts (tile_aa.alloca {global}, a global pointer as it is).
struct AllocaLowering : TilePattern<ct::AllocaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::AllocaOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<tile_aa::PtrType>(convert(op.getType()));
    if (!type)
      return op.emitOpError("result does not lower to a pointer");
    if (op.getGlobal()) {
      rewriter.replaceOpWithNewOp<tile_aa::AllocaOp>(op, type, op.getNumElemAttr(),
                                                     op.getAlignmentAttr(),
                                                     rewriter.getUnitAttr());
      return success();
    }
    Location loc = op.getLoc();
    auto generic = tile_aa::AllocaOp::create(
        rewriter, loc, tile_aa::PtrType::get(op.getContext(), type.getPointeeType(), 0),
        op.getNumElemAttr(), op.getAlignmentAttr(), UnitAttr());
    Value bits = tile_aa::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), generic);
    rewriter.replaceOpWithNewOp<tile_aa::IntToPtrOp>(op, type, bits);
    return success();
  }
};

/// get_index_space_shape: tile counts from the view's tensor sizes.
struct IndexSpaceShapeLowering : TilePattern<ct::GetIndexSpaceShapeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::GetIndexSpaceShapeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // The verifier makes all results one scalar integer type.
    auto type = dyn_cast_or_null<IntegerType>(
        convert(op.getResult().front().getType()));
    if (!type)
      return op.emitOpError("result type does not lower to a scalar integer");
    FailureOr<SmallVector<Value>> counts =
        buildIndexSpaceShape(rewriter, op, op.getSrc(), type);
    if (failed(counts))
      return failure();
    rewriter.replaceOp(op, *counts);
    return success();
  }
};

/// make_strided_view: like the other views it only feeds memory ops, which
/// read it from the original IR (ViewLowering.cpp).
struct StridedViewErasure : TilePattern<ct::MakeStridedViewOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ct::MakeStridedViewOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMemoryLoweringPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<IndexSpaceShapeLowering, StridedViewErasure, AllocaLowering>(
      converter, patterns.getContext());
}

} // namespace tilepipe
