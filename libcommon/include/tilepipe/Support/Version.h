//===- Version.h - tilepipe version banner --------------------------------===//
#ifndef TILEPIPE_SUPPORT_VERSION_H
#define TILEPIPE_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tilepipe {

/// "0.1.0"
llvm::StringRef getVersionString();

/// The stable multi-line --version banner. It contains a `V<major>.<minor>.<patch>`
/// token (clients key caches on it) and the name of the tool.
void printVersionBanner(llvm::raw_ostream &os, llvm::StringRef toolName);

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_VERSION_H
