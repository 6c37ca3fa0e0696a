//===- FloatBits.h - f16 / bf16 conversions with PTX rounding -------------===//
#ifndef TILEPIPE_LIB_EMU_FLOATBITS_H
#define TILEPIPE_LIB_EMU_FLOATBITS_H

#include <cstdint>
#include <cstring>

namespace tilepipe::emu {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

enum class Rounding : uint8_t { Nearest, Zero, Down, Up };

/// float -> IEEE binary16 bits (round to nearest even unless `rounding`).
uint16_t floatToHalf(float value, Rounding rounding = Rounding::Nearest);
float halfToFloat(uint16_t bits);
/// double -> binary16 with a single rounding.
uint16_t doubleToHalf(double value);

/// float -> bfloat16 bits.
uint16_t floatToBFloat(float value, Rounding rounding = Rounding::Nearest);
/// double -> bfloat16 with a single rounding.
uint16_t doubleToBFloat(double value, Rounding rounding = Rounding::Nearest);
inline float bfloatToFloat(uint16_t bits) { return bitsFloat(uint32_t(bits) << 16); }

/// The 8-bit float formats of mma/wgmma .e4m3 and .e5m2 operands (PTX ISA
/// "Alternate Floating-Point Data Formats"), decoded exactly.
/// e4m3: bias 7, no infinities, S.1111.111 is NaN, 448 the largest value.
double e4m3ToDouble(uint8_t bits);
/// e5m2: binary16 with the low 8 fraction bits cut off (infinities and NaNs
/// as in IEEE 754).
inline float e5m2ToFloat(uint8_t bits) { return halfToFloat(uint16_t(bits) << 8); }
/// float -> e4m3 / e5m2 as cvt.rn.satfinite: nearest even, magnitudes beyond
/// the largest finite value (infinities too) clamp to it, NaN is 0x7f.
uint8_t floatToE4m3(float value);
uint8_t floatToE5m2(float value);

/// The narrow element formats of block-scaled MMA (OCP Microscaling spec
/// v1.0, PTX ISA "Alternate Floating-Point Data Formats"): no infinities and no
/// NaNs; the all-zero exponent field holds subnormals.
///   e2m1 (fp4): bias 1, {0, 0.5, 1, 1.5, 2, 3, 4, 6}; 4 bits.
///   e2m3 (fp6): bias 1, largest 7.5, smallest subnormal 0.125; 6 bits.
///   e3m2 (fp6): bias 3, largest 28, smallest subnormal 0.0625; 6 bits.
enum class NarrowFloat : uint8_t { E2m1, E2m3, E3m2 };
/// Decodes the low 4 (e2m1) or 6 bits of `bits`; higher bits are ignored, as
/// the hardware ignores the padding of fp4/fp6 operands held in bytes.
double narrowToDouble(NarrowFloat format, uint8_t bits);
/// float -> narrow code as cvt.rn.satfinite: nearest even, magnitudes past the
/// largest finite value (infinities too) clamp to it; NaN has no code in these
/// formats and becomes the positive largest value.
uint8_t floatToNarrow(NarrowFloat format, float value);

/// The scale-factor formats of block-scaled MMA.
/// ue8m0: 2^(bits - 127), 0xff is NaN (OCP MX E8M0).
double ue8m0ToDouble(uint8_t bits);
/// float -> ue8m0 as cvt.{rz,rp}.satfinite.ue8m0x2.f32 (only Zero and Up are
/// PTX roundings of this cvt): the power of two at or below (rz) / at or
/// above (rp) the magnitude, clamped to [2^-127, 2^127]; NaN is 0xff.
uint8_t floatToUe8m0(float value, Rounding rounding);
/// ue4m3: e4m3 without the sign (bit 7 is ignored), 448 the largest value,
/// 0x7f NaN; the scale format of mma .kind::mxf4nvf4 with .scale_vec::4X.
inline double ue4m3ToDouble(uint8_t bits) { return e4m3ToDouble(bits & 0x7f); }
/// float -> ue4m3 as e4m3 (nearest even, saturating); negative values have no
/// code and clamp to 0.
uint8_t floatToUe4m3(float value);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_FLOATBITS_H
