//===- tile-opt.cpp - The developers' mlir-opt ----------------------------===//
//
// Every tilepipe dialect and pass plus upstream's, for FileCheck tests and for
// running any pass by hand on an intercepted stage output.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  tilepipe::registerTilepipeDialects(registry);
  mlir::registerAllPasses();
  tilepipe::registerTilepipePasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tile-opt: tilepipe's modular optimizer driver\n", registry));
}
