//===- InProcessCompiler.h - The six stages in one process ----------------===//
//
// The six stage tools (tile-read ... tile-pack) can be run one after the other
// on files, so that any stage can be rerun by hand (tileiras --staged). Most
// compiles want one call instead (tileiras by default, the libtileiras C API,
// tile-emu on TileIR input): this runs the same pass pipelines on one
// in-memory module in one MLIRContext, then the same back end, and gives the
// same bytes, diagnostics and exit codes as the staged flow, without starting
// six processes and printing and re-parsing the module between them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DRIVER_INPROCESSCOMPILER_H
#define TILEPIPE_DRIVER_INPROCESSCOMPILER_H

#include "tilepipe/Support/GpuTarget.h"
#include "tilepipe/Driver/PackStage.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilepipe {

/// Where the in-process compile stops: after a stage (the MLIR ones print
/// their module with locations, as tileiras --emit does), or the cubin packed
/// into a fatbinary or a host object.
enum class CompileOutput {
  CudaTile,  // tile-read: verified cuda_tile MLIR
  Lowered,   // tile-lower
  Scheduled, // tile-sched
  LLVMIR,    // tile-llvm: LLVM IR text
  PTX,       // tile-ptx
  Cubin,     // tile-pack
  Fatbin,
  HostObject,
};

struct InProcessCompileOptions {
  GpuTarget gpu;
  unsigned optLevel = 3;
  bool lineInfo = false;
  bool deviceDebug = false;
  CompileOutput output = CompileOutput::Cubin;
  /// The name diagnostics give the input (locations of MLIR text input).
  std::string inputName = "<input>";
  /// The host object's architecture (CompileOutput::HostObject).
  HostArch hostArch = nativeHostArch();
  /// Also produce the YAML remarks (ptxas statistics, instruction mix) of the
  /// cubin in InProcessCompileResult::remarks.
  bool remarks = false;
  /// Apply MLIR's pass manager and timing flags from the process's command
  /// line (--mlir-print-ir-after-all, --mlir-timing, ...) to each stage, as
  /// the stage tools do. Only for tools that registered them (ToolDriver).
  bool applyMlirCommandLine = false;
  /// Where diagnostics go as they happen (tileiras: stderr); null: into
  /// InProcessCompileResult::log.
  llvm::raw_ostream *diagnostics = nullptr;
};

struct InProcessCompileResult {
  /// The process exit code the staged flow would give (tilepipe::ExitCode).
  int exitCode = 0;
  /// The output bytes (LLVM IR text, PTX text or the cubin) on success.
  std::string output;
  /// Every diagnostic, as the stage tools print them (one per line), unless
  /// InProcessCompileOptions::diagnostics took them.
  std::string log;
  /// The YAML remarks when asked for.
  std::string remarks;
};

/// Compiles TileIR bytecode, cuda_tile text or cuda_tile MLIR bytecode
/// (`input`, detected by content) for `options.gpu`. Messages are those of
/// the stage tools, with the stage tool's name where they name one
/// ("tile-pack: error: ..."), so that both flows print the same.
InProcessCompileResult compileInProcess(llvm::StringRef input,
                                        const InProcessCompileOptions &options);

} // namespace tilepipe

#endif // TILEPIPE_DRIVER_INPROCESSCOMPILER_H
