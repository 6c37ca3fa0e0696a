//===- WgmmaAsm.cpp - wgmma.mma_async from inline PTX, as a warpgroup op ---===//
//
// MLIR's NVVM-to-LLVM lowering of nvvm.wgmma.mma_async emits
//   { .reg .pred p; setp.ne.b32 p, $S, 0;
//     wgmma.mma_async.sync.aligned.m64nNkK.<d>.<a>.<b> {$0, ...}, $A, $B, p,
//     $scaleA, $scaleB, $transA, $transB; }
// with the accumulators as outputs tied to inputs ("=f,...,0,1,...") and the
// immediates as "n" operands. This file reads that form (and a bare
// instruction with literal immediates or register A, "{$i, ...}") into the
// operand positions of the call, and runs the instruction as a warpgroup
// collective on every thread's spilled operands.
//
//===----------------------------------------------------------------------===//
#include "InlinePtxOperands.h"
#include "Runtime.h"
#include "Wgmma.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"

#include <cstring>
#include <string>
#include <vector>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

/// The call operands of one wgmma.mma_async asm statement.
struct WgmmaAsmOperands {
  llvm::SmallVector<unsigned, 8> dOutputs; // result element of accumulator register i
  llvm::SmallVector<unsigned, 8> dInputs;  // call argument tied to it
  llvm::SmallVector<unsigned, 4> aRegisters;
  int descA = -1, descB = -1;
  ScalarSource scaleD, scaleA{-1, 1}, scaleB{-1, 1}, transA{-1, 0}, transB{-1, 0};
};

/// What each thread hands the warpgroup collective.
struct WgmmaThread {
  const IntrinsicHandler *handler;
  const uint8_t *args;
  uint8_t *ret;
};

class WgmmaAsmOp : public WarpgroupOp {
public:
  WgmmaAsmOp(WgmmaShape shape, WgmmaAsmOperands operands)
      : shape_(shape), operands_(std::move(operands)), name_(shape.name()) {}
  const char *name() const override { return name_.c_str(); }

  void compute(const std::array<void *, 128> &threads) const override {
    Runtime &rt = Runtime::active();
    auto thread = [&](unsigned i) -> const WgmmaThread & {
      return *static_cast<const WgmmaThread *>(threads[i]);
    };
    WgmmaOperands ops = operandsOf(thread(0));
    // "The contents of a matrix descriptor must be the same across all the
    // warps in the warpgroup."
    for (unsigned i = 1; i < 128; ++i) {
      WgmmaOperands other = operandsOf(thread(i));
      if (other.descA != ops.descA || other.descB != ops.descB || other.scaleD != ops.scaleD)
        rt.fail(name_ + ": thread " + std::to_string(i) +
                " of the warpgroup has other descriptors or scale-d than thread 0");
    }
    std::vector<std::array<uint32_t, 128>> dRegs(128);
    std::vector<std::array<uint32_t, 4>> aRegs(128);
    std::array<uint32_t *, 128> d;
    std::array<const uint32_t *, 128> a;
    for (unsigned i = 0; i < 128; ++i) {
      const WgmmaThread &t = thread(i);
      for (auto [reg, arg] : llvm::enumerate(operands_.dInputs))
        dRegs[i][reg] = t.handler->arg<uint32_t>(t.args, arg);
      for (auto [reg, arg] : llvm::enumerate(operands_.aRegisters))
        aRegs[i][reg] = t.handler->arg<uint32_t>(t.args, arg);
      d[i] = dRegs[i].data();
      a[i] = aRegs[i].data();
    }
    SharedWindow shared{reinterpret_cast<const uint8_t *>(rt.sharedWindow()), rt.sharedBytes()};
    if (llvm::Error e = computeWgmma(shape_, ops, d, a, shared))
      rt.fail(llvm::toString(std::move(e)));
    for (unsigned i = 0; i < 128; ++i)
      for (auto [reg, output] : llvm::enumerate(operands_.dOutputs))
        thread(i).handler->result(thread(i).ret, dRegs[i][reg], output);
  }

private:
  WgmmaOperands operandsOf(const WgmmaThread &t) const {
    const IntrinsicHandler &h = *t.handler;
    Runtime &rt = Runtime::active();
    WgmmaOperands ops;
    ops.aInRegisters = operands_.descA < 0;
    if (!ops.aInRegisters)
      ops.descA = h.arg<uint64_t>(t.args, operands_.descA);
    ops.descB = h.arg<uint64_t>(t.args, operands_.descB);
    ops.scaleD = operands_.scaleD.read(h, t.args) != 0;
    auto scale = [&](const ScalarSource &source, const char *what) {
      int64_t value = source.read(h, t.args);
      if (value != 1 && value != -1)
        rt.fail(name_ + ": " + what + " is " + std::to_string(value) + " (must be 1 or -1)");
      return int(value);
    };
    auto transpose = [&](const ScalarSource &source, const char *what) {
      int64_t value = source.read(h, t.args);
      if (value != 0 && value != 1)
        rt.fail(name_ + ": " + what + " is " + std::to_string(value) + " (must be 0 or 1)");
      return value == 1;
    };
    ops.scaleA = scale(operands_.scaleA, "imm-scale-a");
    ops.scaleB = scale(operands_.scaleB, "imm-scale-b");
    ops.transA = transpose(operands_.transA, "imm-trans-a");
    ops.transB = transpose(operands_.transB, "imm-trans-b");
    return ops;
  }

  WgmmaShape shape_;
  WgmmaAsmOperands operands_;
  std::string name_;
};

void wgmmaHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  WgmmaThread mine{&h, args, ret};
  Runtime::active().warpgroupCollective(*h.warpgroupOp, &mine);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

llvm::Error unsupported(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unsupported wgmma inline PTX: " + why);
}

std::optional<ElemType> parseType(StringRef s) {
  return llvm::StringSwitch<std::optional<ElemType>>(s)
      .Case("f16", ElemType::F16)
      .Case("bf16", ElemType::BF16)
      .Case("tf32", ElemType::TF32)
      .Case("f32", ElemType::F32)
      .Case("s8", ElemType::S8)
      .Case("u8", ElemType::U8)
      .Case("s32", ElemType::S32)
      .Case("e4m3", ElemType::E4M3)
      .Case("e5m2", ElemType::E5M2)
      .Default(std::nullopt);
}

/// "wgmma.mma_async.sync.aligned.m64n8k16[.satfinite].f32.f16.f16[.satfinite]"
/// (the ISA puts .satfinite after the shape, MLIR at the end).
llvm::Expected<WgmmaShape> parseOpcode(StringRef opcode) {
  llvm::SmallVector<StringRef, 8> parts;
  opcode.split(parts, '.');
  WgmmaShape shape;
  shape.satfinite = llvm::is_contained(parts, "satfinite");
  llvm::erase(parts, "satfinite");
  StringRef geometry = parts.size() == 8 ? parts[4] : "";
  unsigned m = 0;
  if (parts.size() != 8 || parts[1] != "mma_async" || parts[2] != "sync" ||
      parts[3] != "aligned" || !geometry.consume_front("m") ||
      geometry.consumeInteger(10, m) || m != 64 || !geometry.consume_front("n") ||
      geometry.consumeInteger(10, shape.n) || !geometry.consume_front("k") ||
      geometry.getAsInteger(10, shape.k))
    return unsupported("'" + opcode + "'");
  auto d = parseType(parts[5]), a = parseType(parts[6]), b = parseType(parts[7]);
  if (!d || !a || !b)
    return unsupported("'" + opcode + "' (types)");
  shape.d = *d, shape.a = *a, shape.b = *b;
  if (std::string why = shape.validate(); !why.empty())
    return unsupported("'" + opcode + "': " + why);
  return shape;
}

/// Reads the statements of the asm block into the shape and operands.
class WgmmaAsmParser {
public:
  WgmmaAsmParser(const AsmSignature &sig) : sig_(sig), scalars_(sig) {}

  llvm::Error parse(StringRef text) {
    return parseAsmStatements(text, scalars_, "wgmma.mma_async", unsupported,
                              [&](StringRef statement, StringRef opcode,
                                  llvm::ArrayRef<StringRef> ops) {
                                return parseInstruction(statement, opcode, ops);
                              });
  }

  WgmmaShape shape;
  WgmmaAsmOperands operands;

private:
  llvm::Error parseInstruction(StringRef statement, StringRef opcode,
                               llvm::ArrayRef<StringRef> ops) {
    llvm::Expected<WgmmaShape> parsed = parseOpcode(opcode);
    if (!parsed)
      return parsed.takeError();
    shape = *parsed;
    return parseOperands(statement, ops);
  }

  llvm::Error parseOperands(StringRef statement, llvm::ArrayRef<StringRef> ops) {
    auto bad = [&](const llvm::Twine &what) {
      return unsupported(what + " in '" + statement + "'");
    };
    if (ops.size() < 4)
      return bad("too few operands");
    // d: the accumulator registers, outputs tied to their inputs.
    for (StringRef reg : registerList(ops[0])) {
      std::optional<unsigned> output = sig_.output(reg);
      if (!output || sig_.tiedInput[*output] < 0)
        return bad("accumulator '" + reg + "' (needs an output tied to an input)");
      operands.dOutputs.push_back(*output);
      operands.dInputs.push_back(sig_.tiedInput[*output]);
    }
    if (operands.dOutputs.size() != shape.dRegs())
      return bad(llvm::Twine(shape.dRegs()) + " accumulator registers expected");
    // a: a descriptor or four registers.
    if (ops[1].starts_with("{")) {
      for (StringRef reg : registerList(ops[1])) {
        std::optional<unsigned> arg = sig_.argument(reg, 32);
        if (!arg)
          return bad("A register '" + reg + "'");
        operands.aRegisters.push_back(*arg);
      }
      if (operands.aRegisters.size() != shape.aRegs())
        return bad("4 A registers expected");
    } else if (std::optional<unsigned> arg = sig_.argument(ops[1], 64)) {
      operands.descA = *arg;
    } else {
      return bad("A descriptor '" + ops[1] + "'");
    }
    std::optional<unsigned> descB = sig_.argument(ops[2], 64);
    if (!descB)
      return bad("B descriptor '" + ops[2] + "'");
    operands.descB = *descB;
    std::optional<ScalarSource> scaleD = scalar(ops[3]);
    if (!scaleD)
      return bad("scale-d '" + ops[3] + "'");
    operands.scaleD = *scaleD;
    // Then imm-scale-a, imm-scale-b (not for integers) and imm-trans-a
    // (descriptor A only), imm-trans-b (f16/bf16 only).
    bool integer = shape.d == ElemType::S32;
    bool half = shape.a == ElemType::F16 || shape.a == ElemType::BF16;
    llvm::SmallVector<ScalarSource *, 4> immediates;
    if (!integer)
      immediates = {&operands.scaleA, &operands.scaleB};
    if (half && operands.descA >= 0)
      immediates.push_back(&operands.transA);
    if (half)
      immediates.push_back(&operands.transB);
    if (ops.size() != 4 + immediates.size())
      return bad(llvm::Twine(4 + immediates.size()) + " operands expected");
    for (auto [i, immediate] : llvm::enumerate(immediates)) {
      std::optional<ScalarSource> source = scalar(ops[4 + i]);
      if (!source)
        return bad("immediate '" + ops[4 + i] + "'");
      *immediate = *source;
    }
    return llvm::Error::success();
  }

  std::optional<ScalarSource> scalar(StringRef text) const { return scalars_.scalar(text); }

  const AsmSignature &sig_;
  AsmScalars scalars_;
};

/// wgmma.wait_group with registers tied through it ("=f" outputs, input i
/// tied to output i): how the lowering keeps the accumulator's readers
/// after the wait. wgmma completes at issue here, so they pass unchanged.
void tiedWaitHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  for (size_t i = 0; i < h.retOffsets.size(); ++i)
    std::memcpy(ret + h.retOffsets[i], args + h.argOffsets[i], h.retSizes[i]);
}

/// Whether `constraints` ties n "=f" outputs to inputs 0..n-1, in order,
/// and nothing else.
bool isTiedPassThrough(StringRef constraints, unsigned n) {
  std::string expected;
  for (unsigned i = 0; i < n; ++i)
    expected += i ? ",=f" : "=f";
  for (unsigned i = 0; i < n; ++i)
    expected += "," + std::to_string(i);
  return constraints == expected;
}

} // namespace

llvm::Expected<std::optional<IntrinsicHandler>>
tilepipe::emu::lookupWgmmaAsm(StringRef asmText, StringRef constraints,
                              llvm::FunctionType *type) {
  StringRef text = asmText.trim();
  if (text.consume_front("wgmma.wait_group.sync.aligned")) {
    unsigned n = type->getNumParams(), pending;
    text = text.trim();
    if (!text.consume_back(";") || text.trim().getAsInteger(10, pending) ||
        !isTiedPassThrough(constraints, n))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "wgmma.wait_group inline PTX other than an N-group wait "
                                     "with f32 registers tied through it: \"" + asmText.str() +
                                         "\" (" + constraints.str() + ")");
    IntrinsicHandler h;
    h.fn = tiedWaitHandler;
    h.name = "wgmma.wait_group.tied";
    return h;
  }
  if (!asmText.contains("wgmma.mma_async"))
    return std::nullopt;
  AsmSignature sig = AsmSignature::parse(constraints, type);
  WgmmaAsmParser parser(sig);
  if (llvm::Error e = parser.parse(asmText))
    return std::move(e);
  IntrinsicHandler h;
  h.fn = wgmmaHandler;
  h.name = "llvm.nvvm." + parser.shape.name();
  h.warpgroupOp = std::make_shared<WgmmaAsmOp>(parser.shape, std::move(parser.operands));
  return h;
}
