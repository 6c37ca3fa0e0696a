//===- BytecodeWriter.h - cuda_tile module to TileIR bytecode -------------===//
//
// Writes a `cuda_tile.module` as TileIR bytecode of a chosen version
// (13.1-13.4). Ops, types, enum values and fields the version lacks are
// refused with an error on the offending op, never silently dropped (except
// what NVIDIA's writer also drops: the module name, discardable attributes,
// and the `producer` below 13.3). Debug locations are not written yet: every
// op reads back with an unknown location.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_BYTECODE_BYTECODEWRITER_H
#define TILEPIPE_BYTECODE_BYTECODEWRITER_H

#include "tilepipe/Bytecode/WireFormat.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

namespace tilepipe {

/// Encodes `module` (a cuda_tile.module) at `version`. On failure an error is
/// emitted on the op that cannot be encoded and nothing is written to `os`.
mlir::LogicalResult writeTileIRBytecode(mlir::Operation *module,
                                        bytecode::Version version,
                                        llvm::raw_ostream &os);

} // namespace tilepipe

#endif // TILEPIPE_BYTECODE_BYTECODEWRITER_H
