//===- InlinePtxArithmetic.cpp - libdevice's multi-instruction PTX as IR ---===//
//
// libdevice carries a few inline PTX blocks of integer carry-chain arithmetic
// (the wide multiplies of sin/cos/tan's Payne-Hanek argument reduction, the
// 128-bit adds and subtracts of fmod/remainder) and one setp/selp pair. They
// are straight-line code over named u32 registers, so each block is translated
// here into plain LLVM IR, the carry flag (CC.CF) becoming an i1 value. A block
// with anything else in it is left alone and refused later with the usual
// "inline PTX assembly is not supported" message.
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace {

/// Translates one asm block, statement by statement, in front of its call.
class PtxBlockTranslator {
public:
  explicit PtxBlockTranslator(CallInst *call) : call(call), builder(call) {
    Type *type = call->getType();
    if (auto *structType = dyn_cast<StructType>(type))
      outputs.resize(structType->getNumElements());
    else if (!type->isVoidTy())
      outputs.resize(1);
  }

  /// Translates the block and replaces the call; false (and nothing changed
  /// that matters: the emitted instructions are then dead) when unsupported.
  bool run(StringRef text);

private:
  bool statement(StringRef text);
  bool arithmetic(StringRef opcode, ArrayRef<StringRef> operands);
  Value *read(StringRef name, Type *type);
  bool write(StringRef name, Value *value);
  Value *addWithCarry(Value *a, Value *b, Value *carryIn, bool setCarry);
  Value *subtractWithBorrow(Value *a, Value *b, Value *borrowIn, bool setCarry);

  CallInst *call;
  IRBuilder<> builder;
  StringMap<Value *> registers;
  SmallVector<Value *, 4> outputs;
  Value *carry = nullptr; // CC.CF
};

} // namespace

/// "$3" -> 3.
static std::optional<unsigned> operandNumber(StringRef text) {
  unsigned number;
  if (!text.consume_front("$") || text.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// Splits "a, {b, c}, d" at top-level commas.
static SmallVector<StringRef, 4> splitOperands(StringRef text) {
  SmallVector<StringRef, 4> parts;
  unsigned depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{')
      ++depth;
    else if (text[i] == '}')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!text.drop_front(start).trim().empty())
    parts.push_back(text.drop_front(start).trim());
  return parts;
}

Value *PtxBlockTranslator::read(StringRef name, Type *type) {
  if (std::optional<unsigned> number = operandNumber(name)) {
    unsigned numOutputs = outputs.size();
    if (*number < numOutputs || *number - numOutputs >= call->arg_size())
      return nullptr;
    Value *value = call->getArgOperand(*number - numOutputs);
    return value->getType() == type ? value : nullptr;
  }
  long long immediate;
  if (!name.getAsInteger(0, immediate))
    return type->isIntegerTy() ? ConstantInt::get(type, immediate) : nullptr;
  Value *value = registers.lookup(name);
  return value && value->getType() == type ? value : nullptr;
}

bool PtxBlockTranslator::write(StringRef name, Value *value) {
  if (std::optional<unsigned> number = operandNumber(name)) {
    if (*number >= outputs.size())
      return false;
    outputs[*number] = value;
    return true;
  }
  if (name.empty() || name.starts_with("$"))
    return false;
  registers[name] = value;
  return true;
}

/// a + b (+ carryIn) in 64 bits; the low half is the result, the high bit of
/// it the new CC.CF when `setCarry`.
Value *PtxBlockTranslator::addWithCarry(Value *a, Value *b, Value *carryIn, bool setCarry) {
  Type *wide = builder.getInt64Ty();
  Value *sum = builder.CreateAdd(builder.CreateZExt(a, wide), builder.CreateZExt(b, wide));
  if (carryIn)
    sum = builder.CreateAdd(sum, builder.CreateZExt(carryIn, wide));
  if (setCarry)
    carry = builder.CreateTrunc(builder.CreateLShr(sum, 32), builder.getInt1Ty());
  return builder.CreateTrunc(sum, builder.getInt32Ty());
}

/// a - b (- borrowIn); CC.CF is the borrow out, as PTX's sub.cc/subc.cc set it.
Value *PtxBlockTranslator::subtractWithBorrow(Value *a, Value *b, Value *borrowIn,
                                              bool setCarry) {
  Type *wide = builder.getInt64Ty();
  Value *difference =
      builder.CreateSub(builder.CreateZExt(a, wide), builder.CreateZExt(b, wide));
  if (borrowIn)
    difference = builder.CreateSub(difference, builder.CreateZExt(borrowIn, wide));
  if (setCarry)
    carry = builder.CreateICmpSLT(difference, builder.getInt64(0));
  return builder.CreateTrunc(difference, builder.getInt32Ty());
}

bool PtxBlockTranslator::arithmetic(StringRef opcode, ArrayRef<StringRef> operands) {
  Type *u32 = builder.getInt32Ty();
  SmallVector<StringRef, 4> parts;
  opcode.split(parts, '.');
  StringRef base = parts.front();
  bool setCarry = llvm::is_contained(parts, "cc");
  bool high = llvm::is_contained(parts, "hi");
  if (parts.back() != "u32" && parts.back() != "s32" && parts.back() != "b32")
    return false;
  auto source = [&](unsigned i) { return i < operands.size() ? read(operands[i], u32) : nullptr; };
  auto product = [&](Value *a, Value *b) -> Value * {
    Type *wide = builder.getInt64Ty();
    Value *full = builder.CreateMul(builder.CreateZExt(a, wide), builder.CreateZExt(b, wide));
    return builder.CreateTrunc(high ? builder.CreateLShr(full, 32) : full, u32);
  };
  Value *a = source(1), *b = source(2);
  if (!a || !b)
    return false;
  Value *result = nullptr;
  if (base == "mul" && operands.size() == 3) {
    result = product(a, b);
  } else if ((base == "mad" || base == "madc") && operands.size() == 4) {
    Value *c = source(3);
    if (!c || (base == "madc" && !carry))
      return false;
    result = addWithCarry(product(a, b), c, base == "madc" ? carry : nullptr, setCarry);
  } else if ((base == "add" || base == "addc") && operands.size() == 3) {
    if (base == "addc" && !carry)
      return false;
    result = addWithCarry(a, b, base == "addc" ? carry : nullptr, setCarry);
  } else if ((base == "sub" || base == "subc") && operands.size() == 3) {
    if (base == "subc" && !carry)
      return false;
    result = subtractWithBorrow(a, b, base == "subc" ? carry : nullptr, setCarry);
  } else {
    return false;
  }
  return write(operands[0], result);
}

bool PtxBlockTranslator::statement(StringRef text) {
  if (text.empty() || text.starts_with(".reg"))
    return true; // declarations: registers come to life when written
  auto [opcode, rest] = text.split(' ');
  SmallVector<StringRef, 4> operands = splitOperands(rest.trim());
  if (opcode == "mov.b64" && operands.size() == 2) {
    Type *u32 = builder.getInt32Ty(), *u64 = builder.getInt64Ty();
    StringRef dst = operands[0], src = operands[1];
    if (dst.consume_front("{") && dst.consume_back("}")) { // unpack
      auto halves = splitOperands(dst);
      Value *whole = read(src, u64);
      if (halves.size() != 2 || !whole)
        return false;
      return write(halves[0], builder.CreateTrunc(whole, u32)) &&
             write(halves[1], builder.CreateTrunc(builder.CreateLShr(whole, 32), u32));
    }
    if (src.consume_front("{") && src.consume_back("}")) { // pack
      auto halves = splitOperands(src);
      Value *lo = halves.size() == 2 ? read(halves[0], u32) : nullptr;
      Value *hi = halves.size() == 2 ? read(halves[1], u32) : nullptr;
      if (!lo || !hi)
        return false;
      Value *whole = builder.CreateOr(builder.CreateZExt(lo, u64),
                                      builder.CreateShl(builder.CreateZExt(hi, u64), 32));
      return write(dst, whole);
    }
    return false;
  }
  if (opcode == "setp.equ.f64" && operands.size() == 3) { // equal or unordered
    Value *a = read(operands[1], builder.getDoubleTy());
    Value *b = read(operands[2], builder.getDoubleTy());
    return a && b && write(operands[0], builder.CreateFCmpUEQ(a, b));
  }
  if (opcode == "selp.f64" && operands.size() == 4) {
    Value *a = read(operands[1], builder.getDoubleTy());
    Value *b = read(operands[2], builder.getDoubleTy());
    Value *p = read(operands[3], builder.getInt1Ty());
    return a && b && p && write(operands[0], builder.CreateSelect(p, a, b));
  }
  return arithmetic(opcode, operands);
}

bool PtxBlockTranslator::run(StringRef text) {
  std::string flat;
  for (char c : text)
    flat += (c == '\n' || c == '\t') ? ' ' : c;
  StringRef body = StringRef(flat).trim();
  if (!body.consume_front("{") || !body.consume_back("}"))
    return false;
  SmallVector<StringRef, 16> statements;
  body.split(statements, ';');
  for (StringRef statement : statements) {
    // "__$$temp3" in the asm string is "__$temp3" in PTX.
    std::string unescaped = statement.trim().str();
    for (size_t at; (at = unescaped.find("$$")) != std::string::npos;)
      unescaped.erase(at, 1);
    if (!this->statement(unescaped))
      return false;
  }
  for (Value *output : outputs)
    if (!output)
      return false;
  Value *result = nullptr;
  if (outputs.size() == 1) {
    result = outputs.front();
    if (result->getType() != call->getType())
      return false;
  } else if (!outputs.empty()) {
    result = PoisonValue::get(call->getType());
    auto *structType = cast<StructType>(call->getType());
    for (auto [i, output] : llvm::enumerate(outputs)) {
      if (output->getType() != structType->getElementType(i))
        return false;
      result = builder.CreateInsertValue(result, output, {unsigned(i)});
    }
  }
  if (result)
    call->replaceAllUsesWith(result);
  call->eraseFromParent();
  return true;
}

void tilepipe::emu::lowerInlinePtxArithmetic(Function &fn) {
  SmallVector<CallInst *> blocks;
  for (Instruction &inst : instructions(fn)) {
    auto *call = dyn_cast<CallInst>(&inst);
    auto *asmValue = call ? dyn_cast<InlineAsm>(call->getCalledOperand()) : nullptr;
    if (asmValue && StringRef(asmValue->getAsmString()).trim().starts_with("{"))
      blocks.push_back(call);
  }
  for (CallInst *call : blocks)
    PtxBlockTranslator(call).run(cast<InlineAsm>(call->getCalledOperand())->getAsmString());
}
