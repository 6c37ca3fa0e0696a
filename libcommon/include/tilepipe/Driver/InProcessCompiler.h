//===- InProcessCompiler.h - The six stages in one process ----------------===//
//
// tileiras runs the stages as child processes connected by pipes, so that any
// stage can be rerun by hand. Frontends that embed tilepipe (the libtileiras C
// API, tile-emu on TileIR input) want one call instead: this runs the same
// pass pipelines on one in-memory module, then the same back end, and gives
// the same bytes as the staged flow.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DRIVER_INPROCESSCOMPILER_H
#define TILEPIPE_DRIVER_INPROCESSCOMPILER_H

#include "tilepipe/Support/GpuTarget.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilepipe {

/// Where the in-process compile stops.
enum class CompileOutput { LLVMIR, PTX, Cubin };

struct InProcessCompileOptions {
  GpuTarget gpu;
  unsigned optLevel = 3;
  bool lineInfo = false;
  bool deviceDebug = false;
  CompileOutput output = CompileOutput::Cubin;
  /// The name diagnostics give the input (locations of MLIR text input).
  std::string inputName = "<input>";
};

struct InProcessCompileResult {
  /// The process exit code the staged flow would give (tilepipe::ExitCode).
  int exitCode = 0;
  /// The output bytes (LLVM IR text, PTX text or the cubin) on success.
  std::string output;
  /// Every diagnostic, as the stage tools print them (one per line).
  std::string log;
};

/// Compiles TileIR bytecode, cuda_tile text or cuda_tile MLIR bytecode
/// (`input`, detected by content) for `options.gpu`.
InProcessCompileResult compileInProcess(llvm::StringRef input,
                                        const InProcessCompileOptions &options);

} // namespace tilepipe

#endif // TILEPIPE_DRIVER_INPROCESSCOMPILER_H
