//===- PackStage.cpp - Stage 6: PTX -> cubin, fatbin or host object -------===//
#include "tilepipe/Driver/PackStage.h"

#include "tilepipe/Target/Remarks.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilepipe;

Container tilepipe::containerForPath(llvm::StringRef outputPath) {
  if (outputPath.ends_with(".o") || outputPath.ends_with(".obj"))
    return Container::HostObject;
  if (outputPath.ends_with(".fatbin"))
    return Container::Fatbin;
  return Container::Cubin;
}

HostArch tilepipe::nativeHostArch() {
#if defined(__aarch64__)
  return HostArch::AArch64;
#else
  return HostArch::X86_64;
#endif
}

/// Whether the user asked ptxas for -v themselves.
static bool userAskedVerbosePtxas(const PtxasOptions &ptxas) {
  return llvm::is_contained(ptxas.extraArgs, "-v") ||
         llvm::is_contained(ptxas.extraArgs, "--verbose");
}

/// Copies ptxas's messages to `os`, minus the `-v` statistics (the "ptxas
/// info" lines and their indented continuations) when we asked for them on
/// our own.
static void forwardPtxasLog(llvm::StringRef log, bool keepStatistics,
                            llvm::raw_ostream &os) {
  if (keepStatistics) {
    os << log;
    return;
  }
  llvm::StringRef rest = log;
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    if (line.starts_with("ptxas info") || line.starts_with("    "))
      continue;
    os << line << "\n";
  }
}

llvm::Expected<AssembledPTX>
tilepipe::assemblePTX(llvm::StringRef ptx, const PackStageOptions &options,
                      llvm::raw_ostream &log) {
  PtxasOptions ptxas = options.ptxas;
  bool keepStatistics = userAskedVerbosePtxas(ptxas);
  if (options.remarks && !keepStatistics)
    ptxas.extraArgs.push_back("-v");
  std::string ptxasLog;
  llvm::raw_string_ostream ptxasLogStream(ptxasLog);
  llvm::Expected<std::string> cubin =
      assembleWithPtxas(ptx, ptxas, ptxasLogStream, options.commandLines);
  forwardPtxasLog(ptxasLog, keepStatistics || !options.remarks, log);
  if (!cubin)
    return cubin.takeError();
  AssembledPTX result;
  result.cubin = std::move(*cubin);
  if (options.remarks) {
    llvm::Expected<std::string> remarks =
        formatRemarksYaml(ptx, describeKernels(ptx, result.cubin),
                          parsePtxasVerbose(ptxasLog), ptxas.gpu.name());
    if (!remarks)
      return remarks.takeError();
    result.remarks = std::move(*remarks);
  }
  return result;
}

llvm::Expected<std::string> tilepipe::packCubin(std::string cubin,
                                                llvm::StringRef ptx,
                                                const PackStageOptions &options,
                                                llvm::raw_ostream &log) {
  if (options.container == Container::Cubin)
    return cubin;
  std::string image = std::move(cubin);
  if (options.container == Container::Fatbin || options.embedPTX) {
    FatbinaryOptions fatbin;
    fatbin.gpu = options.ptxas.gpu;
    fatbin.embedPTX = options.embedPTX;
    fatbin.deviceDebug = options.ptxas.deviceDebug;
    llvm::Expected<std::string> packed =
        createFatbinary(image, ptx, fatbin, log, options.commandLines);
    if (!packed)
      return packed.takeError();
    if (options.container == Container::Fatbin)
      return packed;
    image = std::move(*packed);
  }
  HostObjectContents contents;
  contents.image = image;
  contents.kernelNote = formatKernelNote(describeKernels(ptx, image));
  // Like the original, --lineinfo keeps the PTX source next to the image.
  if (options.ptxas.lineInfo || options.ptxas.deviceDebug)
    contents.ptx = ptx;
  return writeHostObject(contents, options.hostArch);
}
