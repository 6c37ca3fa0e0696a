//===- HostStack.h - Emulated threads' host stacks and kernel frames ------===//
//
// Each emulated thread runs on a host stack of EmulatorOptions::
// threadStackBytes with a guard page below it. Kernels JIT-compiled at -O0
// keep their tile registers in their frame, which for large tiles is
// megabytes: a frame larger than the stack would write over the neighbouring
// thread's stack, or fault far from any guard page. So the JIT probes every
// page of a large frame (the overflow then always lands on the guard page,
// see Runtime::describeHostFault), and reports every function's frame size,
// which a launch checks against the stack before it runs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_HOSTSTACK_H
#define TILEPIPE_LIB_EMU_HOSTSTACK_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tilepipe::emu {

/// Marks every function of `module` for inline stack probes and installs a
/// diagnostic handler on its context that records each function's frame
/// size (bytes) into `frames` as the JIT compiles it. `frames` must outlive
/// the compilation.
void measureHostFrames(llvm::Module &module, llvm::StringMap<uint64_t> &frames);

/// Fails when `kernel`'s frame plus kThreadStackReserveBytes does not fit a
/// thread stack of `stackBytes`, saying which limit and how to raise it.
llvm::Error checkKernelFrame(llvm::StringRef kernel, uint64_t frameBytes, uint64_t stackBytes);

/// "4 MiB", "260 KiB" or "12 bytes".
std::string formatStackBytes(uint64_t bytes);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_HOSTSTACK_H
