//===- Remarks.h - Optimization remarks about the code tile-pack packed ---===//
//
// What a user (or cuTile's cache, which stores the file) wants to know about
// each kernel: the target, the CTA and cluster shape, shared memory,
// registers and spills from `ptxas -v`, and the instruction mix of the PTX
// (tensor-core, async-copy and vector-memory instructions). Written as LLVM's
// YAML optimization remarks (`--- !Analysis` records).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TARGET_REMARKS_H
#define TILEPIPE_TARGET_REMARKS_H

#include "tilepipe/Target/Packaging.h"

#include "llvm/ADT/StringMap.h"

namespace tilepipe {

/// One kernel's resource use as `ptxas -v` reports it.
struct PtxasKernelStats {
  unsigned registers = 0;
  uint64_t spillStores = 0, spillLoads = 0, stackFrame = 0;
};

/// Parses `ptxas -v` output ("Compiling entry function 'K'", "Used N
/// registers", "N bytes stack frame, N bytes spill stores, ...").
llvm::StringMap<PtxasKernelStats> parsePtxasVerbose(llvm::StringRef log);

/// Counts, per instruction family of interest (mma.sync, wgmma, tcgen05.mma,
/// ldmatrix, cp.async, cp.async.bulk, ld.global.v4, bar.sync, shfl, ...),
/// the static instructions in the body of `kernel` in `ptx`.
std::vector<std::pair<std::string, unsigned>>
countInstructionFamilies(llvm::StringRef ptx, llvm::StringRef kernel);

/// The YAML remarks of every kernel.
llvm::Expected<std::string>
formatRemarksYaml(llvm::StringRef ptx, llvm::ArrayRef<KernelLaunchInfo> kernels,
                  const llvm::StringMap<PtxasKernelStats> &stats,
                  llvm::StringRef target);

} // namespace tilepipe

#endif // TILEPIPE_TARGET_REMARKS_H
