//===- RuntimeEntryPoints.h - What the JIT-compiled kernel calls ----------===//
#ifndef TILEPIPE_LIB_EMU_RUNTIMEENTRYPOINTS_H
#define TILEPIPE_LIB_EMU_RUNTIMEENTRYPOINTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tilepipe::emu {

/// Symbol name -> address of every runtime entry point and data symbol the
/// rewritten module refers to.
std::vector<std::pair<llvm::StringRef, void *>> runtimeSymbols();

/// Formats a vprintf call: `fmt` with arguments packed as the CUDA ABI does
/// (each naturally aligned; floats promoted to double). `valid` tells whether
/// a %s argument may be read.
std::string formatDevicePrintf(const char *fmt, const uint8_t *args,
                               bool (*valid)(const void *, uint64_t));

} // namespace tilepipe::emu

/// Data symbol: the running CTA's shared-memory block.
extern "C" char *tp_emu_shared_base;

#endif // TILEPIPE_LIB_EMU_RUNTIMEENTRYPOINTS_H
