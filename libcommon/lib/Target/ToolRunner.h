//===- ToolRunner.h - Running a CUDA toolkit program on temporary files ---===//
//
// ptxas and fatbinary take files, not pipes. These helpers give them
// temporary files that are always removed, collect everything the program
// prints into one log, and turn failures into errors.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_TARGET_TOOLRUNNER_H
#define TILEPIPE_LIB_TARGET_TOOLRUNNER_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilepipe::detail {

llvm::Error makeError(const llvm::Twine &message);

/// A temporary file that is removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  llvm::FileRemover remover;

  llvm::Error create(llvm::StringRef suffix);
};

/// A temporary directory that is removed, with what is in it, when it goes
/// out of scope. Files in it can have fixed names, for tools that record
/// their command line in their output (ptxas -g).
struct TempDir {
  llvm::SmallString<128> path;

  TempDir() = default;
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir();

  llvm::Error create();
  /// `name` inside the directory.
  std::string file(llvm::StringRef name) const;
};

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents);
llvm::Expected<std::string> readFile(llvm::StringRef path);

/// Runs `args` (args[0] is the executable; `displayName` names it in errors)
/// with stdin from /dev/null and stdout+stderr copied to `log`. The command
/// line goes to `commandLine` first when given. A nonzero exit, a signal or a
/// failure to start is an error.
llvm::Error runTool(llvm::StringRef displayName,
                    llvm::ArrayRef<llvm::StringRef> args, llvm::raw_ostream &log,
                    llvm::raw_ostream *commandLine);

} // namespace tilepipe::detail

#endif // TILEPIPE_LIB_TARGET_TOOLRUNNER_H
