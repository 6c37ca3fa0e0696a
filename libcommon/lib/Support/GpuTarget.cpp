//===- GpuTarget.cpp ------------------------------------------------------===//
#include "tilepipe/Support/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilepipe;

static const unsigned kSupportedSMs[] = {80, 86, 87, 89, 90, 100, 103, 110, 120, 121};

llvm::ArrayRef<unsigned> tilepipe::supportedComputeCapabilities() {
  return kSupportedSMs;
}

std::string GpuTarget::name() const {
  std::string result = baseName();
  if (suffix)
    result += suffix;
  return result;
}

std::string GpuTarget::baseName() const { return "sm_" + std::to_string(sm); }

llvm::Expected<GpuTarget> tilepipe::parseGpuTarget(llvm::StringRef name) {
  auto unsupported = [&]() {
    std::string supported;
    for (unsigned sm : kSupportedSMs)
      supported += (supported.empty() ? "sm_" : ", sm_") + std::to_string(sm);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unsupported GPU target '" + name.str() + "' (supported: " + supported +
            ", each optionally with an 'a' or 'f' suffix)");
  };
  llvm::StringRef rest = name;
  if (!rest.consume_front("sm_"))
    return unsupported();
  GpuTarget target;
  if (rest.ends_with("a") || rest.ends_with("f")) {
    target.suffix = rest.back();
    rest = rest.drop_back();
  }
  if (rest.empty() || rest.getAsInteger(10, target.sm) ||
      !llvm::is_contained(kSupportedSMs, target.sm))
    return unsupported();
  // Family targets only exist from Blackwell on; arch-specific ones from Hopper.
  if ((target.suffix == 'a' && target.sm < 90) ||
      (target.suffix == 'f' && target.sm < 100))
    return unsupported();
  return target;
}

llvm::Error tilepipe::checkOptLevel(int level) {
  if (level < 0 || level > 3)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid optimization level");
  return llvm::Error::success();
}
