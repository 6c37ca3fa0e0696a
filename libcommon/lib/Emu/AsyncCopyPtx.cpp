//===- AsyncCopyPtx.cpp - The TMA family's inline PTX as NVVM intrinsics ---===//
//
// MLIR's NVVM dialect lowers some of the TMA family to inline PTX rather
// than to intrinsics (convert-nvvm-to-llvm: mbarrier.try_wait.parity always,
// mbarrier.init / arrive.expect_tx and cp.async.bulk.tensor when
// predicated), and hand-written kernels use inline PTX for tensormap.replace
// and tensormap.cp_fenceproxy. Each recognised asm call becomes a call of the
// equivalent NVVM intrinsic (or plain IR), guarded by its `@$p` predicate,
// so that the intrinsic handlers run it. Forms not recognised stay inline
// asm and are refused later with the usual message.
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>

using namespace llvm;

namespace {

/// Translates one inline asm call.
class AsyncPtxCall {
public:
  explicit AsyncPtxCall(CallInst *call) : call(call), module(*call->getModule()) {
    if (auto *structType = dyn_cast<StructType>(call->getType()))
      numOutputs = structType->getNumElements();
    else if (!call->getType()->isVoidTy())
      numOutputs = 1;
  }

  /// Replaces the call; false (and nothing changed) when the text is not a
  /// form handled here.
  bool run(StringRef text);

private:
  bool waitLoop(StringRef text);
  bool statement(StringRef opcode, ArrayRef<StringRef> operands, IRBuilder<> &builder);
  Value *input(StringRef text);
  Value *pointer(StringRef text, unsigned addrSpace, IRBuilder<> &builder);
  CallInst *emit(IRBuilder<> &builder, const Twine &name, Type *result, ArrayRef<Value *> args);

  CallInst *call;
  Module &module;
  unsigned numOutputs = 0;
  /// The state an arrive returns, when the asm names an output for it.
  Value *state = nullptr;
};

} // namespace

/// Splits "[$1, {$2, $3}], [$4]" at top-level commas.
static SmallVector<StringRef, 4> splitOperands(StringRef text) {
  SmallVector<StringRef, 4> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    depth += (c == '[' || c == '{') - (c == ']' || c == '}');
    if (c == ',' && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!text.drop_front(start).trim().empty())
    parts.push_back(text.drop_front(start).trim());
  return parts;
}

/// "[$1, {$2, $3}]" -> "$1" and {"$2", "$3"}.
static bool splitTensorOperand(StringRef text, StringRef &map, SmallVectorImpl<StringRef> &coords) {
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return false;
  auto [head, rest] = text.split(',');
  map = head.trim();
  rest = rest.trim();
  if (!rest.consume_front("{") || !rest.consume_back("}"))
    return false;
  rest.split(coords, ',');
  for (StringRef &coord : coords)
    coord = coord.trim();
  return !coords.empty();
}

Value *AsyncPtxCall::input(StringRef text) {
  text = text.trim();
  text.consume_front("[");
  text.consume_back("]");
  unsigned number;
  if (!text.consume_front("$") || text.trim().getAsInteger(10, number))
    return nullptr;
  if (number < numOutputs || number - numOutputs >= call->arg_size())
    return nullptr;
  return call->getArgOperand(number - numOutputs);
}

Value *AsyncPtxCall::pointer(StringRef text, unsigned addrSpace, IRBuilder<> &builder) {
  Value *value = input(text);
  if (!value)
    return nullptr;
  Type *type = builder.getPtrTy(addrSpace);
  if (value->getType()->isPointerTy())
    return builder.CreateAddrSpaceCast(value, type);
  if (value->getType()->isIntegerTy(64)) // a generic address in a 64-bit register
    return builder.CreateIntToPtr(value, type);
  return nullptr; // 32-bit shared window offsets are not emulated
}

CallInst *AsyncPtxCall::emit(IRBuilder<> &builder, const Twine &name, Type *result,
                             ArrayRef<Value *> args) {
  SmallVector<Type *, 8> types;
  for (Value *arg : args)
    types.push_back(arg->getType());
  FunctionCallee callee =
      module.getOrInsertFunction(name.str(), FunctionType::get(result, types, false));
  return builder.CreateCall(callee, args);
}

/// A number (a tensormap.replace ordinal or immediate new_val) or an operand.
static Value *immediateOr(Value *operand, StringRef text, Type *type) {
  uint64_t number;
  if (!text.trim().getAsInteger(0, number))
    return ConstantInt::get(type, number);
  return operand;
}

bool AsyncPtxCall::statement(StringRef opcode, ArrayRef<StringRef> operands,
                             IRBuilder<> &builder) {
  Type *i1 = builder.getInt1Ty(), *i16 = builder.getInt16Ty(), *i32 = builder.getInt32Ty(),
       *i64 = builder.getInt64Ty(), *voidTy = builder.getVoidTy();
  // Fences of the async and tensormap proxies, bulk groups and prefetches:
  // the copies complete in the issuing thread (BulkCopy.h).
  for (StringRef noOp : {"fence.proxy.", "fence.mbarrier_init.", "prefetch.tensormap",
                         "cp.async.bulk.commit_group", "cp.async.bulk.wait_group"})
    if (opcode.starts_with(noOp))
      return true;
  auto value = [&](StringRef text, Type *type) -> Value * {
    Value *v = input(text);
    return v && v->getType() == type ? v : nullptr;
  };
  if (opcode.starts_with("mbarrier.init.shared") && operands.size() == 2) {
    Value *bar = pointer(operands[0], 3, builder), *count = value(operands[1], i32);
    if (!bar || !count)
      return false;
    emit(builder, "llvm.nvvm.mbarrier.init.shared", voidTy, {bar, count});
    return true;
  }
  if (opcode.starts_with("mbarrier.arrive.expect_tx.") && operands.size() == 3) {
    Value *bar = pointer(operands[1], 3, builder), *bytes = value(operands[2], i32);
    if (!bar || !bytes)
      return false;
    state = emit(builder, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", i64,
                 {bar, bytes});
    return operands[0] == "_" ||
           (numOutputs == 1 && operands[0] == "$0" && call->getType() == i64);
  }
  if (opcode.consume_front("cp.async.bulk.tensor.")) {
    unsigned rank;
    StringRef dims = opcode.take_until([](char c) { return c == '.'; });
    opcode = opcode.drop_front(dims.size());
    if (!dims.consume_back("d") || dims.getAsInteger(10, rank) || rank < 1 || rank > 5 ||
        opcode.contains("im2col") || opcode.contains("cache_hint"))
      return false;
    // A load's .multicast::cluster adds the CTA mask as a fourth operand.
    bool multicast = opcode.consume_back(".multicast::cluster");
    bool load = opcode.starts_with(".shared::cluster.global") &&
                opcode.ends_with(".mbarrier::complete_tx::bytes");
    bool store = !multicast && opcode.starts_with(".global.shared::cta") &&
                 opcode.ends_with(".bulk_group");
    StringRef mapText;
    SmallVector<StringRef, 5> coordTexts;
    if ((!load && !store) || operands.size() != (load ? 3u + multicast : 2u) ||
        !splitTensorOperand(operands[load ? 1 : 0], mapText, coordTexts) ||
        coordTexts.size() != rank)
      return false;
    SmallVector<Value *, 12> args;
    if (load) {
      args.push_back(pointer(operands[0], 7, builder));
      args.push_back(pointer(operands[2], 3, builder));
    } else {
      args.push_back(pointer(operands[1], 3, builder));
    }
    args.push_back(pointer(mapText, 0, builder));
    for (StringRef coord : coordTexts)
      args.push_back(value(coord, i32));
    Value *mask = ConstantInt::get(i16, 0);
    if (multicast) // a 16-bit register or an immediate
      mask = immediateOr(value(operands[3], i16), operands[3], i16);
    if (is_contained(args, nullptr) || !mask)
      return false;
    if (load)
      args.append({mask, ConstantInt::get(i64, 0), ConstantInt::get(i1, multicast),
                   ConstantInt::getFalse(i1), ConstantInt::get(i32, 0)});
    else
      args.append({ConstantInt::get(i64, 0), ConstantInt::getFalse(i1)});
    emit(builder, "llvm.nvvm.cp.async.bulk.tensor." + Twine(load ? "g2s" : "s2g") + ".tile." +
                      Twine(rank) + "d",
         voidTy, args);
    return true;
  }
  if (opcode.consume_front("tensormap.replace.tile.")) {
    // <field>.<space>.b1024.<type>: the field's name in the intrinsic has
    // dots for underscores.
    StringRef field = opcode.take_until([](char c) { return c == '.'; });
    bool wide = field == "global_address" || field == "global_stride";
    bool ordinal = field == "box_dim" || field == "global_dim" || field == "global_stride" ||
                   field == "element_stride";
    if (operands.size() != (ordinal ? 3u : 2u))
      return false;
    Value *map = input(operands[0]);
    unsigned addrSpace = map && map->getType()->isPointerTy()
                             ? map->getType()->getPointerAddressSpace()
                             : 0;
    map = pointer(operands[0], addrSpace, builder);
    Type *valueType = wide ? i64 : i32;
    Value *newValue = immediateOr(value(operands.back(), valueType), operands.back(), valueType);
    if (!map || !newValue)
      return false;
    SmallVector<Value *, 3> args = {map};
    if (ordinal) {
      Value *ord = immediateOr(nullptr, operands[1], i32);
      if (!ord)
        return false;
      args.push_back(ord);
    }
    args.push_back(newValue);
    std::string name = field.str();
    std::replace(name.begin(), name.end(), '_', '.');
    emit(builder, "llvm.nvvm.tensormap.replace." + name + ".p" + Twine(addrSpace), voidTy, args);
    return true;
  }
  if (opcode.starts_with("tensormap.cp_fenceproxy.global.shared::cta.") && operands.size() == 3) {
    // Copies the 128-byte map to global memory; the fence is free here.
    Value *dst = pointer(operands[0], 1, builder), *src = pointer(operands[1], 3, builder);
    if (!dst || !src || operands[2] != "128")
      return false;
    builder.CreateMemCpy(dst, MaybeAlign(64), src, MaybeAlign(64), 128);
    return true;
  }
  return false;
}

/// The blocking wait MLIR emits for nvvm.mbarrier.try_wait.parity: a loop
/// around mbarrier.try_wait.parity.shared.b64 P, [$bar], $phase[, $ticks].
bool AsyncPtxCall::waitLoop(StringRef text) {
  static const Regex pattern("mbarrier\\.try_wait\\.parity[a-z0-9_.:]*[ \t]+[A-Za-z0-9_]+[ \t]*,"
                             "[ \t]*\\[(\\$[0-9]+)\\][ \t]*,[ \t]*(\\$[0-9]+)");
  SmallVector<StringRef, 3> m;
  if (numOutputs != 0 || !text.contains("bra") || !pattern.match(text, &m))
    return false;
  IRBuilder<> builder(call);
  Value *bar = pointer(m[1], 3, builder), *phase = input(m[2]);
  if (!bar || !phase || !phase->getType()->isIntegerTy(32))
    return false;
  BasicBlock *head = call->getParent();
  BasicBlock *tail = head->splitBasicBlock(call, head->getName() + ".waited");
  BasicBlock *wait = BasicBlock::Create(call->getContext(), "mbarrier.wait", head->getParent(), tail);
  head->getTerminator()->setSuccessor(0, wait);
  IRBuilder<> waitBuilder(wait);
  Value *done = emit(waitBuilder, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta",
                     waitBuilder.getInt1Ty(), {bar, phase});
  waitBuilder.CreateCondBr(done, tail, wait);
  call->eraseFromParent();
  return true;
}

bool AsyncPtxCall::run(StringRef text) {
  if (text.contains("mbarrier.try_wait.parity"))
    return waitLoop(text);
  std::string flat = text.str();
  std::replace_if(flat.begin(), flat.end(), [](char c) { return c == '\t' || c == '\n'; }, ' ');
  StringRef body = StringRef(flat).trim();
  if (!body.consume_back(";") || body.contains(';'))
    return false;
  // "@$p " / "@!$p " guards the statement.
  Value *predicate = nullptr;
  bool negated = false;
  if (body.consume_front("@")) {
    negated = body.consume_front("!");
    auto [guard, rest] = body.split(' ');
    predicate = input(guard);
    if (!predicate || !predicate->getType()->isIntegerTy(1) || numOutputs != 0)
      return false;
    body = rest.trim();
  }
  auto [opcode, operandText] = body.split(' ');
  SmallVector<StringRef, 4> operands = splitOperands(operandText.trim());

  // Emit into a block of its own, so that a refused form leaves nothing.
  BasicBlock *scratch = BasicBlock::Create(call->getContext(), "tma.ptx", call->getFunction());
  IRBuilder<> builder(scratch);
  if (!statement(opcode, operands, builder)) {
    for (Instruction &inst : make_early_inc_range(reverse(*scratch)))
      inst.eraseFromParent();
    scratch->eraseFromParent();
    return false;
  }
  Instruction *insertBefore = call;
  if (predicate) {
    IRBuilder<> guardBuilder(call);
    Value *condition = negated ? guardBuilder.CreateNot(predicate) : predicate;
    insertBefore = SplitBlockAndInsertIfThen(condition, call->getIterator(), false);
  }
  for (Instruction &inst : make_early_inc_range(*scratch))
    inst.moveBefore(insertBefore->getIterator());
  scratch->eraseFromParent();
  if (numOutputs == 1 && state)
    call->replaceAllUsesWith(state);
  call->eraseFromParent();
  return true;
}

void tilepipe::emu::lowerAsyncCopyPtx(Function &fn) {
  SmallVector<CallInst *> calls;
  for (Instruction &inst : instructions(fn))
    if (auto *call = dyn_cast<CallInst>(&inst))
      if (auto *asmValue = dyn_cast<InlineAsm>(call->getCalledOperand())) {
        StringRef text = asmValue->getAsmString();
        if (text.contains("mbarrier.") || text.contains("cp.async.bulk") ||
            text.contains("tensormap") || text.contains("fence.proxy"))
          calls.push_back(call);
      }
  for (CallInst *call : calls)
    AsyncPtxCall(call).run(cast<InlineAsm>(call->getCalledOperand())->getAsmString());
}
