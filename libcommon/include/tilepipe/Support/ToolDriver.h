//===- ToolDriver.h - Command line shared by every tilepipe tool ----------===//
//
// Options are declared with CLI11. Anything CLI11 does not know that looks
// like an LLVM/MLIR debugging flag (--mlir-print-ir-after-all, --mlir-timing,
// --debug-only=..., -mllvm style codegen knobs) is forwarded to LLVM's own
// option parser, so the standard MLIR debugging surface works in every tool.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_SUPPORT_TOOLDRIVER_H
#define TILEPIPE_SUPPORT_TOOLDRIVER_H

#include "tilepipe/Support/ExitCodes.h"
#include "tilepipe/Support/GpuTarget.h"
#include "tilepipe/Support/ToolIO.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilepipe {

/// The input operand and output options every stage tool has.
struct StageIOOptions {
  std::string input = "-";
  OutputOptions output;
};

/// The code-generation options shared by the compiling stages and tileiras.
struct TargetOptions {
  std::string gpuName = "sm_100";
  int optLevel = 3;
  bool lineInfo = false;
  bool deviceDebug = false;
  /// Filled by ToolDriver::validateTarget().
  GpuTarget target;
};

class ToolDriver {
public:
  ToolDriver(std::string toolName, std::string description);

  CLI::App &app() { return app_; }
  const std::string &toolName() const { return toolName_; }

  /// Adds the positional input (default "-"), -o, -f and --zstd.
  void addStageIO(StageIOOptions &io);

  /// Adds --gpu-name, -O/--opt-level, --lineinfo, -g/--device-debug.
  void addTargetOptions(TargetOptions &options);

  /// Checks the target options after parse(): bad --gpu-name, -O out of range,
  /// --device-debug with -O > 0 report and return kExitConfig.
  std::optional<int> validateTarget(TargetOptions &options);

  /// Parses argv. Returns an exit code when the tool must stop now (--help,
  /// --version, usage errors, unknown LLVM flags); std::nullopt to go on.
  std::optional<int> parse(int argc, char **argv);

private:
  std::string toolName_;
  CLI::App app_;
  bool showVersion_ = false;
};

/// Prints "<tool>: error: <message>" on stderr and returns `code`.
int reportError(llvm::StringRef toolName, llvm::StringRef message, int code);
/// Same for an llvm::Error (consumed).
int reportError(llvm::StringRef toolName, llvm::Error error, int code);

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_TOOLDRIVER_H
