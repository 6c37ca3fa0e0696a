//===- Passes.h - tilepipe's dialect conversions --------------------------===//
#ifndef TILEPIPE_CONVERSION_PASSES_H
#define TILEPIPE_CONVERSION_PASSES_H

#include "tilepipe/Dialect/TileAA/IR/TileAA.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilepipe {

#define GEN_PASS_DECL
#include "tilepipe/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilepipe/Conversion/Passes.h.inc"

} // namespace tilepipe

#endif // TILEPIPE_CONVERSION_PASSES_H
