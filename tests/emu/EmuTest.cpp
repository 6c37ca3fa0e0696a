//===- EmuTest.cpp - tile-emu's runtime and intrinsic families -------------===//
//
// Warp collectives are checked against hand-computed results, first on the
// pure computeCollective function and then through hand-written nvptx64
// kernels JIT-compiled by the emulator (shuffles, votes, atomics, barriers,
// printf, memory checks).
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "Runtime.h"

#include "tilepipe/Emu/Emulator.h"
#include "tilepipe/Emu/LaunchSpec.h"
#include "tilepipe/Emu/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

using namespace tilepipe::emu;

namespace {

std::array<LaneExchange, 32> lanesWith(uint64_t (*value)(int), uint32_t b, uint32_t c) {
  std::array<LaneExchange, 32> lanes;
  for (int i = 0; i < 32; ++i) {
    lanes[i].value = value(i);
    lanes[i].b = b;
    lanes[i].c = c;
  }
  return lanes;
}

uint64_t laneTimesTen(int lane) { return uint64_t(lane) * 10; }

TEST(WarpCollectives, ShuffleDownFullWarp) {
  // __shfl_down_sync(full, v, 3): c = 0x1f.
  auto lanes = lanesWith(laneTimesTen, 3, 0x1f);
  computeCollective(CollectiveKind::ShflDown, 0xffffffff, lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int source = lane + 3 < 32 ? lane + 3 : lane;
    EXPECT_EQ(lanes[lane].result, uint64_t(source) * 10) << lane;
    EXPECT_EQ(lanes[lane].pred, lane + 3 < 32) << lane;
  }
}

TEST(WarpCollectives, ShuffleUpWidth8) {
  // __shfl_up_sync(full, v, 2, 8): c = (32 - 8) << 8.
  auto lanes = lanesWith(laneTimesTen, 2, 24 << 8);
  computeCollective(CollectiveKind::ShflUp, 0xffffffff, lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int source = lane % 8 >= 2 ? lane - 2 : lane;
    EXPECT_EQ(lanes[lane].result, uint64_t(source) * 10) << lane;
  }
}

TEST(WarpCollectives, ShuffleXorAndIdxWithSegments) {
  auto lanes = lanesWith(laneTimesTen, 5, 0x1f);
  computeCollective(CollectiveKind::ShflBfly, 0xffffffff, lanes);
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(lanes[lane].result, uint64_t(lane ^ 5) * 10) << lane;

  // __shfl_sync(full, v, 3, 8): every 8-lane segment reads its lane 3.
  lanes = lanesWith(laneTimesTen, 3, (24 << 8) | 0x1f);
  computeCollective(CollectiveKind::ShflIdx, 0xffffffff, lanes);
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(lanes[lane].result, uint64_t(lane / 8 * 8 + 3) * 10) << lane;
}

TEST(WarpCollectives, VotesOverPartialMask) {
  // Lanes 0-15 take part; the predicate holds on even lanes.
  auto lanes = lanesWith([](int lane) -> uint64_t { return lane % 2 == 0; }, 0, 0);
  computeCollective(CollectiveKind::VoteBallot, 0xffff, lanes);
  EXPECT_EQ(lanes[0].result, 0x5555u);
  computeCollective(CollectiveKind::VoteAny, 0xffff, lanes);
  EXPECT_EQ(lanes[3].result, 1u);
  computeCollective(CollectiveKind::VoteAll, 0xffff, lanes);
  EXPECT_EQ(lanes[3].result, 0u);
  computeCollective(CollectiveKind::VoteAll, 0x5555, lanes);
  EXPECT_EQ(lanes[2].result, 1u);
  computeCollective(CollectiveKind::VoteUni, 0x5555, lanes);
  EXPECT_EQ(lanes[2].result, 1u);
}

TEST(WarpCollectives, MatchAndRedux) {
  auto lanes = lanesWith([](int lane) -> uint64_t { return lane % 3; }, 0, 0);
  computeCollective(CollectiveKind::MatchAny, 0xffffffff, lanes);
  EXPECT_EQ(lanes[0].result, 0x49249249u); // lanes 0, 3, 6, ...
  EXPECT_EQ(lanes[1].result, 0x92492492u);
  computeCollective(CollectiveKind::MatchAll, 0xffffffff, lanes);
  EXPECT_FALSE(lanes[0].pred);
  computeCollective(CollectiveKind::MatchAll, 0x49249249u, lanes);
  EXPECT_TRUE(lanes[3].pred);
  EXPECT_EQ(lanes[3].result, 0x49249249u);

  lanes = lanesWith([](int lane) -> uint64_t { return uint32_t(lane - 10); }, 0, 0);
  computeCollective(CollectiveKind::ReduxAdd, 0xffffffff, lanes);
  EXPECT_EQ(uint32_t(lanes[0].result), uint32_t(32 * 31 / 2 - 320));
  computeCollective(CollectiveKind::ReduxMin, 0xffffffff, lanes);
  EXPECT_EQ(int32_t(lanes[0].result), -10);
  computeCollective(CollectiveKind::ReduxUMax, 0xffffffff, lanes);
  EXPECT_EQ(uint32_t(lanes[0].result), uint32_t(-1)); // lane 9: -1
}

// Fragments written from the PTX ISA tables: lane = 4 * groupID + tig.
TEST(WarpMatrix, MmaTf32M16N8K8Fragments) {
  auto h = lookupMatrixIntrinsic("mma.m16n8k8.row.col.tf32");
  ASSERT_TRUE(h && h->matrixOp);
  // A[m][k] = m + 2k, B = identity (8x8), C[m][n] = 100 n: D = A[m][n] + 100 n.
  std::array<LaneExchange, 32> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    int aRow[4] = {g, g + 8, g, g + 8}, aCol[4] = {t, t, t + 4, t + 4};
    for (int i = 0; i < 4; ++i)
      r[i] = floatBits(float(aRow[i] + 2 * aCol[i]));
    int bRow[2] = {t, t + 4};
    for (int i = 0; i < 2; ++i)
      r[4 + i] = floatBits(bRow[i] == g ? 1.0f : 0.0f);
    for (int i = 0; i < 4; ++i)
      r[6 + i] = floatBits(100.0f * (2 * t + i % 2));
  }
  h->matrixOp->compute(lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      EXPECT_EQ(bitsFloat(lanes[lane].out[i]), float(row + 2 * col + 100 * col))
          << lane << " " << i;
    }
  }
}

TEST(WarpMatrix, MmaS8M16N8K32SatFinite) {
  auto h = lookupMatrixIntrinsic("mma.m16n8k32.row.col.satfinite.s8");
  ASSERT_TRUE(h && h->matrixOp);
  // A[m][k] = (m + k) % 5 - 2, B[k][n] = 3 if k == n + 16 else 0,
  // C = INT32_MAX - 4: D = sat(C + 3 A[m][n + 16]).
  auto a = [](int m, int k) { return (m + k) % 5 - 2; };
  std::array<LaneExchange, 32> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    auto &r = lanes[lane].regs;
    for (int i = 0; i < 16; ++i) {
      int row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
      int col = 4 * t + (i & 3) + (i >= 8 ? 16 : 0);
      r[i / 4] |= uint32_t(uint8_t(int8_t(a(row, col)))) << (8 * (i % 4));
    }
    for (int i = 0; i < 8; ++i) {
      int row = 4 * t + (i & 3) + (i >= 4 ? 16 : 0);
      r[4 + i / 4] |= uint32_t(row == g + 16 ? 3 : 0) << (8 * (i % 4));
    }
    for (int i = 0; i < 4; ++i)
      r[6 + i] = uint32_t(INT32_MAX - 4);
  }
  h->matrixOp->compute(lanes);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      int64_t expected = int64_t(INT32_MAX) - 4 + 3 * a(row, col + 16);
      expected = std::min<int64_t>(expected, INT32_MAX);
      EXPECT_EQ(int32_t(lanes[lane].out[i]), expected) << lane << " " << i;
    }
  }
}

TEST(FloatBits, HalfAndBFloatRounding) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie to even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11), Rounding::Up), 0x3c01);
  EXPECT_EQ(floatToHalf(-2.5f), 0xc100);
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(floatToBFloat(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat(1.00390625f), 0x3f80); // tie to even
  EXPECT_EQ(floatToBFloat(1.01171875f), 0x3f82);
  EXPECT_EQ(floatToBFloat(1.00390625f, Rounding::Up), 0x3f81);
}

TEST(Npy, RoundTripAndErrors) {
  NpyArray array;
  array.descr = "<i4";
  array.shape = {2, 3};
  array.data.resize(24, 7);
  std::string bytes = serializeNpy(array);
  EXPECT_EQ(bytes.size() % 64, 24u % 64); // 64-byte aligned header
  auto parsed = parseNpy(bytes);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->shape, array.shape);
  EXPECT_EQ(parsed->data, array.data);
  EXPECT_FALSE(bool(parseNpy(bytes.substr(0, bytes.size() - 1)))); // truncated
  std::string bigEndian = bytes;
  bigEndian.replace(bigEndian.find("<i4"), 3, ">i4");
  auto refused = parseNpy(bigEndian);
  EXPECT_FALSE(bool(refused));
  llvm::consumeError(refused.takeError());
  auto spec = parseParamSpec("ptr:a.npy+16");
  ASSERT_TRUE(bool(spec));
  EXPECT_EQ(spec->byteOffset, 16u);
  auto bad = parseParamSpec("q32:1");
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
}

//===----------------------------------------------------------------------===//
// Kernels through the JIT
//===----------------------------------------------------------------------===//

const char *kKernels = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 4
@counter = internal addrspace(3) global i32 undef, align 4
@mbar = internal addrspace(3) global i64 undef, align 8
@fmt = private unnamed_addr constant [15 x i8] c"lane %d of %u\0A\00", align 1

; out[k*32 + lane] for k = down 1, up 2 (width 8), xor 16, idx 7, and the
; predicate of down 4 with width 16.
define ptx_kernel void @shuffles(ptr addrspace(1) %out) "nvvm.reqntid"="32" {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %v = mul i32 %lane, 10
  %down = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 1, i32 31)
  %up = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %v, i32 2, i32 6144)
  %fv = sitofp i32 %v to float
  %xorf = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %fv, i32 16, i32 31)
  %xor = fptosi float %xorf to i32
  %idx = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 7, i32 31)
  %pair = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %v, i32 4, i32 4127)
  %p = extractvalue { i32, i1 } %pair, 1
  %pz = zext i1 %p to i32
  call void @put(ptr addrspace(1) %out, i32 0, i32 %lane, i32 %down)
  call void @put(ptr addrspace(1) %out, i32 1, i32 %lane, i32 %up)
  call void @put(ptr addrspace(1) %out, i32 2, i32 %lane, i32 %xor)
  call void @put(ptr addrspace(1) %out, i32 3, i32 %lane, i32 %idx)
  call void @put(ptr addrspace(1) %out, i32 4, i32 %lane, i32 %pz)
  ret void
}

define internal void @put(ptr addrspace(1) %out, i32 %row, i32 %lane, i32 %value) {
  %base = mul i32 %row, 32
  %i = add i32 %base, %lane
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %value, ptr addrspace(1) %slot, align 4
  ret void
}

; 64 threads: ballot of odd lanes per warp, vote.all of lane < 40, and a
; barrier-reduction popcount of (tid % 3 == 0).
define ptx_kernel void @votes(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = call i32 @llvm.nvvm.read.ptx.sreg.warpid()
  %odd = trunc i32 %tid to i1
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %lt40 = icmp ult i32 %tid, 40
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %lt40)
  %allz = zext i1 %all to i32
  %rem = urem i32 %tid, 3
  %third = icmp eq i32 %rem, 0
  %popc = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %third)
  call void @put(ptr addrspace(1) %out, i32 0, i32 %warp, i32 %ballot)
  call void @put(ptr addrspace(1) %out, i32 1, i32 %warp, i32 %allz)
  call void @put(ptr addrspace(1) %out, i32 2, i32 %tid, i32 %popc)
  ret void
}

; 64 threads per CTA: global atomics (add, max, inc) and a shared counter;
; then a barrier-protected reversal through shared memory.
define ptx_kernel void @atomics_and_barriers(ptr addrspace(1) %out, ptr addrspace(1) %rev) "nvvm.reqntid"="64" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  store i32 0, ptr addrspace(3) @counter, align 4
  br label %go
go:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %a = atomicrmw add ptr addrspace(1) %out, i32 1 seq_cst, align 4
  %maxslot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 1
  %m = atomicrmw max ptr addrspace(1) %maxslot, i32 %tid seq_cst, align 4
  %incslot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 2
  %w = atomicrmw uinc_wrap ptr addrspace(1) %incslot, i32 9 seq_cst, align 4
  %s = atomicrmw add ptr addrspace(3) @counter, i32 %tid seq_cst, align 4
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %other = sub i32 63, %tid
  %oslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %other
  %o = load i32, ptr addrspace(3) %oslot, align 4
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, 64
  %ri = add i32 %base, %tid
  %rslot = getelementptr inbounds i32, ptr addrspace(1) %rev, i32 %ri
  store i32 %o, ptr addrspace(1) %rslot, align 4
  br i1 %is0, label %total, label %done
total:
  %c = load i32, ptr addrspace(3) @counter, align 4
  %cslot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 3
  %prev = atomicrmw add ptr addrspace(1) %cslot, i32 %c seq_cst, align 4
  br label %done
done:
  ret void
}

; Thread 0 initializes an mbarrier for 64 arrivals; every thread publishes
; 2 * tid, arrives and spins in try_wait.parity until phase 0 completes, then
; reads its mirror element. out[tid] = 2 * (63 - tid) + 1000 * test_wait.
define ptx_kernel void @mbarrier_exchange(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 64)
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  %v = mul i32 %tid, 2
  store i32 %v, ptr addrspace(3) %slot, align 4
  %token = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @mbar)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @mbar, i32 0)
  br i1 %done, label %read, label %wait
read:
  %passed = call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @mbar, i64 %token)
  %other = sub i32 63, %tid
  %oslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %other
  %o = load i32, ptr addrspace(3) %oslot, align 4
  %flag = select i1 %passed, i32 1000, i32 0
  %r = add i32 %o, %flag
  call void @put(ptr addrspace(1) %out, i32 0, i32 %tid, i32 %r)
  ret void
}

; A cluster of one CTA (no nvvm.cluster_dim): arrive/wait waits for the
; CTA's threads, mapa to rank 0 is the identity (ClusterTest has two). out[tid] = tile[63 - tid] + 100 * cluster.nctarank.
define ptx_kernel void @cluster_of_one(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  %other = sub i32 63, %tid
  %oslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %other
  %generic = addrspacecast ptr addrspace(3) %oslot to ptr
  %mapped = call ptr @llvm.nvvm.mapa(ptr %generic, i32 0)
  %o = load i32, ptr %mapped, align 4
  %n = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %n100 = mul i32 %n, 100
  %r = add i32 %o, %n100
  call void @put(ptr addrspace(1) %out, i32 0, i32 %tid, i32 %r)
  ret void
}

define ptx_kernel void @hello(ptr addrspace(1) %out) "nvvm.reqntid"="2" {
  %args = alloca { i32, i32 }, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  store i32 %tid, ptr %args, align 8
  %second = getelementptr inbounds i8, ptr %args, i64 4
  store i32 %n, ptr %second, align 4
  %r = call i32 @vprintf(ptr @fmt, ptr %args)
  ret void
}

; Thread i writes out[i]: one element past a 64-element buffer in CTA 1.
define ptx_kernel void @overflow(ptr addrspace(1) %out) "nvvm.reqntid"="33" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, 33
  %i = add i32 %base, %tid
  %slot = getelementptr inbounds float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %slot, align 4
  ret void
}

declare i32 @vprintf(ptr, ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpid()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare ptr @llvm.nvvm.mapa(ptr, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
)";

class EmuKernels : public ::testing::Test {
protected:
  void SetUp() override {
    EmulatorOptions options;
    options.printfStream = &printed_;
    auto created = Emulator::createFromIR(kKernels, "kernels.ll", options);
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
  }

  /// Launches with one registered int32 buffer per `buffers` entry.
  llvm::Error run(const char *kernel, uint32_t grid, uint32_t block,
                  std::vector<std::vector<int32_t> *> buffers) {
    std::vector<KernelArg> args;
    for (auto *buffer : buffers) {
      emulator_->registerBuffer(buffer->data(), buffer->size() * 4, "buffer");
      args.push_back(KernelArg::pointer(buffer->data()));
    }
    Dim3 g{grid, 1, 1}, b{block, 1, 1};
    return emulator_->launch(kernel, g, b, args);
  }

  std::string text_;
  llvm::raw_string_ostream printed_{text_};
  std::unique_ptr<Emulator> emulator_;
};

TEST_F(EmuKernels, Shuffles) {
  std::vector<int32_t> out(5 * 32, -1);
  ASSERT_FALSE(bool(run("shuffles", 1, 32, {&out})));
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(out[lane], (lane < 31 ? lane + 1 : lane) * 10) << lane;
    EXPECT_EQ(out[32 + lane], (lane % 8 >= 2 ? lane - 2 : lane) * 10) << lane;
    EXPECT_EQ(out[64 + lane], (lane ^ 16) * 10) << lane;
    EXPECT_EQ(out[96 + lane], 70) << lane;
    EXPECT_EQ(out[128 + lane], lane % 16 + 4 < 16) << lane;
  }
}

TEST_F(EmuKernels, VotesAndBarrierReduction) {
  std::vector<int32_t> out(3 * 32 + 32, -1);
  ASSERT_FALSE(bool(run("votes", 1, 64, {&out})));
  EXPECT_EQ(uint32_t(out[0]), 0xaaaaaaaau);
  EXPECT_EQ(uint32_t(out[1]), 0xaaaaaaaau);
  EXPECT_EQ(out[32], 1); // warp 0: every tid < 40
  EXPECT_EQ(out[33], 0);
  for (int tid = 0; tid < 64; ++tid)
    EXPECT_EQ(out[64 + tid], 22) << tid; // 0, 3, ..., 63
}

TEST_F(EmuKernels, AtomicsAndBarriers) {
  std::vector<int32_t> out(4, 0), rev(3 * 64, -1);
  ASSERT_FALSE(bool(run("atomics_and_barriers", 3, 64, {&out, &rev})));
  EXPECT_EQ(out[0], 3 * 64);
  EXPECT_EQ(out[1], 63);
  EXPECT_EQ(out[2], (3 * 64) % 10); // inc wraps at 9
  EXPECT_EQ(out[3], 3 * (63 * 64 / 2));
  for (int i = 0; i < 3 * 64; ++i)
    EXPECT_EQ(rev[i], 63 - i % 64) << i;
}

TEST_F(EmuKernels, MBarrierArriveAndWait) {
  std::vector<int32_t> out(64, -1);
  ASSERT_FALSE(bool(run("mbarrier_exchange", 2, 64, {&out})));
  for (int tid = 0; tid < 64; ++tid)
    EXPECT_EQ(out[tid], 2 * (63 - tid) + 1000) << tid;
}

TEST_F(EmuKernels, ClusterOfOneCta) {
  std::vector<int32_t> out(64, -1);
  ASSERT_FALSE(bool(run("cluster_of_one", 2, 64, {&out})));
  for (int tid = 0; tid < 64; ++tid)
    EXPECT_EQ(out[tid], 63 - tid + 100) << tid;
}

TEST_F(EmuKernels, Printf) {
  std::vector<int32_t> out(1);
  ASSERT_FALSE(bool(run("hello", 1, 2, {&out})));
  EXPECT_EQ(text_, "lane 0 of 2\nlane 1 of 2\n");
}

TEST_F(EmuKernels, OutOfBoundsStoreIsReported) {
  std::vector<int32_t> out(64, 0);
  llvm::Error err = run("overflow", 2, 33, {&out});
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("kernel 'overflow', CTA (1,0,0), thread (31,0,0)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("invalid global write of 4 bytes"), std::string::npos) << message;
  EXPECT_EQ(out[63], 0x3f800000);
}

TEST(Emulator, RoundingConversionsAndIntegerIntrinsics) {
  const char *ir = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  %v0 = call i32 @llvm.nvvm.f2i.rz(float -2.75)
  %v1 = call i32 @llvm.nvvm.f2i.rm(float -2.25)
  %v2 = call i32 @llvm.nvvm.f2i.rn(float 2.5)
  %v3 = call i32 @llvm.nvvm.f2ui.rp(float 2.25)
  %f4 = call float @llvm.nvvm.add.rz.f(float 1.0, float 0x3E10000000000000)
  %v4 = bitcast float %f4 to i32
  %f5 = call float @llvm.nvvm.add.rp.f(float 1.0, float 0x3E10000000000000)
  %v5 = bitcast float %f5 to i32
  %h6 = call i16 @llvm.nvvm.f2h.rn(float 1.0)
  %v6 = zext i16 %h6 to i32
  %b7 = call <2 x bfloat> @llvm.nvvm.ff2bf16x2.rn(float 1.0, float 2.0)
  %v7 = bitcast <2 x bfloat> %b7 to i32
  %v8 = call i32 @llvm.nvvm.f2tf32.rna(float 0x3FF0020000000000)
  %v9 = call i32 @llvm.nvvm.mulhi.ui(i32 -2147483648, i32 4)
  %v10 = call i32 @llvm.nvvm.prmt(i32 u0x33221100, i32 u0x77665544, i32 u0x5140)
  %v11 = call i32 @llvm.nvvm.d2i.hi(double 1.0)
  call void @put(ptr addrspace(1) %out, i32 0, i32 %v0)
  call void @put(ptr addrspace(1) %out, i32 1, i32 %v1)
  call void @put(ptr addrspace(1) %out, i32 2, i32 %v2)
  call void @put(ptr addrspace(1) %out, i32 3, i32 %v3)
  call void @put(ptr addrspace(1) %out, i32 4, i32 %v4)
  call void @put(ptr addrspace(1) %out, i32 5, i32 %v5)
  call void @put(ptr addrspace(1) %out, i32 6, i32 %v6)
  call void @put(ptr addrspace(1) %out, i32 7, i32 %v7)
  call void @put(ptr addrspace(1) %out, i32 8, i32 %v8)
  call void @put(ptr addrspace(1) %out, i32 9, i32 %v9)
  call void @put(ptr addrspace(1) %out, i32 10, i32 %v10)
  call void @put(ptr addrspace(1) %out, i32 11, i32 %v11)
  ret void
}
define internal void @put(ptr addrspace(1) %out, i32 %i, i32 %v) {
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
declare i32 @llvm.nvvm.f2i.rz(float)
declare i32 @llvm.nvvm.f2i.rm(float)
declare i32 @llvm.nvvm.f2i.rn(float)
declare i32 @llvm.nvvm.f2ui.rp(float)
declare float @llvm.nvvm.add.rz.f(float, float)
declare float @llvm.nvvm.add.rp.f(float, float)
declare i16 @llvm.nvvm.f2h.rn(float)
declare <2 x bfloat> @llvm.nvvm.ff2bf16x2.rn(float, float)
declare i32 @llvm.nvvm.f2tf32.rna(float)
declare i32 @llvm.nvvm.mulhi.ui(i32, i32)
declare i32 @llvm.nvvm.prmt(i32, i32, i32)
declare i32 @llvm.nvvm.d2i.hi(double)
)";
  auto emulator = Emulator::createFromIR(ir, "k.ll");
  ASSERT_TRUE(bool(emulator)) << llvm::toString(emulator.takeError());
  std::vector<uint32_t> out(12, 0xdeadbeef);
  emulator->registerBuffer(out.data(), out.size() * 4, "out");
  KernelArg arg = KernelArg::pointer(out.data());
  ASSERT_FALSE(bool(emulator->launch("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, arg)));
  std::vector<uint32_t> expected = {uint32_t(-2), uint32_t(-3), 2, 3, 0x3f800000, 0x3f800001,
                                    0x3c00, 0x3f804000, 0x3f802000, 2, 0x55114400, 0x3ff00000};
  EXPECT_EQ(out, expected);
}

TEST(Emulator, UnsupportedIntrinsicIsRejected) {
  const char *ir = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(3) %p) {
  call void @llvm.nvvm.stmatrix.sync.aligned.m16n8.x1.trans.b8.p3(ptr addrspace(3) %p, i32 0)
  ret void
}
declare void @llvm.nvvm.stmatrix.sync.aligned.m16n8.x1.trans.b8.p3(ptr addrspace(3), i32)
)";
  auto created = Emulator::createFromIR(ir, "k.ll");
  ASSERT_FALSE(bool(created));
  EXPECT_NE(llvm::toString(created.takeError()).find("llvm.nvvm.stmatrix.sync.aligned.m16n8.x1.trans.b8.p3"),
            std::string::npos);
}

} // namespace
