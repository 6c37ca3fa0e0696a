//===- NVPTXCodegen.h - LLVM IR to PTX text -------------------------------===//
//
// The middle of the back end: an NVVM LLVM module is retargeted to
// nvptx64-nvidia-cuda, linked against the libdevice functions it calls,
// optimized with LLVM's O-level pipeline (which also runs NVVMReflect) and
// printed as PTX by the NVPTX code generator.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TARGET_NVPTXCODEGEN_H
#define TILEPIPE_TARGET_NVPTXCODEGEN_H

#include "tilepipe/Support/GpuTarget.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tilepipe {

/// How much debug information reaches the PTX.
enum class DebugInfoLevel {
  None,       // stripped
  LineTables, // .file/.loc only (--lineinfo)
  Full,       // DWARF sections and `.target ..., debug` (--device-debug)
};

struct PTXCodegenOptions {
  GpuTarget gpu;
  unsigned optLevel = 3;
  DebugInfoLevel debugInfo = DebugInfoLevel::None;
  /// Flush f32 denormals to zero. Unset: the module's "nvvm-reflect-ftz" flag
  /// (absent = off) decides.
  std::optional<bool> ftz;
  /// IEEE square root in libdevice. Unset: the module's
  /// "nvvm-reflect-prec-sqrt" flag decides; absent = on, as with nvcc.
  std::optional<bool> precSqrt;
  /// Contract fmul+fadd into fma (nvcc's --fmad, on by default).
  bool fmad = true;
  /// libdevice.10.bc; empty: tilepipe::findLibdevice() when it is needed.
  std::string libdevicePath;
};

/// The PTX ISA version every target is compiled with: the newest one that
/// both LLVM 22's NVPTX back end and CUDA 13.0's ptxas know.
constexpr unsigned kPTXISAVersion = 90; // PTX 9.0

/// The arch-specific feature (its PTX spelling, "wgmma.") that makes `module`
/// need `sm_XXa` on `gpu`; empty when it needs none or `gpu` has a suffix.
llvm::StringRef findArchSpecificFeature(const llvm::Module &module, const GpuTarget &gpu);

/// The `.target` processor for `module` on `gpu`: gpu.name(), promoted to the
/// arch-specific `sm_XXa` when the module uses features only that target has
/// (wgmma, setmaxnreg, tcgen05, ...).
std::string selectPTXProcessor(const llvm::Module &module, const GpuTarget &gpu);

/// Programmatic dependent launch (griddepcontrol) exists from sm_90 on. Below
/// that no grid runs with a prerequisite grid in flight, so waiting for one
/// and releasing dependents are no-ops: the calls are removed from `module`.
void removeUnavailableGridDependencyControl(llvm::Module &module, const GpuTarget &gpu);

/// Compiles `module` (modified in place) to PTX text. Failures (invalid IR,
/// missing libdevice, errors from the code generator) come back as errors.
llvm::Expected<std::string> compileLLVMToPTX(llvm::Module &module,
                                             const PTXCodegenOptions &options);

/// The NVPTX code generator reports some input errors ("Cannot select ...")
/// through llvm::report_fatal_error, which would abort the process. A tool
/// calls this once so that such errors print "<tool>: error: ..." and exit
/// with kExitCompile instead.
void exitOnLLVMFatalErrors(const char *toolName);

} // namespace tilepipe

#endif // TILEPIPE_TARGET_NVPTXCODEGEN_H
