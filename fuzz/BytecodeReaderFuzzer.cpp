//===- BytecodeReaderFuzzer.cpp - libFuzzer target for the bytecode reader ===//
//
// Feeds arbitrary bytes to readTileIRBytecode (and re-writes what it accepts).
// Any crash, sanitizer report, timeout or out-of-memory is a bug: a reader of
// untrusted TileIR must answer every input with a diagnostic.
// Build and run: scripts/fuzz-bytecode.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Bytecode/BytecodeReader.h"
#include "tilepipe/Bytecode/BytecodeWriter.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.loadDialect<tilepipe::cuda_tile::CudaTileDialect>();
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto module = tilepipe::readTileIRBytecode(
      llvm::MemoryBufferRef(bytes, "fuzz-input"), &context);
  if (mlir::succeeded(module)) {
    std::string encoded;
    llvm::raw_string_ostream os(encoded);
    tilepipe::bytecode::Version version;
    version.minor = 4;
    (void)tilepipe::writeTileIRBytecode(module->get(), version, os);
  }
  return 0;
}
