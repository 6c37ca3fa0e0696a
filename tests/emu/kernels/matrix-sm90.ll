; Hand-written nvptx64 kernels for the sm_89/sm_90a matrix instructions
; tile-emu emulates: stmatrix, mma.sync with e4m3 operands, and wgmma in the
; inline PTX form that MLIR 22's NVVM lowering emits. tile-emu.bats checks
; them against numpy.
target triple = "nvptx64-nvidia-cuda"

@tiles = internal addrspace(3) global [256 x i16] undef, align 16
@operands = internal addrspace(3) global [4096 x i32] undef, align 1024

; One warp: lane l stores in[4l .. 4l+3] as its four fragment registers with
; stmatrix.x4.trans into four 8x8 b16 matrices, which are copied to out
; (matrix j at out[64 j]).
define ptx_kernel void @stmatrix_trans(ptr addrspace(1) %in, ptr addrspace(1) %out) "nvvm.reqntid"="32" {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %first = shl i32 %lane, 2
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %first
  %r0 = load i32, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %p0, i32 1
  %r1 = load i32, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %p0, i32 2
  %r2 = load i32, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %p0, i32 3
  %r3 = load i32, ptr addrspace(1) %p3, align 4
  ; lanes 8j..8j+7 address the rows of matrix j
  %row = getelementptr inbounds [8 x i16], ptr addrspace(3) @tiles, i32 %lane
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %row, i32 %r0, i32 %r1, i32 %r2, i32 %r3)
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  ; copy the 512 bytes back, 16 per lane
  %src = getelementptr inbounds <4 x i32>, ptr addrspace(3) @tiles, i32 %lane
  %v = load <4 x i32>, ptr addrspace(3) %src, align 16
  %dst = getelementptr inbounds <4 x i32>, ptr addrspace(1) %out, i32 %lane
  store <4 x i32> %v, ptr addrspace(1) %dst, align 16
  ret void
}

; One warp: mma.sync.m16n8k32.row.col.f32.e4m3.e4m3.f32 with every lane's
; fragments given in lane order: a[4l..4l+3], b[2l..2l+1], c[4l..4l+3];
; d[4l..4l+3] receives the result fragment.
define ptx_kernel void @mma_e4m3(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c,
                                 ptr addrspace(1) %d) "nvvm.reqntid"="32" {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %four = shl i32 %lane, 2
  %two = shl i32 %lane, 1
  %pa = getelementptr inbounds <4 x i32>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i32>, ptr addrspace(1) %pa, align 16
  %pb = getelementptr inbounds <2 x i32>, ptr addrspace(1) %b, i32 %lane
  %vb = load <2 x i32>, ptr addrspace(1) %pb, align 8
  %pc = getelementptr inbounds <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc, align 16
  %a0 = extractelement <4 x i32> %va, i32 0
  %a1 = extractelement <4 x i32> %va, i32 1
  %a2 = extractelement <4 x i32> %va, i32 2
  %a3 = extractelement <4 x i32> %va, i32 3
  %b0 = extractelement <2 x i32> %vb, i32 0
  %b1 = extractelement <2 x i32> %vb, i32 1
  %c0 = extractelement <4 x float> %vc, i32 0
  %c1 = extractelement <4 x float> %vc, i32 1
  %c2 = extractelement <4 x float> %vc, i32 2
  %c3 = extractelement <4 x float> %vc, i32 3
  %r = call { float, float, float, float } @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32(
      i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, float %c0, float %c1, float %c2, float %c3)
  %d0 = extractvalue { float, float, float, float } %r, 0
  %d1 = extractvalue { float, float, float, float } %r, 1
  %d2 = extractvalue { float, float, float, float } %r, 2
  %d3 = extractvalue { float, float, float, float } %r, 3
  %w0 = insertelement <4 x float> poison, float %d0, i32 0
  %w1 = insertelement <4 x float> %w0, float %d1, i32 1
  %w2 = insertelement <4 x float> %w1, float %d2, i32 2
  %w3 = insertelement <4 x float> %w2, float %d3, i32 3
  %pd = getelementptr inbounds <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %w3, ptr addrspace(1) %pd, align 16
  ret void
}

; One warpgroup: copies 16 KiB of pre-laid-out operands into shared memory
; (A at byte 0, B at byte 8192), builds the matrix descriptors from the
; shared address ((addr & 0x3FFFF) >> 4 or'ed into the given layout bits)
; and runs m64n8k16 f32 += f16 * f16 (K-major A and B, C = 0); thread t
; writes its four accumulator registers to d[4t..4t+3].
define ptx_kernel void @wgmma_f16(ptr addrspace(1) %in, ptr addrspace(1) %d, i64 %layoutA,
                                  i64 %layoutB) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %copy
copy:
  %i = phi i32 [ %tid, %entry ], [ %next, %copy ]
  %src = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds i32, ptr addrspace(3) @operands, i32 %i
  store i32 %v, ptr addrspace(3) %dst, align 4
  %next = add i32 %i, 128
  %more = icmp ult i32 %next, 4096
  br i1 %more, label %copy, label %mma
mma:
  call void @llvm.nvvm.barrier0()
  %base = ptrtoint ptr addrspace(3) @operands to i64
  %window = and i64 %base, 262143
  %startA = lshr i64 %window, 4
  %startB = add i64 %startA, 512
  %descA = or i64 %layoutA, %startA
  %descB = or i64 %layoutB, %startB
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %r = call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n"(float 0.0, float 0.0, float 0.0, float 0.0, i64 %descA, i64 %descB, i32 0, i32 1, i32 1, i32 0, i32 0)
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
  %d0 = extractvalue { float, float, float, float } %r, 0
  %d1 = extractvalue { float, float, float, float } %r, 1
  %d2 = extractvalue { float, float, float, float } %r, 2
  %d3 = extractvalue { float, float, float, float } %r, 3
  %w0 = insertelement <4 x float> poison, float %d0, i32 0
  %w1 = insertelement <4 x float> %w0, float %d1, i32 1
  %w2 = insertelement <4 x float> %w1, float %d2, i32 2
  %w3 = insertelement <4 x float> %w2, float %d3, i32 3
  %pd = getelementptr inbounds <4 x float>, ptr addrspace(1) %d, i32 %tid
  store <4 x float> %w3, ptr addrspace(1) %pd, align 16
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3), i32, i32, i32, i32)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64)
