//===- Ptxas.cpp - PTX to cubin with the CUDA toolkit's ptxas -------------===//
#include "tilepipe/Target/Ptxas.h"

#include "tilepipe/Support/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace tilepipe;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

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

namespace {
/// A temporary file that is removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  llvm::FileRemover remover;

  llvm::Error create(llvm::StringRef suffix) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("tilepipe-ptxas", suffix, path))
      return makeError("cannot create a temporary file: " + ec.message());
    remover.setFile(path);
    return llvm::Error::success();
  }
};
} // namespace

static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
  }
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  return llvm::Error::success();
}

static llvm::Expected<std::string> readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path + "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

static void printCommandLine(llvm::raw_ostream &os,
                             llvm::ArrayRef<llvm::StringRef> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      os << ' ';
    llvm::sys::printArg(os, args[i], /*Quote=*/false);
  }
  os << '\n';
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

  TempFile input, output, messages;
  for (auto [file, suffix] : {std::pair{&input, "ptx"}, {&output, "cubin"},
                              {&messages, "log"}})
    if (llvm::Error error = file->create(suffix))
      return std::move(error);
  if (llvm::Error error = writeFile(input.path, ptx))
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
  args.append({input.path.str(), "-o", output.path.str()});
  if (commandLine)
    printCommandLine(*commandLine, args);

  // stdin from /dev/null; stdout and stderr interleaved into one log.
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef("/dev/null"), messages.path.str(), messages.path.str()};
  std::string errorMessage;
  bool executionFailed = false;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &errorMessage,
                                         &executionFailed);
  if (llvm::Expected<std::string> text = readFile(messages.path))
    log << *text;
  else
    llvm::consumeError(text.takeError());
  log.flush();

  if (executionFailed || status == -1)
    return makeError("cannot execute ptxas '" + ptxas + "': " + errorMessage);
  if (status == -2)
    return makeError("ptxas was killed by a signal: " + errorMessage);
  if (status != 0)
    return makeError("ptxas failed with exit status " + llvm::Twine(status));

  llvm::Expected<std::string> cubin = readFile(output.path);
  if (!cubin)
    return cubin.takeError();
  if (!llvm::StringRef(*cubin).starts_with("\x7f" "ELF"))
    return makeError("ptxas succeeded but its output is not an ELF cubin");
  return cubin;
}
