//===- FloatBits.cpp - f16 / bf16 conversions with PTX rounding -----------===//
#include "FloatBits.h"

#include <algorithm>
#include <cmath>

using namespace tilepipe::emu;

/// Decides whether dropping `dropped` low bits (of which the highest is the
/// half-way bit) rounds the magnitude up.
static bool roundsUp(uint64_t kept, uint64_t dropped, unsigned droppedBits,
                     bool negative, Rounding rounding) {
  if (droppedBits == 0 || dropped == 0)
    return false;
  switch (rounding) {
  case Rounding::Zero:
    return false;
  case Rounding::Down:
    return negative;
  case Rounding::Up:
    return !negative;
  case Rounding::Nearest: {
    uint64_t half = uint64_t(1) << (droppedBits - 1);
    return dropped > half || (dropped == half && (kept & 1));
  }
  }
  return false;
}

/// Rounds a finite, non-zero double to a binary format with `mantBits`
/// fraction bits and exponent bias `bias` (max exponent `maxExp`).
static uint32_t roundToSmallFloat(double value, unsigned mantBits, int bias,
                                  int expBits, Rounding rounding) {
  bool negative = std::signbit(value);
  uint32_t sign = uint32_t(negative) << (mantBits + expBits);
  uint32_t expMask = (1u << expBits) - 1;
  if (std::isnan(value))
    return sign | (expMask << mantBits) | (1u << (mantBits - 1));
  double mag = std::fabs(value);
  auto overflow = [&]() -> uint32_t {
    bool toInf = rounding == Rounding::Nearest ||
                 (rounding == Rounding::Up && !negative) ||
                 (rounding == Rounding::Down && negative);
    return sign | (toInf ? expMask << mantBits
                         : ((expMask - 1) << mantBits) | ((1u << mantBits) - 1));
  };
  if (std::isinf(mag))
    return sign | (expMask << mantBits);
  if (mag == 0)
    return sign;
  int exp;
  double frac = std::frexp(mag, &exp); // mag = frac * 2^exp, frac in [0.5, 1)
  int e = exp - 1 + bias;              // biased exponent of the 1.xxx form
  // Scale so that the integer part holds the kept significand bits.
  int shift = e >= 1 ? int(mantBits) : int(mantBits) - 1 + e; // subnormals keep fewer
  double scaled = std::ldexp(frac, shift + 1);
  // 53-bit exact split into kept and dropped parts.
  double keptF = std::floor(scaled);
  double rest = scaled - keptF; // exact
  uint64_t kept = uint64_t(keptF);
  const unsigned extra = 40;
  uint64_t dropped = uint64_t(std::ldexp(rest, extra));
  bool sticky = std::ldexp(rest, extra) != double(dropped);
  if (sticky)
    dropped |= 1;
  if (roundsUp(kept, dropped, extra, negative, rounding))
    ++kept;
  if (e < 1) {
    // Subnormal (or rounds up into the smallest normal: the encoding works).
    return sign | uint32_t(kept);
  }
  if (kept >> (mantBits + 1)) { // carried into the next binade
    kept >>= 1;
    ++e;
  }
  if (e >= int(expMask))
    return overflow();
  return sign | (uint32_t(e) << mantBits) | (uint32_t(kept) & ((1u << mantBits) - 1));
}

uint16_t tilepipe::emu::floatToHalf(float value, Rounding rounding) {
  return uint16_t(roundToSmallFloat(value, 10, 15, 5, rounding));
}

uint16_t tilepipe::emu::doubleToHalf(double value) {
  return uint16_t(roundToSmallFloat(value, 10, 15, 5, Rounding::Nearest));
}

uint16_t tilepipe::emu::floatToBFloat(float value, Rounding rounding) {
  return uint16_t(roundToSmallFloat(value, 7, 127, 8, rounding));
}

uint16_t tilepipe::emu::doubleToBFloat(double value, Rounding rounding) {
  return uint16_t(roundToSmallFloat(value, 7, 127, 8, rounding));
}

float tilepipe::emu::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  int exp = (bits >> 10) & 31;
  uint32_t mant = bits & 0x3ff;
  if (exp == 31)
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    float mag = std::ldexp(float(mant), -24);
    return sign ? -mag : mag;
  }
  return bitsFloat(sign | (uint32_t(exp - 15 + 127) << 23) | (mant << 13));
}

double tilepipe::emu::e4m3ToDouble(uint8_t bits) {
  bool negative = bits & 0x80;
  unsigned exponent = (bits >> 3) & 0xf, mantissa = bits & 0x7;
  if (exponent == 0xf && mantissa == 0x7)
    return std::nan("");
  double magnitude = exponent == 0 ? std::ldexp(double(mantissa), -9) // subnormal: m/8 * 2^-6
                                   : std::ldexp(double(8 + mantissa), int(exponent) - 10);
  return negative ? -magnitude : magnitude;
}

// Both 8-bit formats are rounded as binary formats with a 5-bit exponent
// field (e4m3's 4 bits cannot hold the overflow), then clamped.
uint8_t tilepipe::emu::floatToE4m3(float value) {
  if (std::isnan(value))
    return 0x7f;
  uint32_t bits = roundToSmallFloat(value, 3, 7, 5, Rounding::Nearest);
  uint32_t magnitude = std::min(bits & 0xffu, 0x7eu); // 0x7e = 448; 0x7f is NaN
  return uint8_t((bits >> 8) << 7 | magnitude);
}

uint8_t tilepipe::emu::floatToE5m2(float value) {
  if (std::isnan(value))
    return 0x7f;
  uint32_t bits = roundToSmallFloat(value, 2, 15, 5, Rounding::Nearest);
  uint32_t magnitude = std::min(bits & 0x7fu, 0x7bu); // 0x7b = 57344, 0x7c infinity
  return uint8_t((bits & 0x80) | magnitude);
}

namespace {
struct NarrowLayout {
  unsigned expBits, mantBits;
  int bias;
};

NarrowLayout layoutOf(NarrowFloat format) {
  switch (format) {
  case NarrowFloat::E2m1:
    return {2, 1, 1};
  case NarrowFloat::E2m3:
    return {2, 3, 1};
  case NarrowFloat::E3m2:
    return {3, 2, 3};
  }
  return {2, 1, 1};
}
} // namespace

double tilepipe::emu::narrowToDouble(NarrowFloat format, uint8_t bits) {
  NarrowLayout layout = layoutOf(format);
  unsigned width = 1 + layout.expBits + layout.mantBits;
  bool negative = (bits >> (width - 1)) & 1;
  unsigned exponent = (bits >> layout.mantBits) & ((1u << layout.expBits) - 1);
  unsigned mantissa = bits & ((1u << layout.mantBits) - 1);
  // Subnormals share the scale of the smallest normal binade, without the
  // implicit leading one.
  int scale = std::max(int(exponent), 1) - layout.bias - int(layout.mantBits);
  unsigned significand = exponent == 0 ? mantissa : (1u << layout.mantBits) | mantissa;
  double magnitude = std::ldexp(double(significand), scale);
  return negative ? -magnitude : magnitude;
}

// As for e4m3: round as a binary format with one more exponent bit (so that
// the top binade is not taken for infinities), then clamp to the largest code.
uint8_t tilepipe::emu::floatToNarrow(NarrowFloat format, float value) {
  NarrowLayout layout = layoutOf(format);
  unsigned magnitudeBits = layout.expBits + layout.mantBits;
  uint32_t largest = (1u << magnitudeBits) - 1;
  if (std::isnan(value))
    return uint8_t(largest);
  uint32_t bits = roundToSmallFloat(value, layout.mantBits, layout.bias,
                                    int(layout.expBits) + 1, Rounding::Nearest);
  uint32_t sign = (bits >> (magnitudeBits + 1)) & 1;
  uint32_t magnitude = std::min(bits & ((2u << magnitudeBits) - 1), largest);
  return uint8_t(sign << magnitudeBits | magnitude);
}

double tilepipe::emu::ue8m0ToDouble(uint8_t bits) {
  return bits == 0xff ? std::nan("") : std::ldexp(1.0, int(bits) - 127);
}

uint8_t tilepipe::emu::floatToUe8m0(float value, Rounding rounding) {
  if (std::isnan(value))
    return 0xff;
  double magnitude = std::fabs(double(value));
  if (std::isinf(magnitude))
    return 0xfe;
  if (magnitude == 0)
    return 0x00;
  int exp;
  double frac = std::frexp(magnitude, &exp); // magnitude = 2f * 2^(exp-1)
  int power = exp - 1 + (rounding == Rounding::Up && frac != 0.5 ? 1 : 0);
  return uint8_t(std::clamp(power + 127, 0, 0xfe));
}

uint8_t tilepipe::emu::floatToUe4m3(float value) {
  if (std::isnan(value))
    return 0x7f;
  return value <= 0 ? 0 : floatToE4m3(value);
}
