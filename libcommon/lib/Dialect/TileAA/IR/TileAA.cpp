//===- TileAA.cpp - The alias-aware tile dialect (tile_aa) ----------------===//
#include "tilepipe/Dialect/TileAA/IR/TileAA.h"
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::tile_aa;

#include "tilepipe/Dialect/TileAA/IR/TileAADialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/TileAA/IR/TileAATypes.cpp.inc"

void TileAADialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilepipe/Dialect/TileAA/IR/TileAATypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilepipe/Dialect/TileAA/IR/TileAAOps.cpp.inc"
      >();
}

LogicalResult BroadcastOp::verify() {
  return verifyBroadcastShapes(*this, getSrc().getType(), getResult().getType());
}

LogicalResult DirectedArithOp::verify() {
  return verifyDirectedArith(*this, getKind(), getRounding(), getFlushToZero(),
                             getType(), getOperands().size());
}

LogicalResult IotaOp::verify() {
  return verifyIotaAxis(*this, getAxis(), getResult().getType());
}

LogicalResult LoadOp::verify() {
  return verifyMemoryAccess(*this, getPtrs().getType(), getResult().getType(),
                            getMask(), getOther(), getContiguity(),
                            getTransposedContiguity(), getViewAlignment());
}

LogicalResult StoreOp::verify() {
  return verifyMemoryAccess(*this, getPtrs().getType(), getValue().getType(),
                            getMask(), Value(), getContiguity());
}

#define GET_OP_CLASSES
#include "tilepipe/Dialect/TileAA/IR/TileAAOps.cpp.inc"
