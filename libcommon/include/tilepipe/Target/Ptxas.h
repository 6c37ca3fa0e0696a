//===- Ptxas.h - PTX to cubin with the CUDA toolkit's ptxas ---------------===//
#ifndef TILEPIPE_TARGET_PTXAS_H
#define TILEPIPE_TARGET_PTXAS_H

#include "tilepipe/Support/GpuTarget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilepipe {

struct PtxasOptions {
  GpuTarget gpu;
  unsigned optLevel = 3;
  bool lineInfo = false;    // -lineinfo
  bool deviceDebug = false; // -g
  /// Extra arguments appended verbatim (--ptxas-options, split on blanks).
  std::vector<std::string> extraArgs;
  /// The ptxas executable; empty: tilepipe::findCudaTool("ptxas").
  std::string ptxasPath;
};

/// The -arch ptxas needs for `ptx` on `gpu`: gpu.name(), except that PTX whose
/// `.target` is the arch-specific variant of the same GPU (tile-ptx promotes
/// sm_90 to sm_90a for wgmma) must be assembled for that variant.
std::string selectPtxasArch(llvm::StringRef ptx, const GpuTarget &gpu);

/// Assembles `ptx` into a cubin with ptxas. The PTX travels in a temporary
/// file, never on the command line. Everything ptxas prints (warnings, -v
/// statistics, error text) is copied verbatim to `log`; `commandLine`, when
/// given, receives the ptxas command line first. A ptxas failure (exit status
/// or signal), a missing ptxas or an output that is not ELF is an error.
llvm::Expected<std::string> assembleWithPtxas(llvm::StringRef ptx,
                                              const PtxasOptions &options,
                                              llvm::raw_ostream &log,
                                              llvm::raw_ostream *commandLine = nullptr);

} // namespace tilepipe

#endif // TILEPIPE_TARGET_PTXAS_H
