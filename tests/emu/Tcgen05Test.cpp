//===- Tcgen05Test.cpp - tcgen05: tensor memory, fragments, descriptors, mma ===//
//
// Expected values are worked out by hand from the PTX ISA (fragment figures
// of tcgen05.ld/st, the instruction and shared memory descriptor tables) or
// computed from small integers, so every product and sum is exact.
//
//===----------------------------------------------------------------------===//
#include "CanonicalLayouts.h"
#include "FloatBits.h"
#include "Tcgen05.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace tilepipe::emu;
using namespace tilepipe::emu::testing;

namespace {

std::pair<unsigned, unsigned> cell(TmemShape shape, unsigned thread, unsigned reg) {
  TmemCellOffset c = tmemFragmentCell(shape, thread, reg);
  return {c.lane, c.column};
}

using Cell = std::pair<unsigned, unsigned>;

TEST(Tcgen05Fragments, CellsOfTheIsaFigures) {
  EXPECT_EQ(cell(TmemShape::S32x32b, 5, 7), Cell(5, 7));
  // 16x64b: threads 0-3 hold lane 0 column 0, lane 8 column 0, lane 0
  // column 1, lane 8 column 1; thread 4 starts lane 1.
  EXPECT_EQ(cell(TmemShape::S16x64b, 0, 0), Cell(0, 0));
  EXPECT_EQ(cell(TmemShape::S16x64b, 1, 0), Cell(8, 0));
  EXPECT_EQ(cell(TmemShape::S16x64b, 2, 0), Cell(0, 1));
  EXPECT_EQ(cell(TmemShape::S16x64b, 3, 0), Cell(8, 1));
  EXPECT_EQ(cell(TmemShape::S16x64b, 4, 0), Cell(1, 0));
  EXPECT_EQ(cell(TmemShape::S16x64b, 31, 3), Cell(15, 7));
  // 16x128b: four threads per lane, r1 eight lanes down, r2 the next 4 columns.
  EXPECT_EQ(cell(TmemShape::S16x128b, 5, 0), Cell(1, 1));
  EXPECT_EQ(cell(TmemShape::S16x128b, 5, 1), Cell(9, 1));
  EXPECT_EQ(cell(TmemShape::S16x128b, 5, 2), Cell(1, 5));
  // 16x256b: mma.sync's accumulator fragment, repeated every 8 columns.
  EXPECT_EQ(cell(TmemShape::S16x256b, 6, 0), Cell(1, 4));
  EXPECT_EQ(cell(TmemShape::S16x256b, 6, 1), Cell(1, 5));
  EXPECT_EQ(cell(TmemShape::S16x256b, 6, 2), Cell(9, 4));
  EXPECT_EQ(cell(TmemShape::S16x256b, 6, 3), Cell(9, 5));
  EXPECT_EQ(cell(TmemShape::S16x256b, 6, 4), Cell(1, 12));
  // 16x32bx2: one lane per thread of each half (the split is added later).
  EXPECT_EQ(cell(TmemShape::S16x32bx2, 20, 1), Cell(4, 1));
}

TEST(Tcgen05Fragments, EveryShapeCoversItsCellsOnce) {
  for (TmemShape shape : {TmemShape::S32x32b, TmemShape::S16x64b, TmemShape::S16x128b,
                          TmemShape::S16x256b})
    for (unsigned num : {1u, 4u}) {
      std::set<Cell> seen;
      for (unsigned t = 0; t < 32; ++t)
        for (unsigned r = 0; r < tmemRegisters(shape, num); ++r) {
          Cell c = cell(shape, t, r);
          EXPECT_LT(c.first, tmemShapeLanes(shape));
          EXPECT_LT(c.second, tmemShapeColumns(shape, num, 0, false));
          EXPECT_TRUE(seen.insert(c).second) << int(shape) << " t" << t << " r" << r;
        }
      EXPECT_EQ(seen.size(), tmemShapeLanes(shape) * tmemShapeColumns(shape, num, 0, false));
    }
}

TEST(Tcgen05Memory, AllocatorFirstFitAndDeallocChecks) {
  TensorMemory tmem;
  EXPECT_EQ(tmem.allocate(32), std::optional<unsigned>(0));
  EXPECT_EQ(tmem.allocate(64), std::optional<unsigned>(32));
  EXPECT_EQ(tmem.allocate(512), std::nullopt);
  EXPECT_EQ(tmem.allocate(256), std::optional<unsigned>(96));
  EXPECT_EQ(tmem.allocatedColumns(), 352u);
  EXPECT_EQ(tmem.deallocate(32, 32), "the allocation at column 32 has 64 columns, not 32");
  EXPECT_EQ(tmem.deallocate(40, 32), "column 40 does not start an allocation");
  EXPECT_EQ(tmem.deallocate(0, 32), "");
  EXPECT_EQ(tmem.allocate(32), std::optional<unsigned>(0));
  EXPECT_EQ(tmem.checkAllocated({0, 90}, 128, 8), "");
  EXPECT_EQ(tmem.checkAllocated({0, 352}, 32, 1), "column 352 of tensor memory is not allocated");
  EXPECT_NE(tmem.checkAllocated({120, 0}, 16, 1).find("outside the 128 x 512"), std::string::npos);
}

TEST(Tcgen05Memory, PackedStoreLoadAndTheLaneQuarterRule) {
  TensorMemory tmem;
  ASSERT_TRUE(tmem.allocate(32));
  // Warp 2, thread 3: 32x32b.x2.unpack::16b writes lane 64 + 3, columns 0..3.
  uint32_t regs[2] = {0xbbbbaaaa, 0xddddcccc};
  uint32_t address = TmemAddress{64, 0}.encode();
  llvm::Error e = tmemLoadStore(tmem, false, TmemShape::S32x32b, 2, true, address, 0, 2, 3, regs);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(tmem.cell(67, 0), 0xaaaau);
  EXPECT_EQ(tmem.cell(67, 1), 0xbbbbu);
  EXPECT_EQ(tmem.cell(67, 3), 0xddddu);
  uint32_t back[2] = {};
  e = tmemLoadStore(tmem, true, TmemShape::S32x32b, 2, true, address, 0, 2, 3, back);
  ASSERT_FALSE(bool(e));
  EXPECT_EQ(back[1], 0xddddccccu);
  // Warp 5 (sub-partition 1) may not reach lanes 64..95.
  e = tmemLoadStore(tmem, true, TmemShape::S32x32b, 1, false, address, 0, 5, 0, back);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("may only access lanes 32..63"), std::string::npos);
}

TEST(Tcgen05Descriptors, InstructionDescriptor) {
  // bf16 x bf16 -> f32, B transposed, N = 256, M = 128:
  // 1 << 4 | 1 << 7 | 1 << 10 | 1 << 16 | 32 << 17 | 8 << 24.
  llvm::Expected<Tcgen05InstrDesc> d = Tcgen05InstrDesc::decode(0x08410490, Tcgen05Kind::F16);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(d->m, 128u);
  EXPECT_EQ(d->n, 256u);
  EXPECT_EQ(d->a, ElemType::BF16);
  EXPECT_EQ(d->d, ElemType::F32);
  EXPECT_TRUE(d->transposeB);
  EXPECT_FALSE(d->transposeA);
  EXPECT_EQ(d->k(), 16u);
  // i8: signed A, unsigned B, saturating, M = 64, N = 24: 2 << 4 | 1 << 7 |
  // 1 << 3 | 3 << 17 | 4 << 24.
  d = Tcgen05InstrDesc::decode(0x040600a8, Tcgen05Kind::I8);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(d->a, ElemType::S8);
  EXPECT_EQ(d->b, ElemType::U8);
  EXPECT_TRUE(d->saturate);
  EXPECT_EQ(d->m, 64u);
  EXPECT_EQ(d->n, 24u);
  EXPECT_EQ(d->k(), 32u);
  auto error = [](uint32_t bits, Tcgen05Kind kind) {
    llvm::Expected<Tcgen05InstrDesc> bad = Tcgen05InstrDesc::decode(bits, kind);
    return bad ? std::string() : llvm::toString(bad.takeError());
  };
  // M = 96; N = 24 with M = 128; bf16 with an f16 D; tf32 codes under kind::f16.
  EXPECT_NE(error(0x06100010, Tcgen05Kind::F16).find("M = 96"), std::string::npos);
  EXPECT_NE(error(0x08060010, Tcgen05Kind::F16).find("N = 24 with M = 128"), std::string::npos);
  EXPECT_NE(error(0x08100480, Tcgen05Kind::F16).find("dtype 0"), std::string::npos);
  EXPECT_NE(error(0x08100910, Tcgen05Kind::F16).find("atype 2 / btype 2"), std::string::npos);
  EXPECT_NE(error(0x08100014, Tcgen05Kind::F16).find("sparse"), std::string::npos);
}

/// The tcgen05 shared memory descriptor of the canonical layout `l` at
/// `start` (swizzle codes: 0 none, 6 32B, 4 64B, 2 128B).
uint64_t smemDescriptor(unsigned start, const OperandLayout &l) {
  static const uint64_t modes[] = {0, 6, 4, 2};
  unsigned lbo = !l.mnMajor && l.swizzleBytes ? 16 : l.lbo; // unused then
  return uint64_t((start & 0x3ffff) >> 4) | uint64_t((lbo & 0x3ffff) >> 4) << 16 |
         uint64_t((l.sbo & 0x3ffff) >> 4) << 32 | uint64_t(1) << 46 |
         modes[swizzleBits(l.swizzleBytes)] << 61;
}

TEST(Tcgen05Descriptors, SharedMemoryDescriptor) {
  // Start 0x400, LBO 16, SBO 1024, version 1, 128-byte swizzle.
  uint64_t bits = 0x40 | 1ull << 16 | 64ull << 32 | 1ull << 46 | 2ull << 61;
  llvm::Expected<MatrixDescriptor> d = decodeTcgen05SmemDescriptor(bits);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(d->start, 0x400u);
  EXPECT_EQ(d->leadingOffset, 16u);
  EXPECT_EQ(d->strideOffset, 1024u);
  EXPECT_EQ(d->swizzle, SwizzleMode::Bytes128);
  EXPECT_EQ(decodeTcgen05SmemDescriptor(6ull << 61 | 1ull << 46)->swizzle, SwizzleMode::Bytes32);
  EXPECT_EQ(decodeTcgen05SmemDescriptor(4ull << 61 | 1ull << 46)->swizzle, SwizzleMode::Bytes64);
  llvm::Expected<MatrixDescriptor> noVersion = decodeTcgen05SmemDescriptor(0x40);
  ASSERT_FALSE(bool(noVersion));
  EXPECT_NE(llvm::toString(noVersion.takeError()).find("0b001"), std::string::npos);
  llvm::Expected<MatrixDescriptor> badMode = decodeTcgen05SmemDescriptor(3ull << 61 | 1ull << 46);
  ASSERT_FALSE(bool(badMode));
  EXPECT_NE(llvm::toString(badMode.takeError()).find("swizzle mode 3 is invalid"), std::string::npos);
}

int aValue(unsigned m, unsigned k) { return int((m + 2 * k) % 7) - 3; }
int bValue(unsigned k, unsigned n) { return int((3 * k + n) % 5) - 2; }

/// D (M x N) = A B (+ D0 * 2^-scale when accumulating) through shared
/// memory descriptors, A and B in the layouts given; D0(m, n) = m - n.
void checkMma(Tcgen05Kind kind, ElemType type, uint32_t idesc, unsigned m, unsigned n,
              unsigned swizzleBytes, bool transA, bool transB, bool accumulate, unsigned scale) {
  const unsigned bytes = elemBits(type) / 8, k = 32 / bytes;
  Shared shared;
  auto encode = [&](int v) {
    return type == ElemType::TF32 ? floatBits(float(v)) : uint32_t(floatToHalf(float(v)));
  };
  OperandLayout la = compactLayout(transA, swizzleBytes, m, bytes);
  OperandLayout lb = compactLayout(transB, swizzleBytes, n, bytes);
  shared.place(0, la, bytes, m, k, [&](unsigned r, unsigned kk) { return encode(aValue(r, kk)); });
  shared.place(16384, lb, bytes, n, k, [&](unsigned c, unsigned kk) { return encode(bValue(kk, c)); });
  TensorMemory tmem;
  ASSERT_TRUE(tmem.allocate(256));
  Tcgen05MmaOp op;
  op.kind = kind;
  op.d = TmemAddress{0, 0}.encode();
  op.aDesc = smemDescriptor(0, la);
  op.bDesc = smemDescriptor(16384, lb);
  op.idesc = idesc | transA << 15 | transB << 16 | (n >> 3) << 17 | (m >> 4) << 24;
  op.enableInputD = accumulate;
  op.scaleInputD = scale;
  for (unsigned r = 0; r < m; ++r)
    for (unsigned c = 0; c < n; ++c)
      tmem.cell(tcgen05DataPathLane(m, r), c) = floatBits(float(int(r) - int(c)) * (1 << scale));
  llvm::Error e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned r = 0; r < m; ++r)
    for (unsigned c = 0; c < n; ++c) {
      int expected = accumulate ? int(r) - int(c) : 0;
      for (unsigned kk = 0; kk < k; ++kk)
        expected += aValue(r, kk) * bValue(kk, c);
      ASSERT_EQ(bitsFloat(tmem.cell(tcgen05DataPathLane(m, r), c)), float(expected))
          << "swizzle " << swizzleBytes << " transA " << transA << " transB " << transB
          << " row " << r << " column " << c;
    }
}

TEST(Tcgen05Mma, F16EverySwizzleAndTranspose) {
  // kind::f16, f16 inputs, f32 D, M = 128, N = 16; the second round
  // accumulates onto D0 * 2^2 scaled back by .scale_d 2.
  for (unsigned swizzleBytes : {0u, 32u, 64u, 128u})
    for (bool transA : {false, true})
      for (bool transB : {false, true})
        for (bool accumulate : {false, true})
          checkMma(Tcgen05Kind::F16, ElemType::F16, 1 << 4, 128, 16, swizzleBytes, transA, transB,
                   accumulate, accumulate ? 2 : 0);
}

TEST(Tcgen05Mma, Tf32WithM64UsesLanes0To15OfEachSubPartition) {
  // kind::tf32: dtype f32, atype = btype = 2; M = 64, N = 8.
  for (unsigned swizzleBytes : {0u, 128u})
    checkMma(Tcgen05Kind::TF32, ElemType::TF32, 1 << 4 | 2 << 7 | 2 << 10, 64, 8, swizzleBytes,
             true, false, true, 0);
  EXPECT_EQ(tcgen05DataPathLane(64, 17), 33u);
  EXPECT_EQ(tcgen05DataPathLane(64, 63), 111u);
}

TEST(Tcgen05Mma, AFromTensorMemoryAndErrors) {
  // A (128 x 16 f16) in columns 64..71, two f16 per 32-bit cell; B K-major.
  Shared shared;
  OperandLayout lb = compactLayout(false, 0, 16, 2);
  shared.place(0, lb, 2, 16, 16, [](unsigned c, unsigned kk) { return floatToHalf(bValue(kk, c)); });
  TensorMemory tmem;
  ASSERT_TRUE(tmem.allocate(128));
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned kk = 0; kk < 16; kk += 2)
      tmem.cell(r, 64 + kk / 2) = floatToHalf(aValue(r, kk)) | uint32_t(floatToHalf(aValue(r, kk + 1))) << 16;
  Tcgen05MmaOp op;
  op.aInTmem = true;
  op.aTmem = TmemAddress{0, 64}.encode();
  op.bDesc = smemDescriptor(0, lb);
  op.idesc = 1 << 4 | (16 >> 3) << 17 | (128 >> 4) << 24;
  op.enableInputD = false;
  llvm::Error e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned c = 0; c < 16; ++c) {
      int expected = 0;
      for (unsigned kk = 0; kk < 16; ++kk)
        expected += aValue(r, kk) * bValue(kk, c);
      ASSERT_EQ(bitsFloat(tmem.cell(r, c)), float(expected)) << r << ", " << c;
    }
  // disable-output-lane: lanes 1 and 100 keep their old contents.
  tmem.cell(1, 0) = tmem.cell(100, 3) = 0x12345678;
  op.disabledLanes = {2u, 0u, 0u, 1u << 4};
  e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(tmem.cell(1, 0), 0x12345678u);
  EXPECT_EQ(tmem.cell(100, 3), 0x12345678u);
  EXPECT_NE(tmem.cell(0, 0), 0x12345678u);
  EXPECT_NE(tmem.cell(99, 3), 0x12345678u);
  op.disabledLanes = {};
  // D in unallocated columns.
  op.d = TmemAddress{0, 128}.encode();
  e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("column 128 of tensor memory is not allocated"),
            std::string::npos);
}

/// Stores the `bits`-bit code of element (mn, kk) of a K-major operand in
/// the padded fp6/fp4 format: 16 codes packed at the start of each 16-byte
/// chunk along K.
void placeNarrow(Shared &shared, unsigned start, const OperandLayout &l, unsigned bits,
                 unsigned rows, unsigned k, const std::function<uint8_t(unsigned, unsigned)> &code) {
  for (unsigned mn = 0; mn < rows; ++mn)
    for (unsigned kk = 0; kk < k; ++kk) {
      unsigned index = kk % 16;
      unsigned chunk = swizzle(start + canonicalOffset(l, 1, mn, kk), swizzleBits(l.swizzleBytes)) - index;
      for (unsigned b = 0; b < bits; ++b)
        if (code(mn, kk) >> b & 1)
          shared.bytes[chunk + (index * bits + b) / 8] |= uint8_t(1 << (index * bits + b) % 8);
    }
}

TEST(Tcgen05Mma, F8f6f4WithPaddedFp4AndFp6Operands) {
  // A e2m1 (atype 5), B e3m2 (btype 4), f32 D; M = 128, N = 16, K = 32.
  const unsigned m = 128, n = 16, k = 32;
  auto aInt = [](unsigned r, unsigned kk) { return int((r + kk) % 5) - 2; };    // -2..2: e2m1
  auto bInt = [](unsigned kk, unsigned c) { return int((kk * 3 + c) % 9) - 4; }; // -4..4: e3m2
  for (unsigned swizzleBytes : {0u, 128u}) {
    Shared shared;
    OperandLayout la = compactLayout(false, swizzleBytes, m, 1);
    OperandLayout lb = compactLayout(false, swizzleBytes, n, 1);
    placeNarrow(shared, 0, la, 4, m, k, [&](unsigned r, unsigned kk) {
      return floatToNarrow(NarrowFloat::E2m1, float(aInt(r, kk)));
    });
    placeNarrow(shared, 16384, lb, 6, n, k, [&](unsigned c, unsigned kk) {
      return floatToNarrow(NarrowFloat::E3m2, float(bInt(kk, c)));
    });
    TensorMemory tmem;
    ASSERT_TRUE(tmem.allocate(32));
    Tcgen05MmaOp op;
    op.kind = Tcgen05Kind::F8F6F4;
    op.aDesc = smemDescriptor(0, la);
    op.bDesc = smemDescriptor(16384, lb);
    op.idesc = 1 << 4 | 5 << 7 | 4 << 10 | (n >> 3) << 17 | (m >> 4) << 24;
    op.enableInputD = false;
    llvm::Error e = computeTcgen05Mma(op, tmem, shared.window());
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    for (unsigned r = 0; r < m; ++r)
      for (unsigned c = 0; c < n; ++c) {
        int expected = 0;
        for (unsigned kk = 0; kk < k; ++kk)
          expected += aInt(r, kk) * bInt(kk, c);
        ASSERT_EQ(bitsFloat(tmem.cell(r, c)), float(expected)) << swizzleBytes << ": " << r << ", " << c;
      }
  }
}

/// Writes the e8m0 scale factor `scale(row)` of rows 0..rows-1 into byte
/// `id` of the scale_vec::1X layout at `column`: lane row % 32 of every
/// 32-lane partition, column + row / 32.
void placeScales(TensorMemory &tmem, unsigned column, unsigned rows, unsigned id,
                 const std::function<uint8_t(unsigned)> &scale) {
  for (unsigned row = 0; row < rows; ++row)
    for (unsigned partition = 0; partition < 4; ++partition) {
      uint32_t &cell = tmem.cell(partition * 32 + row % 32, column + row / 32);
      cell = (cell & ~(0xffu << 8 * id)) | uint32_t(scale(row)) << 8 * id;
    }
}

TEST(Tcgen05Mma, BlockScaledMxf8f6f4ScalesRowsOfAAndColumnsOfB) {
  // kind::mxf8f6f4, e4m3 A and B, M = 128, N = 32, K = 32; scale_A in
  // column 40 (byte 2 = SFA_ID), scale_B in column 48 (byte 1 = SFB_ID),
  // the other bytes holding decoys.
  const unsigned m = 128, n = 32, k = 32;
  Shared shared;
  OperandLayout la = compactLayout(false, 0, m, 1);
  OperandLayout lb = compactLayout(false, 0, n, 1);
  shared.place(0, la, 1, m, k, [&](unsigned r, unsigned kk) {
    return uint32_t(floatToE4m3(float(aValue(r, kk))));
  });
  shared.place(16384, lb, 1, n, k, [&](unsigned c, unsigned kk) {
    return uint32_t(floatToE4m3(float(bValue(kk, c))));
  });
  TensorMemory tmem;
  ASSERT_TRUE(tmem.allocate(64));
  auto aScale = [](unsigned r) { return int(r % 5) - 2; };
  auto bScale = [](unsigned c) { return int(c % 3) - 1; };
  for (unsigned id = 0; id < 4; ++id) {
    placeScales(tmem, 40, m, id, [&](unsigned r) { return uint8_t(127 + aScale(r) + 3 * (id != 2)); });
    placeScales(tmem, 48, n, id, [&](unsigned c) { return uint8_t(127 + bScale(c) - 2 * (id != 1)); });
  }
  Tcgen05MmaOp op;
  op.kind = Tcgen05Kind::MXF8F6F4;
  op.aDesc = smemDescriptor(0, la);
  op.bDesc = smemDescriptor(16384, lb);
  op.scaleA = TmemAddress{0, 40}.encode();
  op.scaleB = TmemAddress{0, 48}.encode();
  op.idesc = 1u << 4 | (n >> 3) << 17 | 1u << 23 | (m >> 7) << 27 | 2u << 29;
  op.enableInputD = false;
  llvm::Error e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  for (unsigned r = 0; r < m; ++r)
    for (unsigned c = 0; c < n; ++c) {
      int sum = 0;
      for (unsigned kk = 0; kk < k; ++kk)
        sum += aValue(r, kk) * bValue(kk, c);
      ASSERT_EQ(bitsFloat(tmem.cell(r, c)), std::ldexp(float(sum), aScale(r) + bScale(c)))
          << r << ", " << c;
    }
  // A scale that differs in one 32-lane partition is refused.
  tmem.cell(64 + 3, 41) ^= 0x10000;
  e = computeTcgen05Mma(op, tmem, shared.window());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("block scale factor 35 at 0x28 (byte 2 of lane 3, "
                                              "column 41) differs between the 32-lane partitions"),
            std::string::npos);
}

TEST(Tcgen05Descriptors, BlockScaledInstructionDescriptor) {
  // e5m2 A, e2m1 B, N = 256, M = 128, SFA_ID 3, SFB_ID 1.
  uint32_t bits = 1u << 4 | 1u << 7 | 5u << 10 | 32u << 17 | 1u << 23 | 1u << 27 | 3u << 29;
  llvm::Expected<Tcgen05InstrDesc> d = Tcgen05InstrDesc::decode(bits, Tcgen05Kind::MXF8F6F4);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_TRUE(d->blockScaled);
  EXPECT_EQ(d->m, 128u);
  EXPECT_EQ(d->n, 256u);
  EXPECT_EQ(d->a, ElemType::E5M2);
  EXPECT_EQ(d->narrowB, NarrowFloat::E2m1);
  EXPECT_EQ(d->d, ElemType::F32);
  EXPECT_EQ(d->scaleIdA, 3u);
  EXPECT_EQ(d->scaleIdB, 1u);
  EXPECT_EQ(d->k(), 32u);
  auto error = [](uint32_t bits) {
    llvm::Expected<Tcgen05InstrDesc> d = Tcgen05InstrDesc::decode(bits, Tcgen05Kind::MXF8F6F4);
    return d ? std::string() : llvm::toString(d.takeError());
  };
  EXPECT_NE(error(bits & ~(1u << 23)).find("ue8m0"), std::string::npos);
  EXPECT_NE(error(bits | 1u << 25).find("reserved bits"), std::string::npos);
  EXPECT_NE(error((bits & ~(3u << 27)) | 2u << 27).find("M = 256"), std::string::npos);
}

/// Byte b of source row r of a tcgen05.cp test.
uint8_t copyByte(unsigned r, unsigned b) { return uint8_t(r * 7 + b * 3 + 1); }

/// Copies a rows x rowBytes matrix placed K-major under `swizzleBytes` with
/// `shape` to column 32 and returns the tensor memory.
TensorMemory copied(TmemCopyShape shape, unsigned rows, unsigned rowBytes, unsigned swizzleBytes) {
  Shared shared;
  OperandLayout l = compactLayout(false, swizzleBytes, rows, 1);
  shared.place(1024, l, 1, rows, rowBytes, copyByte);
  TensorMemory tmem;
  EXPECT_TRUE(tmem.allocate(64));
  llvm::Error e = tmemCopyFromShared(tmem, shape, TmemAddress{0, 32}.encode(),
                                     smemDescriptor(1024, l), shared.window());
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return tmem;
}

/// The 32-bit word w of row r as tensor memory should hold it.
uint32_t copyWord(unsigned r, unsigned w) {
  uint32_t word = 0;
  for (unsigned i = 0; i < 4; ++i)
    word |= uint32_t(copyByte(r, 4 * w + i)) << 8 * i;
  return word;
}

TEST(Tcgen05Copy, RowsToLanesWordsToColumns) {
  for (unsigned swizzleBytes : {0u, 32u, 128u}) {
    TensorMemory tmem = copied(TmemCopyShape::S128x256b, 128, 32, swizzleBytes);
    for (unsigned r = 0; r < 128; ++r)
      for (unsigned w = 0; w < 8; ++w)
        ASSERT_EQ(tmem.cell(r, 32 + w), copyWord(r, w)) << swizzleBytes << " " << r << " " << w;
  }
  TensorMemory small = copied(TmemCopyShape::S4x256b, 4, 32, 0);
  EXPECT_EQ(small.cell(3, 39), copyWord(3, 7));
}

TEST(Tcgen05Copy, WarpMulticastShapes) {
  // .32x128b.warpx4: row r to lane r of every sub-partition.
  TensorMemory x4 = copied(TmemCopyShape::S32x128bWarpx4, 32, 16, 0);
  for (unsigned warp = 0; warp < 4; ++warp)
    EXPECT_EQ(x4.cell(32 * warp + 5, 35), copyWord(5, 3));
  // .64x128b.warpx2::02_13: rows 32..63 to sub-partitions 1 and 3;
  // ::01_23: to sub-partitions 2 and 3.
  TensorMemory x2a = copied(TmemCopyShape::S64x128bWarpx2_02_13, 64, 16, 0);
  EXPECT_EQ(x2a.cell(40, 33), copyWord(40, 1));
  EXPECT_EQ(x2a.cell(104, 33), copyWord(40, 1));
  EXPECT_EQ(x2a.cell(72, 33), copyWord(8, 1));
  TensorMemory x2b = copied(TmemCopyShape::S64x128bWarpx2_01_23, 64, 16, 0);
  EXPECT_EQ(x2b.cell(72, 33), copyWord(40, 1));
  EXPECT_EQ(x2b.cell(104, 33), copyWord(40, 1));
  EXPECT_EQ(x2b.cell(40, 33), copyWord(8, 1));
  EXPECT_EQ(parseTmemCopyShape("64x128b.warpx2::01_23"), TmemCopyShape::S64x128bWarpx2_01_23);
  EXPECT_EQ(parseTmemCopyShape("64x128b_warpx2_02_13"), TmemCopyShape::S64x128bWarpx2_02_13);
  EXPECT_EQ(parseTmemCopyShape("128x256b.b8x16.b6x16_p32"), std::nullopt);
}

TEST(Tcgen05Memory, ShiftDownMovesLanesOfOneSubPartition) {
  TensorMemory tmem;
  ASSERT_TRUE(tmem.allocate(32));
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned c = 0; c < 10; ++c)
      tmem.cell(lane, c) = lane * 100 + c;
  llvm::Error e = tmemShiftDown(tmem, TmemAddress{32, 1}.encode());
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(tmem.cell(32, 1), 3201u);  // the first lane keeps its row
  EXPECT_EQ(tmem.cell(33, 1), 3201u);
  EXPECT_EQ(tmem.cell(63, 8), 6208u);  // lane 62's row, column 8
  EXPECT_EQ(tmem.cell(63, 9), 6309u);  // column 9 is past the 8 shifted
  EXPECT_EQ(tmem.cell(63, 0), 6300u);
  EXPECT_EQ(tmem.cell(64, 1), 6401u);  // the next sub-partition stays
  e = tmemShiftDown(tmem, TmemAddress{16, 0}.encode());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("not a multiple of 32"), std::string::npos);
}

TEST(Tcgen05Intrinsics, NamesOfLlvm22) {
  for (const char *name :
       {"llvm.nvvm.tcgen05.alloc.shared.cg1", "llvm.nvvm.tcgen05.dealloc.cg1",
        "llvm.nvvm.tcgen05.relinq.alloc.permit.cg1", "llvm.nvvm.tcgen05.ld.16x32bx2.x128",
        "llvm.nvvm.tcgen05.st.16x256b.x32", "llvm.nvvm.tcgen05.mma.tensor.scale_d",
        "llvm.nvvm.tcgen05.mma.shared.disable_output_lane.cg1",
        "llvm.nvvm.tcgen05.mma.shared.mxf8f6f4.block_scale",
        "llvm.nvvm.tcgen05.mma.tensor.mxf8f6f4.block_scale.block32",
        "llvm.nvvm.tcgen05.commit.mc.shared.cg1", "llvm.nvvm.tcgen05.cp.32x128b_warpx4.cg1",
        "llvm.nvvm.tcgen05.shift.down.cg1", "llvm.nvvm.tcgen05.alloc.cg2",
        "llvm.nvvm.tcgen05.dealloc.cg2", "llvm.nvvm.tcgen05.relinq.alloc.permit.cg2",
        "llvm.nvvm.tcgen05.commit.mc.shared.cg2"})
    EXPECT_TRUE(lookupIntrinsic(name)) << name;
  // 16x256b.x64 would be 256 registers; a CTA pair's cp and shift, .ws and
  // .sp are refused.
  for (const char *name :
       {"llvm.nvvm.tcgen05.ld.16x256b.x64", "llvm.nvvm.tcgen05.cp.128x256b.cg2",
        "llvm.nvvm.tcgen05.shift.down.cg2",
        "llvm.nvvm.tcgen05.mma.ws.shared", "llvm.nvvm.tcgen05.mma.sp.shared",
        "llvm.nvvm.tcgen05.mma.shared.disable_output_lane.cg2",
        "llvm.nvvm.tcgen05.cp.128x256b.b6x16_p32.cg1",
        "llvm.nvvm.tcgen05.mma.shared.mxf4nvf4.block_scale.block16"})
    EXPECT_FALSE(lookupIntrinsic(name)) << name;
  EXPECT_TRUE(isNoOpIntrinsic("llvm.nvvm.tcgen05.wait.ld"));
  EXPECT_TRUE(isNoOpIntrinsic("llvm.nvvm.tcgen05.fence.after.thread.sync"));
}

TEST(Tcgen05Asm, StatementsAndRefusals) {
  llvm::LLVMContext ctx;
  auto *i32 = llvm::Type::getInt32Ty(ctx), *i64 = llvm::Type::getInt64Ty(ctx);
  auto *voidTy = llvm::Type::getVoidTy(ctx);
  auto *cpType = llvm::FunctionType::get(voidTy, {i32, i64}, false);
  auto ok = [&](llvm::StringRef text, llvm::StringRef constraints, llvm::FunctionType *type) {
    auto h = lookupTcgen05Asm(text, constraints, type);
    return h ? h->has_value() : (llvm::consumeError(h.takeError()), false);
  };
  auto error = [&](llvm::StringRef text, llvm::StringRef constraints, llvm::FunctionType *type) {
    auto h = lookupTcgen05Asm(text, constraints, type);
    return h ? std::string() : llvm::toString(h.takeError());
  };
  EXPECT_TRUE(ok("tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [$0], $1;", "r,l", cpType));
  EXPECT_NE(error("tcgen05.cp.cta_group::1.128x256b.b8x16.b6x16_p32 [$0], $1;", "r,l", cpType)
                .find("shape .128x256b.b8x16.b6x16_p32"),
            std::string::npos);
  auto ldType = llvm::FunctionType::get(llvm::StructType::get(ctx, {i32, i32}), {i32}, false);
  EXPECT_TRUE(ok("tcgen05.ld.sync.aligned.16x128b.x1.pack::16b.b32 {$0, $1}, [$2];", "=r,=r,r", ldType));
  EXPECT_NE(error("tcgen05.ld.sync.aligned.16x256b.x1.b32 {$0, $1}, [$2];", "=r,=r,r", ldType)
                .find("4 registers expected"),
            std::string::npos);
  EXPECT_TRUE(ok("tcgen05.wait::st.sync.aligned;", "", llvm::FunctionType::get(voidTy, false)));
  auto mmaType = llvm::FunctionType::get(voidTy, {i32, i64, i64, i32, i32, i32, i32, i32, i32}, false);
  EXPECT_TRUE(ok("{ .reg .pred p; setp.ne.b32 p, $8, 0; tcgen05.mma.cta_group::1.kind::tf32 "
                 "[$0], $1, $2, $3, {$4, $5, $6, $7}, p; }",
                 "r,l,l,r,r,r,r,r,r", mmaType));
  EXPECT_NE(error("tcgen05.mma.cta_group::1.kind::mxf4 [$0], $1, $2, $3, {$4, $5, $6, $7}, 1;",
                  "r,l,l,r,r,r,r,r,r", mmaType)
                .find("the .kind"),
            std::string::npos);
  auto scaledType = llvm::FunctionType::get(voidTy, {i32, i64, i64, i32, i32, i32, i32}, false);
  EXPECT_TRUE(ok("{ .reg .pred p; setp.ne.b32 p, $6, 0; tcgen05.mma.cta_group::1.kind::mxf8f6f4."
                 "block_scale.scale_vec::1X [$0], $1, $2, $3, [$4], [$5], p; }",
                 "r,l,l,r,r,r,r", scaledType));
  EXPECT_TRUE(ok("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32 [$0], $1, $2, $3, "
                 "[$4], [$5], 1;",
                 "r,l,l,r,r,r,r", scaledType));
  EXPECT_NE(error("tcgen05.mma.cta_group::1.kind::mxf8f6f4 [$0], $1, $2, $3, [$4], [$5], 1;",
                  "r,l,l,r,r,r,r", scaledType)
                .find("without .block_scale"),
            std::string::npos);
  EXPECT_FALSE(ok("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [$0], $1, $2, $3, [$4], 1;",
                  "r,l,l,r,r,r", llvm::FunctionType::get(voidTy, {i32, i64, i64, i32, i32, i32}, false)));
  EXPECT_FALSE(ok("mov.u32 $0, 1;", "=r", llvm::FunctionType::get(i32, false)));
}

} // namespace
