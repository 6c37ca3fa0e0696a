//===- InputKind.cpp ------------------------------------------------------===//
#include "tilepipe/Support/InputKind.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilepipe;

static llvm::StringRef skipSpaceAndComments(llvm::StringRef text) {
  for (;;) {
    text = text.ltrim();
    if (!text.starts_with("//"))
      return text;
    size_t eol = text.find('\n');
    text = eol == llvm::StringRef::npos ? llvm::StringRef() : text.drop_front(eol);
  }
}

InputKind tilepipe::classifyInput(llvm::StringRef data) {
  if (data.starts_with(llvm::StringRef("\x7FTileIR\0", 8)))
    return InputKind::TileIRBytecode;
  if (data.starts_with("ML\xEFR"))
    return InputKind::MLIRBytecode;
  if (data.contains('\0'))
    return InputKind::Unknown;
  llvm::StringRef text = skipSpaceAndComments(data);
  // An empty file is an empty MLIR module.
  if (text.empty())
    return InputKind::MLIRText;
  // Generic ops start with a quote; results with %; aliases with # or !;
  // file metadata with {-#; custom ops with a dialect-qualified keyword.
  char first = text.front();
  if (first == '"' || first == '%' || first == '#' || first == '!' ||
      text.starts_with("{-#"))
    return InputKind::MLIRText;
  llvm::StringRef word = text.take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; });
  if (word == "module" || word.contains('.'))
    return InputKind::MLIRText;
  return InputKind::Unknown;
}

const char *tilepipe::notTileIRMessage(InputKind kind) {
  return kind == InputKind::MLIRBytecode
             ? "input does not correspond to Tile IR bytecode (it looks like "
               "MLIR bytecode instead)"
             : "input does not correspond to Tile IR bytecode";
}
