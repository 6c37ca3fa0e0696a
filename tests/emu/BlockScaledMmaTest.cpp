//===- BlockScaledMmaTest.cpp - mma.sync with block scale factors ---------===//
//
// Fragments and scale registers are filled from the PTX ISA's tables for
// block-scaled mma (written out here, not taken from the emulator): for
// m16n8k32 byte elements a_i at (g + 8 ((i / 4) % 2), 4t + i % 4 + 16 (i / 8))
// and b_i at (4t + i % 4 + 16 (i / 4), g); for m16n8k64 packed e2m1 a_i at
// (g + 8 ((i / 8) % 2), 8t + i % 8 + 32 (i / 16)) and b_i at
// (8t + i % 8 + 32 (i / 8), g). The scale of A's row m sits in lane
// 4 (m % 8) + 2 thread-id-a + m / 8, that of B's column n in lane
// 4 n + thread-id-b, K block j in byte byte-id + j. Every other scale byte
// holds a NaN code, so reading a wrong one shows. The values are small powers
// of two times small integers: the sums are exact and compared exactly.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "Runtime.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

using namespace tilepipe::emu;

namespace {

using Lanes = std::array<LaneExchange, 32>;
using Matrix = std::vector<std::vector<double>>;

struct Selectors {
  unsigned byteA, threadA, byteB, threadB;
};

/// A block-scaled problem: A (16 x K), B (K x 8), their scales by K block
/// (16 x blocks, blocks x 8, as scale codes), and C.
struct Problem {
  unsigned k, blocks;
  std::function<uint8_t(unsigned, unsigned)> aCode, bCode; // element codes
  std::function<double(uint8_t)> aValue, bValue;           // their values
  std::function<uint8_t(unsigned, unsigned)> aScale, bScale; // scale codes
  std::function<double(uint8_t)> scaleValue;
  uint8_t nanScale;

  double c(unsigned m, unsigned n) const { return 0.25 * n - m; }
  double expected(unsigned m, unsigned n) const {
    double sum = c(m, n);
    unsigned block = k / blocks;
    for (unsigned kk = 0; kk < k; ++kk)
      sum += aValue(aCode(m, kk)) * scaleValue(aScale(m, kk / block)) *
             bValue(bCode(kk, n)) * scaleValue(bScale(kk / block, n));
    return sum;
  }
};

/// The lanes' registers: a0..a3, b0..b1, c0..c3, scale-a, scale-b.
Lanes fillLanes(const Problem &p, Selectors sel, unsigned bits) {
  Lanes lanes;
  unsigned perReg = 32 / bits;
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    for (unsigned i = 0; i < 4 * perReg; ++i) {
      unsigned row, col;
      if (bits == 8)
        row = g + 8 * ((i / 4) % 2), col = 4 * t + i % 4 + 16 * (i / 8);
      else
        row = g + 8 * ((i / 8) % 2), col = 8 * t + i % 8 + 32 * (i / 16);
      r[i / perReg] |= uint32_t(p.aCode(row, col)) << (bits * (i % perReg));
    }
    for (unsigned i = 0; i < 2 * perReg; ++i) {
      unsigned row = bits == 8 ? 4 * t + i % 4 + 16 * (i / 4) : 8 * t + i % 8 + 32 * (i / 8);
      r[4 + i / perReg] |= uint32_t(p.bCode(row, g)) << (bits * (i % perReg));
    }
    for (unsigned i = 0; i < 4; ++i)
      r[6 + i] = floatBits(float(p.c(g + 8 * (i / 2), 2 * t + i % 2)));
    r[10] = r[11] = 0x01010101u * p.nanScale;
  }
  auto setByte = [](uint32_t &reg, unsigned byte, uint8_t code) {
    reg = (reg & ~(0xffu << (8 * byte))) | uint32_t(code) << (8 * byte);
  };
  for (unsigned m = 0; m < 16; ++m)
    for (unsigned j = 0; j < p.blocks; ++j)
      setByte(lanes[4 * (m % 8) + 2 * sel.threadA + m / 8].regs[10], sel.byteA + j, p.aScale(m, j));
  for (unsigned n = 0; n < 8; ++n)
    for (unsigned j = 0; j < p.blocks; ++j)
      setByte(lanes[4 * n + sel.threadB].regs[11], sel.byteB + j, p.bScale(j, n));
  for (auto &lane : lanes)
    lane.value = sel.byteA | sel.threadA << 8 | sel.byteB << 16 | uint64_t(sel.threadB) << 24;
  return lanes;
}

void expectResults(const Problem &p, const Lanes &lanes) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = lane / 4, t = lane % 4;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned row = g + 8 * (i / 2), col = 2 * t + i % 2;
      EXPECT_EQ(bitsFloat(lanes[lane].out[i]), float(p.expected(row, col)))
          << "lane " << lane << " d" << i;
    }
  }
}

// e4m3 codes of 1, -1, 1.5, 2, 0.5, -0.5, 3, 0.
const uint8_t kE4m3[8] = {0x38, 0xb8, 0x3c, 0x40, 0x30, 0xb0, 0x44, 0x00};
const double kE4m3Values[8] = {1, -1, 1.5, 2, 0.5, -0.5, 3, 0};
double ue8m0Value(uint8_t code) { return std::ldexp(1.0, int(code) - 127); }

Problem mxf8Problem() {
  Problem p;
  p.k = 32, p.blocks = 1;
  p.aCode = [](unsigned m, unsigned k) { return kE4m3[(m + 3 * k) % 8]; };
  p.bCode = [](unsigned k, unsigned n) { return kE4m3[(2 * k + 5 * n) % 8]; };
  p.aValue = p.bValue = [](uint8_t code) {
    for (int i = 0; i < 8; ++i)
      if (kE4m3[i] == code)
        return kE4m3Values[i];
    return std::nan("");
  };
  p.aScale = [](unsigned m, unsigned) { return uint8_t(126 + m % 4); }; // 2^-1 .. 2^2
  p.bScale = [](unsigned, unsigned n) { return uint8_t(127 + n % 3); }; // 2^0 .. 2^2
  p.scaleValue = ue8m0Value;
  p.nanScale = 0xff;
  return p;
}

TEST(BlockScaledMma, Mxf8f6f4E4m3ScaleVec1X) {
  auto h = lookupMatrixIntrinsic("mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e4m3.f32.ue8m0");
  EXPECT_FALSE(h); // the block-scaled forms have their own lookup
  h = lookupBlockScaledMma("mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e4m3.f32.ue8m0");
  ASSERT_TRUE(h && h->matrixOp);
  Problem p = mxf8Problem();
  for (Selectors sel : {Selectors{0, 0, 0, 0}, Selectors{1, 1, 2, 3}, Selectors{3, 0, 1, 2}}) {
    Lanes lanes = fillLanes(p, sel, 8);
    h->matrixOp->compute(lanes);
    expectResults(p, lanes);
  }
}

// fp4 in a byte sits in bits 5:2 and fp6 in bits 5:0 under kind::mxf8f6f4.
TEST(BlockScaledMma, Mxf8f6f4E2m1TimesE3m2InByteContainers) {
  auto h = lookupBlockScaledMma("mma.block.scale.m16n8k32.row.col.mxf8f6f4.f32.e2m1.e3m2.f32.ue8m0");
  ASSERT_TRUE(h && h->matrixOp);
  // e2m1 codes 0..15: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives.
  const double e2m1[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};
  Problem p = mxf8Problem();
  p.aCode = [](unsigned m, unsigned k) { return uint8_t(((m * 7 + k) % 16) << 2); };
  p.aValue = [&](uint8_t code) { return e2m1[code >> 2]; };
  // e3m2 codes 0x0c (1.0), 0x22 (-0.125), 0x1f (28), 0x01 (0.0625).
  p.bCode = [](unsigned k, unsigned n) {
    const uint8_t codes[4] = {0x0c, 0x22, 0x1f, 0x01};
    return codes[(k + n) % 4];
  };
  p.bValue = [](uint8_t code) {
    return code == 0x0c ? 1.0 : code == 0x22 ? -0.125 : code == 0x1f ? 28.0 : 0.0625;
  };
  Lanes lanes = fillLanes(p, {2, 1, 0, 1}, 8);
  h->matrixOp->compute(lanes);
  expectResults(p, lanes);
}

// ue4m3 codes of 1, 0.5, 2, 1.5: four K blocks of 16, bytes 0..3.
const uint8_t kUe4m3[4] = {0x38, 0x30, 0x40, 0x3c};
const double kUe4m3Values[4] = {1, 0.5, 2, 1.5};

Problem packedE2m1Problem() {
  Problem p;
  p.k = 64;
  p.aCode = [](unsigned m, unsigned k) { return uint8_t((m * 5 + k * 3) % 16); };
  p.bCode = [](unsigned k, unsigned n) { return uint8_t((k + 9 * n) % 16); };
  p.aValue = p.bValue = [](uint8_t code) { return narrowToDouble(NarrowFloat::E2m1, code); };
  return p;
}

TEST(BlockScaledMma, Mxf4nvf4ScaleVec4XUe4m3) {
  auto h = lookupBlockScaledMma("mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3");
  ASSERT_TRUE(h && h->matrixOp);
  Problem p = packedE2m1Problem();
  p.blocks = 4;
  p.aScale = [](unsigned m, unsigned j) { return kUe4m3[(m + j) % 4]; };
  p.bScale = [](unsigned j, unsigned n) { return kUe4m3[(3 * j + n) % 4]; };
  p.scaleValue = [](uint8_t code) {
    for (int i = 0; i < 4; ++i)
      if (kUe4m3[i] == code)
        return kUe4m3Values[i];
    return std::nan("");
  };
  p.nanScale = 0x7f;
  Lanes lanes = fillLanes(p, {0, 1, 0, 2}, 4);
  h->matrixOp->compute(lanes);
  expectResults(p, lanes);
}

TEST(BlockScaledMma, Mxf4DefaultsToScaleVec2XUe8m0) {
  auto h = lookupBlockScaledMma("mma.block.scale.m16n8k64.row.col.mxf4.f32.e2m1.e2m1.f32.ue8m0");
  ASSERT_TRUE(h && h->matrixOp);
  Problem p = packedE2m1Problem();
  p.blocks = 2;
  p.aScale = [](unsigned m, unsigned j) { return uint8_t(125 + (m + j) % 4); };
  p.bScale = [](unsigned j, unsigned n) { return uint8_t(127 + (j + n) % 2); };
  p.scaleValue = ue8m0Value;
  p.nanScale = 0xff;
  Lanes lanes = fillLanes(p, {2, 0, 2, 1}, 4);
  h->matrixOp->compute(lanes);
  expectResults(p, lanes);
}

// The forms tilepipe's sm_120 lowering issues (BlockScaledMmaToLLVM.cpp):
// the explicit .scale.2x name, byte-id and thread-id 0 for A and B.
TEST(BlockScaledMma, Mxf4ScaleVec2XAsTheLoweringIssuesIt) {
  auto h = lookupBlockScaledMma(
      "mma.block.scale.m16n8k64.row.col.mxf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0");
  ASSERT_TRUE(h && h->matrixOp);
  Problem p = packedE2m1Problem();
  p.blocks = 2;
  p.aScale = [](unsigned m, unsigned j) { return uint8_t(126 + (m + 3 * j) % 3); };
  p.bScale = [](unsigned j, unsigned n) { return uint8_t(125 + (2 * j + n) % 4); };
  p.scaleValue = ue8m0Value;
  p.nanScale = 0xff;
  Lanes lanes = fillLanes(p, {0, 0, 0, 0}, 4);
  h->matrixOp->compute(lanes);
  expectResults(p, lanes);
}

TEST(BlockScaledMma, OnlyThePtxCombinationsExist) {
  for (const char *name : {
           "mma.block.scale.m16n8k32.row.col.mxf8f6f4.f32.e4m3.e5m2.f32.ue8m0",
           "mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0",
       })
    EXPECT_TRUE(lookupBlockScaledMma(name)) << name;
  for (const char *name : {
           "mma.block.scale.m16n8k32.row.col.mxf8f6f4.f32.e4m3.e4m3.f32.ue4m3",
           "mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.2x.f32.e4m3.e4m3.f32.ue8m0",
           "mma.block.scale.m16n8k64.row.col.mxf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3",
           "mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue8m0",
           "mma.block.scale.m16n8k64.row.col.mxf4.f32.e4m3.e4m3.f32.ue8m0",
           "mma.block.scale.m16n8k32.row.col.mxf8f6f4.f16.e4m3.e4m3.f16.ue8m0",
       })
    EXPECT_FALSE(lookupBlockScaledMma(name)) << name;
}

/// A kernel in which each lane loads its twelve registers and stores its four
/// results; CALLEE stands for the intrinsic or inline asm, SELECTORS for the
/// selector operands.
const char *kKernel = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) "nvvm.reqntid"="32" {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %base = mul i32 %lane, 12
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %base
  %v = load <12 x i32>, ptr addrspace(1) %p, align 4
  %a0 = extractelement <12 x i32> %v, i32 0
  %a1 = extractelement <12 x i32> %v, i32 1
  %a2 = extractelement <12 x i32> %v, i32 2
  %a3 = extractelement <12 x i32> %v, i32 3
  %b0 = extractelement <12 x i32> %v, i32 4
  %b1 = extractelement <12 x i32> %v, i32 5
  %c0i = extractelement <12 x i32> %v, i32 6
  %c1i = extractelement <12 x i32> %v, i32 7
  %c2i = extractelement <12 x i32> %v, i32 8
  %c3i = extractelement <12 x i32> %v, i32 9
  %sa = extractelement <12 x i32> %v, i32 10
  %sb = extractelement <12 x i32> %v, i32 11
  %c0 = bitcast i32 %c0i to float
  %c1 = bitcast i32 %c1i to float
  %c2 = bitcast i32 %c2i to float
  %c3 = bitcast i32 %c3i to float
  %d = call { float, float, float, float } CALLEE(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, float %c0, float %c1, float %c2, float %c3, SELECTORS)
  %obase = mul i32 %lane, 4
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i32 %obase
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d1 = extractvalue { float, float, float, float } %d, 1
  %d2 = extractvalue { float, float, float, float } %d, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  store float %d0, ptr addrspace(1) %q, align 4
  %q1 = getelementptr inbounds float, ptr addrspace(1) %q, i32 1
  store float %d1, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr inbounds float, ptr addrspace(1) %q, i32 2
  store float %d2, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr inbounds float, ptr addrspace(1) %q, i32 3
  store float %d3, ptr addrspace(1) %q3, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare { float, float, float, float } @llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e4m3.f32.ue8m0(i32, i32, i32, i32, i32, i32, float, float, float, float, i32, i16, i16, i32, i16, i16)
)";

const char *kIntrinsic =
    "@llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e4m3.f32.ue8m0";

/// Runs kKernel over `lanes`' registers with `selectors`, results into
/// `lanes`' out.
llvm::Error runKernel(Lanes &lanes, Selectors sel, const std::string &callee = kIntrinsic) {
  std::string ir = kKernel;
  ir.replace(ir.find("CALLEE"), 6, callee);
  std::string operands = llvm::formatv("i32 %sa, i16 {0}, i16 {1}, i32 %sb, i16 {2}, i16 {3}",
                                       sel.byteA, sel.threadA, sel.byteB, sel.threadB);
  ir.replace(ir.find("SELECTORS"), 9, operands);
  std::vector<uint32_t> in;
  for (auto &lane : lanes)
    in.insert(in.end(), lane.regs.begin(), lane.regs.end());
  auto emulator = Emulator::createFromIR(ir, "k.ll");
  if (!emulator)
    return emulator.takeError();
  std::vector<uint32_t> out(128, 0xdeadbeef);
  emulator->registerBuffer(in.data(), in.size() * 4, "in");
  emulator->registerBuffer(out.data(), out.size() * 4, "out");
  if (llvm::Error e = emulator->launch("k", Dim3{1, 1, 1}, Dim3{32, 1, 1},
                                       {KernelArg::pointer(in.data()), KernelArg::pointer(out.data())}))
    return e;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i)
      lanes[lane].out[i] = out[4 * lane + i];
  return llvm::Error::success();
}

TEST(Emulator, BlockScaledMmaIntrinsicInAKernel) {
  Problem p = mxf8Problem();
  Lanes lanes = fillLanes(p, {1, 1, 2, 3}, 8);
  ASSERT_FALSE(bool(runKernel(lanes, {1, 1, 2, 3})));
  expectResults(p, lanes);
}

// The same instruction as inline PTX, qualifiers in either order.
TEST(Emulator, BlockScaledMmaInlinePtxInAKernel) {
  const char *operands = " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13}, "
                         "$14, {$15, $16}, $17, {$18, $19};";
  const char *constraints = "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f,r,n,n,r,n,n";
  for (const char *opcode :
       {"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0",
        "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0"}) {
    Problem p = mxf8Problem();
    Lanes lanes = fillLanes(p, {3, 0, 1, 2}, 8);
    std::string callee = llvm::formatv("asm sideeffect \"{0}{1}\", \"{2}\"", opcode, operands,
                                       constraints);
    llvm::Error e = runKernel(lanes, {3, 0, 1, 2}, callee);
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    expectResults(p, lanes);
  }
}

TEST(BlockScaledMma, InlinePtxOpcodesNameTheIntrinsic) {
  EXPECT_EQ(blockScaledMmaIntrinsicName("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
                                        "scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"),
            "mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3");
  EXPECT_EQ(blockScaledMmaIntrinsicName("mma.sync.aligned.kind::mxf4.block_scale.m16n8k64.row.col."
                                        "f32.e2m1.e2m1.f32.ue8m0"),
            "mma.block.scale.m16n8k64.row.col.mxf4.f32.e2m1.e2m1.f32.ue8m0");
  EXPECT_FALSE(blockScaledMmaIntrinsicName("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"));
}

// PTX takes thread-id-a 0..1 only; the emulator stops rather than guess.
TEST(Emulator, BlockScaledMmaSelectorOutOfRangeIsAnError) {
  Problem p = mxf8Problem();
  Lanes lanes = fillLanes(p, {0, 1, 0, 0}, 8);
  llvm::Error e = runKernel(lanes, {0, 2, 0, 0});
  ASSERT_TRUE(bool(e));
  std::string message = llvm::toString(std::move(e));
  EXPECT_NE(message.find("thread-id-a must be 0..1"), std::string::npos) << message;
}

} // namespace
