//===- Fp8Conversions.cpp - cvt between f32/f16x2 and e4m3x2/e5m2x2 -------===//
//
// The NVVM intrinsics of PTX's fp8 conversions (sm_89+):
//   ff.to.{e4m3x2,e5m2x2}.rn[.relu]     cvt.rn.satfinite[.relu].f8x2.f32 d, a, b
//   f16x2.to.{e4m3x2,e5m2x2}.rn[.relu]  cvt.rn.satfinite[.relu].f8x2.f16x2 d, a
//   {e4m3x2,e5m2x2}.to.f16x2.rn[.relu]  cvt.rn[.relu].f16x2.f8x2 d, a
// As in every cvt to a packed pair, the first source (or the upper half of
// the f16x2) goes to the upper byte/half of the result (PTX ISA, "cvt").
// .relu turns negative results (not NaN) into +0.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "PackedPairConversion.h"

#include <cmath>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum Fp8Flags : uint32_t {
  kE5m2 = 1,     // e5m2 (otherwise e4m3)
  kRelu = 2,
  kFromHalf = 4, // f16x2 source
  kDecode = 8,   // f8x2 -> f16x2
};

float relu(float value, bool enabled) {
  return enabled && value < 0 ? 0.0f : value;
}

uint8_t encode(float value, uint32_t flags) {
  value = relu(value, flags & kRelu);
  return (flags & kE5m2) ? floatToE5m2(value) : floatToE4m3(value);
}

uint16_t decode(uint8_t code, uint32_t flags) {
  // Every e4m3 and e5m2 value is exact in f16; e4m3's NaN becomes f16's.
  float value = (flags & kE5m2) ? e5m2ToFloat(code) : float(e4m3ToDouble(code));
  if (std::isnan(value))
    return 0x7fff;
  return floatToHalf(relu(value, flags & kRelu));
}

void fp8Handler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  uint32_t flags = h.aux;
  if (flags & kDecode)
    return decodePackedPair(h, args, ret, 8,
                            [flags](uint32_t code) { return decode(uint8_t(code), flags); });
  encodePackedPair(h, args, ret, 8, (flags & kFromHalf) ? halfToFloat : nullptr,
                   [flags](float value) { return encode(value, flags); });
}

/// "e4m3x2" or "e5m2x2" at the front of `n`, consumed; kE5m2 or 0.
std::optional<uint32_t> consumeFormat(StringRef &n) {
  if (n.consume_front("e4m3x2"))
    return 0;
  if (n.consume_front("e5m2x2"))
    return kE5m2;
  return std::nullopt;
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupFp8Conversion(StringRef n) {
  bool fromFloats = n.consume_front("ff.to.");
  bool fromHalves = !fromFloats && n.consume_front("f16x2.to.");
  uint32_t flags = fromHalves ? uint32_t(kFromHalf) : fromFloats ? 0u : uint32_t(kDecode);
  auto format = consumeFormat(n);
  if (!format || ((flags & kDecode) && !n.consume_front(".to.f16x2")))
    return std::nullopt;
  flags |= *format;
  if (n == ".rn.relu")
    flags |= kRelu;
  else if (n != ".rn")
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = fp8Handler;
  h.aux = flags;
  return h;
}
