//===- FloatConversionTest.cpp - f16/bf16 conversions in JIT-compiled IR --===//
//
// fptrunc/fpext between f32/f64 and f16/bf16 and bf16 arithmetic, run as
// nvptx64 kernels through the emulator, against the bit-level reference of
// FloatBits.cpp (exact rounding in double arithmetic) over a wide sweep: every
// upper half of the f32 bit patterns with the lower halves that sit at, just
// below and just above the rounding boundaries. The GPU keeps subnormal
// results (PTX ISA, cvt: subnormals are flushed only with .ftz).
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace tilepipe::emu;

namespace {

/// A kernel `name` that maps in[i] to out[i] for i < n (grid-stride loop);
/// `body` turns %x (of type `from`) into %y (of type `to`).
std::string mapKernel(const char *name, const char *from, const char *to, const char *body) {
  return llvm::formatv(R"(
define ptx_kernel void @{0}(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %ctaid, 128
  %first = add i32 %base, %tid
  %stride = mul i32 %nctaid, 128
  br label %loop
loop:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %src = getelementptr {1}, ptr addrspace(1) %in, i32 %i
  %x = load {1}, ptr addrspace(1) %src
  {3}
  %dst = getelementptr {2}, ptr addrspace(1) %out, i32 %i
  store {2} %y, ptr addrspace(1) %dst
  %next = add i32 %i, %stride
  br label %loop
done:
  ret void
}
)",
                       name, from, to, body)
      .str();
}

/// Element-wise bf16 arithmetic on in[0..2] = a, b, c (bits): out[k] is the
/// k-th result below.
const char *kBFloatArithmetic = R"(
define ptx_kernel void @bf16_arithmetic(ptr addrspace(1) %in, ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  %pb = getelementptr bfloat, ptr addrspace(1) %in, i32 1
  %pc = getelementptr bfloat, ptr addrspace(1) %in, i32 2
  %a = load bfloat, ptr addrspace(1) %in
  %b = load bfloat, ptr addrspace(1) %pb
  %c = load bfloat, ptr addrspace(1) %pc
  %add = fadd bfloat %a, %a
  %sub = fsub bfloat %b, %a
  %mul = fmul bfloat %b, %c
  %div = fdiv bfloat %b, %c
  %fma = call bfloat @llvm.fma.bf16(bfloat %b, bfloat %c, bfloat %a)
  %neg = fneg bfloat %a
  %abs = call bfloat @llvm.fabs.bf16(bfloat %neg)
  %min = call bfloat @llvm.minnum.bf16(bfloat %a, bfloat %b)
  %va = insertelement <2 x bfloat> poison, bfloat %a, i32 0
  %vab = insertelement <2 x bfloat> %va, bfloat %b, i32 1
  %vadd = fadd <2 x bfloat> %vab, %vab
  %vadd1 = extractelement <2 x bfloat> %vadd, i32 1
  %results = insertelement <9 x bfloat> poison, bfloat %add, i32 0
  %r1 = insertelement <9 x bfloat> %results, bfloat %sub, i32 1
  %r2 = insertelement <9 x bfloat> %r1, bfloat %mul, i32 2
  %r3 = insertelement <9 x bfloat> %r2, bfloat %div, i32 3
  %r4 = insertelement <9 x bfloat> %r3, bfloat %fma, i32 4
  %r5 = insertelement <9 x bfloat> %r4, bfloat %neg, i32 5
  %r6 = insertelement <9 x bfloat> %r5, bfloat %abs, i32 6
  %r7 = insertelement <9 x bfloat> %r6, bfloat %min, i32 7
  %r8 = insertelement <9 x bfloat> %r7, bfloat %vadd1, i32 8
  store <9 x bfloat> %r8, ptr addrspace(1) %out, align 2
  ret void
}
declare bfloat @llvm.fma.bf16(bfloat, bfloat, bfloat)
declare bfloat @llvm.fabs.bf16(bfloat)
declare bfloat @llvm.minnum.bf16(bfloat, bfloat)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
)";

/// cvt to f16/bf16 with every rounding modifier, through intrinsics and
/// single-instruction inline PTX. %a = 1 + 2^-11 + 2^-20 is just above the
/// f16 tie between 0x3c00 and 0x3c01; %b = 1 + 2^-8 + 2^-12 just above the
/// bf16 tie between 0x3f80 and 0x3f81.
const char *kRoundingModes = R"(
define ptx_kernel void @rounding_modes(ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  %a = fadd float 0x3FF0020000000000, 0x3EB0000000000000
  %na = fneg float %a
  %b = fadd float 0x3FF0100000000000, 0x3F30000000000000
  %nb = fneg float %b
  %r0 = call i16 asm "cvt.rn.f16.f32 $0, $1;", "=h,f"(float %a)
  %r1 = call i16 asm "cvt.rz.f16.f32 $0, $1;", "=h,f"(float %a)
  %r2 = call i16 asm "cvt.rm.f16.f32 $0, $1;", "=h,f"(float %na)
  %r3 = call i16 asm "cvt.rp.f16.f32 $0, $1;", "=h,f"(float %na)
  %r4 = call i16 asm "cvt.rm.bf16.f32 $0, $1;", "=h,f"(float %nb)
  %r5 = call i16 asm "cvt.rp.bf16.f32 $0, $1;", "=h,f"(float %b)
  %h6 = call half @llvm.nvvm.f2f16.rz.relu(float %na)
  %r6 = bitcast half %h6 to i16
  %h7 = call half @llvm.nvvm.f2f16.rn.satfinite(float 70000.0)
  %r7 = bitcast half %h7 to i16
  %b8 = call bfloat @llvm.nvvm.f2bf16.rz(float %b)
  %r8 = bitcast bfloat %b8 to i16
  %b9 = call bfloat @llvm.nvvm.f2bf16.rn(float %nb)
  %r9 = bitcast bfloat %b9 to i16
  %v = call <2 x half> @llvm.nvvm.ff2f16x2.rz(float %a, float -2.5)
  %vi = bitcast <2 x half> %v to <2 x i16>
  %r10 = extractelement <2 x i16> %vi, i32 0
  %r11 = extractelement <2 x i16> %vi, i32 1
  %r12 = call i16 @llvm.nvvm.f2h.rn.ftz(float 0x3800000000000000)
  %r13 = call i16 @llvm.nvvm.f2h.rn(float 0x3E70000000000000)
  %p = getelementptr i16, ptr addrspace(1) %out, i32 0
  %s0 = insertelement <14 x i16> poison, i16 %r0, i32 0
  %s1 = insertelement <14 x i16> %s0, i16 %r1, i32 1
  %s2 = insertelement <14 x i16> %s1, i16 %r2, i32 2
  %s3 = insertelement <14 x i16> %s2, i16 %r3, i32 3
  %s4 = insertelement <14 x i16> %s3, i16 %r4, i32 4
  %s5 = insertelement <14 x i16> %s4, i16 %r5, i32 5
  %s6 = insertelement <14 x i16> %s5, i16 %r6, i32 6
  %s7 = insertelement <14 x i16> %s6, i16 %r7, i32 7
  %s8 = insertelement <14 x i16> %s7, i16 %r8, i32 8
  %s9 = insertelement <14 x i16> %s8, i16 %r9, i32 9
  %s10 = insertelement <14 x i16> %s9, i16 %r10, i32 10
  %s11 = insertelement <14 x i16> %s10, i16 %r11, i32 11
  %s12 = insertelement <14 x i16> %s11, i16 %r12, i32 12
  %s13 = insertelement <14 x i16> %s12, i16 %r13, i32 13
  store <14 x i16> %s13, ptr addrspace(1) %p, align 2
  ret void
}
declare half @llvm.nvvm.f2f16.rz.relu(float)
declare half @llvm.nvvm.f2f16.rn.satfinite(float)
declare bfloat @llvm.nvvm.f2bf16.rz(float)
declare bfloat @llvm.nvvm.f2bf16.rn(float)
declare <2 x half> @llvm.nvvm.ff2f16x2.rz(float, float)
declare i16 @llvm.nvvm.f2h.rn.ftz(float)
declare i16 @llvm.nvvm.f2h.rn(float)
)";

/// The fp8 conversion intrinsics, results as i16/i32 bits in out[0..10].
const char *kFp8Conversions = R"(
define ptx_kernel void @fp8_conversions(ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  %c0 = call i16 @llvm.nvvm.ff.to.e4m3x2.rn(float 1.0, float -448.0)
  %c1 = call i16 @llvm.nvvm.ff.to.e4m3x2.rn(float 1000.0, float 0x7FF8000000000000)
  %c2 = call i16 @llvm.nvvm.ff.to.e4m3x2.rn(float 0x3F60000000000000, float 0x3F50000000000000)
  %c3 = call i16 @llvm.nvvm.ff.to.e4m3x2.rn.relu(float -1.0, float 1.0625)
  %c4 = call i16 @llvm.nvvm.ff.to.e5m2x2.rn(float 1.0, float 0x7FF0000000000000)
  %c5 = call i16 @llvm.nvvm.ff.to.e5m2x2.rn(float -70000.0, float 0x3EF0000000000000)
  %c6 = call i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half> <half 0.5, half -2.0>)
  %c7 = call i16 @llvm.nvvm.f16x2.to.e5m2x2.rn.relu(<2 x half> <half -0.5, half 3.0>)
  %h8 = call <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16 u0x38fe)
  %h9 = call <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn(i16 u0x3c7b)
  %h10 = call <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn.relu(i16 u0x7ffe)
  %c8 = bitcast <2 x half> %h8 to i32
  %c9 = bitcast <2 x half> %h9 to i32
  %c10 = bitcast <2 x half> %h10 to i32
  call void @store16(ptr addrspace(1) %out, i32 0, i16 %c0)
  call void @store16(ptr addrspace(1) %out, i32 1, i16 %c1)
  call void @store16(ptr addrspace(1) %out, i32 2, i16 %c2)
  call void @store16(ptr addrspace(1) %out, i32 3, i16 %c3)
  call void @store16(ptr addrspace(1) %out, i32 4, i16 %c4)
  call void @store16(ptr addrspace(1) %out, i32 5, i16 %c5)
  call void @store16(ptr addrspace(1) %out, i32 6, i16 %c6)
  call void @store16(ptr addrspace(1) %out, i32 7, i16 %c7)
  %p8 = getelementptr i32, ptr addrspace(1) %out, i32 8
  store i32 %c8, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr i32, ptr addrspace(1) %out, i32 9
  store i32 %c9, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr i32, ptr addrspace(1) %out, i32 10
  store i32 %c10, ptr addrspace(1) %p10, align 4
  ret void
}
define internal void @store16(ptr addrspace(1) %out, i32 %i, i16 %v) {
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  %w = zext i16 %v to i32
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}
declare i16 @llvm.nvvm.ff.to.e4m3x2.rn(float, float)
declare i16 @llvm.nvvm.ff.to.e4m3x2.rn.relu(float, float)
declare i16 @llvm.nvvm.ff.to.e5m2x2.rn(float, float)
declare i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half>)
declare i16 @llvm.nvvm.f16x2.to.e5m2x2.rn.relu(<2 x half>)
declare <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn.relu(i16)
)";

std::string kernels() {
  return std::string("target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n"
                     "target triple = \"nvptx64-nvidia-cuda\"\n") +
         mapKernel("f32_to_bf16", "float", "bfloat", "%y = fptrunc float %x to bfloat") +
         mapKernel("v2f32_to_v2bf16", "<2 x float>", "<2 x bfloat>",
                   "%y = fptrunc <2 x float> %x to <2 x bfloat>") +
         mapKernel("f64_to_bf16", "double", "bfloat", "%y = fptrunc double %x to bfloat") +
         mapKernel("i32_to_bf16", "i32", "bfloat", "%y = sitofp i32 %x to bfloat") +
         mapKernel("u32_to_bf16", "i32", "bfloat", "%y = uitofp i32 %x to bfloat") +
         mapKernel("f32_to_f16", "float", "half", "%y = fptrunc float %x to half") +
         mapKernel("f32_halve", "float", "float", "%y = fmul float %x, 0.5") +
         mapKernel("f64_to_f16", "double", "half", "%y = fptrunc double %x to half") +
         mapKernel("bf16_to_f32", "bfloat", "float", "%y = fpext bfloat %x to float") +
         mapKernel("f16_to_f32", "half", "float", "%y = fpext half %x to float") +
         kBFloatArithmetic + kRoundingModes + kFp8Conversions;
}

/// Every f32 upper half with lower halves at and around the bf16 rounding
/// boundaries (and, for f16, mid-range patterns).
std::vector<uint32_t> sweepBits() {
  std::vector<uint32_t> bits;
  for (uint32_t upper = 0; upper < 0x10000; ++upper)
    for (uint32_t lower : {0x0000u, 0x0001u, 0x4000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      bits.push_back(upper << 16 | lower);
  return bits;
}

class FloatConversions : public ::testing::Test {
protected:
  void SetUp() override {
    auto created = Emulator::createFromIR(kernels(), "conversions.ll", EmulatorOptions());
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
  }

  /// Runs `kernel` over `in`, `count` elements of it, into `out`.
  template <class In, class Out>
  void map(const char *kernel, std::vector<In> &in, std::vector<Out> &out, uint32_t count) {
    emulator_->registerBuffer(in.data(), in.size() * sizeof(In), "in");
    emulator_->registerBuffer(out.data(), out.size() * sizeof(Out), "out");
    std::vector<KernelArg> args = {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()),
                                   KernelArg::integer(32, count)};
    llvm::Error err = emulator_->launch(kernel, Dim3{8, 1, 1}, Dim3{128, 1, 1}, args);
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  }

  std::unique_ptr<Emulator> emulator_;
};

/// A NaN result must be a quiet NaN of the input's sign; anything else the
/// reference's exact bits. Returns the number of mismatches (reports 5).
template <class Source>
int countMismatches(const std::vector<Source> &in, const std::vector<uint16_t> &out,
                    uint16_t (*reference)(Source), uint16_t quietBit, uint16_t expMask) {
  int mismatches = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    uint16_t expected = reference(in[i]);
    bool ok = std::isnan(in[i])
                  ? (out[i] & (expMask | quietBit)) == (expMask | quietBit) &&
                        (out[i] >> 15) == (expected >> 15)
                  : out[i] == expected;
    if (!ok && ++mismatches <= 5)
      ADD_FAILURE() << llvm::formatv("input {0:e} ({1:x}): got {2:x4}, expected {3:x4}",
                                     double(in[i]), llvm::bit_cast<uint64_t>(double(in[i])),
                                     out[i], expected)
                           .str();
  }
  return mismatches;
}

uint16_t bfloatReference(float x) { return floatToBFloat(x); }
uint16_t bfloatFromDouble(double x) { return doubleToBFloat(x); }
uint16_t halfReference(float x) { return floatToHalf(x); }
uint16_t halfFromDouble(double x) { return doubleToHalf(x); }

std::vector<float> sweepFloats() {
  std::vector<float> values;
  for (uint32_t bits : sweepBits())
    values.push_back(bitsFloat(bits));
  return values;
}

TEST_F(FloatConversions, FloatToBFloatRoundsToNearestEvenKeepingSubnormals) {
  std::vector<float> in = sweepFloats();
  std::vector<uint16_t> out(in.size());
  map("f32_to_bf16", in, out, in.size());
  EXPECT_EQ(countMismatches(in, out, bfloatReference, 0x40, 0x7f80), 0);
  // Hand-computed: f32 bits 0x00080000 = 2^19 * 2^-149 = 2^-130 is the bf16
  // subnormal 0x0008 (2^3 * 2^-133); 0x00008000 = 2^-134 is a tie between 0
  // and 2^-133 and rounds to even (0), 0x00008001 is above it; 0x00018000 is
  // a tie between 0x0001 and 0x0002.
  EXPECT_EQ(out[0x0008 * 7 + 0], 0x0008);
  EXPECT_EQ(out[0x0000 * 7 + 4], 0x0000);
  EXPECT_EQ(out[0x0000 * 7 + 5], 0x0001);
  EXPECT_EQ(out[0x0001 * 7 + 4], 0x0002);
  EXPECT_EQ(out[0x7f7f * 7 + 4], 0x7f80); // 0x7f7f8000: a tie rounding to infinity
}

TEST_F(FloatConversions, VectorFloatToBFloatMatchesScalar) {
  std::vector<float> in = sweepFloats();
  std::vector<uint16_t> out(in.size());
  map("v2f32_to_v2bf16", in, out, in.size() / 2);
  EXPECT_EQ(countMismatches(in, out, bfloatReference, 0x40, 0x7f80), 0);
}

/// Doubles just below, at and just above every bf16 rounding boundary: a
/// double -> f32 -> bf16 double rounding gets the "just above" ones wrong.
std::vector<double> sweepDoubles() {
  std::vector<double> values;
  for (uint32_t upper = 0; upper < 0x10000; ++upper) {
    double tie = bitsFloat(upper << 16 | 0x8000);
    for (double scale : {1 - 0x1p-40, 1.0, 1 + 0x1p-40})
      values.push_back(tie * scale);
  }
  for (double extreme : {0x1p-1000, -0x1p-1000, 0x1p-133, 0x1p-134, 0x1p-134 * (1 + 0x1p-50),
                         0x1p+200, 3.4e38, -3.3e38})
    values.push_back(extreme);
  return values;
}

TEST_F(FloatConversions, DoubleToBFloatRoundsOnce) {
  std::vector<double> in = sweepDoubles();
  std::vector<uint16_t> out(in.size());
  map("f64_to_bf16", in, out, in.size());
  EXPECT_EQ(countMismatches(in, out, bfloatFromDouble, 0x40, 0x7f80), 0);
  EXPECT_EQ(out[(0x3f80 * 3) + 2], 0x3f81); // just above 1 + 2^-8: up, not to even
}

TEST_F(FloatConversions, FloatAndDoubleToHalf) {
  std::vector<float> floats = sweepFloats();
  std::vector<uint16_t> out(floats.size());
  map("f32_to_f16", floats, out, floats.size());
  EXPECT_EQ(countMismatches(floats, out, halfReference, 0x200, 0x7c00), 0);
  std::vector<double> doubles = sweepDoubles();
  for (uint32_t bits : sweepBits()) // and the f16 rounding boundaries
    doubles.push_back(double(bitsFloat(bits)) * (1 + 0x1p-40));
  out.assign(doubles.size(), 0);
  map("f64_to_f16", doubles, out, doubles.size());
  EXPECT_EQ(countMismatches(doubles, out, halfFromDouble, 0x200, 0x7c00), 0);
}

TEST_F(FloatConversions, BFloatAndHalfWidenExactly) {
  std::vector<uint16_t> in(0x10000);
  for (uint32_t bits = 0; bits < 0x10000; ++bits)
    in[bits] = bits;
  std::vector<float> out(in.size());
  for (bool bf : {true, false}) {
    map(bf ? "bf16_to_f32" : "f16_to_f32", in, out, in.size());
    int mismatches = 0;
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      float expected = bf ? bfloatToFloat(bits) : halfToFloat(bits);
      bool ok = std::isnan(expected) ? std::isnan(out[bits]) &&
                                           std::signbit(out[bits]) == std::signbit(expected)
                                     : floatBits(out[bits]) == floatBits(expected);
      if (!ok && ++mismatches <= 5)
        ADD_FAILURE() << (bf ? "bf16 " : "f16 ") << bits << ": got " << out[bits];
    }
    EXPECT_EQ(mismatches, 0) << (bf ? "bf16" : "f16");
  }
}

TEST_F(FloatConversions, BFloatArithmeticKeepsSubnormals) {
  // a = 2^-130 (0x0008), b = 2^-126 (0x0080, the smallest normal), c = 0.5.
  std::vector<uint16_t> in = {0x0008, 0x0080, 0x3f00};
  std::vector<uint16_t> out(9, 0xdead);
  emulator_->registerBuffer(in.data(), in.size() * 2, "in");
  emulator_->registerBuffer(out.data(), out.size() * 2, "out");
  llvm::Error err = emulator_->launch("bf16_arithmetic", Dim3{1, 1, 1}, Dim3{1, 1, 1},
                                      {KernelArg::pointer(in.data()), KernelArg::pointer(out.data())});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(out[0], 0x0010); // 2^-130 + 2^-130 = 2^-129
  EXPECT_EQ(out[1], 0x0078); // 2^-126 - 2^-130 = 15 * 2^-130
  EXPECT_EQ(out[2], 0x0040); // 2^-126 * 0.5 = 2^-127
  EXPECT_EQ(out[3], 0x0100); // 2^-126 / 0.5 = 2^-125
  EXPECT_EQ(out[4], 0x0048); // 2^-127 + 2^-130 = 9 * 2^-130
  EXPECT_EQ(out[5], 0x8008);
  EXPECT_EQ(out[6], 0x0008);
  EXPECT_EQ(out[7], 0x0008);
  EXPECT_EQ(out[8], 0x0100); // lane 1 of the vector add: 2 * 2^-126
}

TEST_F(FloatConversions, HalfAndBFloatRoundingModifiers) {
  std::vector<uint16_t> out(14, 0xdead);
  emulator_->registerBuffer(out.data(), out.size() * 2, "out");
  llvm::Error err = emulator_->launch("rounding_modes", Dim3{1, 1, 1}, Dim3{1, 1, 1},
                                      {KernelArg::pointer(out.data())});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(out[0], 0x3c01);  // .rn: above the tie, up
  EXPECT_EQ(out[1], 0x3c00);  // .rz
  EXPECT_EQ(out[2], 0xbc01);  // .rm of the negative: away from zero
  EXPECT_EQ(out[3], 0xbc00);  // .rp of the negative: toward zero
  EXPECT_EQ(out[4], 0xbf81);  // bf16 .rm of -b
  EXPECT_EQ(out[5], 0x3f81);  // bf16 .rp of b
  EXPECT_EQ(out[6], 0x0000);  // .relu of a negative
  EXPECT_EQ(out[7], 0x7bff);  // .satfinite: 70000 clamps to 65504, not infinity
  EXPECT_EQ(out[8], 0x3f80);  // bf16 .rz
  EXPECT_EQ(out[9], 0xbf81);  // bf16 .rn of -b
  EXPECT_EQ(out[10], 0xc100); // ff2f16x2: b (-2.5) in the low half ...
  EXPECT_EQ(out[11], 0x3c00); // ... a (.rz) in the high half
  EXPECT_EQ(out[12], 0x0000); // .ftz flushes the f32 subnormal 2^-127
  EXPECT_EQ(out[13], 0x0001); // 2^-24 is the smallest f16 subnormal
}

TEST_F(FloatConversions, Fp8ConversionIntrinsics) {
  std::vector<uint32_t> out(11, 0xdeadbeef);
  emulator_->registerBuffer(out.data(), out.size() * 4, "out");
  llvm::Error err = emulator_->launch("fp8_conversions", Dim3{1, 1, 1}, Dim3{1, 1, 1},
                                      {KernelArg::pointer(out.data())});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  // e4m3: 1.0 = 0.0111.000, 448 = 0.1111.110; the first operand goes high.
  EXPECT_EQ(out[0], 0x38feu);
  EXPECT_EQ(out[1], 0x7e7fu); // 1000 saturates to 448; NaN is 0x7f
  EXPECT_EQ(out[2], 0x0100u); // 2^-9 is the smallest subnormal; 2^-10 a tie to 0
  EXPECT_EQ(out[3], 0x0038u); // .relu; 1.0625 is a tie between 1 and 1.125: even
  EXPECT_EQ(out[4], 0x3c7bu); // e5m2: 1.0 = 0.01111.00; infinity saturates to 57344
  EXPECT_EQ(out[5], 0xfb01u); // -70000 saturates; 2^-16 is the smallest subnormal
  EXPECT_EQ(out[6], 0xc030u); // f16x2 <0.5, -2.0>: the upper half -2.0 goes high
  EXPECT_EQ(out[7], 0x4200u); // e5m2 3.0 = 0.10000.10 high, .relu(-0.5) low
  EXPECT_EQ(out[8], 0x3c00df00u); // 1.0 and -448 in f16
  EXPECT_EQ(out[9], 0x3c007b00u); // 1.0 and 57344 in f16
  EXPECT_EQ(out[10], 0x7fff0000u); // e4m3 NaN stays NaN; .relu(-448) is 0
}

TEST(FloatBits, Fp8EncodingRoundTripsAndRoundsToEven) {
  for (uint32_t code = 0; code < 256; ++code) {
    double e4m3 = e4m3ToDouble(code);
    if (!std::isnan(e4m3)) {
      EXPECT_EQ(floatToE4m3(float(e4m3)), code) << code;
    }
    float e5m2 = e5m2ToFloat(code);
    if (std::isfinite(e5m2)) {
      EXPECT_EQ(floatToE5m2(e5m2), code) << code;
    }
    // Half-way to the next code of the same sign rounds to the even one.
    if ((code & 0x7f) < 0x7e) {
      double midpoint = (e4m3 + e4m3ToDouble(code + 1)) / 2;
      EXPECT_EQ(floatToE4m3(float(midpoint)), (code & 1) ? code + 1 : code) << code;
    }
  }
}

TEST_F(FloatConversions, IntegerToBFloatRoundsOnce) {
  std::vector<uint32_t> in = sweepBits();
  std::vector<uint16_t> out(in.size());
  for (bool isSigned : {true, false}) {
    map(isSigned ? "i32_to_bf16" : "u32_to_bf16", in, out, in.size());
    int mismatches = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      double exact = isSigned ? double(int32_t(in[i])) : double(in[i]);
      if (out[i] != doubleToBFloat(exact) && ++mismatches <= 5)
        ADD_FAILURE() << exact << ": got " << out[i] << ", expected " << doubleToBFloat(exact);
    }
    EXPECT_EQ(mismatches, 0) << (isSigned ? "signed" : "unsigned");
  }
  // 2^24 + 2^16 + 1 is just above the tie between 2^24 and 2^24 + 2^17;
  // through f32 it would become the tie and round to even (0x4b80).
  auto it = std::find(in.begin(), in.end(), 0x01010001u);
  ASSERT_NE(it, in.end());
  EXPECT_EQ(out[it - in.begin()], 0x4b81);
}

TEST_F(FloatConversions, HostFlushToZeroModeDoesNotReachKernels) {
  // Kernel threads start from the default MXCSR (Fiber.cpp), whatever the
  // host thread's: set flush-to-zero and denormals-are-zero around a launch
  // that halves f32 subnormals (exact for even significands).
  std::vector<float> in, out(64);
  for (uint32_t i = 0; i < 64; ++i)
    in.push_back(bitsFloat(2 * i + 2)); // 2, 4, ... times 2^-149
  uint32_t saved = __builtin_ia32_stmxcsr();
  __builtin_ia32_ldmxcsr(saved | 0x8040); // FTZ | DAZ
  map("f32_halve", in, out, in.size());
  __builtin_ia32_ldmxcsr(saved);
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(floatBits(out[i]), i + 1) << i;
}

} // namespace
