; Hand-written: clusters of two CTAs for tile-emu's launch shape (tile-emu.bats).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@word = internal addrspace(3) global i32 undef, align 4

; A tile kernel's launch shape: blockDim (1,1,1) under .blocksareclusters,
; the grid counting clusters. Thread 0 of each CTA stores 10 * ctaid.x + 1
; into its @word; after a cluster barrier out[ctaid.x] = the peer's @word
; + 1000 * clusterid.x.
define ptx_kernel void @pair(ptr addrspace(1) %out) "nvvm.reqntid"="32,1,1" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %store, label %sync
store:
  %c10 = mul i32 %cta, 10
  %v = add i32 %c10, 1
  store i32 %v, ptr addrspace(3) @word, align 4
  br label %sync
sync:
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  br i1 %first, label %read, label %exit
read:
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %peer = xor i32 %rank, 1
  %remote = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @word, i32 %peer)
  %w = load i32, ptr addrspace(7) %remote, align 4
  %cluster = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  %c1000 = mul i32 %cluster, 1000
  %r = add i32 %w, %c1000
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %cta
  store i32 %r, ptr addrspace(1) %slot, align 4
  br label %exit
exit:
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

; The same cluster shape without .blocksareclusters: the grid counts CTAs.
define ptx_kernel void @pair_of_ctas(ptr addrspace(1) %out) "nvvm.reqntid"="32" "nvvm.cluster_dim"="2,1,1" {
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
