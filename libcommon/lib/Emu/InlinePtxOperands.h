//===- InlinePtxOperands.h - Operands of inline PTX run by the emulator ----===//
//
// The inline PTX the emulator runs as one operation (wgmma.mma_async in
// WgmmaAsm.cpp, the tcgen05 family in Tcgen05Asm.cpp) names its operands
// $0.. in the asm text: outputs first (results of the call, maybe tied to an
// input), then the call's arguments. These helpers map that text to call
// argument and result positions, literals, and predicates that a
// "setp.ne.b32 p, $i, 0" in the same block sets from an operand.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_INLINEPTXOPERANDS_H
#define TILEPIPE_LIB_EMU_INLINEPTXOPERANDS_H

#include "Intrinsics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace llvm {
class FunctionType;
}

namespace tilepipe::emu {

/// Where a scalar operand comes from: a call argument or a literal.
struct ScalarSource {
  int arg = -1; // call argument index, or -1 for `literal`
  int64_t literal = 0;
  unsigned bits = 32;

  int64_t read(const IntrinsicHandler &h, const uint8_t *args) const {
    if (arg < 0)
      return literal;
    switch (bits) {
    case 1: return h.arg<uint8_t>(args, arg) & 1;
    case 8: return h.arg<int8_t>(args, arg);
    case 16: return h.arg<int16_t>(args, arg);
    case 64: return h.arg<int64_t>(args, arg);
    default: return h.arg<int32_t>(args, arg);
    }
  }
};

/// Splits "a, {b, c}, d" at top-level commas.
llvm::SmallVector<llvm::StringRef, 8> splitOperands(llvm::StringRef text);
/// "{a, b}" -> a, b (empty when `text` is no braced list).
llvm::SmallVector<llvm::StringRef, 8> registerList(llvm::StringRef text);

/// The call's view of the asm operands: $i < outputs are results, the
/// others call arguments; outputs may be tied to an input ("0", "1", ...).
struct AsmSignature {
  unsigned outputs = 0;
  llvm::SmallVector<int, 16> tiedInput; // per output: the tied argument, or -1
  llvm::FunctionType *type = nullptr;

  static AsmSignature parse(llvm::StringRef constraints, llvm::FunctionType *type);
  /// "$7" -> the call argument it names (of `bits` bits when given).
  std::optional<unsigned> argument(llvm::StringRef text, unsigned bits = 0) const;
  /// "$2" -> the (32-bit) result it names.
  std::optional<unsigned> output(llvm::StringRef text) const;
};

/// Scalar operands of an asm block: literals, integer or pointer arguments,
/// and the predicates its ".reg .pred p; setp.ne.b32 p, $i, 0;" statements
/// define.
class AsmScalars {
public:
  explicit AsmScalars(const AsmSignature &sig) : sig_(sig) {}

  /// Takes a ".reg .pred" or "setp.ne" statement: std::nullopt when it is
  /// neither, an error when it is one that cannot be followed.
  std::optional<llvm::Error> parsePredicateStatement(llvm::StringRef opcode,
                                                     llvm::StringRef rest);
  /// A literal, an input operand or a predicate set from one.
  std::optional<ScalarSource> scalar(llvm::StringRef text) const;

private:
  const AsmSignature &sig_;
  llvm::StringMap<std::optional<ScalarSource>> predicates_;
};

/// Walks the ';'-separated statements of an inline asm body: predicate
/// set-up goes to `scalars`, and the one other statement, whose opcode must
/// be `instruction` followed by '.', goes to `parseInstruction` (statement,
/// opcode, operands). Its own errors come from `unsupported`.
llvm::Error parseAsmStatements(
    llvm::StringRef text, AsmScalars &scalars, llvm::StringRef instruction,
    llvm::function_ref<llvm::Error(const llvm::Twine &)> unsupported,
    llvm::function_ref<llvm::Error(llvm::StringRef, llvm::StringRef,
                                   llvm::ArrayRef<llvm::StringRef>)>
        parseInstruction);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_INLINEPTXOPERANDS_H
