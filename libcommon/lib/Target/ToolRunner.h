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
