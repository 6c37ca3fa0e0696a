//===- CudaToolkit.cpp ----------------------------------------------------===//
#include "tilepipe/Support/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace tilepipe;

/// The directory holding the running executable.
static std::string executableDir() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  return exe.empty() ? std::string() : llvm::sys::path::parent_path(exe).str();
}

/// $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH: the first one set wins, as in the
/// original. Empty when none is set.
static std::string environmentToolkitRoot() {
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(var); value && *value)
      return value;
  return {};
}

/// The conventional install root, searched last. Tests override it.
static std::string defaultToolkitRoot() {
  if (const char *fallback = std::getenv("TILEPIPE_DEFAULT_CUDA_ROOT"))
    return fallback;
  return "/usr/local/cuda";
}

static bool isExecutable(const llvm::Twine &path) {
  return llvm::sys::fs::can_execute(path) && !llvm::sys::fs::is_directory(path);
}

llvm::Expected<std::string> tilepipe::findCudaTool(llvm::StringRef name) {
  std::string searched;
  auto tryPath = [&](llvm::StringRef dir) -> std::string {
    if (dir.empty())
      return {};
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, name);
    searched += "\n  " + candidate.str().str();
    if (isExecutable(candidate))
      return candidate.str().str();
    // A broken install: say why the file that is there does not count.
    if (llvm::sys::fs::exists(candidate))
      searched += llvm::sys::fs::is_directory(candidate) ? " (a directory)" : " (not executable)";
    return {};
  };

  if (std::string found = tryPath(executableDir()); !found.empty())
    return found;
  if (std::string root = environmentToolkitRoot(); !root.empty())
    if (std::string found = tryPath(root + "/bin"); !found.empty())
      return found;
  if (auto onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  searched += "\n  $PATH";
  if (std::string root = defaultToolkitRoot(); !root.empty())
    if (std::string found = tryPath(root + "/bin"); !found.empty())
      return found;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "cannot find '" + name.str() +
          "' of the CUDA toolkit; install the toolkit or set CUDA_HOME. "
          "Searched:" + searched);
}

llvm::Expected<std::string> tilepipe::findLibdevice() {
  std::string searched;
  // The environment first, as in the original; then a toolkit laid out around
  // us (bin/../nvvm/libdevice) or around the ptxas on PATH; then the default.
  llvm::SmallVector<std::string> roots{environmentToolkitRoot()};
  if (std::string dir = executableDir(); !dir.empty())
    roots.push_back(llvm::sys::path::parent_path(dir).str());
  if (auto ptxas = llvm::sys::findProgramByName("ptxas"))
    roots.push_back(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas)).str());
  roots.push_back(defaultToolkitRoot());
  for (const std::string &root : roots) {
    if (root.empty())
      continue;
    llvm::SmallString<256> candidate(root);
    llvm::sys::path::append(candidate, "nvvm", "libdevice", "libdevice.10.bc");
    searched += "\n  " + candidate.str().str();
    if (llvm::sys::fs::exists(candidate))
      return candidate.str().str();
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "could not find libdevice.10.bc of the CUDA toolkit; set CUDA_HOME. "
      "Searched:" + searched);
}
