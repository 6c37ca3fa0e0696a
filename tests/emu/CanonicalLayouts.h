//===- CanonicalLayouts.h - Shared-memory matrix layouts for the tests -----===//
//
// The PTX ISA's canonical shared-memory layouts of wgmma and tcgen05.mma
// operands, written as CuTe shape:stride data (the table of "Canonical
// Layouts", evaluated generically here) and the Swizzle<B,4,3> functor, so
// that the tests place operands independently of the emulator's
// MatrixDescriptor::elementAddress.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TESTS_EMU_CANONICALLAYOUTS_H
#define TILEPIPE_TESTS_EMU_CANONICALLAYOUTS_H

#include "Wgmma.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>

namespace tilepipe::emu::testing {

/// One mode of a CuTe layout: `size` (0: unbounded, the outermost) and
/// `stride` in elements, or in bytes when `bytes`.
struct Mode {
  unsigned size, stride;
  bool bytes = false;
};

/// Evaluates a (colexicographic) CuTe layout of modes, fastest first, at
/// `index`; the result is in bytes.
inline unsigned layoutBytes(unsigned index, std::initializer_list<Mode> modes, unsigned elemBytes) {
  unsigned offset = 0;
  for (const Mode &mode : modes) {
    unsigned coord = mode.size ? index % mode.size : index;
    offset += coord * mode.stride * (mode.bytes ? 1 : elemBytes);
    index = mode.size ? index / mode.size : 0;
  }
  return offset;
}

/// Swizzle<B,4,3> on a byte offset: bits 7.. XORed into bits 4..
inline unsigned swizzle(unsigned offset, unsigned b) {
  unsigned mask = ((1u << b) - 1) << 7;
  return offset ^ ((offset & mask) >> 3);
}

/// How an operand is laid out: major-ness, swizzle width (0, 32, 64, 128)
/// and the descriptor's LBO/SBO in bytes.
struct OperandLayout {
  bool mnMajor = false;
  unsigned swizzleBytes = 0;
  unsigned lbo = 0, sbo = 0;
};

inline unsigned swizzleBits(unsigned bytes) { return bytes == 32 ? 1 : bytes == 64 ? 2 : bytes == 128 ? 3 : 0; }

/// The byte offset of element (mn, k) from the ISA's canonical layout table
/// (T = 16 bytes of elements, strides of T-multiples in elements, LBO/SBO
/// in bytes), before the swizzle.
inline unsigned canonicalOffset(const OperandLayout &l, unsigned elemBytes, unsigned mn, unsigned k) {
  unsigned t = 16 / elemBytes, x = l.swizzleBytes / 16; // x = 2, 4, 8 for 32B, 64B, 128B
  if (!l.mnMajor && !x) // ((8,m),(T,2k)):((1T,SBO),(1,LBO))
    return layoutBytes(mn, {{8, t}, {0, l.sbo, true}}, elemBytes) +
           layoutBytes(k, {{t, 1}, {0, l.lbo, true}}, elemBytes);
  if (!l.mnMajor) // ((8,m),(T,2k)):((xT,SBO),(1,T))
    return layoutBytes(mn, {{8, x * t}, {0, l.sbo, true}}, elemBytes) +
           layoutBytes(k, {{t, 1}, {0, t}}, elemBytes);
  if (!x) // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
    return layoutBytes(mn, {{t, 1}, {1, t}, {0, l.sbo, true}}, elemBytes) +
           layoutBytes(k, {{8, t}, {0, l.lbo, true}}, elemBytes);
  // ((T,x,m),(8,k)):((1,T,LBO),(xT,SBO))
  return layoutBytes(mn, {{t, 1}, {x, t}, {0, l.lbo, true}}, elemBytes) +
         layoutBytes(k, {{8, x * t}, {0, l.sbo, true}}, elemBytes);
}

/// A compact layout for a rows x K operand (K = 32 bytes) under `l`'s
/// major-ness and swizzle: the strides a TMA box of this size would give.
inline OperandLayout compactLayout(bool mnMajor, unsigned swizzleBytes, unsigned rows,
                            unsigned elemBytes) {
  OperandLayout l{mnMajor, swizzleBytes};
  if (!mnMajor) {
    l.lbo = 128;                                      // none: next 16 bytes of K
    l.sbo = swizzleBytes ? 8 * swizzleBytes : 2 * 128; // next 8 rows
  } else if (!swizzleBytes) {
    l.sbo = 128;                                // next 16 bytes of rows
    l.lbo = rows * elemBytes / 16 * 128;        // next 8 of K
  } else {
    l.lbo = 8 * swizzleBytes;                                       // next atom of rows
    l.sbo = std::max(1u, rows * elemBytes / swizzleBytes) * 8 * swizzleBytes; // next 8 of K
  }
  return l;
}

/// Shared memory of the test, aligned like the emulator's CTA window.
struct Shared {
  alignas(1024) uint8_t bytes[32768] = {};
  SharedWindow window() const { return {bytes, sizeof bytes}; }

  /// Stores element (mn, k) = code(mn, k) at its swizzled place.
  void place(unsigned start, const OperandLayout &l, unsigned elemBytes, unsigned rows,
             unsigned k, const std::function<uint32_t(unsigned, unsigned)> &code) {
    for (unsigned mn = 0; mn < rows; ++mn)
      for (unsigned kk = 0; kk < k; ++kk) {
        unsigned at = swizzle(start + canonicalOffset(l, elemBytes, mn, kk),
                              swizzleBits(l.swizzleBytes));
        uint32_t value = code(mn, kk);
        std::memcpy(bytes + at, &value, elemBytes);
      }
  }
};

} // namespace tilepipe::emu::testing

#endif // TILEPIPE_TESTS_EMU_CANONICALLAYOUTS_H
