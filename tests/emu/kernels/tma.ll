; Hand-written nvptx64 kernels of the TMA family (Hopper): tensor maps built
; on the device with tensormap.replace, tiles moved with cp.async.bulk.tensor
; and waited for with mbarrier transaction counts.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bar = internal addrspace(3) global i64 undef, align 8
@tile_a = internal addrspace(3) global [1024 x float] undef, align 1024
@tile_b = internal addrspace(3) global [1024 x float] undef, align 1024

; Describes the row-major f32 matrix %base of %rows x %cols (rows %cols
; floats apart) with 32 x 32 boxes in the zeroed 128-byte map %map.
define internal void @describe(ptr addrspace(1) %map, ptr addrspace(1) %base, i32 %rows, i32 %cols) {
  %address = ptrtoint ptr addrspace(1) %base to i64
  call void @llvm.nvvm.tensormap.replace.global.address.p1(ptr addrspace(1) %map, i64 %address)
  call void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1) %map, i32 1)
  call void @llvm.nvvm.tensormap.replace.elemtype.p1(ptr addrspace(1) %map, i32 7)
  call void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1) %map, i32 0, i32 %cols)
  call void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1) %map, i32 1, i32 %rows)
  %cols64 = zext i32 %cols to i64
  %stride = mul i64 %cols64, 4
  call void @llvm.nvvm.tensormap.replace.global.stride.p1(ptr addrspace(1) %map, i32 0, i64 %stride)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 0, i32 32)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 1, i32 32)
  call void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1) %map, i32 0, i32 1)
  call void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1) %map, i32 1, i32 1)
  ret void
}

; b = scale * a^T for the %rows x %cols matrix a (the %cols x %rows b), one
; 32 x 32 tile per CTA (grid ceil(cols/32) x ceil(rows/32), 128 threads).
; Thread 0 builds the CTA's two maps in %maps (256 zero bytes per CTA), loads
; the tile of a (out-of-bounds parts zero-filled), every thread transposes
; and scales its share in shared memory, and thread 0 stores the tile of b
; (clipped at b's bounds).
define ptx_kernel void @transpose_scale(ptr addrspace(1) %maps, ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %rows, i32 %cols, float %scale) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %nbx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %cta.row = mul i32 %by, %nbx
  %cta = add i32 %cta.row, %bx
  %slot = mul i32 %cta, 256
  %map.a = getelementptr inbounds i8, ptr addrspace(1) %maps, i32 %slot
  %map.b = getelementptr inbounds i8, ptr addrspace(1) %map.a, i32 128
  %map.a.generic = addrspacecast ptr addrspace(1) %map.a to ptr
  %map.b.generic = addrspacecast ptr addrspace(1) %map.b to ptr
  %x = mul i32 %bx, 32
  %y = mul i32 %by, 32
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %build, label %wait.init

build:
  call void @describe(ptr addrspace(1) %map.a, ptr addrspace(1) %a, i32 %rows, i32 %cols)
  call void @describe(ptr addrspace(1) %map.b, ptr addrspace(1) %b, i32 %cols, i32 %rows)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %map.a.generic, i32 128)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  br label %wait.init

wait.init:
  call void @llvm.nvvm.barrier0()
  br i1 %is0, label %load, label %wait

load:
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 4096)
  %dst = addrspacecast ptr addrspace(3) @tile_a to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map.a.generic, i32 %x, i32 %y, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %wait

wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %transpose, label %wait

transpose:
  %i = phi i32 [ %tid, %wait ], [ %i.next, %transpose ]
  %r = lshr i32 %i, 5
  %c = and i32 %i, 31
  %from = getelementptr inbounds [1024 x float], ptr addrspace(3) @tile_a, i32 0, i32 %i
  %v = load float, ptr addrspace(3) %from, align 4
  %scaled = fmul float %v, %scale
  %c32 = shl i32 %c, 5
  %j = add i32 %c32, %r
  %to = getelementptr inbounds [1024 x float], ptr addrspace(3) @tile_b, i32 0, i32 %j
  store float %scaled, ptr addrspace(3) %to, align 4
  %i.next = add i32 %i, 128
  %more = icmp ult i32 %i.next, 1024
  br i1 %more, label %transpose, label %stored

stored:
  ; Generic-proxy writes of the tile must be visible to the async proxy.
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  call void @llvm.nvvm.barrier0()
  br i1 %is0, label %store, label %exit

store:
  call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @tile_b, ptr %map.b.generic, i32 %y, i32 %x, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  br label %exit

exit:
  ret void
}

; Loads the 8 x 32 f32 matrix %a (rows 128 bytes) with the 32-, 64- and
; 128-byte swizzles, as boxes 8, 16 and 32 floats wide and 8 rows high, and
; copies each tile's shared memory as it lies to %out + 1024 * (mode - 1).
define internal void @probe_swizzle(ptr addrspace(1) %map, ptr addrspace(1) %out, i32 %width, i32 %phase) {
entry:
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 0, i32 %width)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 1, i32 8)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  %generic = addrspacecast ptr addrspace(1) %map to ptr
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %generic, i32 128)
  %bytes = mul i32 %width, 32
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %bytes)
  %dst = addrspacecast ptr addrspace(3) @tile_a to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %generic, i32 0, i32 0, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %phase)
  br i1 %done, label %copy, label %wait
copy:
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %out, ptr addrspace(3) @tile_a, i32 %bytes, i1 false)
  ret void
}

define ptx_kernel void @swizzle_modes(ptr addrspace(1) %maps, ptr addrspace(1) %a, ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %map1 = getelementptr inbounds i8, ptr addrspace(1) %maps, i32 128
  %map2 = getelementptr inbounds i8, ptr addrspace(1) %maps, i32 256
  %out1 = getelementptr inbounds i8, ptr addrspace(1) %out, i32 1024
  %out2 = getelementptr inbounds i8, ptr addrspace(1) %out, i32 2048
  call void @describe(ptr addrspace(1) %maps, ptr addrspace(1) %a, i32 8, i32 32)
  call void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1) %maps, i32 1)
  call void @probe_swizzle(ptr addrspace(1) %maps, ptr addrspace(1) %out, i32 8, i32 0)
  call void @describe(ptr addrspace(1) %map1, ptr addrspace(1) %a, i32 8, i32 32)
  call void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1) %map1, i32 2)
  call void @probe_swizzle(ptr addrspace(1) %map1, ptr addrspace(1) %out1, i32 16, i32 1)
  call void @describe(ptr addrspace(1) %map2, ptr addrspace(1) %a, i32 8, i32 32)
  call void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1) %map2, i32 3)
  call void @probe_swizzle(ptr addrspace(1) %map2, ptr addrspace(1) %out2, i32 32, i32 0)
  ret void
}

; Loads the 32 x 32 box at (%x, %y) of the 72 x 44 f32 matrix %a, whose
; map %map @describe has built and the caller has modified, with traversal
; strides %s0 and %s1 (ceil(32 / stride) elements per dimension), waiting for
; %expect bytes, and copies %copied bytes of the tile as they lie to %out.
define internal void @load_box(ptr addrspace(1) %map, ptr addrspace(1) %out, i32 %x, i32 %y, i32 %s0, i32 %s1, i32 %expect, i32 %copied) {
entry:
  call void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1) %map, i32 0, i32 %s0)
  call void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1) %map, i32 1, i32 %s1)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  %generic = addrspacecast ptr addrspace(1) %map to ptr
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %generic, i32 128)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %expect)
  %dst = addrspacecast ptr addrspace(3) @tile_a to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %generic, i32 %x, i32 %y, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %copy, label %wait
copy:
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %out, ptr addrspace(3) @tile_a, i32 %copied, i1 false)
  ret void
}

; The box with OOB-NaN fill (rows 72.. and columns 44.. are NaN).
define ptx_kernel void @nan_fill(ptr addrspace(1) %map, ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %x, i32 %y) "nvvm.reqntid"="1" {
  call void @describe(ptr addrspace(1) %map, ptr addrspace(1) %a, i32 72, i32 44)
  call void @llvm.nvvm.tensormap.replace.fill.mode.p1(ptr addrspace(1) %map, i32 1)
  call void @load_box(ptr addrspace(1) %map, ptr addrspace(1) %out, i32 %x, i32 %y, i32 1, i32 1, i32 4096, i32 4096)
  ret void
}

; The box with zero fill and the given traversal strides.
define ptx_kernel void @strided(ptr addrspace(1) %map, ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %x, i32 %y, i32 %s0, i32 %s1, i32 %expect, i32 %copied) "nvvm.reqntid"="1" {
  call void @describe(ptr addrspace(1) %map, ptr addrspace(1) %a, i32 72, i32 44)
  call void @load_box(ptr addrspace(1) %map, ptr addrspace(1) %out, i32 %x, i32 %y, i32 %s0, i32 %s1, i32 %expect, i32 %copied)
  ret void
}

; Wrong use: a map of rank 3 (tensormap.replace.rank 2) used by a 2-D copy.
define ptx_kernel void @rank_mismatch(ptr addrspace(1) %maps, ptr addrspace(1) %a) "nvvm.reqntid"="1" {
  call void @describe(ptr addrspace(1) %maps, ptr addrspace(1) %a, i32 32, i32 32)
  call void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1) %maps, i32 2)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %dst = addrspacecast ptr addrspace(3) @tile_a to ptr addrspace(7)
  %map = addrspacecast ptr addrspace(1) %maps to ptr
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 0, i32 0, i16 0, i64 0, i1 false, i1 false, i32 0)
  ret void
}

; Wrong use: the destination is 4 floats into the 128-byte aligned tile.
define ptx_kernel void @misaligned_destination(ptr addrspace(1) %maps, ptr addrspace(1) %a) "nvvm.reqntid"="1" {
  call void @describe(ptr addrspace(1) %maps, ptr addrspace(1) %a, i32 32, i32 32)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %inside = getelementptr inbounds [1024 x float], ptr addrspace(3) @tile_a, i32 0, i32 4
  %dst = addrspacecast ptr addrspace(3) %inside to ptr addrspace(7)
  %map = addrspacecast ptr addrspace(1) %maps to ptr
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 0, i32 0, i16 0, i64 0, i1 false, i1 false, i32 0)
  ret void
}

; Wrong use: waits for 4096 bytes that no copy delivers.
define ptx_kernel void @missing_bytes(ptr addrspace(1) %maps, ptr addrspace(1) %a) "nvvm.reqntid"="1" {
entry:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 4096)
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %exit, label %wait
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr, i32)
declare void @llvm.nvvm.tensormap.replace.global.address.p1(ptr addrspace(1), i64)
declare void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.elemtype.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.global.stride.p1(ptr addrspace(1), i32, i64)
declare void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.fill.mode.p1(ptr addrspace(1), i32)
declare void @llvm.memcpy.p1.p3.i32(ptr addrspace(1), ptr addrspace(3), i32, i1)
