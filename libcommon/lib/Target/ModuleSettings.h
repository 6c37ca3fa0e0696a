//===- ModuleSettings.h - Debug info and floating-point settings ----------===//
//
// Internal to TilepipeTarget: how the PTXCodegenOptions that live in the IR
// (debug metadata, NVVMReflect module flags, denormal attributes) are
// applied to a module before it is optimized.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_TARGET_MODULESETTINGS_H
#define TILEPIPE_LIB_TARGET_MODULESETTINGS_H

#include "tilepipe/Target/NVPTXCodegen.h"

namespace tilepipe::detail {

/// Strips the debug info the level does not keep. LineTables keeps .file/.loc
/// only (no DWARF sections, no `, debug` on the .target).
void applyDebugInfoLevel(llvm::Module &module, DebugInfoLevel level);

/// Applies --ftz / --prec-sqrt to the module with libdevice linked in: the
/// NVVMReflect module flags, the denormal mode of every function, and the
/// __CUDA_PREC_SQRT queries LLVM 22's NVVMReflect does not answer.
void applyFloatingPointOptions(llvm::Module &module,
                               const PTXCodegenOptions &options);

} // namespace tilepipe::detail

#endif // TILEPIPE_LIB_TARGET_MODULESETTINGS_H
