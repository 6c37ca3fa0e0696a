; Hand-written nvptx64 kernels that can never finish; tile-emu must report a
; deadlock instead of hanging.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Warps 0 and 1 wait at named barrier 1 for 96 threads; warp 2 exits instead.
define ptx_kernel void @named_barrier_short(ptr addrspace(1) %out) "nvvm.reqntid"="96" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %waits = icmp ult i32 %warp, 2
  br i1 %waits, label %wait, label %done
wait:
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 96)
  br label %done
done:
  ret void
}

; Lanes 0-15 wait at __syncthreads while lanes 16-31 wait in a full-warp
; shuffle for lanes 0-15.
define ptx_kernel void @divergent_shuffle(ptr addrspace(1) %out) "nvvm.reqntid"="32" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %tid, 16
  br i1 %low, label %barrier, label %shuffle
barrier:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %done
shuffle:
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %tid, i32 0, i32 31)
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %slot, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)

@mbar = internal addrspace(3) global i64 undef, align 8

; Thread 0 initializes an mbarrier for 64 arrivals but only 32 threads
; arrive; everyone then spins in try_wait.parity.
define ptx_kernel void @mbarrier_short(ptr addrspace(1) %out) "nvvm.reqntid"="64" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 64)
  br label %go
go:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %arrives = icmp ult i32 %tid, 32
  br i1 %arrives, label %arrive, label %wait
arrive:
  %token = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @mbar)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @mbar, i32 0)
  br i1 %done, label %exit, label %wait
exit:
  ret void
}

declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
