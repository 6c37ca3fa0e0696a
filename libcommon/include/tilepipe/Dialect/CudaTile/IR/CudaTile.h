//===- CudaTile.h - The cuda_tile dialect ---------------------------------===//
//
// NVIDIA's public CUDA Tile IR as an MLIR dialect: types, attributes and the
// ops of both ODS files (CudaTileOps.td, CudaTileArithOps.td).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_CUDATILE_IR_CUDATILE_H
#define TILEPIPE_DIALECT_CUDATILE_IR_CUDATILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilepipe/Dialect/CudaTile/IR/CudaTileDialect.h.inc"
#include "tilepipe/Dialect/CudaTile/IR/CudaTileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileTypes.h.inc"

namespace tilepipe::cuda_tile {

/// True for the element types a cuda_tile number may have (i1/i4/i8/i16/i32/
/// i64 and the supported floats).
bool isNumberType(mlir::Type type);

/// Reads a type where cuda_tile types may appear without the `!cuda_tile.`
/// prefix (`tile<...>`, `ptr<...>`, `token`, views); other types as usual.
mlir::ParseResult parseCudaTileType(mlir::AsmParser &parser, mlir::Type &type);
/// Prints a type, cuda_tile types without the `!cuda_tile.` prefix.
void printCudaTileType(mlir::AsmPrinter &printer, mlir::Type type);

// Custom directive `custom<CudaTileType>(type($x))` for op assembly formats:
// single, optional and variadic operands/results, comma separated.
mlir::ParseResult parseCudaTileType(mlir::OpAsmParser &parser, mlir::Type &type);
mlir::ParseResult parseCudaTileType(mlir::OpAsmParser &parser,
                                    llvm::SmallVectorImpl<mlir::Type> &types);
void printCudaTileType(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                       mlir::Type type);
void printCudaTileType(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                       mlir::TypeRange types);

/// Checks an op's `optimization_hints` (if any) against the op; see
/// OptimizationHintsAttr::verifyWithOp.
mlir::LogicalResult verifyOptimizationHints(mlir::Operation *op);

/// Copies -Wunsupported-hints / -Werr-hints into the dialect.
void applyHintDiagnosticFlags(CudaTileDialect *dialect);

} // namespace tilepipe::cuda_tile

#define GET_OP_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileOps.h.inc"

#define GET_OP_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithOps.h.inc"

#endif // TILEPIPE_DIALECT_CUDATILE_IR_CUDATILE_H
