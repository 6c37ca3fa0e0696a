//===- PredicatedAccess.cpp - Predicated ld/st.global inline PTX as IR -----===//
//
// tilepipe's own lowering (and Triton's) emits masked global accesses as one
// inline PTX instruction: `@$p ld.global.v4.b32 {$0, $1, $2, $3}, [$4];` or
// `@$p st.global.v4.b32 [$0], {$1, $2, $3, $4};`. Here each becomes a branch
// around an ordinary vector load or store, which the access instrumentation
// then checks like any other. A load that is predicated off leaves its
// registers undefined on the GPU; we give zeros.
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Regex.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace {
/// One parsed `@$p {ld|st}.global[.vN].bW` instruction.
struct PredicatedAccess {
  bool isLoad = false;
  unsigned width = 0;              // element bits
  unsigned predicate = 0;          // operand number
  unsigned address = 0;            // operand number
  SmallVector<unsigned, 4> values; // operand numbers, in vector order
};
} // namespace

/// Parses "$3" (after trimming) into 3.
static std::optional<unsigned> operandNumber(StringRef text) {
  text = text.trim();
  unsigned number;
  if (!text.consume_front("$") || text.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// Parses "{$0, $1}" or "$0".
static bool parseOperandList(StringRef text, SmallVectorImpl<unsigned> &out) {
  text = text.trim();
  if (text.consume_front("{")) {
    if (!text.consume_back("}"))
      return false;
  }
  SmallVector<StringRef, 4> parts;
  text.split(parts, ',');
  for (StringRef part : parts) {
    std::optional<unsigned> number = operandNumber(part);
    if (!number)
      return false;
    out.push_back(*number);
  }
  return true;
}

static std::optional<PredicatedAccess> parseAccess(StringRef asmString) {
  // An ordered access (.relaxed/.acquire/.release with a scope) is an
  // ordinary one here: the host runs the threads one at a time, so every
  // ordering holds.
  static const Regex pattern("^@\\$([0-9]+) (ld|st)"
                             "((\\.(relaxed|acquire|release)\\.(cta|gpu|sys))?)"
                             "\\.global(\\.v[24])?\\.b(8|16|32|64) (.*);$");
  SmallVector<StringRef, 10> m;
  if (!pattern.match(asmString.trim(), &m))
    return std::nullopt;
  PredicatedAccess access;
  access.isLoad = m[2] == "ld";
  m[1].getAsInteger(10, access.predicate);
  m[8].getAsInteger(10, access.width);
  // Operands: "DST, [ADDR]" for loads, "[ADDR], SRC" for stores; DST and
  // SRC may be brace lists with commas of their own.
  StringRef operands = m[9];
  size_t open = operands.find('['), close = operands.find(']');
  if (open == StringRef::npos || close == StringRef::npos || close < open)
    return std::nullopt;
  StringRef addressText = operands.slice(open, close + 1);
  StringRef valueText = access.isLoad ? operands.take_front(open)
                                      : operands.drop_front(close + 1);
  valueText = valueText.trim();
  if (!(access.isLoad ? valueText.consume_back(",") : valueText.consume_front(",")))
    return std::nullopt;
  addressText = addressText.trim();
  addressText.consume_front("[");
  addressText.consume_back("]");
  std::optional<unsigned> address = operandNumber(addressText);
  if (!address || !parseOperandList(valueText, access.values))
    return std::nullopt;
  access.address = *address;
  unsigned lanes = m[7].empty() ? 1 : m[7].back() - '0';
  if (access.values.size() != lanes)
    return std::nullopt;
  return access;
}

/// The call's value for asm operand `number` (outputs come first).
static Value *operandValue(CallInst *call, unsigned numOutputs, unsigned number) {
  if (number < numOutputs || number - numOutputs >= call->arg_size())
    return nullptr;
  return call->getArgOperand(number - numOutputs);
}

static bool lowerOne(CallInst *call, const PredicatedAccess &access) {
  Type *resultType = call->getType();
  unsigned numOutputs = 0;
  if (auto *structType = dyn_cast<StructType>(resultType))
    numOutputs = structType->getNumElements();
  else if (!resultType->isVoidTy())
    numOutputs = 1;
  if (access.isLoad != (numOutputs > 0))
    return false;
  Value *predicate = operandValue(call, numOutputs, access.predicate);
  Value *address = operandValue(call, numOutputs, access.address);
  if (!predicate || !predicate->getType()->isIntegerTy(1) || !address ||
      !address->getType()->isPointerTy())
    return false;

  unsigned lanes = access.values.size();
  Type *elementType;
  SmallVector<Value *, 4> stored;
  if (access.isLoad) {
    if (numOutputs != lanes)
      return false;
    for (unsigned i = 0; i < lanes; ++i)
      if (access.values[i] != i)
        return false;
    elementType = numOutputs == 1 ? resultType
                                  : cast<StructType>(resultType)->getElementType(0);
  } else {
    for (unsigned number : access.values) {
      Value *value = operandValue(call, numOutputs, number);
      if (!value)
        return false;
      stored.push_back(value);
    }
    elementType = stored.front()->getType();
  }
  if (!(elementType->isIntegerTy() || elementType->isFloatingPointTy()))
    return false;
  for (Value *value : stored)
    if (value->getType() != elementType)
      return false;
  // A .b8 access moves a byte through a 16-bit register: the low byte is
  // stored; a load zero-extends.
  Type *registerType = elementType;
  if (access.width == 8 && elementType->isIntegerTy(16))
    elementType = Type::getInt8Ty(call->getContext());
  if (elementType->getPrimitiveSizeInBits() != access.width)
    return false;

  // Split: head -> (then) -> tail, branching on the predicate.
  Instruction *thenTerm =
      SplitBlockAndInsertIfThen(predicate, call->getIterator(), /*Unreachable=*/false);
  IRBuilder<> thenBuilder(thenTerm);
  Type *vectorType = FixedVectorType::get(elementType, lanes);
  Align align(lanes * access.width / 8);
  IRBuilder<> tailBuilder(call);
  if (!access.isLoad) {
    Value *vector = PoisonValue::get(vectorType);
    for (unsigned i = 0; i < lanes; ++i)
      vector = thenBuilder.CreateInsertElement(
          vector, thenBuilder.CreateTrunc(stored[i], elementType), i);
    thenBuilder.CreateAlignedStore(vector, address, align);
    call->eraseFromParent();
    return true;
  }
  Value *loaded = thenBuilder.CreateAlignedLoad(vectorType, address, align);
  BasicBlock *thenBlock = thenTerm->getParent();
  BasicBlock *headBlock = thenBlock->getSinglePredecessor();
  PHINode *phi = tailBuilder.CreatePHI(vectorType, 2);
  phi->addIncoming(loaded, thenBlock);
  phi->addIncoming(Constant::getNullValue(vectorType), headBlock);
  Value *result = PoisonValue::get(resultType);
  auto lane = [&](unsigned i) {
    return tailBuilder.CreateZExt(tailBuilder.CreateExtractElement(phi, uint64_t(i)),
                                  registerType);
  };
  if (numOutputs == 1) {
    result = lane(0);
  } else {
    for (unsigned i = 0; i < lanes; ++i)
      result = tailBuilder.CreateInsertValue(result, lane(i), {i});
  }
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
  return true;
}

void tilepipe::emu::lowerPredicatedGlobalAccesses(Function &fn) {
  SmallVector<std::pair<CallInst *, PredicatedAccess>> accesses;
  for (Instruction &inst : instructions(fn)) {
    auto *call = dyn_cast<CallInst>(&inst);
    auto *asmValue = call ? dyn_cast<InlineAsm>(call->getCalledOperand()) : nullptr;
    if (!asmValue)
      continue;
    if (std::optional<PredicatedAccess> access = parseAccess(asmValue->getAsmString()))
      accesses.push_back({call, *access});
  }
  // A form we do not recognise stays inline asm and is refused later with
  // the usual message.
  for (auto &[call, access] : accesses)
    lowerOne(call, access);
}
