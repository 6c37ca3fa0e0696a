//===- Swizzle.h - Shared-memory swizzle modes of TMA and wgmma ------------===//
//
// TMA writes and wgmma/ldmatrix-style readers agree on where a byte of a
// swizzled tile lives in shared memory. PTX ISA ("Tensor Map: swizzling
// modes", "Shared Memory Matrix Layout" of wgmma): the 16-byte chunk index
// (address bits 4..6) is XORed with the 128-byte row index (bits 7..9),
// limited to 1, 2 or 3 bits for the 32-, 64- and 128-byte modes. The pattern is a function of the absolute
// shared address, which is why swizzled buffers are aligned to the pattern
// (256, 512 or 1024 bytes).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_SWIZZLE_H
#define TILEPIPE_LIB_EMU_SWIZZLE_H

#include <cstdint>

namespace tilepipe::emu {

enum class SwizzleMode : uint8_t { None, Bytes32, Bytes64, Bytes128 };

/// The shared-memory address at which byte `address` of an unswizzled tile
/// is stored under `mode` (an involution: applying it twice is the identity).
inline uint64_t swizzleAddress(uint64_t address, SwizzleMode mode) {
  unsigned bits = 0;
  switch (mode) {
  case SwizzleMode::None: return address;
  case SwizzleMode::Bytes32: bits = 1; break;
  case SwizzleMode::Bytes64: bits = 2; break;
  case SwizzleMode::Bytes128: bits = 3; break;
  }
  uint64_t row = (address >> 7) & ((1u << bits) - 1);
  return address ^ (row << 4);
}

/// Alignment (bytes) a swizzled buffer needs so the pattern starts at it.
inline unsigned swizzleAlignment(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::None: return 16;
  case SwizzleMode::Bytes32: return 256;
  case SwizzleMode::Bytes64: return 512;
  case SwizzleMode::Bytes128: return 1024;
  }
  return 16;
}

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_SWIZZLE_H
