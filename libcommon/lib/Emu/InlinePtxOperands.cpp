//===- InlinePtxOperands.cpp - Operands of inline PTX run by the emulator --===//
#include "InlinePtxOperands.h"

#include "llvm/IR/DerivedTypes.h"

using namespace tilepipe::emu;
using llvm::StringRef;

llvm::SmallVector<StringRef, 8> tilepipe::emu::splitOperands(StringRef text) {
  llvm::SmallVector<StringRef, 8> parts;
  unsigned depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '{')
      ++depth;
    else if (i < text.size() && text[i] == '}')
      --depth;
    else if (i == text.size() || (text[i] == ',' && depth == 0)) {
      if (StringRef part = text.slice(start, i).trim(); !part.empty())
        parts.push_back(part);
      start = i + 1;
    }
  }
  return parts;
}

llvm::SmallVector<StringRef, 8> tilepipe::emu::registerList(StringRef text) {
  if (!text.consume_front("{") || !text.consume_back("}"))
    return {};
  return splitOperands(text);
}

AsmSignature AsmSignature::parse(StringRef constraints, llvm::FunctionType *type) {
  AsmSignature sig;
  sig.type = type;
  llvm::SmallVector<StringRef, 16> items;
  constraints.split(items, ',');
  for (StringRef item : items)
    if (item.starts_with("="))
      ++sig.outputs;
  sig.tiedInput.assign(sig.outputs, -1);
  int arg = 0;
  for (StringRef item : items) {
    if (item.starts_with("=") || item.starts_with("~"))
      continue;
    unsigned tied;
    if (!item.getAsInteger(10, tied) && tied < sig.outputs)
      sig.tiedInput[tied] = arg;
    ++arg;
  }
  return sig;
}

std::optional<unsigned> AsmSignature::argument(StringRef text, unsigned bits) const {
  unsigned number;
  if (!text.consume_front("$") || text.getAsInteger(10, number) || number < outputs ||
      number - outputs >= type->getNumParams())
    return std::nullopt;
  llvm::Type *param = type->getParamType(number - outputs);
  if (bits && param->getPrimitiveSizeInBits() != bits)
    return std::nullopt;
  return number - outputs;
}

std::optional<unsigned> AsmSignature::output(StringRef text) const {
  unsigned number;
  if (!text.consume_front("$") || text.getAsInteger(10, number) || number >= outputs)
    return std::nullopt;
  llvm::Type *result = type->getReturnType();
  if (auto *structType = llvm::dyn_cast<llvm::StructType>(result))
    result = structType->getElementType(number);
  if (result->getPrimitiveSizeInBits() != 32)
    return std::nullopt;
  return number;
}

std::optional<llvm::Error> AsmScalars::parsePredicateStatement(StringRef opcode, StringRef rest) {
  if (opcode == ".reg" && rest.consume_front(".pred")) {
    for (StringRef name : splitOperands(rest))
      predicates_[name] = std::nullopt; // set by a setp below
    return llvm::Error::success();
  }
  llvm::SmallVector<StringRef, 8> ops = splitOperands(rest);
  // setp.ne.{b32,s32,u32} p, $i, 0: p is "operand i is non-zero".
  if (!opcode.starts_with("setp.ne.") || ops.size() != 3 || ops[2] != "0" ||
      !predicates_.count(ops[0]))
    return std::nullopt;
  std::optional<ScalarSource> source = scalar(ops[1]);
  if (!source)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "setp operand '" + ops[1] + "'");
  predicates_[ops[0]] = *source;
  return llvm::Error::success();
}

std::optional<ScalarSource> AsmScalars::scalar(StringRef text) const {
  int64_t literal;
  if (!text.getAsInteger(0, literal))
    return ScalarSource{-1, literal, 64};
  if (auto it = predicates_.find(text); it != predicates_.end())
    return it->second; // std::nullopt while never set
  std::optional<unsigned> arg = sig_.argument(text);
  llvm::Type *type = arg ? sig_.type->getParamType(*arg) : nullptr;
  if (type && type->isPointerTy())
    return ScalarSource{int(*arg), 0, 64};
  if (!type || !type->isIntegerTy() || type->getIntegerBitWidth() > 64)
    return std::nullopt;
  return ScalarSource{int(*arg), 0, type->getIntegerBitWidth()};
}

llvm::Error tilepipe::emu::parseAsmStatements(
    StringRef text, AsmScalars &scalars, StringRef instruction,
    llvm::function_ref<llvm::Error(const llvm::Twine &)> unsupported,
    llvm::function_ref<llvm::Error(StringRef, StringRef, llvm::ArrayRef<StringRef>)>
        parseInstruction) {
  llvm::SmallVector<StringRef, 8> statements;
  text.split(statements, ';');
  bool found = false;
  for (StringRef statement : statements) {
    statement = statement.trim(" \t\n{}");
    if (statement.empty())
      continue;
    auto [opcode, rest] = statement.split(' ');
    rest = rest.trim();
    if (std::optional<llvm::Error> taken = scalars.parsePredicateStatement(opcode, rest)) {
      if (*taken)
        return unsupported(llvm::toString(std::move(*taken)));
      continue;
    }
    if (found || !opcode.starts_with(instruction) ||
        !opcode.drop_front(instruction.size()).starts_with("."))
      return unsupported("statement '" + statement + "'");
    found = true;
    if (llvm::Error e = parseInstruction(statement, opcode, splitOperands(rest)))
      return e;
  }
  if (!found)
    return unsupported("no " + instruction + " instruction");
  return llvm::Error::success();
}
