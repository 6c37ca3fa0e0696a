//===- ClusterTest.cpp - clusters of several CTAs in the emulator ---------===//
//
// Hand-written nvptx64 kernels whose CTAs come in clusters of two (issue
// #10): the cluster special registers, mapa/getctarank and loads, stores and
// atomics on the peer CTA's shared memory, mbarrier arrivals on the peer's
// mbarrier, barrier.cluster.arrive/wait, and the .multicast::cluster forms of
// cp.async.bulk and tcgen05.commit. Every value a CTA writes names the CTA,
// so a result read from the wrong CTA's shared memory is seen. Expected
// values follow the PTX ISA ("Cluster of Cooperative Thread Arrays", "mapa",
// "barrier.cluster", "cp.async.bulk", "tcgen05.commit").
//
//===----------------------------------------------------------------------===//
#include "TensorMap.h"

#include "tilepipe/Emu/Emulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace tilepipe::emu;

namespace {

const char *kClusterKernels = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 128
@count = internal addrspace(3) global i32 undef, align 4
@bar = internal addrspace(3) global i64 undef, align 8
@bar2 = internal addrspace(3) global i64 undef, align 8

define internal void @put(ptr addrspace(1) %out, i32 %i, i32 %value) {
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %value, ptr addrspace(1) %slot, align 4
  ret void
}

define internal void @cluster_sync() {
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

define internal void @wait_parity0(ptr addrspace(3) %bar) {
entry:
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %bar, i32 0)
  br i1 %done, label %exit, label %wait
exit:
  ret void
}

; Clusters of two CTAs of 64 threads. Every thread stores 100 * ctaid + tid
; into its CTA's @tile[tid] and adds 1 to the peer's @count through a
; shared::cluster address; after a cluster barrier it reads the peer's
; @tile[63 - tid] through a generic mapa address into out[64 * ctaid + tid].
; Thread 0 then writes 12 values per CTA to regs[16 * ctaid + k]: %ctaid.x,
; %nctaid.x, %clusterid.x, %nclusterid.x, %cluster_ctaid.x,
; %cluster_nctaid.x, %cluster_ctarank, %cluster_nctarank, getctarank of the
; mapped address, isspacep.shared and isspacep.shared::cluster of it, and
; its own @count.
define ptx_kernel void @exchange(ptr addrspace(1) %out, ptr addrspace(1) %regs) "nvvm.reqntid"="64" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %peer = xor i32 %rank, 1
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %init, label %fill
init:
  store i32 0, ptr addrspace(3) @count, align 4
  br label %fill
fill:
  %c100 = mul i32 %cta, 100
  %v = add i32 %c100, %tid
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %slot, align 4
  call void @cluster_sync()
  %peerCount = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @count, i32 %peer)
  %old = atomicrmw add ptr addrspace(7) %peerCount, i32 1 monotonic, align 4
  %other = sub i32 63, %tid
  %oslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %other
  %generic = addrspacecast ptr addrspace(3) %oslot to ptr
  %remote = call ptr @llvm.nvvm.mapa(ptr %generic, i32 %peer)
  %o = load i32, ptr %remote, align 4
  %c64 = mul i32 %cta, 64
  %i = add i32 %c64, %tid
  call void @put(ptr addrspace(1) %out, i32 %i, i32 %o)
  call void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
  call void @llvm.nvvm.barrier.cluster.wait.aligned()
  br i1 %first, label %report, label %done
report:
  %r = mul i32 %cta, 16
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %clusterid = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %nclusterid = call i32 @llvm.nvvm.read.ptx.sreg.nclusterid.x()
  %cctaid = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctaid.x()
  %cnctaid = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.x()
  %nrank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %owner = call i32 @llvm.nvvm.getctarank(ptr %remote)
  %isCta = call i1 @llvm.nvvm.isspacep.shared(ptr %remote)
  %isCluster = call i1 @llvm.nvvm.isspacep.shared.cluster(ptr %remote)
  %isCta32 = zext i1 %isCta to i32
  %isCluster32 = zext i1 %isCluster to i32
  %mine = load i32, ptr addrspace(3) @count, align 4
  %values = insertvalue [12 x i32] undef, i32 %cta, 0
  %v1 = insertvalue [12 x i32] %values, i32 %nctaid, 1
  %v2 = insertvalue [12 x i32] %v1, i32 %clusterid, 2
  %v3 = insertvalue [12 x i32] %v2, i32 %nclusterid, 3
  %v4 = insertvalue [12 x i32] %v3, i32 %cctaid, 4
  %v5 = insertvalue [12 x i32] %v4, i32 %cnctaid, 5
  %v6 = insertvalue [12 x i32] %v5, i32 %rank, 6
  %v7 = insertvalue [12 x i32] %v6, i32 %nrank, 7
  %v8 = insertvalue [12 x i32] %v7, i32 %owner, 8
  %v9 = insertvalue [12 x i32] %v8, i32 %isCta32, 9
  %v10 = insertvalue [12 x i32] %v9, i32 %isCluster32, 10
  %v11 = insertvalue [12 x i32] %v10, i32 %mine, 11
  %at = getelementptr inbounds i32, ptr addrspace(1) %regs, i32 %r
  store [12 x i32] %v11, ptr addrspace(1) %at, align 4
  br label %done
done:
  ret void
}

; CTA rank 1 writes 1000 * ctaid + k into @tile[k] (k < 4) of CTA rank 0
; through shared::cluster stores and arrives on rank 0's @bar; rank 0 waits
; on its @bar and copies its @tile[0..3] to out[4 * clusterid + k]. The last
; cluster barrier is inline PTX with its .release / .acquire orderings.
define ptx_kernel void @remote_arrive(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %init, label %sync
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %sync
sync:
  call void @cluster_sync()
  %isPeer = icmp eq i32 %rank, 1
  %producer = and i1 %isPeer, %first
  br i1 %producer, label %produce, label %consume
produce:
  %c1000 = mul i32 %cta, 1000
  %remoteTile = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @tile, i32 0)
  br label %loop
loop:
  %k = phi i32 [ 0, %produce ], [ %k1, %loop ]
  %value = add i32 %c1000, %k
  %slot = getelementptr inbounds i32, ptr addrspace(7) %remoteTile, i32 %k
  store i32 %value, ptr addrspace(7) %slot, align 4
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, 4
  br i1 %more, label %loop, label %signal
signal:
  %remoteBar = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @bar, i32 0)
  call void @llvm.nvvm.mbarrier.arrive.scope.cluster.space.cluster(ptr addrspace(7) %remoteBar, i32 1)
  br label %exit
consume:
  %isOwner = icmp eq i32 %rank, 0
  %reader = and i1 %isOwner, %first
  br i1 %reader, label %read, label %exit
read:
  call void @wait_parity0(ptr addrspace(3) @bar)
  %clusterid = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %base = mul i32 %clusterid, 4
  %at = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %base
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %at, ptr addrspace(3) @tile, i32 16, i1 false)
  br label %exit
exit:
  call void asm sideeffect "barrier.cluster.arrive.release.aligned;", ""()
  call void asm sideeffect "barrier.cluster.wait.acquire.aligned;", ""()
  ret void
}

; Each CTA expects 256 bytes on its @bar; thread 0 of rank 0 multicasts
; %src (256 bytes) into @tile of both CTAs, thread 0 of rank 1 commits to
; @bar2 of both CTAs (tcgen05.commit .multicast::cluster). Every thread
; waits on both mbarriers of its CTA and copies @tile[tid] to
; out[64 * ctaid + tid].
define ptx_kernel void @multicast(ptr addrspace(1) %src, ptr addrspace(1) %out) "nvvm.reqntid"="64" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %init, label %sync
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar2, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 256)
  br label %sync
sync:
  call void @cluster_sync()
  %isFirst = icmp eq i32 %rank, 0
  %copier = and i1 %isFirst, %first
  br i1 %copier, label %copy, label %maybeCommit
copy:
  %dst = addrspacecast ptr addrspace(3) @tile to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr addrspace(1) %src, i32 256, i16 3, i64 0, i1 true, i1 false)
  br label %wait
maybeCommit:
  %isSecond = icmp eq i32 %rank, 1
  %committer = and i1 %isSecond, %first
  br i1 %committer, label %commit, label %wait
commit:
  call void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3) @bar2, i16 3)
  br label %wait
wait:
  call void @wait_parity0(ptr addrspace(3) @bar)
  call void @wait_parity0(ptr addrspace(3) @bar2)
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  %v = load i32, ptr addrspace(3) %slot, align 4
  %c64 = mul i32 %cta, 64
  %i = add i32 %c64, %tid
  call void @put(ptr addrspace(1) %out, i32 %i, i32 %v)
  call void @cluster_sync()
  ret void
}

; The tensor form: thread 0 of rank 1 multicasts the 8 x 4 f32 box at
; (%x, %y) of %map into @tile of both CTAs, whose threads 0 wait for their
; 128 bytes and copy them to out[32 * ctaid ...]. With %asm the copy is
; inline PTX, as MLIR's NVVM dialect and hand-written kernels issue it.
define ptx_kernel void @tma_multicast(ptr %map, ptr addrspace(1) %out, i32 %x, i32 %y, i1 %asm) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %init, label %sync
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 128)
  br label %sync
sync:
  call void @cluster_sync()
  %isSecond = icmp eq i32 %rank, 1
  %issuer = and i1 %isSecond, %first
  br i1 %issuer, label %issue, label %next
issue:
  %dst = addrspacecast ptr addrspace(3) @tile to ptr addrspace(7)
  br i1 %asm, label %inline, label %intrinsic
intrinsic:
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 %x, i32 %y, i16 3, i64 0, i1 true, i1 false, i32 0)
  br label %next
inline:
  call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [$0], [$1, {$2, $3}], [$4], $5;", "l,l,r,r,l,h"(ptr addrspace(7) %dst, ptr %map, i32 %x, i32 %y, ptr addrspace(3) @bar, i16 3)
  br label %next
next:
  br i1 %first, label %read, label %exit
read:
  call void @wait_parity0(ptr addrspace(3) @bar)
  %c32 = mul i32 %cta, 32
  %at = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %c32
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %at, ptr addrspace(3) @tile, i32 128, i1 false)
  br label %exit
exit:
  call void @cluster_sync()
  ret void
}

; A cluster shape without .blocksareclusters: the grid counts CTAs.
; out[ctaid] = 10 * %clusterid.x + %cluster_ctarank.
define ptx_kernel void @plain_cluster(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %clusterid = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %c10 = mul i32 %clusterid, 10
  %v = add i32 %c10, %rank
  call void @put(ptr addrspace(1) %out, i32 %cta, i32 %v)
  ret void
}

; Clusters of 2 x 2 CTAs: thread 0 writes 8 registers to
; regs[8 * (ctaid.y * nctaid.x + ctaid.x) + k]: %cluster_ctaid.x/y,
; %cluster_ctarank, %clusterid.x/y, %nclusterid.x/y, %cluster_nctaid.y.
define ptx_kernel void @square(ptr addrspace(1) %regs) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,2,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %report, label %exit
report:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %row = mul i32 %y, %nx
  %linear = add i32 %row, %x
  %base = mul i32 %linear, 8
  %cx = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctaid.x()
  %cy = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctaid.y()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %idx = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %idy = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.y()
  %nidx = call i32 @llvm.nvvm.read.ptx.sreg.nclusterid.x()
  %nidy = call i32 @llvm.nvvm.read.ptx.sreg.nclusterid.y()
  %cny = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.y()
  %values = insertvalue [8 x i32] undef, i32 %cx, 0
  %v1 = insertvalue [8 x i32] %values, i32 %cy, 1
  %v2 = insertvalue [8 x i32] %v1, i32 %rank, 2
  %v3 = insertvalue [8 x i32] %v2, i32 %idx, 3
  %v4 = insertvalue [8 x i32] %v3, i32 %idy, 4
  %v5 = insertvalue [8 x i32] %v4, i32 %nidx, 5
  %v6 = insertvalue [8 x i32] %v5, i32 %nidy, 6
  %v7 = insertvalue [8 x i32] %v6, i32 %cny, 7
  %at = getelementptr inbounds i32, ptr addrspace(1) %regs, i32 %base
  store [8 x i32] %v7, ptr addrspace(1) %at, align 4
  br label %exit
exit:
  ret void
}

; Rank 0's 64 threads wait at the cluster barrier; in rank 1 warp 0 waits on
; named barrier 1 for 64 threads, but warp 1 waits at the cluster barrier.
define ptx_kernel void @cluster_deadlock(ptr addrspace(1) %out) "nvvm.reqntid"="64" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp0 = icmp ult i32 %tid, 32
  %isPeer = icmp eq i32 %rank, 1
  %stuck = and i1 %isPeer, %warp0
  br i1 %stuck, label %named, label %cluster
named:
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 64)
  br label %cluster
cluster:
  call void @cluster_sync()
  ret void
}

; mapa to rank 2 of a cluster of two.
define ptx_kernel void @mapa_outside(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
  %p = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @count, i32 2)
  ret void
}

; A shared::cta load from the peer's shared memory.
define ptx_kernel void @peer_as_cta(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
  %generic = addrspacecast ptr addrspace(3) @count to ptr
  %remote = call ptr @llvm.nvvm.mapa(ptr %generic, i32 1)
  %wrong = addrspacecast ptr %remote to ptr addrspace(3)
  %v = load i32, ptr addrspace(3) %wrong, align 4
  call void @put(ptr addrspace(1) %out, i32 0, i32 %v)
  ret void
}

; barrier.cluster.wait with no arrive before it.
define ptx_kernel void @wait_alone(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nclusterid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.y()
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nclusterid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
declare void @llvm.nvvm.barrier.cluster.wait.aligned()
declare ptr @llvm.nvvm.mapa(ptr, i32)
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare i32 @llvm.nvvm.getctarank(ptr)
declare i1 @llvm.nvvm.isspacep.shared(ptr)
declare i1 @llvm.nvvm.isspacep.shared.cluster(ptr)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.arrive.scope.cluster.space.cluster(ptr addrspace(7), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
declare void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3), i16)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.memcpy.p1.p3.i32(ptr addrspace(1), ptr addrspace(3), i32, i1)
)";

class ClusterKernels : public ::testing::Test {
protected:
  void SetUp() override {
    EmulatorOptions options;
    options.smVersion = 100;
    auto created = Emulator::createFromIR(kClusterKernels, "cluster.ll", options);
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
  }

  /// Launches `grid` (clusters under blocksareclusters) with the kernel's
  /// declared CTA size and one int32 buffer per `buffers` entry.
  llvm::Error run(const char *kernel, uint32_t grid,
                  std::vector<std::vector<int32_t> *> buffers) {
    std::vector<KernelArg> args;
    for (auto *buffer : buffers) {
      emulator_->registerBuffer(buffer->data(), buffer->size() * 4, "buffer");
      args.push_back(KernelArg::pointer(buffer->data()));
    }
    std::optional<Dim3> block = emulator_->declaredBlockSize(kernel);
    EXPECT_TRUE(block.has_value());
    return emulator_->launch(kernel, Dim3{grid, 1, 1}, block.value_or(Dim3{}), args);
  }

  std::string failure(const char *kernel, uint32_t grid) {
    std::vector<int32_t> out(64, 0);
    llvm::Error err = run(kernel, grid, {&out});
    return err ? llvm::toString(std::move(err)) : std::string("(no error)");
  }

  std::unique_ptr<Emulator> emulator_;
};

TEST_F(ClusterKernels, PeersExchangeSharedMemoryAndReportClusterRegisters) {
  // Two clusters of two CTAs: CTAs 0-3.
  std::vector<int32_t> out(4 * 64, -1), regs(4 * 16, -1);
  ASSERT_FALSE(bool(run("exchange", 2, {&out, &regs})));
  for (int cta = 0; cta < 4; ++cta) {
    int peer = cta ^ 1;
    for (int tid = 0; tid < 64; ++tid)
      EXPECT_EQ(out[64 * cta + tid], 100 * peer + 63 - tid) << cta << " " << tid;
    const int32_t *r = &regs[16 * cta];
    EXPECT_EQ(r[0], cta);       // %ctaid.x counts CTAs
    EXPECT_EQ(r[1], 4);         // %nctaid.x: 2 clusters of 2
    EXPECT_EQ(r[2], cta / 2);   // %clusterid.x
    EXPECT_EQ(r[3], 2);         // %nclusterid.x
    EXPECT_EQ(r[4], cta % 2);   // %cluster_ctaid.x
    EXPECT_EQ(r[5], 2);         // %cluster_nctaid.x
    EXPECT_EQ(r[6], cta % 2);   // %cluster_ctarank
    EXPECT_EQ(r[7], 2);         // %cluster_nctarank
    EXPECT_EQ(r[8], peer % 2);  // getctarank of the peer's address
    EXPECT_EQ(r[9], 0);         // not the executing CTA's shared memory
    EXPECT_EQ(r[10], 1);        // but the cluster's
    EXPECT_EQ(r[11], 64);       // one atomic add from each peer thread
  }
}

TEST_F(ClusterKernels, PeerStoresAndArrivesOnTheOwnersMBarrier) {
  std::vector<int32_t> out(3 * 4, -1);
  ASSERT_FALSE(bool(run("remote_arrive", 3, {&out})));
  for (int cluster = 0; cluster < 3; ++cluster)
    for (int k = 0; k < 4; ++k) // written by CTA 2 * cluster + 1
      EXPECT_EQ(out[4 * cluster + k], 1000 * (2 * cluster + 1) + k) << cluster << " " << k;
}

TEST_F(ClusterKernels, BulkCopyAndCommitMulticastReachBothCtas) {
  std::vector<int32_t> src(64), out(2 * 64, -1);
  for (int i = 0; i < 64; ++i)
    src[i] = 7 * i + 3;
  ASSERT_FALSE(bool(run("multicast", 1, {&src, &out})));
  for (int cta = 0; cta < 2; ++cta)
    for (int tid = 0; tid < 64; ++tid)
      EXPECT_EQ(out[64 * cta + tid], 7 * tid + 3) << cta << " " << tid;
}

TEST_F(ClusterKernels, TensorCopyMulticastReachesBothCtas) {
  // A 16 x 12 f32 tensor; the box of 8 x 4 at (8, 4).
  std::vector<float> tensor(16 * 12);
  for (size_t i = 0; i < tensor.size(); ++i)
    tensor[i] = float(i);
  std::vector<float> out(2 * 32, -1);
  emulator_->registerBuffer(tensor.data(), tensor.size() * 4, "tensor");
  emulator_->registerBuffer(out.data(), out.size() * 4, "out");
  TensorMapLayout map;
  std::memset(&map, 0, sizeof(map));
  map.globalAddress = reinterpret_cast<uintptr_t>(tensor.data());
  map.rankMinusOne = 1;
  map.globalDim[0] = 16;
  map.globalDim[1] = 12;
  map.globalStride[0] = 16 * 4;
  map.boxDim[0] = 8;
  map.boxDim[1] = 4;
  map.elemType = uint8_t(TensorElemType::F32);
  map.magic = kTensorMapMagic;
  emulator_->registerBuffer(&map, sizeof(map), "tensor map");
  for (bool inlinePtx : {false, true}) {
    std::fill(out.begin(), out.end(), -1.0f);
    std::vector<KernelArg> args = {KernelArg::pointer(&map), KernelArg::pointer(out.data()),
                                   KernelArg::integer(32, 8), KernelArg::integer(32, 4),
                                   KernelArg::integer(1, inlinePtx)};
    llvm::Error err = emulator_->launch("tma_multicast", Dim3{1, 1, 1}, Dim3{32, 1, 1}, args);
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
    for (int cta = 0; cta < 2; ++cta)
      for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 8; ++col)
          EXPECT_EQ(out[32 * cta + 8 * row + col], float(16 * (4 + row) + 8 + col))
              << inlinePtx << " " << cta << " " << row << " " << col;
  }
}

TEST_F(ClusterKernels, WithoutBlocksAreClustersTheGridCountsCtas) {
  std::vector<int32_t> out(64, -1);
  ASSERT_FALSE(bool(run("plain_cluster", 4, {&out})));
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);
  EXPECT_EQ(out[2], 10);
  EXPECT_EQ(out[3], 11);
  EXPECT_NE(failure("plain_cluster", 3).find(
                "grid of (3,1,1) CTAs is not a whole number of clusters of (2,1,1) CTAs"),
            std::string::npos);
}

TEST_F(ClusterKernels, TwoDimensionalClustersRankXMajor) {
  // A grid of 2 x 1 clusters of 2 x 2 CTAs: CTAs (0..3, 0..1).
  std::vector<int32_t> regs(8 * 8, -1);
  std::vector<KernelArg> args = {KernelArg::pointer(regs.data())};
  emulator_->registerBuffer(regs.data(), regs.size() * 4, "regs");
  llvm::Error err = emulator_->launch("square", Dim3{2, 1, 1}, Dim3{32, 1, 1}, args);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) {
      const int32_t *r = &regs[8 * (4 * y + x)];
      EXPECT_EQ(r[0], x % 2) << x << "," << y;
      EXPECT_EQ(r[1], y) << x << "," << y;
      EXPECT_EQ(r[2], x % 2 + 2 * y) << x << "," << y; // x-major rank
      EXPECT_EQ(r[3], x / 2) << x << "," << y;
      EXPECT_EQ(r[4], 0) << x << "," << y;
      EXPECT_EQ(r[5], 2);
      EXPECT_EQ(r[6], 1);
      EXPECT_EQ(r[7], 2);
    }
}

TEST_F(ClusterKernels, ClusterBarrierDeadlockNamesBothCtas) {
  std::string message = failure("cluster_deadlock", 1);
  EXPECT_NE(message.find("kernel 'cluster_deadlock', CTA (0,0,0) (cluster of 2 CTAs): deadlock: "
                         "128 thread(s) blocked forever; cluster barrier: 96 of 128 threads "
                         "arrived"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("barrier 1 of CTA (1,0,0): 32 of 64 threads arrived"), std::string::npos)
      << message;
}

TEST_F(ClusterKernels, WrongClusterAccessesAreReported) {
  std::string message = failure("mapa_outside", 1);
  EXPECT_NE(message.find("mapa names CTA rank 2 but the cluster has 2 CTA(s)"), std::string::npos)
      << message;
  message = failure("peer_as_cta", 1);
  EXPECT_NE(message.find("invalid shared read of 4 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("shared memory of CTA (1,0,0) of the cluster"), std::string::npos)
      << message;
  message = failure("wait_alone", 1);
  EXPECT_NE(message.find("barrier.cluster.wait without a barrier.cluster.arrive before it"),
            std::string::npos)
      << message;
}

} // namespace
