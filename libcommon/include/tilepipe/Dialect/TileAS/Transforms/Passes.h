//===- Passes.h - Passes over the tile_as level ---------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_TRANSFORMS_PASSES_H
#define TILEPIPE_DIALECT_TILEAS_TRANSFORMS_PASSES_H

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilepipe::tile_as {

#define GEN_PASS_DECL
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_TRANSFORMS_PASSES_H
