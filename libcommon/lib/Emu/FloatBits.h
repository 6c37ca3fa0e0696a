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
inline float bfloatToFloat(uint16_t bits) { return bitsFloat(uint32_t(bits) << 16); }

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_FLOATBITS_H
