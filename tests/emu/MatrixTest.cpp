//===- MatrixTest.cpp - stmatrix, bf16 and fp8 mma.sync --------------------===//
//
// Fragments are filled from the PTX ISA's tables (written out here, not taken
// from the emulator) and results compared with hand-computed values.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "Runtime.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace tilepipe::emu;

namespace {

TEST(Fp8, DecodesNormalSubnormalAndSpecialCodes) {
  EXPECT_EQ(e4m3ToDouble(0x38), 1.0);
  EXPECT_EQ(e4m3ToDouble(0xb8), -1.0);
  EXPECT_EQ(e4m3ToDouble(0x3c), 1.5);
  EXPECT_EQ(e4m3ToDouble(0x7e), 448.0);
  EXPECT_EQ(e4m3ToDouble(0x01), 1.0 / 512);    // 2^-9, the smallest subnormal
  EXPECT_EQ(e4m3ToDouble(0x86), -6.0 / 512);
  EXPECT_EQ(e4m3ToDouble(0x08), 1.0 / 64);     // 2^-6, the smallest normal
  EXPECT_TRUE(std::isnan(e4m3ToDouble(0x7f))); // no infinities in e4m3
  EXPECT_EQ(e4m3ToDouble(0x78), 256.0);        // exponent 15 is finite
  EXPECT_EQ(e5m2ToFloat(0x3c), 1.0f);
  EXPECT_EQ(e5m2ToFloat(0xc0), -2.0f);
  EXPECT_EQ(e5m2ToFloat(0x01), 1.0f / 65536); // 2^-16
  EXPECT_EQ(e5m2ToFloat(0x7b), 57344.0f);
  EXPECT_TRUE(std::isinf(e5m2ToFloat(0x7c)));
  EXPECT_TRUE(std::isnan(e5m2ToFloat(0x7e)));
}

// e4m3 codes and their values, by hand: 1, -1, 1.5, 448, 2^-9, -6 * 2^-9,
// 2^-6, -0.
const uint8_t kE4m3Codes[8] = {0x38, 0xb8, 0x3c, 0x7e, 0x01, 0x86, 0x08, 0x80};
const double kE4m3Values[8] = {1, -1, 1.5, 448, 1.0 / 512, -6.0 / 512, 1.0 / 64, -0.0};
const uint8_t kE5m2One = 0x3c, kE5m2MinusTwo = 0xc0;

// m16n8k32 .f32.e4m3.e5m2.f32: A[m][k] = code (m + 3k) % 8, B[k][n] = 1 if
// k == n, -2 if k == n + 16, else 0, C[m][n] = n / 4:
// D[m][n] = n / 4 + A[m][n] - 2 A[m][n + 16].
TEST(WarpMatrix, MmaE4m3E5m2M16N8K32F32) {
  auto h = lookupMatrixIntrinsic("mma.m16n8k32.row.col.f32.e4m3.e5m2.f32");
  ASSERT_TRUE(h && h->matrixOp);
  auto aIndex = [](int m, int k) { return (m + 3 * k) % 8; };
  std::array<LaneExchange, 32> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    for (int i = 0; i < 16; ++i) { // a0..a15
      int row = (i % 8) < 4 ? g : g + 8, col = 4 * t + i % 4 + (i >= 8 ? 16 : 0);
      r[i / 4] |= uint32_t(kE4m3Codes[aIndex(row, col)]) << (8 * (i % 4));
    }
    for (int i = 0; i < 8; ++i) { // b0..b7
      int row = 4 * t + i % 4 + (i >= 4 ? 16 : 0), col = g;
      uint8_t code = row == col ? kE5m2One : row == col + 16 ? kE5m2MinusTwo : 0;
      r[4 + i / 4] |= uint32_t(code) << (8 * (i % 4));
    }
    for (int i = 0; i < 4; ++i)
      r[6 + i] = floatBits(0.25f * float(2 * t + i % 2));
  }
  h->matrixOp->compute(lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      double expected = 0.25 * col + kE4m3Values[aIndex(row, col)] -
                        2 * kE4m3Values[aIndex(row, col + 16)];
      EXPECT_EQ(bitsFloat(lanes[lane].out[i]), float(expected)) << lane << " " << i;
    }
  }
}

// m16n8k16 .f16.e5m2.e4m3.f16: A = the 16x16 identity in e5m2, B[k][n] =
// e4m3 code (k + n) % 8, C = -0.5 in f16: D[m][n] = B[m][n] - 0.5, every
// value exact in f16 (447.5, -0.498046875 = -0.5 + 2^-9, ...).
TEST(WarpMatrix, MmaE5m2E4m3M16N8K16F16) {
  auto h = lookupMatrixIntrinsic("mma.m16n8k16.row.col.f16.e5m2.e4m3.f16");
  ASSERT_TRUE(h && h->matrixOp);
  std::array<LaneExchange, 32> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    for (int i = 0; i < 8; ++i) { // a0..a7
      int row = i < 4 ? g : g + 8, col = 4 * t + i % 4;
      r[i / 4] |= uint32_t(col == row ? kE5m2One : 0) << (8 * (i % 4));
    }
    for (int i = 0; i < 4; ++i) { // b0..b3
      int row = 4 * t + i, col = g;
      r[2] |= uint32_t(kE4m3Codes[(row + col) % 8]) << (8 * i);
    }
    r[3] = r[4] = 0xb800b800u; // -0.5 in both halves
  }
  h->matrixOp->compute(lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      uint16_t half = uint16_t(lanes[lane].out[i / 2] >> (16 * (i % 2)));
      EXPECT_EQ(halfToFloat(half), float(kE4m3Values[(row + col) % 8] - 0.5)) << lane << " " << i;
    }
  }
}

// mma.m16n8k16 with .bf16 A and B (fragments of PTX ISA "mma.m16n8k16,
// floating point": a0-a7 rows g, g+8, g, g+8 in pairs, columns 2t + (i & 1),
// +8 from a4; b0-b3 rows 2t + (i & 1), +8 from b2, column g). A[m][k] =
// (m - k) * 2^100 (beyond f16's range), B[k][n] = 3 if k == n + 8, C[m][n] =
// n * 2^100: D = (3 (m - n - 8) + n) * 2^100, exact in f32.
TEST(WarpMatrix, MmaBf16M16N8K16F32) {
  auto h = lookupMatrixIntrinsic("mma.m16n8k16.row.col.bf16");
  ASSERT_TRUE(h && h->matrixOp);
  const float scale = std::ldexp(1.0f, 100);
  std::array<LaneExchange, 32> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    for (int i = 0; i < 8; ++i) {
      int row = g + 8 * ((i / 2) % 2), col = 2 * t + i % 2 + 8 * (i / 4);
      r[i / 2] |= uint32_t(floatToBFloat(float(row - col) * scale)) << (16 * (i % 2));
    }
    for (int i = 0; i < 4; ++i) {
      int row = 2 * t + i % 2 + 8 * (i / 2), col = g;
      r[4 + i / 2] |= uint32_t(floatToBFloat(row == col + 8 ? 3.0f : 0.0f)) << (16 * (i % 2));
    }
    for (int i = 0; i < 4; ++i)
      r[6 + i] = floatBits(float(2 * t + i % 2) * scale);
  }
  h->matrixOp->compute(lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      EXPECT_EQ(bitsFloat(lanes[lane].out[i]), float(3 * (row - col - 8) + col) * scale)
          << lane << " " << i;
    }
  }
}

TEST(WarpMatrix, Fp8MmaOnlyWithMatchingAccumulators) {
  EXPECT_TRUE(lookupMatrixIntrinsic("mma.m16n8k32.row.col.f16.e5m2.e5m2.f16"));
  EXPECT_FALSE(lookupMatrixIntrinsic("mma.m16n8k32.row.col.f32.e4m3.e4m3.f16"));
  EXPECT_FALSE(lookupMatrixIntrinsic("mma.m16n8k8.row.col.f32.e4m3.e4m3.f32"));
  EXPECT_FALSE(lookupMatrixIntrinsic("mma.m16n8k32.row.col.f32.e3m2.e3m2.f32"));
}

/// Lanes whose row addresses point at `count` 8x8 b16 matrices in `memory`
/// (matrix j at 64 j, rows 8 elements apart).
std::array<LaneExchange, 32> rowAddresses(std::vector<uint16_t> &memory, unsigned count) {
  std::array<LaneExchange, 32> lanes;
  for (unsigned lane = 0; lane < 8 * count; ++lane)
    lanes[lane].value = reinterpret_cast<uintptr_t>(memory.data() + 8 * lane);
  return lanes;
}

// Register j of lane (g, t) holds elements (g, 2t) and (g, 2t + 1) of matrix
// j; with .trans, elements (2t, g) and (2t + 1, g).
void stmatrixThenLdmatrix(bool trans) {
  std::string suffix = trans ? "x4.trans.b16" : "x4.b16";
  auto store = lookupMatrixIntrinsic("stmatrix.sync.aligned.m8n8." + suffix + ".p3");
  auto load = lookupMatrixIntrinsic("ldmatrix.sync.aligned.m8n8." + suffix + ".p3");
  ASSERT_TRUE(store && load);
  std::vector<uint16_t> memory(4 * 64, 0xffff);
  std::array<LaneExchange, 32> lanes = rowAddresses(memory, 4);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned j = 0; j < 4; ++j)
      lanes[lane].regs[j] = (1000 * j + 10 * lane) | (1000 * j + 10 * lane + 1) << 16;
  store->matrixOp->compute(lanes);
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned row = 0; row < 8; ++row)
      for (unsigned col = 0; col < 8; ++col) {
        unsigned g = trans ? col : row, pos = trans ? row : col; // pos = 2t + half
        unsigned lane = 4 * g + pos / 2;
        EXPECT_EQ(memory[64 * j + 8 * row + col], 1000 * j + 10 * lane + pos % 2)
            << j << " " << row << " " << col;
      }
  std::array<LaneExchange, 32> loaded = rowAddresses(memory, 4);
  load->matrixOp->compute(loaded);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned j = 0; j < 4; ++j)
      EXPECT_EQ(loaded[lane].out[j], lanes[lane].regs[j]) << lane << " " << j;
}

TEST(WarpMatrix, StmatrixIsTheInverseOfLdmatrix) { stmatrixThenLdmatrix(false); }
TEST(WarpMatrix, StmatrixTransIsTheInverseOfLdmatrixTrans) { stmatrixThenLdmatrix(true); }

// What the sm_90a TMA-store epilogue emits (TmaStoreToLLVM.cpp): stmatrix
// .x1, .x2 and .x4 whose lanes 8j..8j+7 name the rows of matrix j scattered
// over a 128-byte swizzled array (row r of matrix j in array row 8j + 7 - r,
// at 16-byte piece (j ^ row) % 8). Every element lands in the row its lane
// names, at column 2t + h; the lanes past 8 * count name a row that stays
// untouched, and nothing else is written.
TEST(WarpMatrix, StmatrixWritesTheRowsEachLaneNames) {
  constexpr unsigned kRowElements = 64, kSpareRow = 40;
  auto rowOf = [](unsigned j, unsigned r) { return 8 * j + 7 - r; };
  auto at = [&](unsigned j, unsigned r) {
    unsigned row = rowOf(j, r);
    return row * kRowElements + 8 * ((j ^ row) % 8);
  };
  for (unsigned count : {1u, 2u, 4u}) {
    SCOPED_TRACE(count);
    auto store = lookupMatrixIntrinsic("stmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                                       ".b16.p3");
    ASSERT_TRUE(store);
    std::vector<uint16_t> memory(48 * kRowElements, 0xffff);
    std::array<LaneExchange, 32> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned slot = lane < 8 * count ? at(lane / 8, lane % 8) : kSpareRow * kRowElements;
      lanes[lane].value = reinterpret_cast<uintptr_t>(memory.data() + slot);
      for (unsigned j = 0; j < 4; ++j)
        lanes[lane].regs[j] = (1000 * j + 10 * lane) | (1000 * j + 10 * lane + 1) << 16;
    }
    store->matrixOp->compute(lanes);
    std::vector<uint16_t> expected(memory.size(), 0xffff);
    for (unsigned j = 0; j < count; ++j)
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned half = 0; half < 2; ++half)
          expected[at(j, lane / 4) + 2 * (lane % 4) + half] = 1000 * j + 10 * lane + half;
    for (size_t i = 0; i < memory.size(); ++i)
      ASSERT_EQ(memory[i], expected[i]) << "row " << i / kRowElements << " column "
                                        << i % kRowElements;
  }
}

// One warp: stmatrix.x2 to shared memory, then ldmatrix.x2.trans reads the
// transposes back. Lane (g, t) stores j * 64 + 8 g + 2t + h (element (g, 2t+h)
// of matrix j) and loads element (2t + h, g): j * 64 + 8 (2t + h) + g.
TEST(Emulator, StmatrixThenLdmatrixTransInAKernel) {
  const char *ir = R"(
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [128 x i16] undef, align 16
define ptx_kernel void @k(ptr addrspace(1) %out) "nvvm.reqntid"="32" {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %g = lshr i32 %lane, 2
  %t = and i32 %lane, 3
  %g8 = shl i32 %g, 3
  %t2 = shl i32 %t, 1
  %e0 = add i32 %g8, %t2
  %lo0 = or i32 %e0, 0
  %hi0 = add i32 %e0, 1
  %hi0s = shl i32 %hi0, 16
  %r0 = or i32 %lo0, %hi0s
  %r1 = add i32 %r0, 4194368 ; + 64 in both halves
  %row = getelementptr inbounds [8 x i16], ptr addrspace(3) @tile, i32 %lane
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x2.b16.p3(ptr addrspace(3) %row, i32 %r0, i32 %r1)
  %v = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) %row)
  %v0 = extractvalue { i32, i32 } %v, 0
  %v1 = extractvalue { i32, i32 } %v, 1
  %i0 = shl i32 %lane, 1
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i0
  store i32 %v0, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %p0, i32 1
  store i32 %v1, ptr addrspace(1) %p1, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x2.b16.p3(ptr addrspace(3), i32, i32)
declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3))
)";
  auto emulator = Emulator::createFromIR(ir, "k.ll");
  ASSERT_TRUE(bool(emulator)) << llvm::toString(emulator.takeError());
  std::vector<uint32_t> out(64, 0xdeadbeef);
  emulator->registerBuffer(out.data(), out.size() * 4, "out");
  KernelArg arg = KernelArg::pointer(out.data());
  ASSERT_FALSE(bool(emulator->launch("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, arg)));
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t g = lane / 4, t = lane % 4;
    for (uint32_t j = 0; j < 2; ++j) {
      uint32_t lo = 64 * j + 8 * (2 * t) + g, hi = 64 * j + 8 * (2 * t + 1) + g;
      EXPECT_EQ(out[2 * lane + j], lo | hi << 16) << lane << " " << j;
    }
  }
}

} // namespace
