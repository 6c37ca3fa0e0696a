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

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_FLOATBITS_H
