; Hand-written nvptx64 tiled GEMM with tensor-core instructions:
;   C[M x N] (f32) = A[M x K] (f16, row-major) * B[K x N], with B given
;   transposed as BT[N x K] (f16, row-major, i.e. B column-major).
; One warp per CTA computes a 16x8 tile of C; CTA (x, y) owns columns 8x..
; and rows 16y... For each 16-wide slice of K the warp stages the A tile
; (16x16) and the BT tile (8x16) in shared memory with cp.async, loads the
; fragments with ldmatrix (x4 for A, x2 for B) and accumulates with
; mma.sync.m16n8k16.row.col.f32.f32.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@As = internal addrspace(3) global [256 x half] undef, align 16
@Bs = internal addrspace(3) global [128 x half] undef, align 16

define ptx_kernel void @gemm_f16(ptr addrspace(1) %A, ptr addrspace(1) %BT, ptr addrspace(1) %C,
                                 i32 %N, i32 %K) "nvvm.reqntid"="32" {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %row0 = shl i32 %by, 4
  %col0 = shl i32 %bx, 3
  ; cp.async: lane copies 16 bytes (8 halves) of row lane/2, half lane%2.
  %cr = lshr i32 %lane, 1
  %ch = and i32 %lane, 1
  %ch8 = shl i32 %ch, 3
  %cr16 = shl i32 %cr, 4
  %adst.i = add i32 %cr16, %ch8
  %adst = getelementptr inbounds half, ptr addrspace(3) @As, i32 %adst.i
  %arow = add i32 %row0, %cr
  %arow.off = mul i32 %arow, %K
  %asrc.base = add i32 %arow.off, %ch8
  ; BT has 8 rows: lanes 16-31 repeat the copies of lanes 0-15.
  %br = and i32 %cr, 7
  %br16 = shl i32 %br, 4
  %bdst.i = add i32 %br16, %ch8
  %bdst = getelementptr inbounds half, ptr addrspace(3) @Bs, i32 %bdst.i
  %brow = add i32 %col0, %br
  %brow.off = mul i32 %brow, %K
  %bsrc.base = add i32 %brow.off, %ch8
  ; ldmatrix row addresses: lane gives row lane%8 of matrix lane/8.
  %j = lshr i32 %lane, 3
  %r = and i32 %lane, 7
  %jlo = and i32 %j, 1
  %jhi = lshr i32 %j, 1
  %jlo8 = shl i32 %jlo, 3
  %jhi8 = shl i32 %jhi, 3
  %arow.ld = add i32 %jlo8, %r
  %arow.ld16 = shl i32 %arow.ld, 4
  %ald.i = add i32 %arow.ld16, %jhi8
  %ald = getelementptr inbounds half, ptr addrspace(3) @As, i32 %ald.i
  %r16 = shl i32 %r, 4
  %bld.i = add i32 %r16, %jlo8
  %bld = getelementptr inbounds half, ptr addrspace(3) @Bs, i32 %bld.i
  br label %loop

loop:
  %k0 = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %c0 = phi float [ 0.0, %entry ], [ %d0, %loop ]
  %c1 = phi float [ 0.0, %entry ], [ %d1, %loop ]
  %c2 = phi float [ 0.0, %entry ], [ %d2, %loop ]
  %c3 = phi float [ 0.0, %entry ], [ %d3, %loop ]
  %asrc.i = add i32 %asrc.base, %k0
  %asrc = getelementptr inbounds half, ptr addrspace(1) %A, i32 %asrc.i
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %adst, ptr addrspace(1) %asrc)
  %bsrc.i = add i32 %bsrc.base, %k0
  %bsrc = getelementptr inbounds half, ptr addrspace(1) %BT, i32 %bsrc.i
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %bdst, ptr addrspace(1) %bsrc)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %a = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16(ptr addrspace(3) %ald)
  %b = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16(ptr addrspace(3) %bld)
  %a0.i = extractvalue { i32, i32, i32, i32 } %a, 0
  %a1.i = extractvalue { i32, i32, i32, i32 } %a, 1
  %a2.i = extractvalue { i32, i32, i32, i32 } %a, 2
  %a3.i = extractvalue { i32, i32, i32, i32 } %a, 3
  %b0.i = extractvalue { i32, i32 } %b, 0
  %b1.i = extractvalue { i32, i32 } %b, 1
  %a0 = bitcast i32 %a0.i to <2 x half>
  %a1 = bitcast i32 %a1.i to <2 x half>
  %a2 = bitcast i32 %a2.i to <2 x half>
  %a3 = bitcast i32 %a3.i to <2 x half>
  %b0 = bitcast i32 %b0.i to <2 x half>
  %b1 = bitcast i32 %b1.i to <2 x half>
  %d = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(
      <2 x half> %a0, <2 x half> %a1, <2 x half> %a2, <2 x half> %a3,
      <2 x half> %b0, <2 x half> %b1, float %c0, float %c1, float %c2, float %c3)
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d1 = extractvalue { float, float, float, float } %d, 1
  %d2 = extractvalue { float, float, float, float } %d, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  ; Everyone is done reading the tiles before the next slice overwrites them.
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %k1 = add i32 %k0, 16
  %more = icmp ult i32 %k1, %K
  br i1 %more, label %loop, label %store

store:
  ; c0, c1: row groupID, columns 2*tig, 2*tig+1; c2, c3: row groupID + 8.
  %g = lshr i32 %lane, 2
  %t = and i32 %lane, 3
  %t2 = shl i32 %t, 1
  %col = add i32 %col0, %t2
  %rowa = add i32 %row0, %g
  %rowb = add i32 %rowa, 8
  %ia.row = mul i32 %rowa, %N
  %ia = add i32 %ia.row, %col
  %ib.row = mul i32 %rowb, %N
  %ib = add i32 %ib.row, %col
  %pa = getelementptr inbounds float, ptr addrspace(1) %C, i32 %ia
  %pb = getelementptr inbounds float, ptr addrspace(1) %C, i32 %ib
  %va0 = insertelement <2 x float> poison, float %d0, i32 0
  %va = insertelement <2 x float> %va0, float %d1, i32 1
  %vb0 = insertelement <2 x float> poison, float %d2, i32 0
  %vb = insertelement <2 x float> %vb0, float %d3, i32 1
  store <2 x float> %va, ptr addrspace(1) %pa, align 8
  store <2 x float> %vb, ptr addrspace(1) %pb, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16(ptr addrspace(3))
declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16(ptr addrspace(3))
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
