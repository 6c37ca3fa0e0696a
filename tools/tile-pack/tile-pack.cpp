//===- tile-pack.cpp - PTX -> cubin ---------------------------------------===//
//
// Stage 6 of tilepipe. Assembles PTX into a cubin with the CUDA toolkit's
// ptxas (found next to this tool, under $CUDA_ROOT/$CUDA_HOME/$CUDA_PATH, on
// $PATH or in /usr/local/cuda), then packs it: a plain cubin, a fatbinary
// (the toolkit's fatbinary) or a host relocatable object embedding the image
// (see Packaging.h for its symbols). ptxas's own messages are passed through
// verbatim; a ptxas failure or a missing ptxas exits with 5.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Driver/PackStage.h"
#include "tilepipe/Support/ToolDriver.h"

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
  std::string emit;         // cubin, fatbin, obj; empty: from -o
  bool embedPTX = false;
  std::string hostArch;     // x86_64, aarch64; empty: this machine's
  bool printKernels = false;
  std::string remarksFile;  // YAML remarks; empty: none
};
} // namespace

static PackStageOptions packStageOptions(const PackToolOptions &options) {
  PackStageOptions pack;
  PtxasOptions &ptxas = pack.ptxas;
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
  pack.container = options.emit.empty() ? containerForPath(options.io.output.path)
                   : options.emit == "obj"    ? Container::HostObject
                   : options.emit == "fatbin" ? Container::Fatbin
                                              : Container::Cubin;
  pack.embedPTX = options.embedPTX;
  if (!options.hostArch.empty())
    pack.hostArch =
        options.hostArch == "aarch64" ? HostArch::AArch64 : HostArch::X86_64;
  pack.remarks = !options.remarksFile.empty();
  pack.commandLines = options.verbose ? &llvm::errs() : nullptr;
  return pack;
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
                        "Print the ptxas (and fatbinary) command line on stderr");
  driver.app()
      .add_option("--emit", options.emit,
                  "Container: cubin (default; also for -o *.cubin), fatbin "
                  "(-o *.fatbin) or obj (host relocatable ELF; -o *.o)")
      ->check(CLI::IsMember({"cubin", "fatbin", "obj"}));
  driver.app().add_flag("--embed-ptx", options.embedPTX,
                        "Put the PTX in a fatbinary next to the cubin (fatbin, obj)");
  driver.app()
      .add_option("--host-arch", options.hostArch,
                  "Host object architecture (default: this machine's)")
      ->check(CLI::IsMember({"x86_64", "aarch64"}));
  driver.app().add_option("--remarks-output-file", options.remarksFile,
                          "Write YAML optimization remarks (per kernel: "
                          "launch shape, shared memory, registers and spills "
                          "from ptxas -v, instruction mix) to this file");
  driver.app().add_flag("--print-kernels", options.printKernels,
                        "Print each kernel's launch facts (CTA size, cluster, "
                        "shared memory) on stdout instead of writing output");
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  if (auto exit = driver.validateTarget(options.target))
    return *exit;
  options.io.output.binary = !options.printKernels;
  if (!options.printKernels)
    if (llvm::Error error = checkOutputAllowed(options.io.output))
      return reportError(driver.toolName(), std::move(error), kExitUsage);

  auto input = readInputFile(options.io.input);
  if (!input)
    return reportError(driver.toolName(), input.takeError(), kExitIO);
  PackStageOptions pack = packStageOptions(options);
  llvm::StringRef ptx = (*input)->getBuffer();
  llvm::Expected<AssembledPTX> assembled = assemblePTX(ptx, pack, llvm::errs());
  if (!assembled)
    return reportError(driver.toolName(), assembled.takeError(), kExitCompile);
  if (pack.remarks) {
    OutputOptions remarksOutput;
    remarksOutput.path = options.remarksFile;
    remarksOutput.force = true;
    if (llvm::Error error = writeOutput(remarksOutput, assembled->remarks))
      return reportError(driver.toolName(), std::move(error), kExitIO);
  }
  if (options.printKernels) {
    llvm::outs() << formatKernelNote(describeKernels(ptx, assembled->cubin));
    return kExitSuccess;
  }
  llvm::Expected<std::string> packed =
      packCubin(std::move(assembled->cubin), ptx, pack, llvm::errs());
  if (!packed)
    return reportError(driver.toolName(), packed.takeError(), kExitCompile);
  if (llvm::Error error = writeOutput(options.io.output, *packed))
    return reportError(driver.toolName(), std::move(error), kExitIO);
  return kExitSuccess;
}
