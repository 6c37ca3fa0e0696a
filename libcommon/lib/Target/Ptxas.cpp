//===- Ptxas.cpp - PTX to cubin with the CUDA toolkit's ptxas -------------===//
#include "tilepipe/Target/Ptxas.h"

#include "tilepipe/Support/CudaToolkit.h"

#include "ToolRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace tilepipe;
using namespace tilepipe::detail;

/// The processor of the first `.target` directive ("sm_90a" in
/// `.target sm_90a, debug`), empty when there is none.
static llvm::StringRef ptxTargetProcessor(llvm::StringRef ptx) {
  llvm::StringRef rest = ptx;
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    line = line.trim();
    if (line.consume_front(".target") && !line.empty() &&
        llvm::isSpace(line.front()))
      return line.ltrim().take_until(
          [](char c) { return c == ',' || llvm::isSpace(c); });
  }
  return {};
}

std::string tilepipe::selectPtxasArch(llvm::StringRef ptx, const GpuTarget &gpu) {
  std::string archSpecific = gpu.name() + "a";
  if (!gpu.suffix && ptxTargetProcessor(ptx) == archSpecific)
    return archSpecific;
  return gpu.name();
}

llvm::Expected<std::string>
tilepipe::assembleWithPtxas(llvm::StringRef ptx, const PtxasOptions &options,
                            llvm::raw_ostream &log,
                            llvm::raw_ostream *commandLine) {
  // PTX is text; an empty input or one with NUL bytes (bitcode, a cubin) would
  // only earn a confusing ptxas message.
  if (ptx.trim().empty())
    return makeError("the PTX input is empty");
  if (ptx.contains('\0'))
    return makeError("the input is not PTX text (it contains NUL bytes)");

  std::string ptxas = options.ptxasPath;
  if (ptxas.empty()) {
    llvm::Expected<std::string> found = findCudaTool("ptxas");
    if (!found)
      return found.takeError();
    ptxas = *found;
  }

  // ptxas -g records its command line in the cubin: fixed names in a fresh
  // directory keep the cubin the same from one compile to the next.
  TempDir dir;
  if (llvm::Error error = dir.create())
    return std::move(error);
  std::string input = dir.file("tilepipe.ptx"), output = dir.file("tilepipe.cubin");
  if (llvm::Error error = writeFile(input, ptx))
    return std::move(error);

  std::string arch = selectPtxasArch(ptx, options.gpu);
  std::string optLevel = std::to_string(options.optLevel);
  llvm::SmallVector<llvm::StringRef> args{ptxas, "-arch", arch, "--opt-level",
                                          optLevel};
  if (options.lineInfo)
    args.push_back("-lineinfo");
  if (options.deviceDebug)
    args.push_back("-g");
  for (const std::string &extra : options.extraArgs)
    args.push_back(extra);
  args.append({input, "-o", output});
  if (llvm::Error error = runTool("ptxas", args, log, commandLine))
    return std::move(error);

  llvm::Expected<std::string> cubin = readFile(output);
  if (!cubin)
    return cubin.takeError();
  if (!llvm::StringRef(*cubin).starts_with("\x7f" "ELF"))
    return makeError("ptxas succeeded but its output is not an ELF cubin");
  return cubin;
}
