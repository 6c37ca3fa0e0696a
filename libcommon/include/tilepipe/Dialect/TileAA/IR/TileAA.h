//===- TileAA.h - The alias-aware tile dialect (tile_aa) ------------------===//
#ifndef TILEPIPE_DIALECT_TILEAA_IR_TILEAA_H
#define TILEPIPE_DIALECT_TILEAA_IR_TILEAA_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilepipe/Dialect/TileAA/IR/TileAADialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/TileAA/IR/TileAATypes.h.inc"

#define GET_OP_CLASSES
#include "tilepipe/Dialect/TileAA/IR/TileAAOps.h.inc"

#endif // TILEPIPE_DIALECT_TILEAA_IR_TILEAA_H
