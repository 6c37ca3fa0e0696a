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
#include "tilepipe/Support/ToolDriver.h"
#include "tilepipe/Target/Packaging.h"
#include "tilepipe/Target/Ptxas.h"
#include "tilepipe/Target/Remarks.h"

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

/// Whether the user asked ptxas for -v themselves.
static bool userAskedVerbosePtxas(const PtxasOptions &ptxas) {
  return llvm::is_contained(ptxas.extraArgs, "-v") ||
         llvm::is_contained(ptxas.extraArgs, "--verbose");
}

/// ptxas's messages minus the `-v` statistics we asked for on our own.
static void printPtxasLog(llvm::StringRef log, bool keepStatistics) {
  if (keepStatistics) {
    llvm::errs() << log;
    return;
  }
  llvm::StringRef rest = log;
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    if (line.starts_with("ptxas info") || line.starts_with("    "))
      continue;
    llvm::errs() << line << "\n";
  }
}

/// The container `-o` asks for when --emit is not given.
static std::string containerFor(llvm::StringRef outputPath) {
  if (outputPath.ends_with(".o") || outputPath.ends_with(".obj"))
    return "obj";
  if (outputPath.ends_with(".fatbin"))
    return "fatbin";
  return "cubin";
}

static HostArch defaultHostArch() {
#if defined(__aarch64__)
  return HostArch::AArch64;
#else
  return HostArch::X86_64;
#endif
}

/// Packs the cubin into the requested container.
static llvm::Expected<std::string> pack(const PackToolOptions &options,
                                        llvm::StringRef ptx, std::string cubin) {
  if (options.emit == "cubin")
    return cubin;
  std::string image = std::move(cubin);
  if (options.emit == "fatbin" || options.embedPTX) {
    FatbinaryOptions fatbin;
    fatbin.gpu = options.target.target;
    fatbin.embedPTX = options.embedPTX;
    fatbin.deviceDebug = options.target.deviceDebug;
    llvm::Expected<std::string> packed =
        createFatbinary(image, ptx, fatbin, llvm::errs(),
                        options.verbose ? &llvm::errs() : nullptr);
    if (!packed)
      return packed.takeError();
    if (options.emit == "fatbin")
      return packed;
    image = std::move(*packed);
  }
  HostObjectContents contents;
  contents.image = image;
  contents.kernelNote = formatKernelNote(describeKernels(ptx, image));
  // Like the original, --lineinfo keeps the PTX source next to the image.
  if (options.target.lineInfo || options.target.deviceDebug)
    contents.ptx = ptx;
  HostArch arch = options.hostArch.empty() ? defaultHostArch()
                  : options.hostArch == "aarch64" ? HostArch::AArch64
                                                  : HostArch::X86_64;
  return writeHostObject(contents, arch);
}
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
  if (options.emit.empty())
    options.emit = containerFor(options.io.output.path);
  options.io.output.binary = !options.printKernels;
  if (!options.printKernels)
    if (llvm::Error error = checkOutputAllowed(options.io.output))
      return reportError(driver.toolName(), std::move(error), kExitUsage);

  auto input = readInputFile(options.io.input);
  if (!input)
    return reportError(driver.toolName(), input.takeError(), kExitIO);
  PtxasOptions ptxas = ptxasOptions(options);
  bool wantsStatistics = !options.remarksFile.empty();
  bool keepStatistics = userAskedVerbosePtxas(ptxas);
  if (wantsStatistics && !keepStatistics)
    ptxas.extraArgs.push_back("-v");
  std::string ptxasLog;
  llvm::raw_string_ostream ptxasLogStream(ptxasLog);
  llvm::Expected<std::string> cubin =
      assembleWithPtxas((*input)->getBuffer(), ptxas, ptxasLogStream,
                        options.verbose ? &llvm::errs() : nullptr);
  printPtxasLog(ptxasLog, keepStatistics || !wantsStatistics);
  if (!cubin)
    return reportError(driver.toolName(), cubin.takeError(), kExitCompile);
  if (wantsStatistics) {
    llvm::StringRef ptx = (*input)->getBuffer();
    llvm::Expected<std::string> remarks = formatRemarksYaml(
        ptx, describeKernels(ptx, *cubin), parsePtxasVerbose(ptxasLog),
        options.target.target.name());
    if (!remarks)
      return reportError(driver.toolName(), remarks.takeError(), kExitCompile);
    OutputOptions remarksOutput;
    remarksOutput.path = options.remarksFile;
    remarksOutput.force = true;
    if (llvm::Error error = writeOutput(remarksOutput, *remarks))
      return reportError(driver.toolName(), std::move(error), kExitIO);
  }
  if (options.printKernels) {
    llvm::outs() << formatKernelNote(describeKernels((*input)->getBuffer(), *cubin));
    return kExitSuccess;
  }
  llvm::Expected<std::string> packed =
      pack(options, (*input)->getBuffer(), std::move(*cubin));
  if (!packed)
    return reportError(driver.toolName(), packed.takeError(), kExitCompile);
  if (llvm::Error error = writeOutput(options.io.output, *packed))
    return reportError(driver.toolName(), std::move(error), kExitIO);
  return kExitSuccess;
}
