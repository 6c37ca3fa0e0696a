//===- SyncTest.cpp - warp and CTA synchronization through kernels --------===//
//
// Hand-written nvptx64 kernels for the families of issue #6 that the other
// suites reach only through computeCollective or not at all: elect.sync,
// match.sync, redux.sync and vote.sync as intrinsics, named barriers with
// thread counts and bar.arrive, mbarrier.inval, the no-op setmaxnreg (whose
// register count the emulator checks against the PTX ISA's rules) and
// fences, atomics on shared memory, and cp.async with its groups. Expected
// values are worked out from the PTX ISA by hand.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Emu/Emulator.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tilepipe::emu;

namespace {

const char *kSyncKernels = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x i32] undef, align 4
@mbar = internal addrspace(3) global i64 undef, align 8
@sum = internal addrspace(3) global i32 undef, align 4
@max = internal addrspace(3) global i32 undef, align 4
@min = internal addrspace(3) global i32 undef, align 4
@flag = internal addrspace(3) global i32 undef, align 4
@wins = internal addrspace(3) global i32 undef, align 4
@wrap = internal addrspace(3) global i32 undef, align 4
@fsum = internal addrspace(3) global float undef, align 4

define internal void @put(ptr addrspace(1) %out, i32 %row, i32 %lane, i32 %value) {
  %base = mul i32 %row, 32
  %i = add i32 %base, %lane
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %value, ptr addrspace(1) %slot, align 4
  ret void
}

; One warp. Row 0: elect.sync over lanes 4-31 (10 * leader + is-leader);
; row 1: match.any.sync.i64 of (lane % 5) << 33; row 2: match.all.sync.i32p
; of 7 (mask + 100 * pred) and row 3 of the lane (same); rows 4-11:
; redux.sync add, min, max, umin, umax, and, or, xor of 3 * lane - 40;
; row 12: vote.any of lane == 31, 10 * vote.uni of lane < 16 and
; 100 * vote.uni of true.
define ptx_kernel void @warp_collectives(ptr addrspace(1) %out) "nvvm.reqntid"="32" {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %low = icmp ult i32 %lane, 4
  br i1 %low, label %skip, label %elect
elect:
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -16)
  %leader = extractvalue { i32, i1 } %e, 0
  %is = extractvalue { i32, i1 } %e, 1
  %leader10 = mul i32 %leader, 10
  %isz = zext i1 %is to i32
  %er = add i32 %leader10, %isz
  br label %skip
skip:
  %row0 = phi i32 [ -1, %entry ], [ %er, %elect ]
  call void @put(ptr addrspace(1) %out, i32 0, i32 %lane, i32 %row0)
  %mod5 = urem i32 %lane, 5
  %mod5w = zext i32 %mod5 to i64
  %key = shl i64 %mod5w, 33
  %any = call i32 @llvm.nvvm.match.any.sync.i64(i32 -1, i64 %key)
  call void @put(ptr addrspace(1) %out, i32 1, i32 %lane, i32 %any)
  %same = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 7)
  call void @match_all_row(ptr addrspace(1) %out, i32 2, i32 %lane, { i32, i1 } %same)
  %differ = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %lane)
  call void @match_all_row(ptr addrspace(1) %out, i32 3, i32 %lane, { i32, i1 } %differ)
  %l3 = mul i32 %lane, 3
  %v = sub i32 %l3, 40
  %add = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 -1)
  %min = call i32 @llvm.nvvm.redux.sync.min(i32 %v, i32 -1)
  %max = call i32 @llvm.nvvm.redux.sync.max(i32 %v, i32 -1)
  %umin = call i32 @llvm.nvvm.redux.sync.umin(i32 %v, i32 -1)
  %umax = call i32 @llvm.nvvm.redux.sync.umax(i32 %v, i32 -1)
  %and = call i32 @llvm.nvvm.redux.sync.and(i32 %v, i32 -1)
  %or = call i32 @llvm.nvvm.redux.sync.or(i32 %v, i32 -1)
  %xor = call i32 @llvm.nvvm.redux.sync.xor(i32 %v, i32 -1)
  call void @put(ptr addrspace(1) %out, i32 4, i32 %lane, i32 %add)
  call void @put(ptr addrspace(1) %out, i32 5, i32 %lane, i32 %min)
  call void @put(ptr addrspace(1) %out, i32 6, i32 %lane, i32 %max)
  call void @put(ptr addrspace(1) %out, i32 7, i32 %lane, i32 %umin)
  call void @put(ptr addrspace(1) %out, i32 8, i32 %lane, i32 %umax)
  call void @put(ptr addrspace(1) %out, i32 9, i32 %lane, i32 %and)
  call void @put(ptr addrspace(1) %out, i32 10, i32 %lane, i32 %or)
  call void @put(ptr addrspace(1) %out, i32 11, i32 %lane, i32 %xor)
  %is31 = icmp eq i32 %lane, 31
  %vany = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %is31)
  %lt16 = icmp ult i32 %lane, 16
  %vuni = call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %lt16)
  %vuni1 = call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 true)
  %anyz = zext i1 %vany to i32
  %uniz = zext i1 %vuni to i32
  %uni1z = zext i1 %vuni1 to i32
  %uni10 = mul i32 %uniz, 10
  %uni100 = mul i32 %uni1z, 100
  %votes0 = add i32 %anyz, %uni10
  %votes = add i32 %votes0, %uni100
  call void @put(ptr addrspace(1) %out, i32 12, i32 %lane, i32 %votes)
  ret void
}

define internal void @match_all_row(ptr addrspace(1) %out, i32 %row, i32 %lane, { i32, i1 } %r) {
  %mask = extractvalue { i32, i1 } %r, 0
  %p = extractvalue { i32, i1 } %r, 1
  %pz = zext i1 %p to i32
  %p100 = mul i32 %pz, 100
  %value = add i32 %mask, %p100
  call void @put(ptr addrspace(1) %out, i32 %row, i32 %lane, i32 %value)
  ret void
}

; Three warps. Warp 0 produces tile[lane] = lane + 100 and arrives on named
; barrier 1 (64 threads) without waiting; warp 1 waits there and copies the
; tile to row 1; warp 2 meanwhile passes barrier 2 alone (32 threads) and
; writes row 2 = 7. All meet at barrier 0 and write row 0 = tid. %count is
; barrier 1's thread count (64; anything else is wrong use).
define ptx_kernel void @named_barriers(ptr addrspace(1) %out, i32 %count) "nvvm.reqntid"="96" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %warp = udiv i32 %tid, 32
  %slot = getelementptr inbounds [32 x i32], ptr addrspace(3) @tile, i32 0, i32 %lane
  switch i32 %warp, label %consumer [ i32 0, label %producer
                                      i32 2, label %alone ]
producer:
  %p = add i32 %lane, 100
  store i32 %p, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32 1, i32 %count)
  br label %all
consumer:
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 %count)
  %c = load i32, ptr addrspace(3) %slot, align 4
  call void @put(ptr addrspace(1) %out, i32 1, i32 %lane, i32 %c)
  br label %all
alone:
  call void @llvm.nvvm.barrier.cta.sync.count(i32 2, i32 32)
  call void @put(ptr addrspace(1) %out, i32 2, i32 %lane, i32 7)
  br label %all
all:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %firstwarp = icmp eq i32 %warp, 0
  br i1 %firstwarp, label %last, label %done
last:
  call void @put(ptr addrspace(1) %out, i32 0, i32 %lane, i32 %tid)
  br label %done
done:
  ret void
}

; 64 threads. Thread 0 initializes the mbarrier for 64 arrivals, invalidates
; it and initializes it again for 32; only warp 0 arrives, and every thread
; waits for phase 0 (which needs the second count). setmaxnreg and the
; fences are no-ops on the way. out[tid] = 1 once phase 0 completed.
define ptx_kernel void @mbarrier_reinit(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %warp = udiv i32 %tid, 32
  %is0 = icmp eq i32 %tid, 0
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 240)
  br i1 %is0, label %init, label %go
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 64)
  call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) @mbar)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 32)
  call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.membar.cta()
  call void @llvm.nvvm.fence.sc.cluster()
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.cta()
  %producer = icmp eq i32 %warp, 0
  br i1 %producer, label %arrive, label %wait
arrive:
  %token = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @mbar)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @mbar, i32 0)
  br i1 %done, label %finish, label %wait
finish:
  call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
  call void @put(ptr addrspace(1) %out, i32 %warp, i32 %lane, i32 1)
  ret void
}

; 64 threads, atomics on shared variables (LLVM atomicrmw/cmpxchg and the
; scoped NVVM form): sum of tid, max and min of tid, a compare-and-swap that
; only one thread wins, inc wrapping at 9, and a float sum of 0.5 each.
define ptx_kernel void @shared_atomics(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  store i32 0, ptr addrspace(3) @sum, align 4
  store i32 -5, ptr addrspace(3) @max, align 4
  store i32 1000, ptr addrspace(3) @min, align 4
  store i32 0, ptr addrspace(3) @flag, align 4
  store i32 0, ptr addrspace(3) @wins, align 4
  store i32 0, ptr addrspace(3) @wrap, align 4
  store float 0.0, ptr addrspace(3) @fsum, align 4
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  %sumg = addrspacecast ptr addrspace(3) @sum to ptr
  %old = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %sumg, i32 %tid)
  %m = atomicrmw max ptr addrspace(3) @max, i32 %tid seq_cst, align 4
  %n = atomicrmw min ptr addrspace(3) @min, i32 %tid seq_cst, align 4
  %t1 = add i32 %tid, 1
  %cas = cmpxchg ptr addrspace(3) @flag, i32 0, i32 %t1 seq_cst seq_cst, align 4
  %won = extractvalue { i32, i1 } %cas, 1
  %wonz = zext i1 %won to i32
  %w = atomicrmw add ptr addrspace(3) @wins, i32 %wonz seq_cst, align 4
  %i = atomicrmw uinc_wrap ptr addrspace(3) @wrap, i32 9 seq_cst, align 4
  %f = atomicrmw fadd ptr addrspace(3) @fsum, float 0.5 seq_cst, align 4
  call void @llvm.nvvm.barrier0()
  br i1 %is0, label %report, label %done
report:
  %rs = load i32, ptr addrspace(3) @sum, align 4
  %rm = load i32, ptr addrspace(3) @max, align 4
  %rn = load i32, ptr addrspace(3) @min, align 4
  %rf = load i32, ptr addrspace(3) @flag, align 4
  %rw = load i32, ptr addrspace(3) @wins, align 4
  %ri = load i32, ptr addrspace(3) @wrap, align 4
  %rfs = load float, ptr addrspace(3) @fsum, align 4
  %rfi = fptosi float %rfs to i32
  call void @put(ptr addrspace(1) %out, i32 0, i32 0, i32 %rs)
  call void @put(ptr addrspace(1) %out, i32 0, i32 1, i32 %rm)
  call void @put(ptr addrspace(1) %out, i32 0, i32 2, i32 %rn)
  call void @put(ptr addrspace(1) %out, i32 0, i32 3, i32 %rf)
  call void @put(ptr addrspace(1) %out, i32 0, i32 4, i32 %rw)
  call void @put(ptr addrspace(1) %out, i32 0, i32 5, i32 %ri)
  call void @put(ptr addrspace(1) %out, i32 0, i32 6, i32 %rfi)
  br label %done
done:
  ret void
}

; 4 threads: thread t copies 16 bytes of in[4t..4t+3] into shared memory
; with cp.async.cg and src-size 4t (the rest is zero-filled, PTX ISA
; "cp.async") as group 0, and one word with cp.async.ca.4 over a -5 as group
; 1. After wait_group 1 (group 0 done, group 1 may be pending) it reads that
; word into out[20 + t]; after wait_all, out[0..15] is the first tile and
; out[16..19] the second. %shift (bytes, 0) moves the 16-byte destination
; off its alignment.
define ptx_kernel void @async_copies(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %shift) "nvvm.reqntid"="4" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t4 = mul i32 %tid, 4
  %src = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %t4
  %dst = getelementptr inbounds [32 x i32], ptr addrspace(3) @tile, i32 0, i32 %t4
  %dstshifted = getelementptr inbounds i8, ptr addrspace(3) %dst, i32 %shift
  %bytes = mul i32 %tid, 4
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %dstshifted, ptr addrspace(1) %src, i32 %bytes)
  call void @llvm.nvvm.cp.async.commit.group()
  %t16 = add i32 %tid, 16
  %dst2 = getelementptr inbounds [32 x i32], ptr addrspace(3) @tile, i32 0, i32 %t16
  store i32 -5, ptr addrspace(3) %dst2, align 4
  %src2 = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %t16
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst2, ptr addrspace(1) %src2)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 1)
  %early = load i32, ptr addrspace(3) %dst2, align 4
  %t20 = add i32 %tid, 20
  %earlyslot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t20
  store i32 %early, ptr addrspace(1) %earlyslot, align 4
  call void @llvm.nvvm.cp.async.wait.all()
  call void @llvm.nvvm.barrier0()
  br label %copy
copy:
  %i = phi i32 [ %tid, %0 ], [ %next, %copy ]
  %from = getelementptr inbounds [32 x i32], ptr addrspace(3) @tile, i32 0, i32 %i
  %v = load i32, ptr addrspace(3) %from, align 4
  %to = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %to, align 4
  %next = add i32 %i, 4
  %more = icmp ult i32 %next, 20
  br i1 %more, label %copy, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.redux.sync.min(i32, i32)
declare i32 @llvm.nvvm.redux.sync.max(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umin(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umax(i32, i32)
declare i32 @llvm.nvvm.redux.sync.and(i32, i32)
declare i32 @llvm.nvvm.redux.sync.or(i32, i32)
declare i32 @llvm.nvvm.redux.sync.xor(i32, i32)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 immarg)
declare void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 immarg)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.fence.sc.cluster()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.cta()
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr, i32)
declare void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.cp.async.wait.all()
)";

class SyncKernels : public ::testing::Test {
protected:
  void SetUp() override {
    auto created = Emulator::createFromIR(kSyncKernels, "sync.ll", EmulatorOptions());
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
  }

  /// One CTA of `block` threads writing rows of 32 int32 into `out`.
  llvm::Error run(const char *kernel, uint32_t block, std::vector<int32_t> &out,
                  std::vector<KernelArg> extra = {}) {
    emulator_->registerBuffer(out.data(), out.size() * 4, "out");
    std::vector<KernelArg> args = {KernelArg::pointer(out.data())};
    args.insert(args.end(), extra.begin(), extra.end());
    return emulator_->launch(kernel, Dim3{1, 1, 1}, Dim3{block, 1, 1}, args);
  }

  std::unique_ptr<Emulator> emulator_;
};

int32_t at(const std::vector<int32_t> &out, int row, int lane) { return out[row * 32 + lane]; }

TEST_F(SyncKernels, ElectMatchReduxAndVoteInAWarp) {
  std::vector<int32_t> out(13 * 32, -7);
  llvm::Error err = run("warp_collectives", 32, out);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  // v = 3 * lane - 40: sum 3 * 496 - 32 * 40 = 208, min -40 (lane 0), max
  // 53 (lane 31); unsigned, the negatives are the largest: umin 2 (lane 14),
  // umax 0xffffffff (lane 13, v = -1).
  uint32_t bitAnd = ~0u, bitOr = 0, bitXor = 0;
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t v = uint32_t(3 * lane - 40);
    bitAnd &= v, bitOr |= v, bitXor ^= v;
  }
  for (int lane = 0; lane < 32; ++lane) {
    // The leader of lanes 4-31 is lane 4.
    EXPECT_EQ(at(out, 0, lane), lane < 4 ? -1 : 40 + (lane == 4)) << lane;
    // Lanes 0, 5, ..., 30 are 0x42108421; residue r is that shifted by r.
    EXPECT_EQ(uint32_t(at(out, 1, lane)), 0x42108421u << (lane % 5)) << lane;
    EXPECT_EQ(at(out, 2, lane), -1 + 100) << lane; // all lanes, predicate true
    EXPECT_EQ(at(out, 3, lane), 0) << lane;        // no match: 0, predicate false
    EXPECT_EQ(at(out, 4, lane), 208) << lane;
    EXPECT_EQ(at(out, 5, lane), -40) << lane;
    EXPECT_EQ(at(out, 6, lane), 53) << lane;
    EXPECT_EQ(at(out, 7, lane), 2) << lane;
    EXPECT_EQ(at(out, 8, lane), -1) << lane;
    EXPECT_EQ(uint32_t(at(out, 9, lane)), bitAnd) << lane;
    EXPECT_EQ(uint32_t(at(out, 10, lane)), bitOr) << lane;
    EXPECT_EQ(uint32_t(at(out, 11, lane)), bitXor) << lane;
    EXPECT_EQ(at(out, 12, lane), 1 + 0 + 100) << lane; // any: yes; uni: no, yes
  }
}

TEST_F(SyncKernels, NamedBarriersWithCountsAndArrive) {
  std::vector<int32_t> out(3 * 32, -1);
  llvm::Error err = run("named_barriers", 96, out, {KernelArg::integer(32, 64)});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(at(out, 0, lane), lane);
    EXPECT_EQ(at(out, 1, lane), lane + 100);
    EXPECT_EQ(at(out, 2, lane), 7);
  }
}

TEST_F(SyncKernels, NamedBarrierCountsMustBeWholeWarps) {
  // PTX ISA, bar.sync: the thread count b must be a multiple of the warp size.
  std::vector<int32_t> out(3 * 32, -1);
  llvm::Error err = run("named_barriers", 96, out, {KernelArg::integer(32, 48)});
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("barrier 1 thread count 48 is not a multiple of the warp size"),
            std::string::npos)
      << message;
}

TEST_F(SyncKernels, NamedBarrierThatNeverFillsIsADeadlock) {
  // 96 threads expected on barrier 1, only 64 ever arrive there.
  std::vector<int32_t> out(3 * 32, -1);
  llvm::Error err = run("named_barriers", 96, out, {KernelArg::integer(32, 96)});
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
}

TEST_F(SyncKernels, MBarrierInvalThenInitWithANewCount) {
  std::vector<int32_t> out(2 * 32, 0);
  llvm::Error err = run("mbarrier_reinit", 64, out);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  for (int tid = 0; tid < 64; ++tid)
    EXPECT_EQ(out[tid], 1) << tid;
}

TEST_F(SyncKernels, AtomicsOnSharedMemory) {
  std::vector<int32_t> out(32, -1);
  llvm::Error err = run("shared_atomics", 64, out);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(out[0], 63 * 64 / 2);
  EXPECT_EQ(out[1], 63);
  EXPECT_EQ(out[2], 0);
  EXPECT_GE(out[3], 1); // some thread's tid + 1 ...
  EXPECT_LE(out[3], 64);
  EXPECT_EQ(out[4], 1); // ... and only one thread won
  EXPECT_EQ(out[5], 64 % 10); // inc: old >= 9 ? 0 : old + 1, 64 times
  EXPECT_EQ(out[6], 32);
}

TEST_F(SyncKernels, AsyncCopiesZeroFillAndWaitForTheirGroup) {
  std::vector<int32_t> in(32), out(24, -1);
  for (int i = 0; i < 32; ++i)
    in[i] = 1000 + i;
  emulator_->registerBuffer(in.data(), in.size() * 4, "in");
  llvm::Error err =
      run("async_copies", 4, out, {KernelArg::pointer(in.data()), KernelArg::integer(32, 0)});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  for (int t = 0; t < 4; ++t)
    for (int j = 0; j < 4; ++j) // src-size 4t bytes: t words, then zeros
      EXPECT_EQ(out[4 * t + j], j < t ? 1000 + 4 * t + j : 0) << t << " " << j;
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(out[16 + t], 1016 + t) << t;
    // wait_group 1 leaves the newest group pending: its copy has not landed.
    EXPECT_EQ(out[20 + t], -5) << t;
  }
}

TEST_F(SyncKernels, MisalignedAsyncCopyIsCaught) {
  // cp.async.cg.*.16 needs a 16-byte aligned destination.
  std::vector<int32_t> in(32, 0), out(24, -1);
  emulator_->registerBuffer(in.data(), in.size() * 4, "in");
  llvm::Error err =
      run("async_copies", 4, out, {KernelArg::pointer(in.data()), KernelArg::integer(32, 4)});
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("misaligned"), std::string::npos) << message;
}

/// A module whose kernel runs setmaxnreg.`action` with register count
/// `count`.
std::string setMaxNRegKernel(const char *action, int count) {
  return std::string(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k() "nvvm.reqntid"="128" {
  call void @llvm.nvvm.setmaxnreg.)") +
         action + ".sync.aligned.u32(i32 " + std::to_string(count) + R"()
  ret void
}
declare void @llvm.nvvm.setmaxnreg.)" +
         action + ".sync.aligned.u32(i32 immarg)\n";
}

TEST(SetMaxNReg, RegisterCountsFollowThePtxRules) {
  // PTX ISA, setmaxnreg: imm-reg-count is 24 to 256, a multiple of 8.
  for (int count : {24, 40, 232, 256}) {
    for (const char *action : {"inc", "dec"}) {
      auto created =
          Emulator::createFromIR(setMaxNRegKernel(action, count), "k.ll", EmulatorOptions());
      ASSERT_TRUE(bool(created)) << action << " " << count << ": "
                                 << llvm::toString(created.takeError());
      llvm::Error err = created->launch("k", Dim3{1, 1, 1}, Dim3{128, 1, 1}, {});
      EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
    }
  }
  for (int count : {16, 20, 236, 264}) {
    auto created = Emulator::createFromIR(setMaxNRegKernel("inc", count), "k.ll",
                                          EmulatorOptions());
    ASSERT_FALSE(bool(created)) << count;
    std::string message = llvm::toString(created.takeError());
    EXPECT_NE(message.find("setmaxnreg.inc.sync.aligned.u32 " + std::to_string(count) +
                           ": the register count must be a constant multiple of 8 from 24 "
                           "to 256"),
              std::string::npos)
        << message;
  }
}

} // namespace
