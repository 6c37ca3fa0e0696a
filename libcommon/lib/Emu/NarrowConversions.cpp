//===- NarrowConversions.cpp - cvt between f32 and fp4/fp6/ue8m0 pairs ----===//
//
// The NVVM intrinsics of PTX's conversions to and from the block-scaled MMA
// formats (sm_100a/sm_120a and later):
//   ff.to.e2m1x2.rn[.relu].satfinite             cvt.rn.satfinite[.relu].e2m1x2.f32 d, a, b
//   ff.to.{e2m3x2,e3m2x2}.rn[.relu].satfinite    cvt.rn.satfinite[.relu].e2m3x2.f32 d, a, b
//   {e2m1x2,e2m3x2,e3m2x2}.to.f16x2.rn[.relu]    cvt.rn[.relu].f16x2.e2m1x2 d, a
//   ff.to.ue8m0x2.{rz,rp}.satfinite              cvt.{rz,rp}.satfinite.ue8m0x2.f32 d, a, b
//   bf16x2.to.ue8m0x2.{rz,rp}.satfinite          cvt.{rz,rp}.satfinite.ue8m0x2.bf16x2 d, a
//   ue8m0x2.to.bf16x2                            cvt.rn.bf16x2.ue8m0x2 d, a
// As in every cvt to a pair, the first source (or the upper half) goes to
// the upper element. An e2m1 pair is one byte (a's code in bits 7:4); an
// fp6 pair is two bytes, each code in bits 5:0 of its byte. Values come from
// FloatBits (nearest even, saturating; NaN becomes the largest positive
// value, these formats having none). The ue8m0 conversions without
// .satfinite are not emulated.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "PackedPairConversion.h"

#include <cmath>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum NarrowFlags : uint32_t {
  kFormatMask = 3, // NarrowFloat, or kUe8m0
  kUe8m0 = 3,
  kRelu = 4,
  kDecode = 8,
  kRoundUp = 16,    // ue8m0 .rp (otherwise .rz)
  kFromBFloat = 32, // bf16x2 source
};

NarrowFloat formatOf(uint32_t flags) { return NarrowFloat(flags & kFormatMask); }

/// Bits per code in the packed pair: 4 for e2m1, else a byte each.
unsigned codeBits(uint32_t flags) {
  return (flags & kFormatMask) == uint32_t(NarrowFloat::E2m1) ? 4 : 8;
}

uint32_t encode(float value, uint32_t flags) {
  if ((flags & kFormatMask) == kUe8m0)
    return floatToUe8m0(value, (flags & kRoundUp) ? Rounding::Up : Rounding::Zero);
  if ((flags & kRelu) && value < 0)
    value = 0;
  return floatToNarrow(formatOf(flags), value);
}

/// The half (f16, or bf16 for ue8m0) of one code.
uint16_t decode(uint32_t code, uint32_t flags) {
  if ((flags & kFormatMask) == kUe8m0)
    return code == 0xff ? 0x7fff : doubleToBFloat(ue8m0ToDouble(uint8_t(code)));
  double value = narrowToDouble(formatOf(flags), uint8_t(code));
  if ((flags & kRelu) && value < 0)
    value = 0;
  return doubleToHalf(value); // every fp4/fp6 value is exact in f16
}

void narrowHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  uint32_t flags = h.aux;
  unsigned bits = codeBits(flags);
  if (flags & kDecode)
    return decodePackedPair(h, args, ret, bits,
                            [flags](uint32_t code) { return decode(code, flags); });
  encodePackedPair(h, args, ret, bits, (flags & kFromBFloat) ? bfloatToFloat : nullptr,
                   [flags](float value) { return encode(value, flags); });
}

/// "e2m1x2" and friends at the front of `n`, consumed: the format flag.
std::optional<uint32_t> consumeFormat(StringRef &n) {
  if (n.consume_front("e2m1x2"))
    return uint32_t(NarrowFloat::E2m1);
  if (n.consume_front("e2m3x2"))
    return uint32_t(NarrowFloat::E2m3);
  if (n.consume_front("e3m2x2"))
    return uint32_t(NarrowFloat::E3m2);
  if (n.consume_front("ue8m0x2"))
    return kUe8m0;
  return std::nullopt;
}

std::optional<uint32_t> parse(StringRef n) {
  if (n == "ue8m0x2.to.bf16x2")
    return kUe8m0 | kDecode;
  bool fromFloats = n.consume_front("ff.to.");
  bool fromBFloats = !fromFloats && n.consume_front("bf16x2.to.");
  auto format = consumeFormat(n);
  if (!format)
    return std::nullopt;
  if (*format == kUe8m0) {
    if (!fromFloats && !fromBFloats)
      return std::nullopt;
    uint32_t flags = kUe8m0 | (fromBFloats ? uint32_t(kFromBFloat) : 0u);
    if (n == ".rp.satfinite")
      return flags | kRoundUp;
    return n == ".rz.satfinite" ? std::optional(flags) : std::nullopt;
  }
  if (fromBFloats)
    return std::nullopt;
  uint32_t flags = *format | (fromFloats ? 0u : uint32_t(kDecode));
  if (!fromFloats && !n.consume_front(".to.f16x2"))
    return std::nullopt;
  if (!n.consume_front(".rn"))
    return std::nullopt;
  if (n.consume_front(".relu"))
    flags |= kRelu;
  // Encoding always saturates (.satfinite is mandatory); decoding has none.
  if (fromFloats ? n != ".satfinite" : !n.empty())
    return std::nullopt;
  return flags;
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupNarrowConversion(StringRef n) {
  std::optional<uint32_t> flags = parse(n);
  if (!flags)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = narrowHandler;
  h.aux = *flags;
  return h;
}
