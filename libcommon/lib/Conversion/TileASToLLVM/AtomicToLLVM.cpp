//===- AtomicToLLVM.cpp - tile_as atomic ops -> LLVM/NVVM -------------===//
//
// tile_as.atomic_cas becomes an LLVM cmpxchg with the op's ordering and sync
// scope (tl_blk: "block", device: "device", sys: system), which NVPTX prints
// as atom.<sem>.<scope>.cas. NVPTX drops both from atomicrmw (always a
// relaxed gpu-scope atom), so tile_as.atomic_rmw is a relaxed atomicrmw
// between fences of the op's scope (release before, acquire after); at
// system scope, whose atomicity a gpu-scope atom lacks, it is a loop of
// system-scope cmpxchg.
//
// An atomic must happen once per element: on a scalar pointer only thread 0
// runs it, on a tensor only the thread holding the element's first copy
// (layouts wider than the tensor replicate), and only where the mask is set,
// each behind a branch. When the old values are used and other threads hold
// copies, they are broadcast through the shared scratch buffer.
// ConvertTileASToLLVMPass registers these patterns through
// populateAtomicToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "RegisterEmitter.h"
#include "SharedExchange.h"
#include "SharedScratch.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// LLVM ordering and sync scope of cuda_tile's keywords.
struct AtomicSemantics {
  LLVM::AtomicOrdering ordering;
  StringRef syncScope;

  static FailureOr<AtomicSemantics> get(Operation *op, StringRef ordering,
                                        StringRef scope) {
    std::optional<LLVM::AtomicOrdering> llvmOrdering =
        llvm::StringSwitch<std::optional<LLVM::AtomicOrdering>>(ordering)
            .Case("relaxed", LLVM::AtomicOrdering::monotonic)
            .Case("acquire", LLVM::AtomicOrdering::acquire)
            .Case("release", LLVM::AtomicOrdering::release)
            .Case("acq_rel", LLVM::AtomicOrdering::acq_rel)
            .Default(std::nullopt);
    if (!llvmOrdering)
      return op->emitOpError("unsupported atomic memory ordering '") << ordering << "'";
    std::optional<StringRef> syncScope =
        llvm::StringSwitch<std::optional<StringRef>>(scope)
            .Case("tl_blk", "block")
            .Case("device", "device")
            .Case("sys", "")
            .Default(std::nullopt);
    if (!syncScope)
      return op->emitOpError("unsupported atomic memory scope '") << scope << "'";
    return AtomicSemantics{*llvmOrdering, *syncScope};
  }

  /// cmpxchg's ordering when the comparison fails (no store happens): the
  /// acquire part of the success ordering.
  LLVM::AtomicOrdering failureOrdering() const {
    return ordering == LLVM::AtomicOrdering::acquire ||
                   ordering == LLVM::AtomicOrdering::acq_rel
               ? LLVM::AtomicOrdering::acquire
               : LLVM::AtomicOrdering::monotonic;
  }
};

FailureOr<LLVM::AtomicBinOp> getBinOp(Operation *op, StringRef mode) {
  std::optional<LLVM::AtomicBinOp> binOp =
      llvm::StringSwitch<std::optional<LLVM::AtomicBinOp>>(mode)
          .Case("and", LLVM::AtomicBinOp::_and)
          .Case("or", LLVM::AtomicBinOp::_or)
          .Case("xor", LLVM::AtomicBinOp::_xor)
          .Case("add", LLVM::AtomicBinOp::add)
          .Case("addf", LLVM::AtomicBinOp::fadd)
          .Case("max", LLVM::AtomicBinOp::max)
          .Case("min", LLVM::AtomicBinOp::min)
          .Case("umax", LLVM::AtomicBinOp::umax)
          .Case("umin", LLVM::AtomicBinOp::umin)
          .Case("xchg", LLVM::AtomicBinOp::xchg)
          .Default(std::nullopt);
  if (!binOp)
    return op->emitOpError("unsupported atomic mode '") << mode << "'";
  return *binOp;
}

/// The integer of a float's width (cmpxchg and the exchange work on bits).
Type bitsType(Type type) {
  return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
}

/// The fence an atomicrmw of `semantics` needs before (release) or after
/// (acquire) its relaxed access, if any.
void emitFence(OpBuilder &builder, Location loc, AtomicSemantics semantics,
               bool before) {
  LLVM::AtomicOrdering ordering = semantics.ordering;
  bool releases = ordering == LLVM::AtomicOrdering::release ||
                  ordering == LLVM::AtomicOrdering::acq_rel;
  bool acquires = ordering == LLVM::AtomicOrdering::acquire ||
                  ordering == LLVM::AtomicOrdering::acq_rel;
  if (before ? !releases : !acquires)
    return;
  LLVM::FenceOp::create(builder, loc,
                        before ? LLVM::AtomicOrdering::release
                               : LLVM::AtomicOrdering::acquire,
                        semantics.syncScope);
}

/// A relaxed gpu-scope atomicrmw (also right for tl_blk, a narrower scope).
Value emitDeviceRMW(OpBuilder &builder, Location loc, LLVM::AtomicBinOp binOp,
                    Value address, Value value) {
  Type type = value.getType();
  // An exchange of floats moves their bits.
  bool viaBits = binOp == LLVM::AtomicBinOp::xchg && isa<FloatType>(type);
  if (viaBits)
    value = LLVM::BitcastOp::create(builder, loc, bitsType(type), value);
  Value old = LLVM::AtomicRMWOp::create(builder, loc, binOp, address, value,
                                        LLVM::AtomicOrdering::monotonic, "device");
  if (viaBits)
    old = LLVM::BitcastOp::create(builder, loc, type, old);
  return old;
}

/// `old <binOp> value` as the memory would compute it.
Value combine(OpBuilder &builder, Location loc, LLVM::AtomicBinOp binOp,
              Value old, Value value) {
  auto pick = [&](LLVM::ICmpPredicate predicate) -> Value {
    Value keep = LLVM::ICmpOp::create(builder, loc, predicate, old, value);
    return LLVM::SelectOp::create(builder, loc, keep, old, value);
  };
  switch (binOp) {
  case LLVM::AtomicBinOp::_and:
    return LLVM::AndOp::create(builder, loc, old, value);
  case LLVM::AtomicBinOp::_or:
    return LLVM::OrOp::create(builder, loc, old, value);
  case LLVM::AtomicBinOp::_xor:
    return LLVM::XOrOp::create(builder, loc, old, value);
  case LLVM::AtomicBinOp::add:
    return LLVM::AddOp::create(builder, loc, old, value);
  case LLVM::AtomicBinOp::fadd:
    return LLVM::FAddOp::create(builder, loc, old, value);
  case LLVM::AtomicBinOp::max:
    return pick(LLVM::ICmpPredicate::sge);
  case LLVM::AtomicBinOp::min:
    return pick(LLVM::ICmpPredicate::sle);
  case LLVM::AtomicBinOp::umax:
    return pick(LLVM::ICmpPredicate::uge);
  case LLVM::AtomicBinOp::umin:
    return pick(LLVM::ICmpPredicate::ule);
  default: // xchg
    return value;
  }
}

/// A read-modify-write atomic at system scope: relaxed system-scope cmpxchg
/// until no other write came between the read and the swap. Leaves the
/// insertion point after the loop.
Value emitSystemRMW(ConversionPatternRewriter &rewriter, Location loc,
                    LLVM::AtomicBinOp binOp, Value address, Value value) {
  Type type = value.getType();
  Type bits = bitsType(type);
  Value first = LLVM::LoadOp::create(rewriter, loc, type, address);
  Block *before = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *done = rewriter.createBlock(rest, {type}, {loc});
  Block *loop = rewriter.createBlock(done, {type}, {loc});
  Value old = loop->getArgument(0);
  Value updated = combine(rewriter, loc, binOp, old, value);
  Value expected = old;
  if (type != bits) {
    expected = LLVM::BitcastOp::create(rewriter, loc, bits, old);
    updated = LLVM::BitcastOp::create(rewriter, loc, bits, updated);
  }
  Value pair = LLVM::AtomicCmpXchgOp::create(
      rewriter, loc, address, expected, updated, LLVM::AtomicOrdering::monotonic,
      LLVM::AtomicOrdering::monotonic, /*syncscope=*/"");
  Value seen = LLVM::ExtractValueOp::create(rewriter, loc, pair, 0);
  Value swapped = LLVM::ExtractValueOp::create(rewriter, loc, pair, 1);
  if (type != bits)
    seen = LLVM::BitcastOp::create(rewriter, loc, type, seen);
  LLVM::CondBrOp::create(rewriter, loc, swapped, done, ValueRange{old}, loop,
                         ValueRange{seen});
  rewriter.setInsertionPointToEnd(before);
  LLVM::BrOp::create(rewriter, loc, ValueRange{first}, loop);
  rewriter.setInsertionPointToEnd(done);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
  rewriter.setInsertionPointToStart(rest);
  return done->getArgument(0);
}

/// One element's atomic: from its address and operands, the old value.
using ElementAtomic =
    function_ref<Value(OpBuilder &, Location, Value address, ArrayRef<Value> operands)>;

Value andMaybe(OpBuilder &builder, Location loc, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return LLVM::AndOp::create(builder, loc, a, b);
}

/// Every thread reads the value of `slots[i]` that the thread with `writes[i]`
/// set stored there (the others store to a sink slot past the end).
FailureOr<SmallVector<Value>> broadcastThroughShared(
    ConversionPatternRewriter &rewriter, Operation *op, ArrayRef<Value> values,
    ArrayRef<Value> writes, ArrayRef<Value> slots, int64_t numSlots) {
  Location loc = op->getLoc();
  Type type = values.front().getType();
  unsigned bytes = std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
  FailureOr<Value> base = getSharedScratch(rewriter, loc, op, (numSlots + 1) * bytes);
  if (failed(base))
    return failure();
  RegisterEmitter e(rewriter, loc);
  auto address = [&](Value slot) {
    return LLVM::GEPOp::create(rewriter, loc, base->getType(), type, *base,
                               ArrayRef<LLVM::GEPArg>{slot});
  };
  // The previous user of the scratch buffer may still be reading it.
  emitCTABarrier(rewriter, loc);
  for (auto [value, write, slot] : llvm::zip(values, writes, slots)) {
    Value target = LLVM::SelectOp::create(rewriter, loc, write, slot, e.i32(numSlots));
    LLVM::StoreOp::create(rewriter, loc, value, address(target));
  }
  emitCTABarrier(rewriter, loc);
  SmallVector<Value> results;
  for (Value slot : slots)
    results.push_back(LLVM::LoadOp::create(rewriter, loc, type, address(slot)));
  emitCTABarrier(rewriter, loc);
  return results;
}

/// Runs `atomic` once per element (see the file comment) and replaces `op`
/// by the old values. `ptrs`, `operands` and `mask` are converted values: a
/// scalar pointer with scalars, or vectors of this thread's registers.
LogicalResult lowerAtomic(ConversionPatternRewriter &rewriter, Operation *op,
                          const TypeConverter &converter, Value ptrs,
                          ArrayRef<Value> operands, Value mask,
                          ElementAtomic atomic) {
  Location loc = op->getLoc();
  Type resultType = op->getResult(0).getType();
  bool used = !op->getResult(0).use_empty();
  RegisterEmitter e(rewriter, loc);
  auto tensor = dyn_cast<RankedTensorType>(resultType);
  if (!tensor) {
    // One pointer: thread 0 of the CTA runs the atomic.
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
    Value fallback = LLVM::ZeroOp::create(rewriter, loc, converter.convertType(resultType));
    Value old = emitIfElse(rewriter, loc, andMaybe(rewriter, loc, first, mask), fallback,
                           [&] { return atomic(rewriter, loc, ptrs, operands); });
    if (used) {
      FailureOr<SmallVector<Value>> seen =
          broadcastThroughShared(rewriter, op, {old}, {first}, {e.i32(0)}, 1);
      if (failed(seen))
        return failure();
      old = seen->front();
    }
    rewriter.replaceOp(op, old);
    return success();
  }

  FailureOr<Laid> laid = Laid::of(op, resultType);
  if (failed(laid))
    return failure();
  auto vectorType = cast<VectorType>(converter.convertType(resultType));
  Type element = vectorType.getElementType();
  SmallVector<Value> firsts = e.firstCopy(laid->layout, laid->shape);
  auto addressSpace = cast<PtrType>(
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType())
                          .getAddressSpace();
  auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), addressSpace);
  SmallVector<Value> olds;
  for (int64_t reg = 0, n = vectorType.getNumElements(); reg < n; ++reg) {
    Value address = LLVM::IntToPtrOp::create(rewriter, loc, ptrType, e.extract(ptrs, reg));
    SmallVector<Value> elementOperands;
    for (Value operand : operands)
      elementOperands.push_back(e.extract(operand, reg));
    Value predicate = andMaybe(rewriter, loc, firsts.empty() ? Value() : firsts[reg],
                               mask ? e.extract(mask, reg) : Value());
    auto body = [&] { return atomic(rewriter, loc, address, elementOperands); };
    if (!predicate) {
      olds.push_back(body());
      continue;
    }
    Value fallback = LLVM::ZeroOp::create(rewriter, loc, element);
    olds.push_back(emitIfElse(rewriter, loc, predicate, fallback, body));
  }
  if (used && !firsts.empty()) {
    SmallVector<SmallVector<Value>> coords;
    for (unsigned dim = 0; dim < laid->shape.size(); ++dim)
      coords.push_back(e.coordinates(laid->layout, laid->shape, dim));
    SmallVector<Value> slots;
    for (int64_t reg = 0; reg < vectorType.getNumElements(); ++reg) {
      SmallVector<Value> regCoords;
      for (auto &dimCoords : coords)
        regCoords.push_back(dimCoords[reg]);
      slots.push_back(rowMajorSlot(e, regCoords, laid->shape));
    }
    FailureOr<SmallVector<Value>> seen = broadcastThroughShared(
        rewriter, op, olds, firsts, slots, tensor.getNumElements());
    if (failed(seen))
      return failure();
    olds = *seen;
  }
  rewriter.replaceOp(op, e.buildVector(vectorType, olds));
  return success();
}

struct AtomicRMWLowering : ConvertOpToLLVMPattern<AtomicRMWOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<AtomicSemantics> semantics =
        AtomicSemantics::get(op, op.getOrdering(), op.getScope());
    FailureOr<LLVM::AtomicBinOp> binOp = getBinOp(op, op.getMode());
    if (failed(semantics) || failed(binOp))
      return failure();
    auto atomic = [&](OpBuilder &builder, Location loc, Value address,
                      ArrayRef<Value> operands) -> Value {
      emitFence(builder, loc, *semantics, /*before=*/true);
      Value old = semantics->syncScope.empty()
                      ? emitSystemRMW(rewriter, loc, *binOp, address, operands.front())
                      : emitDeviceRMW(builder, loc, *binOp, address, operands.front());
      emitFence(builder, loc, *semantics, /*before=*/false);
      return old;
    };
    return lowerAtomic(rewriter, op, *getTypeConverter(), adaptor.getPtrs(),
                       {adaptor.getValue()}, adaptor.getMask(), atomic);
  }
};

struct AtomicCASLowering : ConvertOpToLLVMPattern<AtomicCASOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<AtomicSemantics> semantics =
        AtomicSemantics::get(op, op.getOrdering(), op.getScope());
    if (failed(semantics))
      return failure();
    auto atomic = [&](OpBuilder &builder, Location loc, Value address,
                      ArrayRef<Value> operands) -> Value {
      Value cmp = operands[0], value = operands[1];
      Type type = value.getType();
      // cmpxchg compares bits (so -0.0 and 0.0 differ, NaN matches itself).
      bool viaBits = isa<FloatType>(type);
      if (viaBits) {
        cmp = LLVM::BitcastOp::create(builder, loc, bitsType(type), cmp);
        value = LLVM::BitcastOp::create(builder, loc, bitsType(type), value);
      }
      Value pair = LLVM::AtomicCmpXchgOp::create(
          builder, loc, address, cmp, value, semantics->ordering,
          semantics->failureOrdering(), semantics->syncScope);
      Value old = LLVM::ExtractValueOp::create(builder, loc, pair, 0);
      if (viaBits)
        old = LLVM::BitcastOp::create(builder, loc, type, old);
      return old;
    };
    return lowerAtomic(rewriter, op, *getTypeConverter(), adaptor.getPtrs(),
                       {adaptor.getCmp(), adaptor.getValue()}, adaptor.getMask(),
                       atomic);
  }
};

} // namespace

void populateAtomicToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter);
}

} // namespace tilepipe::tile_as
