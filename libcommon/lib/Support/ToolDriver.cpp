//===- ToolDriver.cpp - Command line shared by every tilepipe tool --------===//
#include "tilepipe/Support/ToolDriver.h"

#include "tilepipe/Support/Version.h"

#include "mlir/Debug/CLOptionsSetup.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"

using namespace tilepipe;

ToolDriver::ToolDriver(std::string toolName, std::string description)
    : toolName_(std::move(toolName)), app_(std::move(description), toolName_) {
  app_.set_help_flag("-h,--help", "Print this help and exit");
  app_.add_flag("--version", showVersion_, "Print the version banner and exit");
  // Flags CLI11 does not know are handed to LLVM's parser (see parse()).
  app_.allow_extras();
  app_.footer(std::string("LLVM/MLIR debugging flags (--mlir-print-ir-after-all, "
                          "--mlir-timing, --debug-only=..., ...) are accepted too.\n\n") +
              exitCodeHelpText());
}

void ToolDriver::addStageIO(StageIOOptions &io) {
  app_.add_option("input", io.input, "Input file ('-' or none: stdin)");
  app_.add_option("-o,--output", io.output.path,
                  "Output file ('-': stdout, the default); a .zst name compresses");
  app_.add_flag("-f,--force", io.output.force,
                "Write binary output even to a terminal");
  app_.add_flag("--zstd", io.output.zstd, "Compress the output with zstd");
}

void ToolDriver::addTargetOptions(TargetOptions &options) {
  app_.add_option("--gpu-name", options.gpuName,
                  "Target GPU: sm_80, 86, 87, 89, 90, 100, 103, 110, 120, 121, "
                  "optionally with an a/f suffix (default sm_100)");
  app_.add_option("-O,--opt-level", options.optLevel,
                  "Optimization level 0-3 (default 3)");
  app_.add_flag("--lineinfo", options.lineInfo,
                "Generate line-number information");
  app_.add_flag("-g,--device-debug", options.deviceDebug,
                "Generate full debug information (requires -O0)");
}

std::optional<int> ToolDriver::validateTarget(TargetOptions &options) {
  auto target = parseGpuTarget(options.gpuName);
  if (!target)
    return reportError(toolName_, target.takeError(), kExitConfig);
  options.target = *target;
  if (llvm::Error err = checkOptLevel(options.optLevel))
    return reportError(toolName_, std::move(err), kExitConfig);
  if (options.deviceDebug && options.optLevel != 0)
    return reportError(toolName_,
                       "optimized debugging is not supported, change "
                       "optimization level to 0 or disable full debug info",
                       kExitConfig);
  return std::nullopt;
}

/// Registers the MLIR options that only exist once asked for, so that the
/// forwarded flags can find them.
static void registerForwardedLLVMOptions() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::tracing::DebugConfig::registerCLOptions();
}

std::optional<int> ToolDriver::parse(int argc, char **argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    llvm::outs() << app_.help();
    return kExitSuccess;
  } catch (const CLI::ParseError &e) {
    llvm::WithColor::error(llvm::errs(), toolName_) << e.what() << "\n";
    llvm::errs() << "Run with --help for more information.\n";
    return kExitUsage;
  }
  if (showVersion_) {
    printVersionBanner(llvm::outs(), toolName_);
    return kExitSuccess;
  }

  // Forward the rest to LLVM's parser; it knows every --mlir-* and LLVM flag.
  registerForwardedLLVMOptions();
  std::vector<std::string> extras = app_.remaining();
  std::vector<const char *> llvmArgv{argv[0]};
  for (const std::string &arg : extras)
    llvmArgv.push_back(arg.c_str());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!llvm::cl::ParseCommandLineOptions(int(llvmArgv.size()), llvmArgv.data(),
                                         toolName_, &errorStream)) {
    llvm::errs() << errors;
    llvm::errs() << "Run with --help for more information.\n";
    return kExitUsage;
  }
  return std::nullopt;
}

int tilepipe::reportError(llvm::StringRef toolName, llvm::StringRef message,
                          int code) {
  llvm::WithColor::error(llvm::errs(), toolName) << message << "\n";
  return code;
}

int tilepipe::reportError(llvm::StringRef toolName, llvm::Error error,
                          int code) {
  return reportError(toolName, llvm::toString(std::move(error)), code);
}
