//===- Libdevice.h - Linking the CUDA math library ------------------------===//
#ifndef TILEPIPE_TARGET_LIBDEVICE_H
#define TILEPIPE_TARGET_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tilepipe {

/// True when `module` calls a libdevice function (`__nv_*` declaration).
bool needsLibdevice(const llvm::Module &module);

/// Links the libdevice functions `module` uses from the bitcode at `path`
/// (empty: tilepipe::findLibdevice()). Only needed definitions are pulled in
/// and they are internalized, so that GlobalDCE drops them once inlined. A
/// module without `__nv_*` declarations is left alone and needs no libdevice.
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef path = {});

/// The bytes of the libdevice bitcode at `path`, read once per process and
/// file version (size and modification time): a process that compiles many
/// kernels (tileiras' in-process flow, libtileiras, tile-emu) does not read
/// and keep a copy of it per compile. The bytes live as long as the process.
llvm::Expected<llvm::MemoryBufferRef> loadLibdeviceBitcode(llvm::StringRef path);

} // namespace tilepipe

#endif // TILEPIPE_TARGET_LIBDEVICE_H
