//===- NarrowFloatTest.cpp - fp4/fp6 elements and MX scale factors --------===//
//
// The element and scale formats of block-scaled MMA against values worked out
// by hand from the OCP Microscaling spec v1.0 (section 5.3) and the PTX ISA's
// "Alternate Floating-Point Data Formats": e2m1, e2m3, e3m2, ue8m0, ue4m3;
// then the cvt intrinsics between them and f32/f16/bf16 pairs.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

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

namespace {

// The cvt intrinsics in a kernel, one result per i32 of %out.
const char *kConversions = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %out) {
  %r0 = call i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float 1.5, float -6.0)
  %r1 = call i16 @llvm.nvvm.ff.to.e2m1x2.rn.relu.satfinite(float 100.0, float -1.0)
  %r2 = call i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float 7.75, float 0.1875)
  %r3 = call i16 @llvm.nvvm.ff.to.e3m2x2.rn.satfinite(float -1.125, float 0x7FF8000000000000)
  %r4 = call i16 @llvm.nvvm.ff.to.ue8m0x2.rz.satfinite(float 1.5, float 0x7FF0000000000000)
  %r5 = call i16 @llvm.nvvm.ff.to.ue8m0x2.rp.satfinite(float 1.5, float 0.75)
  %r6 = call i16 @llvm.nvvm.bf16x2.to.ue8m0x2.rp.satfinite(<2 x bfloat> <bfloat 3.0, bfloat 0.25>)
  %h0 = call <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn(i16 215)
  %h1 = call <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn.relu(i16 215)
  %h2 = call <2 x half> @llvm.nvvm.e3m2x2.to.f16x2.rn(i16 7969)
  %h3 = call <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16 32512)
  %w0 = zext i16 %r0 to i32
  %w1 = zext i16 %r1 to i32
  %w2 = zext i16 %r2 to i32
  %w3 = zext i16 %r3 to i32
  %w4 = zext i16 %r4 to i32
  %w5 = zext i16 %r5 to i32
  %w6 = zext i16 %r6 to i32
  %w7 = bitcast <2 x half> %h0 to i32
  %w8 = bitcast <2 x half> %h1 to i32
  %w9 = bitcast <2 x half> %h2 to i32
  %w10 = bitcast <2 x bfloat> %h3 to i32
  %v0 = insertelement <11 x i32> poison, i32 %w0, i32 0
  %v1 = insertelement <11 x i32> %v0, i32 %w1, i32 1
  %v2 = insertelement <11 x i32> %v1, i32 %w2, i32 2
  %v3 = insertelement <11 x i32> %v2, i32 %w3, i32 3
  %v4 = insertelement <11 x i32> %v3, i32 %w4, i32 4
  %v5 = insertelement <11 x i32> %v4, i32 %w5, i32 5
  %v6 = insertelement <11 x i32> %v5, i32 %w6, i32 6
  %v7 = insertelement <11 x i32> %v6, i32 %w7, i32 7
  %v8 = insertelement <11 x i32> %v7, i32 %w8, i32 8
  %v9 = insertelement <11 x i32> %v8, i32 %w9, i32 9
  %v10 = insertelement <11 x i32> %v9, i32 %w10, i32 10
  store <11 x i32> %v10, ptr addrspace(1) %out, align 4
  ret void
}
declare i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e2m1x2.rn.relu.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e3m2x2.rn.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.ue8m0x2.rz.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.ue8m0x2.rp.satfinite(float, float)
declare i16 @llvm.nvvm.bf16x2.to.ue8m0x2.rp.satfinite(<2 x bfloat>)
declare <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn.relu(i16)
declare <2 x half> @llvm.nvvm.e3m2x2.to.f16x2.rn(i16)
declare <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16)
)";

TEST(NarrowFloat, ConversionIntrinsicsPackTheFirstSourceHigh) {
  auto emulator = Emulator::createFromIR(kConversions, "k.ll");
  ASSERT_TRUE(bool(emulator)) << llvm::toString(emulator.takeError());
  std::vector<uint32_t> out(11, 0xdeadbeef);
  emulator->registerBuffer(out.data(), out.size() * 4, "out");
  llvm::Error err =
      emulator->launch("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, {KernelArg::pointer(out.data())});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(out[0], 0x3fu);     // e2m1 1.5 = 0.01.1 high, -6 = 1.11.1 low
  EXPECT_EQ(out[1], 0x70u);     // 100 saturates to 6; .relu(-1) is 0
  EXPECT_EQ(out[2], 0x1f02u);   // e2m3: 7.75 saturates to 7.5; 0.1875 ties to 0.25
  EXPECT_EQ(out[3], 0x2c1fu);   // e3m2 -1.125 ties to -1; NaN is +28
  EXPECT_EQ(out[4], 0x7ffeu);   // .rz: 1.5 -> 2^0; infinity saturates to 2^127
  EXPECT_EQ(out[5], 0x807fu);   // .rp: 1.5 -> 2^1, 0.75 -> 2^0
  EXPECT_EQ(out[6], 0x7d81u);   // bf16x2 <3.0 low, 0.25 high>, .rp: 2^-2 high, 2^2 low
  EXPECT_EQ(out[7], 0xc2004600u); // 0xd7: e2m1 0xd = -3 high, 0x7 = 6 low
  EXPECT_EQ(out[8], 0x00004600u); // .relu(-3) is 0
  EXPECT_EQ(out[9], 0x4f00ac00u); // 0x1f21: e3m2 28 high, 0x21 = -0.0625 low
  EXPECT_EQ(out[10], 0x3f800040u); // ue8m0 0x7f00: 2^0 high, 2^-127 low (bf16 subnormal)
}

// .satfinite is part of every encoding the emulator knows; ue8m0 without it
// (NaN on overflow) is not emulated, and neither are unknown pairings.
TEST(NarrowFloat, OnlyTheEmulatedConversionsAreFound) {
  EXPECT_TRUE(lookupIntrinsic("llvm.nvvm.ff.to.e3m2x2.rn.relu.satfinite"));
  EXPECT_TRUE(lookupIntrinsic("llvm.nvvm.e2m3x2.to.f16x2.rn.relu"));
  EXPECT_FALSE(lookupIntrinsic("llvm.nvvm.ff.to.ue8m0x2.rz"));
  EXPECT_FALSE(lookupIntrinsic("llvm.nvvm.ff.to.e2m1x2.rn"));
  EXPECT_FALSE(lookupIntrinsic("llvm.nvvm.bf16x2.to.e2m1x2.rn.satfinite"));
  EXPECT_FALSE(lookupIntrinsic("llvm.nvvm.ue8m0x2.to.f16x2.rn"));
}

} // namespace
