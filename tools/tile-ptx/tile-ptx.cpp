//===- tile-ptx.cpp - LLVM IR -> PTX --------------------------------------===//
//
// Stage 5 of tilepipe. Reads NVVM LLVM IR (text or bitcode, optionally zstd),
// links the libdevice functions it calls, optimizes it for the -O level and
// prints PTX for --gpu-name with LLVM's NVPTX back end.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Support/ToolDriver.h"
#include "tilepipe/Target/NVPTXCodegen.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilepipe;

namespace {
struct PtxToolOptions {
  StageIOOptions io;
  TargetOptions target;
  bool ftz = false;
  CLI::Option *ftzFlag = nullptr; // was --ftz given at all?
  std::optional<bool> precSqrt;
  bool fmad = true;
  bool verbose = false;
};
} // namespace

static void addCodegenOptions(ToolDriver &driver, PtxToolOptions &options) {
  CLI::App &app = driver.app();
  options.ftzFlag =
      app.add_flag("--ftz", options.ftz,
                   "Flush f32 denormals to zero; --ftz=false keeps them "
                   "(default: the module's nvvm-reflect-ftz flag, else off)");
  app.add_option("--prec-sqrt", options.precSqrt,
                 "IEEE-rounded f32 square root in libdevice: true|false "
                 "(default: the module's nvvm-reflect-prec-sqrt flag, else true)");
  app.add_option("--fmad", options.fmad,
                 "Contract multiply-add into fma: true|false (default true)");
  app.add_flag("-v,--verbose", options.verbose,
               "Say when the module needs the arch-specific sm_XXa target, and why");
}

static PTXCodegenOptions codegenOptions(const PtxToolOptions &options) {
  PTXCodegenOptions codegen;
  codegen.gpu = options.target.target;
  codegen.optLevel = unsigned(options.target.optLevel);
  codegen.debugInfo = options.target.deviceDebug ? DebugInfoLevel::Full
                      : options.target.lineInfo  ? DebugInfoLevel::LineTables
                                                 : DebugInfoLevel::None;
  if (options.ftzFlag->count())
    codegen.ftz = options.ftz;
  codegen.precSqrt = options.precSqrt;
  codegen.fmad = options.fmad;
  return codegen;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  PtxToolOptions options;
  ToolDriver driver(
      "tile-ptx",
      "tile-ptx: LLVM IR (NVVM; text, bitcode or zstd) -> PTX\n\n"
      "Links the libdevice functions the module calls (the toolkit's "
      "nvvm/libdevice/libdevice.10.bc), runs NVVMReflect and LLVM's -O "
      "pipeline, and prints PTX ISA 9.0 for --gpu-name "
      "(sm_XXa when the module needs arch-specific features). Malformed or "
      "invalid IR and code generator errors exit with 5.");
  driver.addStageIO(options.io);
  driver.addTargetOptions(options.target);
  addCodegenOptions(driver, options);
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  if (auto exit = driver.validateTarget(options.target))
    return *exit;
  if (llvm::Error error = checkOutputAllowed(options.io.output))
    return reportError(driver.toolName(), std::move(error), kExitUsage);
  exitOnLLVMFatalErrors("tile-ptx");

  auto input = readInputFile(options.io.input);
  if (!input)
    return reportError(driver.toolName(), input.takeError(), kExitIO);
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseIR((*input)->getMemBufferRef(), diagnostic, context);
  if (!module) {
    diagnostic.print(driver.toolName().c_str(), llvm::errs());
    return kExitCompile;
  }

  PTXCodegenOptions codegen = codegenOptions(options);
  llvm::StringRef feature = findArchSpecificFeature(*module, codegen.gpu);
  if (options.verbose && !feature.empty())
    llvm::errs() << driver.toolName() << ": .target " << selectPTXProcessor(*module, codegen.gpu)
                 << ": the module uses " << feature.drop_back()
                 << ", which only the arch-specific target has\n";
  llvm::Expected<std::string> ptx = compileLLVMToPTX(*module, codegen);
  if (!ptx)
    return reportError(driver.toolName(), ptx.takeError(), kExitCompile);
  if (llvm::Error error = writeOutput(options.io.output, *ptx))
    return reportError(driver.toolName(), std::move(error), kExitIO);
  return kExitSuccess;
}
