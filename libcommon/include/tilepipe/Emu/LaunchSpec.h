//===- LaunchSpec.h - tile-emu's --grid / --param and buffer files --------===//
//
// The textual launch description of tile-emu: grid and block sizes, typed
// scalar parameters and .npy-backed pointer parameters. Buffers live at
// 256-byte-aligned host addresses; several parameters naming one file share
// one buffer, and every buffer is written back after the launch.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_EMU_LAUNCHSPEC_H
#define TILEPIPE_EMU_LAUNCHSPEC_H

#include "tilepipe/Emu/Emulator.h"
#include "tilepipe/Emu/Npy.h"

#include <memory>
#include <string>
#include <vector>

namespace tilepipe::emu {

/// "X[,Y[,Z]]", every component at least 1.
llvm::Expected<Dim3> parseDim3(llvm::StringRef text);

/// One --param as written.
struct ParamSpec {
  std::string type;  // i1 i8 i16 i32 i64 f16 bf16 f32 f64 ptr
  std::string value; // INT, FLOAT, or FILE.npy
  uint64_t byteOffset = 0;
};

/// Parses "TYPE:VALUE" (for ptr: "ptr:FILE.npy[+BYTES]").
llvm::Expected<ParamSpec> parseParamSpec(llvm::StringRef text);

/// One --pointer-into: the emulated address of buffer `from` (+byteOffset)
/// stored as the 64-bit word `word` of buffer `into`. This is how a launch
/// passes device-side tables of pointers (cuTile's list arguments).
struct PointerPatch {
  std::string into;
  uint64_t word = 0;
  std::string from;
  uint64_t byteOffset = 0;
};

/// Parses "INTO.npy@WORD=FROM.npy[+BYTES]".
llvm::Expected<PointerPatch> parsePointerPatch(llvm::StringRef text);

/// A .npy file placed in emulated global memory.
struct Buffer {
  std::string path;
  std::string name; // the file's stem: the output is <name>.npy
  NpyArray array;
  uint8_t *data = nullptr; // 256-byte aligned copy the kernel works on
  uint64_t bytes = 0;
  ~Buffer();
};

class BufferSet {
public:
  /// Loads `path` (once per distinct file). Errors are I/O or format errors.
  llvm::Expected<Buffer *> load(llvm::StringRef path);
  std::vector<std::unique_ptr<Buffer>> &buffers() { return buffers_; }
  /// Writes every buffer to `dir`/<name>.npy, creating `dir`.
  llvm::Error writeAll(llvm::StringRef dir) const;

private:
  std::vector<std::unique_ptr<Buffer>> buffers_;
};

/// Turns a scalar ParamSpec (not ptr) into a KernelArg; values that do not
/// parse or do not fit the type are usage errors.
llvm::Expected<KernelArg> makeScalarArg(const ParamSpec &spec);

} // namespace tilepipe::emu

#endif // TILEPIPE_EMU_LAUNCHSPEC_H
