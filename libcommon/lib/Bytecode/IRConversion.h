//===- IRConversion.h - Wire tables to cuda_tile types/attributes/locs ----===//
//
// Internal to the reader: turns the decoded tables of a WireModule into MLIR
// types, attributes and locations, memoized and with cycle and depth checks
// (a type or debug scope that refers to itself is an error, not a hang).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_BYTECODE_IRCONVERSION_H
#define TILEPIPE_LIB_BYTECODE_IRCONVERSION_H

#include "tilepipe/Bytecode/WireFormat.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

namespace tilepipe {
namespace bytecode {

class IRConversion {
public:
  IRConversion(mlir::MLIRContext *context, const WireModule &wire,
               WireDiagnostic &diag);

  mlir::MLIRContext *getContext() const { return context; }

  /// The type at a type-table index (already bounds-checked by the caller or
  /// checked here); `at` is the cursor used for diagnostics.
  mlir::FailureOr<mlir::Type> getType(uint64_t index, const ByteCursor &at);
  /// Converts a decoded self-contained attribute.
  mlir::FailureOr<mlir::Attribute> convertAttr(const WireAttr &attr,
                                               const ByteCursor &at,
                                               unsigned depth = 0);
  /// A dictionary from a decoded Dictionary/OptimizationHints payload.
  mlir::FailureOr<mlir::Attribute> convertDictionary(const WireAttr &attr,
                                                     const ByteCursor &at,
                                                     unsigned depth = 0);
  /// Dense elements from a constant blob, typed like `tileType`.
  mlir::FailureOr<mlir::Attribute> denseConstant(uint64_t constantIndex,
                                                 mlir::Type tileType,
                                                 const ByteCursor &at);
  /// An enum attribute of the named cuda_tile enum, or failure.
  mlir::FailureOr<mlir::Attribute> enumAttr(llvm::StringRef enumKind,
                                            uint64_t value, const ByteCursor &at);
  /// The location of a debug-table index (0 = unknown).
  mlir::FailureOr<mlir::Location> getLocation(uint64_t debugIndex,
                                              const ByteCursor &at);

private:
  mlir::FailureOr<mlir::Type> convertType(const WireType &type,
                                          const ByteCursor &at, unsigned depth);
  mlir::FailureOr<mlir::Type> getTypeAtDepth(uint64_t index, const ByteCursor &at,
                                             unsigned depth);
  mlir::FailureOr<mlir::Attribute> getDebugAttr(uint64_t debugIndex,
                                                const ByteCursor &at,
                                                unsigned depth);
  mlir::FailureOr<mlir::Attribute> convertDebugAttr(const WireDebugAttr &attr,
                                                    const ByteCursor &at,
                                                    unsigned depth);
  mlir::FailureOr<llvm::StringRef> string(uint64_t index, const ByteCursor &at);

  mlir::MLIRContext *context;
  const WireModule &wire;
  WireDiagnostic &diag;
  enum class State : uint8_t { Unvisited, InProgress, Done };
  std::vector<mlir::Type> types;
  std::vector<State> typeState;
  std::vector<mlir::Attribute> debugAttrs;
  std::vector<State> debugState;
};

constexpr unsigned kMaxTypeNesting = 64;
constexpr unsigned kMaxDebugNesting = 64;

} // namespace bytecode
} // namespace tilepipe

#endif // TILEPIPE_LIB_BYTECODE_IRCONVERSION_H
