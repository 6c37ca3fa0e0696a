//===- NarrowFloatTest.cpp - fp4/fp6 elements and MX scale factors --------===//
//
// The element and scale formats of block-scaled MMA against values worked out
// by hand from the OCP Microscaling spec v1.0 (section 5.3) and the PTX ISA's
// "Alternate Floating-Point Data Formats": e2m1, e2m3, e3m2, ue8m0, ue4m3.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tilepipe::emu;

namespace {

TEST(NarrowFloat, E2m1DecodesEveryCode) {
  // S.EE.M, bias 1: exponent 0 is the subnormal 0.M * 2^0.
  const double positive[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (unsigned code = 0; code < 8; ++code) {
    EXPECT_EQ(narrowToDouble(NarrowFloat::E2m1, code), positive[code]) << code;
    EXPECT_EQ(narrowToDouble(NarrowFloat::E2m1, code | 8), -positive[code]) << code;
  }
  EXPECT_TRUE(std::signbit(narrowToDouble(NarrowFloat::E2m1, 8))); // -0
  // The upper nibble of a byte is not part of the element.
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m1, 0xf3), 1.5);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m1, 0x3b), -1.5);
}

TEST(NarrowFloat, E2m3AndE3m2DecodeHandWorkedCodes) {
  // e2m3 S.EE.MMM, bias 1.
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x01), 0.125); // 0.001 * 2^0
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x07), 0.875);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x08), 1.0); // 1.000 * 2^0
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x0f), 1.875);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x10), 2.0);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x1f), 7.5); // 1.111 * 2^2
  EXPECT_EQ(narrowToDouble(NarrowFloat::E2m3, 0x3f), -7.5);
  // e3m2 S.EEE.MM, bias 3.
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x01), 0.0625); // 0.01 * 2^-2
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x03), 0.1875);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x04), 0.25); // 1.00 * 2^-2
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x0c), 1.0);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x1c), 16.0);
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x1f), 28.0); // 1.11 * 2^4
  EXPECT_EQ(narrowToDouble(NarrowFloat::E3m2, 0x22), -0.125);
}

TEST(NarrowFloat, EncodingRoundTripsEveryCode) {
  for (NarrowFloat format : {NarrowFloat::E2m1, NarrowFloat::E2m3, NarrowFloat::E3m2}) {
    unsigned codes = format == NarrowFloat::E2m1 ? 16 : 64;
    for (unsigned code = 0; code < codes; ++code)
      EXPECT_EQ(floatToNarrow(format, float(narrowToDouble(format, code))), code)
          << int(format) << " " << code;
  }
}

TEST(NarrowFloat, EncodingRoundsToNearestEvenAndSaturates) {
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 2.5f), 0x4);  // 2 | 3: even is 2
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 5.0f), 0x6);  // 4 | 6: even is 4
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 5.1f), 0x7);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 0.25f), 0x0); // 0 | 0.5
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 0.75f), 0x2); // 0.5 | 1
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, -1.25f), 0xa); // -1 | -1.5
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, 100.0f), 0x7);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, -INFINITY), 0xf);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m1, NAN), 0x7);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m3, 7.75f), 0x1f);   // past 7.5
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m3, 0.0625f), 0x00); // 0 | 0.125
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m3, 0.1875f), 0x02); // 0.125 | 0.25
  EXPECT_EQ(floatToNarrow(NarrowFloat::E2m3, NAN), 0x1f);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E3m2, 30.0f), 0x1f);
  EXPECT_EQ(floatToNarrow(NarrowFloat::E3m2, -1.125f), 0x2c); // -1 | -1.25
  EXPECT_EQ(floatToNarrow(NarrowFloat::E3m2, 0.03125f), 0x00);
}

TEST(NarrowFloat, Ue8m0IsAPowerOfTwo) {
  EXPECT_EQ(ue8m0ToDouble(127), 1.0);
  EXPECT_EQ(ue8m0ToDouble(0), std::ldexp(1.0, -127));
  EXPECT_EQ(ue8m0ToDouble(0xfe), std::ldexp(1.0, 127));
  EXPECT_TRUE(std::isnan(ue8m0ToDouble(0xff)));
  EXPECT_EQ(floatToUe8m0(1.0f, Rounding::Zero), 127);
  EXPECT_EQ(floatToUe8m0(1.0f, Rounding::Up), 127);
  EXPECT_EQ(floatToUe8m0(1.5f, Rounding::Zero), 127);
  EXPECT_EQ(floatToUe8m0(1.5f, Rounding::Up), 128);
  EXPECT_EQ(floatToUe8m0(0.75f, Rounding::Zero), 126);
  EXPECT_EQ(floatToUe8m0(0.75f, Rounding::Up), 127);
  EXPECT_EQ(floatToUe8m0(std::ldexp(1.0f, -130), Rounding::Zero), 0);
  EXPECT_EQ(floatToUe8m0(std::numeric_limits<float>::max(), Rounding::Up), 0xfe);
  EXPECT_EQ(floatToUe8m0(INFINITY, Rounding::Zero), 0xfe);
  EXPECT_EQ(floatToUe8m0(NAN, Rounding::Up), 0xff);
}

TEST(NarrowFloat, Ue4m3IsUnsignedE4m3) {
  EXPECT_EQ(ue4m3ToDouble(0x38), 1.0); // 0.0111.000: 2^(7-7)
  EXPECT_EQ(ue4m3ToDouble(0xb8), 1.0); // bit 7 is not a sign
  EXPECT_EQ(ue4m3ToDouble(0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(ue4m3ToDouble(0x7e), 448.0);
  EXPECT_TRUE(std::isnan(ue4m3ToDouble(0x7f)));
  EXPECT_EQ(floatToUe4m3(1.0f), 0x38);
  EXPECT_EQ(floatToUe4m3(1000.0f), 0x7e);
  EXPECT_EQ(floatToUe4m3(-1.0f), 0x00);
  for (unsigned code = 0; code < 0x7f; ++code)
    EXPECT_EQ(floatToUe4m3(float(ue4m3ToDouble(code))), code) << code;
}

} // namespace
