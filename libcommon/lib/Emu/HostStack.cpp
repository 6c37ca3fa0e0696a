//===- HostStack.cpp - Emulated threads' host stacks and kernel frames ----===//
#include "HostStack.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {
/// Takes the code generator's stack-size diagnostics (every function with a
/// frame reports it under "warn-stack-size"="0") and passes the rest on.
struct FrameRecorder : DiagnosticHandler {
  explicit FrameRecorder(StringMap<uint64_t> &frames) : frames(frames) {}
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    auto *size = dyn_cast<DiagnosticInfoStackSize>(&info);
    if (!size)
      return false;
    uint64_t &recorded = frames[size->getFunction().getName()];
    recorded = std::max(recorded, size->getStackSize());
    return true;
  }
  StringMap<uint64_t> &frames;
};
} // namespace

void tilepipe::emu::measureHostFrames(Module &module, StringMap<uint64_t> &frames) {
  for (Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    fn.addFnAttr("probe-stack", "inline-asm");
    fn.addFnAttr("warn-stack-size", "0");
  }
  module.getContext().setDiagnosticHandler(std::make_unique<FrameRecorder>(frames));
}

std::string tilepipe::emu::formatStackBytes(uint64_t bytes) {
  constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB;
  if (bytes && bytes % kMiB == 0)
    return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB)
    return std::to_string((bytes + kKiB - 1) / kKiB) + " KiB";
  return std::to_string(bytes) + " bytes";
}

Error tilepipe::emu::checkKernelFrame(StringRef kernel, uint64_t frameBytes,
                                      uint64_t stackBytes) {
  uint64_t needed = frameBytes + kThreadStackReserveBytes;
  if (needed <= stackBytes)
    return Error::success();
  constexpr uint64_t kMiB = 1024 * 1024;
  return make_error<EmuError>(
      "kernel '" + kernel.str() + "': its host frame takes " + formatStackBytes(frameBytes) +
      " per emulated thread, which with the runtime's " +
      formatStackBytes(kThreadStackReserveBytes) + " exceeds the " +
      formatStackBytes(stackBytes) + " thread stack (tile-emu --thread-stack-mib " +
      std::to_string((needed + kMiB - 1) / kMiB) + " raises it)");
}
