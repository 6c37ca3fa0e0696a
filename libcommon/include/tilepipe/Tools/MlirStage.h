//===- MlirStage.h - Shared driver of the MLIR-to-MLIR stage tools --------===//
//
// tile-read, tile-lower, tile-sched and tile-llvm all read one module (MLIR
// text or MLIR bytecode, auto-detected), run a pass pipeline and write the
// result. This is that loop, once.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TOOLS_MLIRSTAGE_H
#define TILEPIPE_TOOLS_MLIRSTAGE_H

#include "tilepipe/Support/ToolDriver.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

#include <functional>
#include <memory>
#include <string>

namespace tilepipe {

/// Prints diagnostics as `loc("file":L:C): error: message` (the form cuTile's
/// stderr parser understands; `error: message` for unknown locations), with
/// attached notes, on `os` (stderr by default). Remarks, the passes' account
/// of what they chose (such as tilepipe-select-wgmma-target's), only with
/// `printRemarks` (the stage tools' -v).
class StageDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  explicit StageDiagnosticHandler(mlir::MLIRContext *context,
                                  llvm::raw_ostream &os = llvm::errs(),
                                  bool printRemarks = false);
};

/// Makes a context with every tilepipe dialect loaded lazily, threading off
/// (the stages are small and run in pipelines of processes).
std::unique_ptr<mlir::MLIRContext> createStageContext();

/// Parses a whole MLIR module (text or MLIR bytecode) from `buffer`.
/// Returns null after reporting diagnostics.
mlir::OwningOpRef<mlir::Operation *>
parseMlirModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                mlir::MLIRContext *context);

/// Options of the output side of an MLIR stage.
struct MlirEmitOptions {
  /// Write MLIR bytecode instead of text (fast pipes between stages).
  bool emitBytecode = false;
  /// Print in generic op form.
  bool generic = false;
};

/// Adds --emit-bytecode and --mlir-generic to `driver`.
void addMlirEmitOptions(ToolDriver &driver, MlirEmitOptions &options);

/// Serializes `op` as text or MLIR bytecode.
std::string printMlir(mlir::Operation *op, const MlirEmitOptions &options);

/// Writes the final module of a stage; returns the process exit code.
using StageEmitter = std::function<int(mlir::Operation *)>;

/// The default emitter: MLIR text or bytecode to `output`.
StageEmitter emitMlirTo(ToolDriver &driver, const OutputOptions &output,
                        const MlirEmitOptions &options);

/// The common body of an MLIR stage tool: read `io.input`, verify, let
/// `buildPipeline` fill the pass manager (may be null: verify only), run it,
/// hand the result to `emit`. `io.output.binary` must be set by the caller.
/// With `wrapInBuiltinModule`, a root other than builtin.module (a
/// cuda_tile.module) is first nested in one, so that passes can replace it.
/// `printRemarks` prints the passes' remarks too. Returns the process exit
/// code.
int runMlirStage(ToolDriver &driver, StageIOOptions &io,
                 const std::function<mlir::LogicalResult(mlir::PassManager &)>
                     &buildPipeline,
                 const StageEmitter &emit, bool wrapInBuiltinModule = false,
                 bool printRemarks = false);

/// Translates a module lowered to the LLVM/NVVM dialects into LLVM IR
/// (locations of dialects other than builtin, which MLIR's debug-info
/// translation does not know, become unknown first). Null after diagnostics.
std::unique_ptr<llvm::Module>
translateTileModuleToLLVMIR(mlir::Operation *module, llvm::LLVMContext &context);

} // namespace tilepipe

#endif // TILEPIPE_TOOLS_MLIRSTAGE_H
