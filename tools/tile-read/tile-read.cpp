//===- tile-read.cpp - TileIR bytecode or cuda_tile text -> verified cuda_tile ===//
//
// Stage 1 of tilepipe. Reads TileIR bytecode (13.1-13.4) or cuda_tile MLIR
// (text or MLIR bytecode), detected by content, verifies it and prints
// cuda_tile text (or MLIR bytecode / TileIR bytecode).
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Support/InputKind.h"
#include "tilepipe/Tools/MlirStage.h"

#include "mlir/IR/Verifier.h"

using namespace tilepipe;

namespace {
struct ReadOptions {
  StageIOOptions io;
  MlirEmitOptions emit;
  std::string emitKind = "cuda_tile";
  std::string bytecodeVersion = "13.4";
};
} // namespace

/// Reads TileIR bytecode into a cuda_tile module.
static mlir::OwningOpRef<mlir::Operation *>
readTileIR(const llvm::MemoryBuffer &buffer, mlir::MLIRContext *context) {
  // BYTECODE-READER: TileIR bytecode reading lands with the bytecode issue.
  mlir::emitError(mlir::UnknownLoc::get(context))
      << "reading TileIR bytecode is not supported yet";
  return nullptr;
}

/// Writes `module` as TileIR bytecode of `version`.
static int writeTileIR(mlir::Operation *module, llvm::StringRef version,
                       const OutputOptions &output) {
  // BYTECODE-WRITER: TileIR bytecode writing lands with the bytecode issue.
  mlir::emitError(module->getLoc())
      << "writing TileIR bytecode " << version << " is not supported yet";
  return kExitCompile;
}

int main(int argc, char **argv) {
  ReadOptions options;
  ToolDriver driver("tile-read",
                    "tile-read: TileIR bytecode or cuda_tile text -> verified "
                    "cuda_tile MLIR");
  driver.addStageIO(options.io);
  addMlirEmitOptions(driver, options.emit);
  driver.app()
      .add_option("--emit", options.emitKind,
                  "Output: cuda_tile (MLIR, default) or tileirbc (TileIR bytecode)")
      ->check(CLI::IsMember({"cuda_tile", "tileirbc"}));
  driver.app()
      .add_option("--bytecode-version", options.bytecodeVersion,
                  "TileIR bytecode version written by --emit=tileirbc")
      ->check(CLI::IsMember({"13.1", "13.2", "13.3", "13.4"}));
  if (auto exit = driver.parse(argc, argv))
    return *exit;

  bool emitTileIR = options.emitKind == "tileirbc";
  options.io.output.binary = emitTileIR || options.emit.emitBytecode;
  if (llvm::Error err = checkOutputAllowed(options.io.output))
    return reportError(driver.toolName(), std::move(err), kExitUsage);

  auto buffer = readInputFile(options.io.input);
  if (!buffer)
    return reportError(driver.toolName(), buffer.takeError(), kExitIO);

  std::unique_ptr<mlir::MLIRContext> context = createStageContext();
  StageDiagnosticHandler diagnostics(context.get());
  InputKind kind = classifyInput((*buffer)->getBuffer());
  if (kind == InputKind::Unknown)
    return reportError(driver.toolName(), notTileIRMessage(kind), kExitNotTileIR);

  mlir::OwningOpRef<mlir::Operation *> module =
      kind == InputKind::TileIRBytecode
          ? readTileIR(**buffer, context.get())
          : parseMlirModule(std::move(*buffer), context.get());
  if (!module)
    return kExitCompile;
  if (mlir::failed(mlir::verify(module.get())))
    return kExitCompile;

  if (emitTileIR)
    return writeTileIR(module.get(), options.bytecodeVersion, options.io.output);
  std::string text = printMlir(module.get(), options.emit);
  if (llvm::Error err = writeOutput(options.io.output, text))
    return reportError(driver.toolName(), std::move(err), kExitIO);
  return kExitSuccess;
}
