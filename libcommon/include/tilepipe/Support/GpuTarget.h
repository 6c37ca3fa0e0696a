//===- GpuTarget.h - The --gpu-name targets tilepipe compiles for ---------===//
#ifndef TILEPIPE_SUPPORT_GPUTARGET_H
#define TILEPIPE_SUPPORT_GPUTARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilepipe {

/// A compute capability with its optional feature suffix: sm_90a, sm_100f.
struct GpuTarget {
  unsigned sm = 0;   // 80, 86, 87, 89, 90, 100, 103, 110, 120, 121
  char suffix = 0;   // 0, 'a' (arch-specific) or 'f' (family)

  /// "sm_90a"
  std::string name() const;
  /// The plain "sm_NN" ptxas -arch takes when the suffix only matters to PTX.
  std::string baseName() const;
};

/// Every compute capability --gpu-name accepts, lowest first.
llvm::ArrayRef<unsigned> supportedComputeCapabilities();

/// Parses "sm_XX[a|f]". Fails with "unsupported GPU target '<name>'" (the
/// caller exits with kExitConfig).
llvm::Expected<GpuTarget> parseGpuTarget(llvm::StringRef name);

/// Validates an -O level (0..3).
llvm::Error checkOptLevel(int level);

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_GPUTARGET_H
