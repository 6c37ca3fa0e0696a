//===- Version.cpp --------------------------------------------------------===//
#include "tilepipe/Support/Version.h"

#include "llvm/Config/llvm-config.h"

#ifndef TILEPIPE_VERSION
#define TILEPIPE_VERSION "0.0.0"
#endif

llvm::StringRef tilepipe::getVersionString() { return TILEPIPE_VERSION; }

void tilepipe::printVersionBanner(llvm::raw_ostream &os,
                                  llvm::StringRef toolName) {
  // Stable text: cuTile keeps --version stdout verbatim as a cache key.
  os << toolName << ": tilepipe, an open CUDA Tile IR optimizing assembler\n"
     << "tilepipe version V" << getVersionString() << "\n"
     << "Built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
}
