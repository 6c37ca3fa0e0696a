//===- InputKind.h - Telling TileIR bytecode, MLIR bytecode and text apart -===//
#ifndef TILEPIPE_SUPPORT_INPUTKIND_H
#define TILEPIPE_SUPPORT_INPUTKIND_H

#include "llvm/ADT/StringRef.h"

namespace tilepipe {

enum class InputKind {
  /// Starts with "\x7FTileIR\0".
  TileIRBytecode,
  /// Starts with MLIR's bytecode magic "ML\xEFR".
  MLIRBytecode,
  /// Looks like MLIR text: no NUL bytes, and the first token after
  /// whitespace and comments opens an operation, attribute or type alias.
  MLIRText,
  /// Anything else.
  Unknown,
};

InputKind classifyInput(llvm::StringRef data);

/// The original's diagnostic for input that is not TileIR bytecode, with its
/// hint when the bytes are MLIR bytecode.
const char *notTileIRMessage(InputKind kind);

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_INPUTKIND_H
