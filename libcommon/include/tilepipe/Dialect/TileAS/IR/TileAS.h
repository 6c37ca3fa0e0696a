//===- TileAS.h - The assembler-level tile dialect (tile_as) --------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_TILEAS_H
#define TILEPIPE_DIALECT_TILEAS_IR_TILEAS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilepipe/Dialect/TileAS/IR/TileASDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASTypes.h.inc"

#define GET_OP_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASOps.h.inc"

#endif // TILEPIPE_DIALECT_TILEAS_IR_TILEAS_H
