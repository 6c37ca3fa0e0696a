//===- BytecodeReader.h - TileIR bytecode to the cuda_tile dialect --------===//
//
// Reads TileIR bytecode 13.1-13.4 (as written by cuTile, cuTile.jl, cutile-rs
// and NVIDIA's cuda-tile-translate) into a `cuda_tile.module @kernels`.
// Hostile input yields a diagnostic and a failure class, never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_BYTECODE_BYTECODEREADER_H
#define TILEPIPE_BYTECODE_BYTECODEREADER_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace tilepipe {

/// Why reading failed; `exitCodeFor` maps it to the tools' exit codes.
enum class BytecodeReadStatus {
  Success,
  NotTileIR,          // exit 3
  UnsupportedVersion, // exit 3
  Malformed,          // exit 5 (also: the rebuilt module does not verify)
};

/// True if `buffer` starts with the TileIR bytecode magic.
bool isTileIRBytecode(llvm::StringRef buffer);

/// Reads a whole bytecode file. Diagnostics go to the context's handler as
/// `error at offset N: ...` (unknown location) or, for ops that do not verify,
/// at the op's debug location. The cuda_tile dialect must be loaded or
/// registered in `context`.
mlir::FailureOr<mlir::OwningOpRef<mlir::Operation *>>
readTileIRBytecode(llvm::MemoryBufferRef buffer, mlir::MLIRContext *context,
                   BytecodeReadStatus *status = nullptr);

/// The tools' exit code for a read status (0, 3 or 5).
int exitCodeFor(BytecodeReadStatus status);

} // namespace tilepipe

#endif // TILEPIPE_BYTECODE_BYTECODEREADER_H
