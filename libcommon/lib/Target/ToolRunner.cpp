//===- ToolRunner.cpp - Running a CUDA toolkit program on temporary files -===//
#include "ToolRunner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace tilepipe::detail;

llvm::Error tilepipe::detail::makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error TempFile::create(llvm::StringRef suffix) {
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tilepipe", suffix, path))
    return makeError("cannot create a temporary file: " + ec.message());
  remover.setFile(path);
  return llvm::Error::success();
}

TempDir::~TempDir() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

llvm::Error TempDir::create() {
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tilepipe", path))
    return makeError("cannot create a temporary directory: " + ec.message());
  return llvm::Error::success();
}

std::string TempDir::file(llvm::StringRef name) const {
  llvm::SmallString<128> file(path);
  llvm::sys::path::append(file, name);
  return file.str().str();
}

llvm::Error tilepipe::detail::writeFile(llvm::StringRef path,
                                        llvm::StringRef contents) {
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

llvm::Expected<std::string> tilepipe::detail::readFile(llvm::StringRef path) {
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

llvm::Error tilepipe::detail::runTool(llvm::StringRef displayName,
                                      llvm::ArrayRef<llvm::StringRef> args,
                                      llvm::raw_ostream &log,
                                      llvm::raw_ostream *commandLine) {
  if (commandLine)
    printCommandLine(*commandLine, args);
  TempFile messages;
  if (llvm::Error error = messages.create("log"))
    return error;
  // stdin from /dev/null; stdout and stderr interleaved into one log.
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef("/dev/null"), messages.path.str(), messages.path.str()};
  std::string errorMessage;
  bool executionFailed = false;
  int status = llvm::sys::ExecuteAndWait(args[0], args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &errorMessage,
                                         &executionFailed);
  if (llvm::Expected<std::string> text = readFile(messages.path))
    log << *text;
  else
    llvm::consumeError(text.takeError());
  log.flush();

  if (executionFailed || status == -1)
    return makeError("cannot execute " + displayName + " '" + args[0] +
                     "': " + errorMessage);
  if (status == -2)
    return makeError(displayName + " was killed by a signal: " + errorMessage);
  if (status != 0)
    return makeError(displayName + " failed with exit status " +
                     llvm::Twine(status));
  return llvm::Error::success();
}
