; Hand-written nvptx64 kernels of the Blackwell tcgen05 family (sm_100a):
; tensor memory allocated by a warp, an mma from shared-memory descriptors
; into it, committed to an mbarrier, read back with tcgen05.ld; wrong uses
; of the allocator.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@taddr = internal addrspace(3) global i32 undef, align 4
@bar = internal addrspace(3) global i64 undef, align 8
@tile_a = internal addrspace(3) global [8192 x i8] undef, align 1024
@tile_b = internal addrspace(3) global [4096 x i8] undef, align 1024

; Copies the row-major %rows x 64-byte matrix %src into %dst in the
; canonical K-major layout without swizzle: 8-row x 16-byte core matrices,
; LBO = 128 bytes between the 4 core matrices along K, SBO = 512 bytes
; between groups of 8 rows. Thread %tid of 128 copies every 128th chunk.
define internal void @stage(ptr addrspace(3) %dst, ptr addrspace(1) %src, i32 %rows, i32 %tid) {
entry:
  %chunks = mul i32 %rows, 4
  br label %loop

loop:
  %i = phi i32 [ %tid, %entry ], [ %next, %loop ]
  %mn = lshr i32 %i, 2
  %c = and i32 %i, 3
  %src.off = mul i32 %i, 16
  %from = getelementptr inbounds i8, ptr addrspace(1) %src, i32 %src.off
  %v = load <4 x i32>, ptr addrspace(1) %from, align 16
  %row8 = and i32 %mn, 7
  %group = lshr i32 %mn, 3
  %o1 = mul i32 %row8, 16
  %o2 = mul i32 %group, 512
  %o3 = mul i32 %c, 128
  %o12 = add i32 %o1, %o2
  %off = add i32 %o12, %o3
  %to = getelementptr inbounds i8, ptr addrspace(3) %dst, i32 %off
  store <4 x i32> %v, ptr addrspace(3) %to, align 16
  %next = add i32 %i, 128
  %more = icmp ult i32 %next, %chunks
  br i1 %more, label %loop, label %done

done:
  ret void
}

; The shared memory descriptor of the operand at %tile, advanced by %k32
; steps of 32 bytes of K (two core matrices, 256 bytes).
define internal i64 @descriptor(ptr addrspace(3) %tile, i32 %k32) {
  %base = ptrtoint ptr addrspace(3) %tile to i64
  %k64 = zext i32 %k32 to i64
  %step = mul i64 %k64, 256
  %start = add i64 %base, %step
  %masked = and i64 %start, 262143
  %encoded = lshr i64 %masked, 4
  ; LBO 128 >> 4 = 8 in bits 16-29, SBO 512 >> 4 = 32 in bits 32-45, the
  ; fixed 0b001 in bits 46-48, no swizzle.
  %fields = or i64 %encoded, 70506183655424 ; 8 << 16 | 32 << 32 | 1 << 46
  ret i64 %fields
}

define internal void @issue(i32 %kind, ptr addrspace(6) %d, i64 %a, i64 %b, i32 %idesc, i1 %acc) {
entry:
  switch i32 %kind, label %f16 [ i32 1, label %tf32
                                 i32 2, label %f8f6f4
                                 i32 3, label %i8 ]
f16:
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %d, i64 %a, i64 %b, i32 %idesc, i1 %acc, i32 0, i32 1, i32 0)
  ret void
tf32:
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %d, i64 %a, i64 %b, i32 %idesc, i1 %acc, i32 1, i32 1, i32 0)
  ret void
f8f6f4:
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %d, i64 %a, i64 %b, i32 %idesc, i1 %acc, i32 2, i32 1, i32 0)
  ret void
i8:
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %d, i64 %a, i64 %b, i32 %idesc, i1 %acc, i32 3, i32 1, i32 0)
  ret void
}

; d (128 x 64, 32-bit elements) = a (128 x 64 bytes of K) * b (64 x 64
; bytes of K)^T with the .kind %kind and instruction descriptor %idesc (M =
; 128, N = 64): warp 0 allocates 64 columns, thread 0 issues two mmas of 32
; bytes of K each (the second accumulating) and commits them to an mbarrier,
; every thread waits for its phase and loads its row (warp w: lanes 32w..)
; with tcgen05.ld.32x32b.x64; warp 0 frees the columns.
define ptx_kernel void @mma(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %d, i32 %kind, i32 %idesc) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %is.warp0 = icmp eq i32 %warp, 0
  br i1 %is.warp0, label %alloc, label %stage

alloc:
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 64)
  call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
  br label %stage

stage:
  call void @stage(ptr addrspace(3) @tile_a, ptr addrspace(1) %a, i32 128, i32 %tid)
  call void @stage(ptr addrspace(3) @tile_b, ptr addrspace(1) %b, i32 64, i32 %tid)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %sync

init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  br label %sync

sync:
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %base = load i32, ptr addrspace(3) @taddr, align 4
  %base.ptr = inttoptr i32 %base to ptr addrspace(6)
  br i1 %is0, label %compute, label %wait

compute:
  %a0 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 0)
  %b0 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 0)
  call void @issue(i32 %kind, ptr addrspace(6) %base.ptr, i64 %a0, i64 %b0, i32 %idesc, i1 false)
  %a1 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 1)
  %b1 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 1)
  call void @issue(i32 %kind, ptr addrspace(6) %base.ptr, i64 %a1, i64 %b1, i32 %idesc, i1 true)
  call void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3) @bar)
  br label %wait

wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %load, label %wait

load:
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %lane.field = shl i32 %warp, 21 ; 32 * warp lanes, in bits 31..16
  %mine = add i32 %base, %lane.field
  %mine.ptr = inttoptr i32 %mine to ptr addrspace(6)
  %row = call <64 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x64(ptr addrspace(6) %mine.ptr, i1 false)
  call void @llvm.nvvm.tcgen05.wait.ld()
  %row.off = mul i32 %tid, 256
  %to = getelementptr inbounds i8, ptr addrspace(1) %d, i32 %row.off
  store <64 x i32> %row, ptr addrspace(1) %to, align 16
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.barrier0()
  br i1 %is.warp0, label %free, label %exit

free:
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %base.ptr, i32 64)
  br label %exit

exit:
  ret void
}

; The mma kernel's kind::f16 case written with inline PTX as CUDA code
; (CUTLASS) issues it: 32-bit shared addresses ("r"), the mma's
; enable-input-d through a predicate, the result read in eight
; tcgen05.ld.32x32b.x8 of 8 columns each.
define ptx_kernel void @mma_asm(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %d) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %is.warp0 = icmp eq i32 %warp, 0
  %taddr.s = ptrtoint ptr addrspace(3) @taddr to i32
  %bar.s = ptrtoint ptr addrspace(3) @bar to i32
  br i1 %is.warp0, label %alloc, label %stage

alloc:
  call void asm sideeffect "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], $1;", "r,r"(i32 %taddr.s, i32 64)
  call void asm sideeffect "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;", ""()
  br label %stage

stage:
  call void @stage(ptr addrspace(3) @tile_a, ptr addrspace(1) %a, i32 128, i32 %tid)
  call void @stage(ptr addrspace(3) @tile_b, ptr addrspace(1) %b, i32 64, i32 %tid)
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %sync

init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  br label %sync

sync:
  call void asm sideeffect "tcgen05.fence::before_thread_sync;", ""()
  call void @llvm.nvvm.barrier0()
  call void asm sideeffect "tcgen05.fence::after_thread_sync;", ""()
  %base = load i32, ptr addrspace(3) @taddr, align 4
  br i1 %is0, label %compute, label %wait

compute:
  ; kind::f16, f16 inputs, f32 D, N = 64, M = 128
  %a0 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 0)
  %b0 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 0)
  call void asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $4, 0;\0Atcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, p;\0A}", "r,l,l,r,r"(i32 %base, i64 %a0, i64 %b0, i32 135266320, i32 0)
  %a1 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 1)
  %b1 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 1)
  call void asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $4, 0;\0Atcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, p;\0A}", "r,l,l,r,r"(i32 %base, i64 %a1, i64 %b1, i32 135266320, i32 1)
  call void asm sideeffect "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [$0];", "r"(i32 %bar.s)
  br label %wait

wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %load, label %wait

load:
  %lane.field = shl i32 %warp, 21
  %mine = add i32 %base, %lane.field
  br label %chunk

chunk:
  %i = phi i32 [ 0, %load ], [ %next, %chunk ]
  %column = mul i32 %i, 8
  %at = add i32 %mine, %column
  %r = call { i32, i32, i32, i32, i32, i32, i32, i32 } asm sideeffect "tcgen05.ld.sync.aligned.32x32b.x8.b32 {$0, $1, $2, $3, $4, $5, $6, $7}, [$8];", "=r,=r,=r,=r,=r,=r,=r,=r,r"(i32 %at)
  call void asm sideeffect "tcgen05.wait::ld.sync.aligned;", ""()
  %row.off = mul i32 %tid, 256
  %col.off = mul i32 %i, 32
  %off = add i32 %row.off, %col.off
  %to = getelementptr inbounds i8, ptr addrspace(1) %d, i32 %off
  %e0 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 0
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 0
  store i32 %e0, ptr addrspace(1) %p0, align 4
  %e1 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 1
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 1
  store i32 %e1, ptr addrspace(1) %p1, align 4
  %e2 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 2
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 2
  store i32 %e2, ptr addrspace(1) %p2, align 4
  %e3 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 3
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 3
  store i32 %e3, ptr addrspace(1) %p3, align 4
  %e4 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 4
  %p4 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 4
  store i32 %e4, ptr addrspace(1) %p4, align 4
  %e5 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 5
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 5
  store i32 %e5, ptr addrspace(1) %p5, align 4
  %e6 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 6
  %p6 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 6
  store i32 %e6, ptr addrspace(1) %p6, align 4
  %e7 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %r, 7
  %p7 = getelementptr inbounds i32, ptr addrspace(1) %to, i32 7
  store i32 %e7, ptr addrspace(1) %p7, align 4
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 8
  br i1 %more, label %chunk, label %free.sync

free.sync:
  call void @llvm.nvvm.barrier0()
  br i1 %is.warp0, label %free, label %exit

free:
  call void asm sideeffect "tcgen05.dealloc.cta_group::1.sync.aligned.b32 $0, $1;", "r,r"(i32 %base, i32 64)
  br label %exit

exit:
  ret void
}

define internal void @issue_tmem_a(i32 %kind, ptr addrspace(6) %d, ptr addrspace(6) %a, i64 %b, i32 %idesc, i1 %acc) {
entry:
  switch i32 %kind, label %f16 [ i32 1, label %tf32
                                 i32 2, label %f8f6f4
                                 i32 3, label %i8 ]
f16:
  call void @llvm.nvvm.tcgen05.mma.tensor(ptr addrspace(6) %d, ptr addrspace(6) %a, i64 %b, i32 %idesc, i1 %acc, i32 0, i32 1, i32 0)
  ret void
tf32:
  call void @llvm.nvvm.tcgen05.mma.tensor(ptr addrspace(6) %d, ptr addrspace(6) %a, i64 %b, i32 %idesc, i1 %acc, i32 1, i32 1, i32 0)
  ret void
f8f6f4:
  call void @llvm.nvvm.tcgen05.mma.tensor(ptr addrspace(6) %d, ptr addrspace(6) %a, i64 %b, i32 %idesc, i1 %acc, i32 2, i32 1, i32 0)
  ret void
i8:
  call void @llvm.nvvm.tcgen05.mma.tensor(ptr addrspace(6) %d, ptr addrspace(6) %a, i64 %b, i32 %idesc, i1 %acc, i32 3, i32 1, i32 0)
  ret void
}

; The mma kernel with A in tensor memory: thread 0 copies each 32-byte K
; step of A (128 rows) with tcgen05.cp.128x256b to columns 64.. and 72..
; of the 128 allocated, then issues tcgen05.mma.tensor from there.
define ptx_kernel void @mma_tmem_a(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %d, i32 %kind, i32 %idesc) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %is.warp0 = icmp eq i32 %warp, 0
  br i1 %is.warp0, label %alloc, label %stage

alloc:
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 128)
  br label %stage

stage:
  call void @stage(ptr addrspace(3) @tile_a, ptr addrspace(1) %a, i32 128, i32 %tid)
  call void @stage(ptr addrspace(3) @tile_b, ptr addrspace(1) %b, i32 64, i32 %tid)
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %sync

init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  br label %sync

sync:
  call void @llvm.nvvm.barrier0()
  %base = load i32, ptr addrspace(3) @taddr, align 4
  %base.ptr = inttoptr i32 %base to ptr addrspace(6)
  %a0.t = add i32 %base, 64
  %a1.t = add i32 %base, 72
  %a0.ptr = inttoptr i32 %a0.t to ptr addrspace(6)
  %a1.ptr = inttoptr i32 %a1.t to ptr addrspace(6)
  br i1 %is0, label %compute, label %wait

compute:
  %a0 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 0)
  %a1 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 1)
  call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %a0.ptr, i64 %a0)
  call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %a1.ptr, i64 %a1)
  %b0 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 0)
  %b1 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 1)
  call void @issue_tmem_a(i32 %kind, ptr addrspace(6) %base.ptr, ptr addrspace(6) %a0.ptr, i64 %b0, i32 %idesc, i1 false)
  call void @issue_tmem_a(i32 %kind, ptr addrspace(6) %base.ptr, ptr addrspace(6) %a1.ptr, i64 %b1, i32 %idesc, i1 true)
  call void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3) @bar)
  br label %wait

wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %load, label %wait

load:
  %lane.field = shl i32 %warp, 21
  %mine = add i32 %base, %lane.field
  %mine.ptr = inttoptr i32 %mine to ptr addrspace(6)
  %row = call <64 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x64(ptr addrspace(6) %mine.ptr, i1 false)
  %row.off = mul i32 %tid, 256
  %to = getelementptr inbounds i8, ptr addrspace(1) %d, i32 %row.off
  store <64 x i32> %row, ptr addrspace(1) %to, align 16
  call void @llvm.nvvm.barrier0()
  br i1 %is.warp0, label %free, label %exit

free:
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %base.ptr, i32 128)
  br label %exit

exit:
  ret void
}

; Every warp stores its thread index + 1000 * register through the
; 16x256b.x1 fragment (lanes 32w..32w+15, columns 0..7) and the
; 16x32bx2.x2 fragment (lanes 32w+16..32w+31, columns 8..9 and, half split
; 4 columns on, 12..13); every thread then reads its lane's 16 columns with
; 32x32b.x16 into %out (128 x 16 i32).
define ptx_kernel void @fragments(ptr addrspace(1) %out) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %is.warp0 = icmp eq i32 %warp, 0
  br i1 %is.warp0, label %alloc, label %sync

alloc:
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 32)
  br label %sync

sync:
  call void @llvm.nvvm.barrier0()
  %base = load i32, ptr addrspace(3) @taddr, align 4
  %lane.field = shl i32 %warp, 21
  %quarter = add i32 %base, %lane.field
  %upper = add i32 %quarter, 1048584 ; 16 lanes (16 << 16) and 8 columns on
  %quarter.ptr = inttoptr i32 %quarter to ptr addrspace(6)
  %upper.ptr = inttoptr i32 %upper to ptr addrspace(6)
  %lane = and i32 %tid, 31
  %v0 = insertelement <4 x i32> undef, i32 %lane, i32 0
  %r1 = add i32 %lane, 1000
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %r2 = add i32 %lane, 2000
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %r3 = add i32 %lane, 3000
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  call void @llvm.nvvm.tcgen05.st.16x256b.x1(ptr addrspace(6) %quarter.ptr, <4 x i32> %v3, i1 false)
  %w2 = shufflevector <4 x i32> %v3, <4 x i32> undef, <2 x i32> <i32 0, i32 1>
  call void @llvm.nvvm.tcgen05.st.16x32bx2.x2(ptr addrspace(6) %upper.ptr, i64 4, <2 x i32> %w2, i1 false)
  call void @llvm.nvvm.tcgen05.wait.st()
  %row = call <16 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x16(ptr addrspace(6) %quarter.ptr, i1 false)
  call void @llvm.nvvm.tcgen05.wait.ld()
  %row.off = mul i32 %tid, 64
  %to = getelementptr inbounds i8, ptr addrspace(1) %out, i32 %row.off
  store <16 x i32> %row, ptr addrspace(1) %to, align 16
  call void @llvm.nvvm.barrier0()
  br i1 %is.warp0, label %free, label %exit

free:
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %quarter.ptr, i32 32)
  br label %exit

exit:
  ret void
}

; Warps 0 and 1 each allocate 512 columns and never free them: warp 1
; blocks forever.
define ptx_kernel void @exhausted() "nvvm.reqntid"="64" {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 512)
  ret void
}

; Allocates and exits without tcgen05.dealloc.
define ptx_kernel void @leak() "nvvm.reqntid"="32" {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 128)
  ret void
}

; Warp 1 reads lanes 0..31, which belong to warp 0's sub-partition.
define ptx_kernel void @wrong_quarter() "nvvm.reqntid"="64" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @taddr, i32 32)
  %base = load i32, ptr addrspace(3) @taddr, align 4
  %ptr = inttoptr i32 %base to ptr addrspace(6)
  %v = call i32 @llvm.nvvm.tcgen05.ld.32x32b.x1(ptr addrspace(6) %ptr, i1 false)
  ret void
}

; A commit multicast to CTA 1 of the cluster, which does not exist here.
define ptx_kernel void @commit_to_peer() "nvvm.reqntid"="1" {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  call void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3) @bar, i16 3)
  ret void
}

; The mma kernel's kind::f16 case on a CTA pair (cta_group::2, clusters of
; two): d (256 x 64) = a (256 x 64 bytes of K) * b (64 x 64 bytes)^T with
; M = 256, N = 64 (%idesc). CTA rank r stages rows 128r.. of a and rows
; 32r.. of b (its half of N); warp 0 of each allocates 64 columns for the
; pair; after a cluster barrier thread 0 of rank 0 issues both mmas and
; commits them to @bar of both CTAs; each CTA loads its 128 rows of D.
define ptx_kernel void @mma_pair(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %d, i32 %idesc) "nvvm.reqntid"="128" "nvvm.cluster_dim"="2,1,1" "nvvm.blocksareclusters" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %warp = lshr i32 %tid, 5
  %is.warp0 = icmp eq i32 %warp, 0
  br i1 %is.warp0, label %alloc, label %stage

alloc:
  call void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3) @taddr, i32 64)
  call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg2()
  br label %stage

stage:
  %a.off = mul i32 %rank, 8192 ; 128 rows of 64 bytes
  %a.half = getelementptr inbounds i8, ptr addrspace(1) %a, i32 %a.off
  %b.off = mul i32 %rank, 2048 ; 32 rows of 64 bytes
  %b.half = getelementptr inbounds i8, ptr addrspace(1) %b, i32 %b.off
  call void @stage(ptr addrspace(3) @tile_a, ptr addrspace(1) %a.half, i32 128, i32 %tid)
  call void @stage(ptr addrspace(3) @tile_b, ptr addrspace(1) %b.half, i32 32, i32 %tid)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %sync

init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  br label %sync

sync:
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %base = load i32, ptr addrspace(3) @taddr, align 4
  %base.ptr = inttoptr i32 %base to ptr addrspace(6)
  %leader = icmp eq i32 %rank, 0
  %issuer = and i1 %leader, %is0
  br i1 %issuer, label %compute, label %wait

compute:
  %a0 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 0)
  %b0 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 0)
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %base.ptr, i64 %a0, i64 %b0, i32 %idesc, i1 false, i32 0, i32 2, i32 0)
  %a1 = call i64 @descriptor(ptr addrspace(3) @tile_a, i32 1)
  %b1 = call i64 @descriptor(ptr addrspace(3) @tile_b, i32 1)
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %base.ptr, i64 %a1, i64 %b1, i32 %idesc, i1 true, i32 0, i32 2, i32 0)
  call void @llvm.nvvm.tcgen05.commit.mc.shared.cg2(ptr addrspace(3) @bar, i16 3)
  br label %wait

wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %load, label %wait

load:
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %lane.field = shl i32 %warp, 21 ; 32 * warp lanes, in bits 31..16
  %mine = add i32 %base, %lane.field
  %mine.ptr = inttoptr i32 %mine to ptr addrspace(6)
  %row = call <64 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x64(ptr addrspace(6) %mine.ptr, i1 false)
  call void @llvm.nvvm.tcgen05.wait.ld()
  %first.row = mul i32 %rank, 128
  %row.index = add i32 %first.row, %tid
  %row.off = mul i32 %row.index, 256
  %to = getelementptr inbounds i8, ptr addrspace(1) %d, i32 %row.off
  store <64 x i32> %row, ptr addrspace(1) %to, align 16
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  br i1 %is.warp0, label %free, label %exit

free:
  call void @llvm.nvvm.tcgen05.dealloc.cg2(ptr addrspace(6) %base.ptr, i32 64)
  br label %exit

exit:
  ret void
}

; A pair's mma in a cluster of one CTA.
define ptx_kernel void @pair_alone() "nvvm.reqntid"="32" {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3) @taddr, i32 32)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg2(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg2()
declare void @llvm.nvvm.tcgen05.commit.mc.shared.cg2(ptr addrspace(3), i16)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
declare void @llvm.nvvm.tcgen05.fence.before.thread.sync()
declare void @llvm.nvvm.tcgen05.fence.after.thread.sync()
declare void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6), i64, i64, i32, i1, i32, i32, i32)
declare void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3))
declare void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3), i16)
declare void @llvm.nvvm.tcgen05.mma.tensor(ptr addrspace(6), ptr addrspace(6), i64, i32, i1, i32, i32, i32)
declare void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6), i64)
declare <64 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x64(ptr addrspace(6), i1)
declare <16 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x16(ptr addrspace(6), i1)
declare i32 @llvm.nvvm.tcgen05.ld.32x32b.x1(ptr addrspace(6), i1)
declare void @llvm.nvvm.tcgen05.st.16x256b.x1(ptr addrspace(6), <4 x i32>, i1)
declare void @llvm.nvvm.tcgen05.st.16x32bx2.x2(ptr addrspace(6), i64, <2 x i32>, i1)
declare void @llvm.nvvm.tcgen05.wait.ld()
declare void @llvm.nvvm.tcgen05.wait.st()
