//===- Npy.h - numpy .npy arrays as tile-emu buffers ----------------------===//
//
// tile-emu exchanges kernel buffers as .npy files (format versions 1 and 2,
// little-endian, C order). Only the header is interpreted; the payload is
// kept as raw bytes because the kernel sees it as raw memory anyway.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_EMU_NPY_H
#define TILEPIPE_EMU_NPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilepipe::emu {

struct NpyArray {
  /// The dtype descriptor exactly as read ("<f4", "|b1", "<V2", ...); it is
  /// written back unchanged so that round trips keep bfloat16 as "<V2".
  std::string descr;
  std::vector<uint64_t> shape;
  /// The payload, element size * product(shape) bytes.
  std::vector<uint8_t> data;

  unsigned elementSize() const;
};

/// Parses a complete .npy file. Refuses big-endian, Fortran order, object and
/// structured dtypes and payloads whose size does not match the header.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef contents);

/// Serializes `array` as a version 1.0 .npy file.
std::string serializeNpy(const NpyArray &array);

/// The element size of a supported dtype descriptor, 0 if unsupported.
unsigned npyDtypeSize(llvm::StringRef descr);

} // namespace tilepipe::emu

#endif // TILEPIPE_EMU_NPY_H
