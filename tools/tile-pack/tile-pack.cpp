//===- tile-pack.cpp - PTX -> cubin ---------------------------------------===//
//
// Stage 6 of tilepipe. Assembles PTX into a cubin with the CUDA toolkit's
// ptxas (found next to this tool, under $CUDA_ROOT/$CUDA_HOME/$CUDA_PATH, on
// $PATH or in /usr/local/cuda). ptxas's own messages are passed through
// verbatim; a ptxas failure or a missing ptxas exits with 5.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Support/ToolDriver.h"
#include "tilepipe/Target/Ptxas.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"

using namespace tilepipe;

namespace {
struct PackToolOptions {
  StageIOOptions io;
  TargetOptions target;
  std::vector<std::string> ptxasOptions;
  bool verbose = false;
};
} // namespace

static PtxasOptions ptxasOptions(const PackToolOptions &options) {
  PtxasOptions ptxas;
  ptxas.gpu = options.target.target;
  ptxas.optLevel = unsigned(options.target.optLevel);
  ptxas.lineInfo = options.target.lineInfo;
  ptxas.deviceDebug = options.target.deviceDebug;
  // Each --ptxas-options value is a blank-separated list of ptxas arguments.
  for (const std::string &list : options.ptxasOptions) {
    llvm::SmallVector<llvm::StringRef> words;
    llvm::SplitString(list, words);
    for (llvm::StringRef word : words)
      ptxas.extraArgs.push_back(word.str());
  }
  return ptxas;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  PackToolOptions options;
  ToolDriver driver(
      "tile-pack",
      "tile-pack: PTX -> cubin (runs the CUDA toolkit's ptxas)\n\n"
      "ptxas is looked for next to tile-pack, in bin/ of $CUDA_ROOT, $CUDA_HOME "
      "or $CUDA_PATH, on $PATH, then in /usr/local/cuda/bin. ptxas's messages "
      "are passed through verbatim; a missing ptxas, a ptxas failure or a "
      "ptxas killed by a signal exits with 5 and writes no output.");
  driver.addStageIO(options.io);
  driver.addTargetOptions(options.target);
  // One value per occurrence, so that a following input operand is not
  // taken for more ptxas options.
  driver.app()
      .add_option("--ptxas-options", options.ptxasOptions,
                  "Extra ptxas arguments, blank-separated (repeatable; "
                  "spell it --ptxas-options=\"-v ...\")")
      ->allow_extra_args(false);
  driver.app().add_flag("-v,--verbose", options.verbose,
                        "Print the ptxas command line on stderr");
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  if (auto exit = driver.validateTarget(options.target))
    return *exit;
  options.io.output.binary = true;
  if (llvm::Error error = checkOutputAllowed(options.io.output))
    return reportError(driver.toolName(), std::move(error), kExitUsage);

  auto input = readInputFile(options.io.input);
  if (!input)
    return reportError(driver.toolName(), input.takeError(), kExitIO);
  llvm::Expected<std::string> cubin =
      assembleWithPtxas((*input)->getBuffer(), ptxasOptions(options),
                        llvm::errs(), options.verbose ? &llvm::errs() : nullptr);
  if (!cubin)
    return reportError(driver.toolName(), cubin.takeError(), kExitCompile);
  if (llvm::Error error = writeOutput(options.io.output, *cubin))
    return reportError(driver.toolName(), std::move(error), kExitIO);
  return kExitSuccess;
}
