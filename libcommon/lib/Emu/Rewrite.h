//===- Rewrite.h - Turning nvptx64 LLVM IR into host-runnable IR ----------===//
//
// The rewrite keeps the kernel's code and replaces what only a GPU has:
//  * special-register reads become calls of tp_emu_sreg;
//  * barrier, warp-collective, math and conversion intrinsics become calls of
//    tp_emu_intrinsic through small marshalling wrappers (Intrinsics.h);
//  * __shared__ variables become offsets from the running CTA's block;
//  * every load, store, atomic and memory intrinsic is preceded by a
//    tp_emu_check call (accesses to the thread's own allocas are exempt);
//  * vprintf / __assertfail / malloc / free / trap call the runtime;
//  * single-instruction inline PTX (as libdevice uses it) runs through the
//    equivalent intrinsic's handler;
//  * integer division is guarded so that x86 does not trap where the GPU
//    does not;
//  * each kernel gets a launcher that unpacks an argument buffer.
// Address spaces stay as they are: on x86-64 every address space below 256 is
// a plain 64-bit pointer, so addrspacecast is a no-op there.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_REWRITE_H
#define TILEPIPE_LIB_EMU_REWRITE_H

#include "Intrinsics.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/Support/Error.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
}

namespace tilepipe::emu {

struct KernelParam {
  /// "i32", "f32", "ptr", ... as --param spells it.
  std::string type;
  uint32_t offset = 0, size = 0;
};

struct KernelInfo {
  std::string name;
  std::string launcher;
  std::optional<Dim3> declaredBlock;
  /// CTAs per cluster (.reqnctapercluster).
  Dim3 cluster;
  /// .blocksareclusters: the launch's grid counts clusters, not CTAs.
  bool blocksAreClusters = false;
  std::vector<KernelParam> params;
  uint32_t argBufferBytes = 0;
  /// Set when the kernel cannot be launched (e.g. a by-value struct parameter).
  std::string unsupported;
};

struct ModuleGlobalInfo {
  std::string name;
  uint64_t size = 0;
  bool readOnly = false;
  bool constantSpace = false;
};

struct RewriteResult {
  std::vector<KernelInfo> kernels;
  /// Bytes of static __shared__ variables; dynamic shared memory starts at
  /// dynamicSharedOffset.
  uint32_t staticSharedBytes = 0;
  uint32_t dynamicSharedOffset = 0;
  /// An array of the addresses of ModuleGlobals, in order.
  std::string globalTable;
  std::vector<ModuleGlobalInfo> globals;
};

/// Turns `@$p ld/st.global[.vN].bW` inline PTX (masked global accesses as
/// tilepipe's and Triton's lowerings emit them) into branches around plain
/// vector loads and stores, so that they are checked and run like any other.
void lowerPredicatedGlobalAccesses(llvm::Function &fn);

/// Turns the TMA family's inline PTX (MLIR's mbarrier.try_wait.parity loop,
/// predicated mbarrier and cp.async.bulk.tensor forms, tensormap.replace and
/// tensormap.cp_fenceproxy) into calls of the equivalent NVVM intrinsics.
void lowerAsyncCopyPtx(llvm::Function &fn);

/// Turns libdevice's multi-instruction inline PTX blocks of integer
/// carry-chain arithmetic (mad/madc/add/addc/sub/subc with .cc, mov.b64
/// pack/unpack) and setp/selp into plain IR; other blocks stay as they are.
void lowerInlinePtxArithmetic(llvm::Function &fn);

/// Rounds every bf16 result (fptrunc to bf16, bf16 arithmetic and the math
/// intrinsics the backend promotes to f32) in integer IR, keeping subnormals
/// as the GPU does (see BFloatRounding.cpp).
void lowerBFloatRounding(llvm::Function &fn);

/// Rewrites `module` in place for `hostLayout` / `hostTriple`. Handlers of the
/// intrinsics used are appended to `handlers` (the wrappers point at them, so
/// they must outlive the JIT-compiled code).
llvm::Expected<RewriteResult> rewriteForHost(llvm::Module &module,
                                             const EmulatorOptions &options,
                                             const llvm::DataLayout &hostLayout,
                                             llvm::StringRef hostTriple,
                                             std::deque<IntrinsicHandler> &handlers);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_REWRITE_H
