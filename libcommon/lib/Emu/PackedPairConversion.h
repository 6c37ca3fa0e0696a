//===- PackedPairConversion.h - cvt to and from packed pairs ----*- C++ -*-===//
//
// The shape shared by PTX's conversions between f32 (or a packed 16-bit
// pair) and a packed pair of narrow codes (Fp8Conversions,
// NarrowConversions): as in every cvt to a pair, the first source (or the
// upper half) goes to the upper element.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_EMU_PACKEDPAIRCONVERSION_H
#define TILEPIPE_EMU_PACKEDPAIRCONVERSION_H

#include "Intrinsics.h"

#include <cstdint>

namespace tilepipe::emu {

/// Returns a pair of `codeBits`-bit codes (argument 0, upper code above the
/// lower) as a pair of 16-bit values, each from `decode(code)`.
template <typename Decode>
void decodePackedPair(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret,
                      unsigned codeBits, Decode decode) {
  uint16_t pair = h.arg<uint16_t>(args, 0);
  uint32_t mask = (1u << codeBits) - 1;
  uint32_t lo = decode(pair & mask), hi = decode((pair >> codeBits) & mask);
  h.result(ret, uint32_t(hi << 16 | lo));
}

/// Returns two floats as a pair of `codeBits`-bit codes, each from
/// `encode(value)`. The floats are arguments 0 (upper) and 1, or with
/// `widen` set the halves of the 16-bit pair in argument 0, each widened by
/// it.
template <typename Encode>
void encodePackedPair(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret,
                      unsigned codeBits, float (*widen)(uint16_t), Encode encode) {
  float hi, lo;
  if (widen) {
    uint32_t pair = h.arg<uint32_t>(args, 0);
    lo = widen(uint16_t(pair)), hi = widen(uint16_t(pair >> 16));
  } else {
    hi = h.arg<float>(args, 0), lo = h.arg<float>(args, 1);
  }
  h.result(ret, uint16_t(encode(hi) << codeBits | encode(lo)));
}

} // namespace tilepipe::emu

#endif // TILEPIPE_EMU_PACKEDPAIRCONVERSION_H
