//===- WgmmaTest.cpp - wgmma.mma_async: descriptors, layouts, arithmetic ---===//
//
// Shared-memory operands are placed with the PTX ISA's canonical layouts
// (CanonicalLayouts.h), register fragments with the ISA's row/column
// formulas. Expected results come from
// small integers, so every product and sum is exact.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Runtime.h"
#include "Wgmma.h"

#include "CanonicalLayouts.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

using namespace tilepipe::emu;
using namespace tilepipe::emu::testing;

namespace {

/// "Matrix Descriptor Format".
uint64_t descriptor(unsigned start, const OperandLayout &l) {
  static const uint64_t modes[] = {0, 3, 2, 1}; // none, 32B, 64B, 128B
  unsigned lbo = l.lbo;
  if (!l.mnMajor && l.swizzleBytes)
    lbo = 16; // "not used, assumed to be 1" (CUTLASS writes 1)
  return uint64_t((start & 0x3ffff) >> 4) | uint64_t((lbo & 0x3ffff) >> 4) << 16 |
         uint64_t((l.sbo & 0x3ffff) >> 4) << 32 | modes[swizzleBits(l.swizzleBytes)] << 62;
}


/// Accumulator fragments of 128 threads with `regs` registers each.
struct Accumulators {
  std::vector<std::array<uint32_t, 128>> regs = std::vector<std::array<uint32_t, 128>>(128);
  std::array<uint32_t *, 128> pointers() {
    std::array<uint32_t *, 128> p;
    for (unsigned i = 0; i < 128; ++i)
      p[i] = regs[i].data();
    return p;
  }
  /// Element i of thread `thread`: row 16 warp + groupID (+8 for i % 4 >= 2),
  /// column 2 tig + i % 2 + 8 (i / 4) ("wgmma register fragments", D).
  static std::pair<unsigned, unsigned> position(unsigned thread, unsigned i) {
    unsigned warp = thread / 32, g = thread % 32 / 4, t = thread % 4;
    return {16 * warp + g + (i % 4 >= 2 ? 8 : 0), 2 * t + i % 2 + 8 * (i / 4)};
  }
};

const std::array<const uint32_t *, 128> kNoRegisters = {};

int aValue(unsigned m, unsigned k) { return int((m + 2 * k) % 7) - 3; }
int bValue(unsigned k, unsigned n) { return int((3 * k + n) % 5) - 2; }
int cValue(unsigned m, unsigned n) { return int(m) - int(n); }

/// m64n16k16 f32 += f16 * f16 from shared memory under every swizzle mode and
/// both transposes: D = A B + C.
void checkF16Layouts(unsigned swizzleBytes, bool transA, bool transB) {
  const unsigned n = 16, k = 16;
  Shared shared;
  OperandLayout la = compactLayout(transA, swizzleBytes, 64, 2);
  OperandLayout lb = compactLayout(transB, swizzleBytes, n, 2);
  shared.place(0, la, 2, 64, k, [](unsigned m, unsigned kk) { return floatToHalf(aValue(m, kk)); });
  shared.place(16384, lb, 2, n, k, [](unsigned nn, unsigned kk) { return floatToHalf(bValue(kk, nn)); });
  WgmmaShape shape{n, k, ElemType::F16, ElemType::F16, ElemType::F32};
  ASSERT_EQ(shape.validate(), "");
  WgmmaOperands ops;
  ops.descA = descriptor(0, la);
  ops.descB = descriptor(16384, lb);
  ops.transA = transA, ops.transB = transB;
  Accumulators acc;
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      acc.regs[thread][i] = floatBits(float(cValue(row, col)));
    }
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      int expected = cValue(row, col);
      for (unsigned kk = 0; kk < k; ++kk)
        expected += aValue(row, kk) * bValue(kk, col);
      ASSERT_EQ(bitsFloat(acc.regs[thread][i]), float(expected))
          << "swizzle " << swizzleBytes << " transA " << transA << " transB " << transB
          << " thread " << thread << " i " << i;
    }
}

TEST(Wgmma, F16FromSharedMemoryEverySwizzleAndTranspose) {
  for (unsigned swizzleBytes : {0u, 32u, 64u, 128u})
    for (bool transA : {false, true})
      for (bool transB : {false, true})
        checkF16Layouts(swizzleBytes, transA, transB);
}

// A 64 x 64 and B 16 x 64 tile (K-major, 128-byte swizzle: one 128-byte row
// per M/N index, as TMA writes it) multiplied in four k16 steps whose
// descriptors start 32 bytes further into the swizzle atom each time (how
// CUTLASS iterates over K): the swizzle applies to the absolute address.
TEST(Wgmma, KStepsInsideA128ByteSwizzleAtom) {
  const unsigned n = 16, k = 64;
  Shared shared;
  OperandLayout la{false, 128, 16, 1024}, lb{false, 128, 16, 1024};
  shared.place(0, la, 2, 64, k, [](unsigned m, unsigned kk) { return floatToHalf(aValue(m, kk)); });
  shared.place(8192, lb, 2, n, k, [](unsigned nn, unsigned kk) { return floatToHalf(bValue(kk, nn)); });
  WgmmaShape shape{n, 16, ElemType::F16, ElemType::F16, ElemType::F32};
  Accumulators acc;
  for (unsigned step = 0; step < 4; ++step) {
    WgmmaOperands ops;
    ops.descA = descriptor(32 * step, la);
    ops.descB = descriptor(8192 + 32 * step, lb);
    ops.scaleD = step > 0;
    llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  }
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      int expected = 0;
      for (unsigned kk = 0; kk < k; ++kk)
        expected += aValue(row, kk) * bValue(kk, col);
      ASSERT_EQ(bitsFloat(acc.regs[thread][i]), float(expected)) << thread << " " << i;
    }
}

TEST(Wgmma, DescriptorFields) {
  // start 0x1230, LBO 0x40, SBO 0x400, base offset 0, 64-byte swizzle.
  uint64_t bits = 0x123 | uint64_t(0x4) << 16 | uint64_t(0x40) << 32 | uint64_t(2) << 62;
  MatrixDescriptor d = MatrixDescriptor::decode(bits);
  EXPECT_EQ(d.start, 0x1230u);
  EXPECT_EQ(d.leadingOffset, 0x40u);
  EXPECT_EQ(d.strideOffset, 0x400u);
  EXPECT_EQ(d.baseOffset, 0u);
  EXPECT_EQ(d.swizzle, SwizzleMode::Bytes64);
  // K-major 128B swizzle: row 1's first 16 bytes are the row's chunk 1.
  MatrixDescriptor s = MatrixDescriptor::decode(uint64_t(1) << 62 | uint64_t(64) << 32);
  EXPECT_EQ(s.elementAddress(false, 2, 1, 0), 128u + 16u);
  EXPECT_EQ(s.elementAddress(false, 2, 1, 8), 128u + 0u);
  EXPECT_EQ(s.elementAddress(false, 2, 9, 0), 1024u + 128u + 16u);
}

// A from registers (the ISA's m64nNk16 A fragment: row 16 warp + groupID
// (+8 for i % 4 >= 2), column 2 tig + i % 2 + 8 (i / 4)), negated by
// imm-scale-a = -1, B (bf16) negated too, and scale-d = 0 ignoring C.
TEST(Wgmma, Bf16RegisterAScaledWithoutAccumulator) {
  const unsigned n = 8, k = 16;
  Shared shared;
  OperandLayout lb = compactLayout(false, 128, n, 2);
  shared.place(0, lb, 2, n, k, [](unsigned nn, unsigned kk) { return floatToBFloat(bValue(kk, nn)); });
  std::vector<std::array<uint32_t, 4>> aRegs(128);
  std::array<const uint32_t *, 128> a;
  for (unsigned thread = 0; thread < 128; ++thread) {
    unsigned warp = thread / 32, g = thread % 32 / 4, t = thread % 4;
    for (unsigned i = 0; i < 8; ++i) {
      unsigned row = 16 * warp + g + (i % 4 >= 2 ? 8 : 0), col = 2 * t + i % 2 + 8 * (i / 4);
      aRegs[thread][i / 2] |= uint32_t(floatToBFloat(aValue(row, col))) << (16 * (i % 2));
    }
    a[thread] = aRegs[thread].data();
  }
  WgmmaShape shape{n, k, ElemType::BF16, ElemType::BF16, ElemType::F32};
  WgmmaOperands ops;
  ops.aInRegisters = true;
  ops.descB = descriptor(0, lb);
  ops.scaleD = false;
  ops.scaleA = -1;
  ops.scaleB = -1;
  Accumulators acc;
  for (auto &regs : acc.regs)
    regs.fill(floatBits(1e30f)); // ignored
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), a, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      int expected = 0;
      for (unsigned kk = 0; kk < k; ++kk)
        expected += aValue(row, kk) * bValue(kk, col);
      ASSERT_EQ(bitsFloat(acc.regs[thread][i]), float(expected)) << thread << " " << i;
    }
}

// tf32 m64n8k8, K-major without swizzle: the low 13 bits of every operand
// are ignored (1 + 2^-20 counts as 1).
TEST(Wgmma, Tf32IgnoresLowMantissaBits) {
  const unsigned n = 8, k = 8;
  Shared shared;
  OperandLayout la = compactLayout(false, 0, 64, 4), lb = compactLayout(false, 0, n, 4);
  auto tf32 = [](int v) { return floatBits(float(v)) | (v ? 0x1000u : 0u); };
  shared.place(0, la, 4, 64, k, [&](unsigned m, unsigned kk) { return tf32(aValue(m, kk)); });
  shared.place(8192, lb, 4, n, k, [&](unsigned nn, unsigned kk) { return tf32(bValue(kk, nn)); });
  WgmmaShape shape{n, k, ElemType::TF32, ElemType::TF32, ElemType::F32};
  ASSERT_EQ(shape.validate(), "");
  WgmmaOperands ops;
  ops.descA = descriptor(0, la);
  ops.descB = descriptor(8192, lb);
  Accumulators acc;
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      int expected = 0;
      for (unsigned kk = 0; kk < k; ++kk)
        expected += aValue(row, kk) * bValue(kk, col);
      ASSERT_EQ(bitsFloat(acc.regs[thread][i]), float(expected)) << thread << " " << i;
    }
}

// e4m3 x e5m2 -> f16, m64n8k32, 32-byte swizzle: A[m][k] = e4m3 code with
// value 2^-9 (subnormal) when k == m % 32, -1.5 when k == (m + 1) % 32,
// else 0; B[k][n] = e5m2 1 if k == n, -2 if k == n + 8. With C = 0.25:
// D[m][n] = 0.25 + A[m][n] - 2 A[m][n + 8] (all exact in f16).
TEST(Wgmma, Fp8ToF16Accumulator) {
  const unsigned n = 8, k = 32;
  Shared shared;
  OperandLayout la = compactLayout(false, 32, 64, 1), lb = compactLayout(false, 32, n, 1);
  auto aCode = [](unsigned m, unsigned kk) -> uint32_t {
    return kk == m % 32 ? 0x01 : kk == (m + 1) % 32 ? 0xbc : 0;
  };
  auto aReal = [](unsigned m, unsigned kk) {
    return kk == m % 32 ? 1.0 / 512 : kk == (m + 1) % 32 ? -1.5 : 0.0;
  };
  shared.place(0, la, 1, 64, k, aCode);
  shared.place(8192, lb, 1, n, k, [](unsigned nn, unsigned kk) -> uint32_t {
    return kk == nn ? 0x3c : kk == nn + 8 ? 0xc0 : 0;
  });
  WgmmaShape shape{n, k, ElemType::E4M3, ElemType::E5M2, ElemType::F16};
  ASSERT_EQ(shape.validate(), "");
  WgmmaOperands ops;
  ops.descA = descriptor(0, la);
  ops.descB = descriptor(8192, lb);
  Accumulators acc;
  for (auto &regs : acc.regs)
    regs.fill(0x34003400u); // 0.25, 0.25
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      double expected = 0.25 + aReal(row, col) - 2 * aReal(row, col + 8);
      uint16_t half = uint16_t(acc.regs[thread][i / 2] >> (16 * (i % 2)));
      ASSERT_EQ(halfToFloat(half), float(expected)) << thread << " " << i;
    }
}

// s8 x u8 -> s32 .satfinite, m64n8k32, 64-byte swizzle: A = -128 everywhere,
// B = 255: each product -32640, 32 of them -1044480; C = INT32_MIN + 10^6
// for row 0 (clamped to INT32_MIN) and 7 elsewhere.
TEST(Wgmma, S8U8SatFinite) {
  const unsigned n = 8, k = 32;
  Shared shared;
  OperandLayout la = compactLayout(false, 64, 64, 1), lb = compactLayout(false, 64, n, 1);
  shared.place(0, la, 1, 64, k, [](unsigned, unsigned) -> uint32_t { return 0x80; });
  shared.place(8192, lb, 1, n, k, [](unsigned, unsigned) -> uint32_t { return 0xff; });
  WgmmaShape shape{n, k, ElemType::S8, ElemType::U8, ElemType::S32, true};
  ASSERT_EQ(shape.validate(), "");
  WgmmaOperands ops;
  ops.descA = descriptor(0, la);
  ops.descB = descriptor(8192, lb);
  Accumulators acc;
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i)
      acc.regs[thread][i] = Accumulators::position(thread, i).first == 0
                                ? uint32_t(INT32_MIN + 1000000)
                                : 7u;
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      int32_t expected = Accumulators::position(thread, i).first == 0 ? INT32_MIN : 7 - 1044480;
      ASSERT_EQ(int32_t(acc.regs[thread][i]), expected) << thread << " " << i;
    }
}

TEST(Wgmma, DescriptorsOutsideSharedMemoryAndBaseOffsetsAreErrors) {
  Shared shared;
  WgmmaShape shape;
  WgmmaOperands ops;
  ops.descA = 0;
  ops.descB = (32768 - 64) >> 4; // B runs past the 32 KiB window
  ops.descB |= uint64_t(128 >> 4) << 16 | uint64_t(256 >> 4) << 32;
  Accumulators acc;
  llvm::Error e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("wgmma B operand element"), std::string::npos);
  ops.descB = uint64_t(1) << 49 | uint64_t(1) << 62;
  e = computeWgmma(shape, ops, acc.pointers(), kNoRegisters, shared.window());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("base offset"), std::string::npos);
}

TEST(Wgmma, ShapeValidation) {
  EXPECT_EQ((WgmmaShape{256, 16, ElemType::F16, ElemType::F16, ElemType::F16}.validate()), "");
  EXPECT_NE((WgmmaShape{8, 16, ElemType::BF16, ElemType::BF16, ElemType::F16}.validate()), "");
  EXPECT_NE((WgmmaShape{8, 8, ElemType::F16, ElemType::F16, ElemType::F32}.validate()), "");
  EXPECT_NE((WgmmaShape{40, 32, ElemType::S8, ElemType::S8, ElemType::S32}.validate()), "");
  EXPECT_EQ((WgmmaShape{48, 32, ElemType::S8, ElemType::S8, ElemType::S32}.validate()), "");
  EXPECT_NE((WgmmaShape{12, 16, ElemType::F16, ElemType::F16, ElemType::F32}.validate()), "");
  EXPECT_EQ((WgmmaShape{8, 16, ElemType::F16, ElemType::F16, ElemType::F32}.name()),
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
}

/// The function type of an asm call: `outputs` results of `result`, then
/// `inputs`.
llvm::FunctionType *asmType(llvm::LLVMContext &ctx, unsigned outputs, llvm::Type *result,
                            std::vector<llvm::Type *> inputs) {
  std::vector<llvm::Type *> fields(outputs, result);
  return llvm::FunctionType::get(llvm::StructType::get(ctx, fields), inputs, false);
}

TEST(Wgmma, ParsesMlirInlineAsm) {
  llvm::LLVMContext ctx;
  auto *f32 = llvm::Type::getFloatTy(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx), *i64 = llvm::Type::getInt64Ty(ctx);
  // What mlir-translate-22 gives for nvvm.wgmma.mma_async m64n8k16 f32 += f16 * f16.
  const char *text = "{\n.reg .pred p;\nsetp.ne.b32 p, $10, 0;\nwgmma.mma_async.sync.aligned."
                     "m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\n}\n";
  auto *type = asmType(ctx, 4, f32, {f32, f32, f32, f32, i64, i64, i32, i32, i32, i32, i32});
  auto h = lookupWgmmaAsm(text, "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n", type);
  ASSERT_TRUE(bool(h)) << llvm::toString(h.takeError());
  ASSERT_TRUE(h->has_value());
  EXPECT_EQ((*h)->name, "llvm.nvvm.wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
  EXPECT_TRUE((*h)->warpgroupOp);

  // MLIR's integer form puts .satfinite last and has no immediates.
  const char *integer = "{\n.reg .pred p;\nsetp.ne.b32 p, $10, 0;\nwgmma.mma_async.sync.aligned."
                        "m64n8k32.s32.s8.u8.satfinite {$0, $1, $2, $3}, $8, $9, p;\n}\n";
  auto *intType = asmType(ctx, 4, i32, {i32, i32, i32, i32, i64, i64, i32});
  auto hi = lookupWgmmaAsm(integer, "=r,=r,=r,=r,0,1,2,3,l,l,n", intType);
  ASSERT_TRUE(bool(hi)) << llvm::toString(hi.takeError());
  EXPECT_EQ((*hi)->name, "llvm.nvvm.wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.u8");

  // MLIR's f16 accumulators are <2 x half> values under "=f".
  llvm::Type *h2 = llvm::FixedVectorType::get(llvm::Type::getHalfTy(ctx), 2);
  const char *fp8 = "{\n.reg .pred p;\nsetp.ne.b32 p, $6, 0;\nwgmma.mma_async.sync.aligned."
                    "m64n8k32.f16.e4m3.e5m2 {$0, $1}, $4, $5, p, $7,  $8;\n}\n";
  auto *fp8Type = asmType(ctx, 2, h2, {h2, h2, i64, i64, i32, i32, i32});
  auto hf = lookupWgmmaAsm(fp8, "=f,=f,0,1,l,l,n,n,n", fp8Type);
  ASSERT_TRUE(bool(hf)) << llvm::toString(hf.takeError());
  EXPECT_EQ((*hf)->name, "llvm.nvvm.wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e5m2");

  // A bare instruction with register A and literal immediates.
  const char *bare = "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, "
                     "{$8, $9, $10, $11}, $12, 1, -1, 1, 0;";
  auto *bareType = asmType(ctx, 4, f32, {f32, f32, f32, f32, i32, i32, i32, i32, i64});
  auto hb = lookupWgmmaAsm(bare, "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l", bareType);
  ASSERT_TRUE(bool(hb)) << llvm::toString(hb.takeError());
  EXPECT_TRUE(hb->has_value());

  auto none = lookupWgmmaAsm("rcp.approx.f32 $0, $1;", "=f,f", llvm::FunctionType::get(f32, {f32}, false));
  ASSERT_TRUE(bool(none));
  EXPECT_FALSE(none->has_value());
}

// The TMA ring's drain (WgmmaRingToLLVM.cpp): wgmma.wait_group with the
// accumulator registers tied through it. wgmma completes at issue here, so
// the registers pass unchanged; other ties are refused.
TEST(Wgmma, TiedWaitGroupPassesRegistersThrough) {
  llvm::LLVMContext ctx;
  llvm::Type *f32 = llvm::Type::getFloatTy(ctx);
  auto *type = asmType(ctx, 3, f32, {f32, f32, f32});
  auto h = lookupWgmmaAsm("wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,0,1,2", type);
  ASSERT_TRUE(bool(h)) << llvm::toString(h.takeError());
  ASSERT_TRUE(h->has_value());
  IntrinsicHandler handler = **h;
  handler.argOffsets = {0, 4, 8};
  handler.retOffsets = {0, 4, 8};
  handler.retSizes = {4, 4, 4};
  float args[3] = {1.5f, -2.0f, 3.25f}, ret[3] = {};
  handler.fn(handler, reinterpret_cast<const uint8_t *>(args), reinterpret_cast<uint8_t *>(ret));
  EXPECT_EQ(ret[0], 1.5f);
  EXPECT_EQ(ret[1], -2.0f);
  EXPECT_EQ(ret[2], 3.25f);

  auto swapped = lookupWgmmaAsm("wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,1,0,2", type);
  ASSERT_FALSE(bool(swapped));
  EXPECT_NE(llvm::toString(swapped.takeError()).find("tied through it"), std::string::npos);
}

std::string asmError(const char *text, const char *constraints, llvm::FunctionType *type) {
  auto h = lookupWgmmaAsm(text, constraints, type);
  return h ? std::string("accepted") : llvm::toString(h.takeError());
}

TEST(Wgmma, UnsupportedInlineAsmIsAClearError) {
  llvm::LLVMContext ctx;
  llvm::Type *f32 = llvm::Type::getFloatTy(ctx), *i32 = llvm::Type::getInt32Ty(ctx);
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *type = asmType(ctx, 4, f32, {f32, f32, f32, f32, i64, i64});
  // Sparse wgmma, the b1 type, a wrong accumulator count, an immediate too few.
  EXPECT_NE(asmError("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {$0, $1, $2, $3}, $4, $5, 1, 1, 1, 0, 0;",
                     "=f,=f,=f,=f,0,1,2,3,l,l", type).find("unsupported wgmma inline PTX"),
            std::string::npos);
  auto *intType = asmType(ctx, 4, i32, {i32, i32, i32, i32, i64, i64});
  EXPECT_NE(asmError("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {$0, $1, $2, $3}, $8, $9, 1;",
                     "=r,=r,=r,=r,0,1,2,3,l,l", intType).find("unsupported wgmma inline PTX"),
            std::string::npos);
  EXPECT_NE(asmError("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, 1, 1, 1, 0, 0;",
                     "=f,=f,=f,=f,0,1,2,3,l,l", type).find("8 accumulator registers expected"),
            std::string::npos);
  EXPECT_NE(asmError("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, 1, 1, 1, 0;",
                     "=f,=f,=f,=f,0,1,2,3,l,l", type).find("8 operands expected"),
            std::string::npos);
}

// 128 threads copy pre-laid-out operands into shared memory, build the
// descriptors from the shared address (as kernels do: (addr & 0x3FFFF) >> 4)
// and run MLIR's wgmma inline asm: A K-major under the 128-byte swizzle, B
// N-major (imm-trans-b = 1) under the 64-byte swizzle, C = 0.5.
const char *kWgmmaKernel = R"(
target triple = "nvptx64-nvidia-cuda"
@smem = internal addrspace(3) global [4096 x i32] undef, align 1024
define ptx_kernel void @wgmma_f16(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %flagsA, i64 %flagsB) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %copy
copy:
  %i = phi i32 [ %tid, %entry ], [ %next, %copy ]
  %src = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds i32, ptr addrspace(3) @smem, i32 %i
  store i32 %v, ptr addrspace(3) %dst, align 4
  %next = add i32 %i, 128
  %more = icmp ult i32 %next, 4096
  br i1 %more, label %copy, label %mma
mma:
  call void @llvm.nvvm.barrier0()
  %base = ptrtoint ptr addrspace(3) @smem to i64
  %window = and i64 %base, 262143
  %startA = lshr i64 %window, 4
  %startB = add i64 %startA, 512
  %descA = or i64 %flagsA, %startA
  %descB = or i64 %flagsB, %startB
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %d = call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n"(float 0.5, float 0.5, float 0.5, float 0.5, i64 %descA, i64 %descB, i32 1, i32 1, i32 1, i32 0, i32 1)
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
  %slot = shl i32 %tid, 2
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d1 = extractvalue { float, float, float, float } %d, 1
  %d2 = extractvalue { float, float, float, float } %d, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  %p0 = getelementptr inbounds float, ptr addrspace(1) %out, i32 %slot
  store float %d0, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds float, ptr addrspace(1) %p0, i32 1
  store float %d1, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds float, ptr addrspace(1) %p0, i32 2
  store float %d2, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds float, ptr addrspace(1) %p0, i32 3
  store float %d3, ptr addrspace(1) %p3, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64)
)";

class WgmmaKernel : public ::testing::Test {
protected:
  void SetUp() override {
    auto created = Emulator::createFromIR(kWgmmaKernel, "wgmma.ll");
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
    la_ = compactLayout(false, 128, 64, 2);
    lb_ = compactLayout(true, 64, 8, 2);
    shared_.place(0, la_, 2, 64, 16, [](unsigned m, unsigned k) { return floatToHalf(aValue(m, k)); });
    shared_.place(8192, lb_, 2, 8, 16, [](unsigned n, unsigned k) { return floatToHalf(bValue(k, n)); });
  }

  llvm::Error run(unsigned threads) {
    std::vector<KernelArg> args;
    emulator_->registerBuffer(shared_.bytes, 16384, "in");
    emulator_->registerBuffer(out_.data(), out_.size() * 4, "out");
    args.push_back(KernelArg::pointer(shared_.bytes));
    args.push_back(KernelArg::pointer(out_.data()));
    // The flag bits: the descriptors less their start addresses.
    args.push_back(KernelArg::integer(64, descriptor(0, la_)));
    args.push_back(KernelArg::integer(64, descriptor(0, lb_)));
    return emulator_->launch("wgmma_f16", Dim3{1, 1, 1}, Dim3{threads, 1, 1}, args);
  }

  std::unique_ptr<Emulator> emulator_;
  OperandLayout la_, lb_;
  Shared shared_;
  std::vector<float> out_ = std::vector<float>(128 * 4, -1.0f);
};

TEST_F(WgmmaKernel, MlirInlineAsmRunsAsAWarpgroupCollective) {
  llvm::Error e = run(128);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < 4; ++i) {
      auto [row, col] = Accumulators::position(thread, i);
      int expected = 0;
      for (unsigned k = 0; k < 16; ++k)
        expected += aValue(row, k) * bValue(k, col);
      ASSERT_EQ(out_[4 * thread + i], expected + 0.5f) << thread << " " << i;
    }
}

TEST_F(WgmmaKernel, PartialWarpgroupIsAnError) {
  llvm::Error e = run(96);
  ASSERT_TRUE(bool(e));
  std::string message = llvm::toString(std::move(e));
  EXPECT_NE(message.find("needs whole warpgroups of 128 threads"), std::string::npos) << message;
}

} // namespace
