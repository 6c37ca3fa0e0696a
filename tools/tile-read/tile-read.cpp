//===- tile-read.cpp - TileIR bytecode or cuda_tile text -> verified cuda_tile ===//
//
// Stage 1 of tilepipe. Reads TileIR bytecode (13.1-13.4) or cuda_tile MLIR
// (text or MLIR bytecode), detected by content, verifies it and prints
// cuda_tile text (or MLIR bytecode / TileIR bytecode).
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Bytecode/BytecodeReader.h"
#include "tilepipe/Bytecode/BytecodeWriter.h"
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

/// Reads TileIR bytecode into a cuda_tile module; on failure `exitCode` says
/// why (3: not TileIR / unsupported version, 5: malformed or invalid).
static mlir::OwningOpRef<mlir::Operation *>
readTileIR(const llvm::MemoryBuffer &buffer, mlir::MLIRContext *context,
           int &exitCode) {
  BytecodeReadStatus status;
  auto module = readTileIRBytecode(buffer.getMemBufferRef(), context, &status);
  exitCode = exitCodeFor(status);
  if (mlir::failed(module))
    return nullptr;
  return std::move(*module);
}

/// Writes `module` as TileIR bytecode of `version`.
static int writeTileIR(mlir::Operation *module, llvm::StringRef version,
                       const OutputOptions &output) {
  std::optional<bytecode::Version> target = bytecode::parseVersion(version);
  if (!target) {
    mlir::emitError(module->getLoc())
        << "unsupported TileIR bytecode version " << version;
    return kExitConfig;
  }
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (mlir::failed(writeTileIRBytecode(module, *target, os)))
    return kExitCompile;
  if (llvm::Error err = writeOutput(output, bytes))
    return reportError("tile-read", std::move(err), kExitIO);
  return kExitSuccess;
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

  int readExit = kExitCompile;
  mlir::OwningOpRef<mlir::Operation *> module =
      kind == InputKind::TileIRBytecode
          ? readTileIR(**buffer, context.get(), readExit)
          : parseMlirModule(std::move(*buffer), context.get());
  if (!module)
    return readExit;
  if (mlir::failed(mlir::verify(module.get())))
    return kExitCompile;

  if (emitTileIR)
    return writeTileIR(module.get(), options.bytecodeVersion, options.io.output);
  std::string text = printMlir(module.get(), options.emit);
  if (llvm::Error err = writeOutput(options.io.output, text))
    return reportError(driver.toolName(), std::move(err), kExitIO);
  return kExitSuccess;
}
