//===- CudaToolkit.h - Finding ptxas, fatbinary and libdevice -------------===//
//
// The search order is the original tileiras's, extended so that clients which
// strip CUDA_HOME (cuTile does) still work:
//   1. next to the running executable,
//   2. $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH (first set wins) + /bin,
//   3. $PATH,
//   4. the conventional install root, $TILEPIPE_DEFAULT_CUDA_ROOT if set
//      (empty: none), else /usr/local/cuda.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_SUPPORT_CUDATOOLKIT_H
#define TILEPIPE_SUPPORT_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilepipe {

/// Finds a toolkit executable ("ptxas", "fatbinary"). The error names every
/// place that was searched.
llvm::Expected<std::string> findCudaTool(llvm::StringRef name);

/// Finds nvvm/libdevice/libdevice.10.bc under the toolkit roots.
llvm::Expected<std::string> findLibdevice();

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_CUDATOOLKIT_H
