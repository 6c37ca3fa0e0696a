// One 64x32 by 32x64 f16 mmaf into f32 (kernel.py --m 64 --n 64 --k 32 --a f16 --acc f32): the wgmma path on sm_90a (and on plain sm_90, which becomes sm_90a for it), the mma.sync path on sm_80.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 64> : tile<i32>
    %c3 = constant <i32: 32> : tile<i32>
    %c4 = constant <i32: 32> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(64x32), tensor_view<?x?xf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(64x32), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x32xf16>, token
    %c8 = constant <i32: 32> : tile<i32>
    %c9 = constant <i32: 64> : tile<i32>
    %c10 = constant <i32: 64> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x64xf16>, token
    %c14 = constant <i32: 64> : tile<i32>
    %c15 = constant <i32: 64> : tile<i32>
    %c16 = constant <i32: 64> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x64xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
    %c20 = constant <i32: 64> : tile<i32>
    %c21 = constant <i32: 64> : tile<i32>
    %c22 = constant <i32: 64> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched (sm_90a): the accumulator takes the wgmma layout, the m16n8
// fragment layout with all four warps (one warpgroup) along M; the global
// loads of A and B fuse into the multiply with their views (sizes, outer
// stride, starts), read by TMA at it.
// SCHED: tile_as.mmaf_global %{{.*}} mask %{{.*}} view %arg0[%c64_i32, %c32_i32, %c32_i32, %c0_i32, %c0_i32], %{{.*}} mask %{{.*}} view %arg1[%c32_i32, %c64_i32, %c64_i32, %c0_i32, %c0_i32], %{{.*}} : tensor<64x32x!tile_as.ptr<f16, 1>, {{.*}}, tensor<32x64x!tile_as.ptr<f16, 1>, {{.*}}, tensor<64x64xf32, #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>

// tile-llvm (sm_90a): A (64 rows of 32 f16, 64-byte swizzled: 4096 bytes)
// then B (32 k rows of 64 f16, 128-byte swizzled: 4096 bytes) in one
// 1024-byte aligned scratch buffer (one chunk: no second buffer), then the
// chunk's mbarrier (8208 bytes). Thread 0 writes both tensor maps into this
// CTA's slot of a zeroed global array (1024 slots of two 128-byte maps),
// fences them for the tensormap proxy and initializes the mbarrier; after
// the barrier it arrives expecting the 8192 bytes and issues 8 boxes of 8 A
// rows and one B box; everyone waits on phase 0. Then one wgmma.fence, per
// k step of 16 one m64n64k16 wgmma in a loop, commit and wait 0, a barrier
// and the mbarrier's invalidation; no cp.async, ldmatrix, mma.sync or FMAs.
// LLVM-DAG: llvm.mlir.global internal @__tile_tma_maps0(dense<0> : tensor<262144xi8>) {addr_space = 1 : i32, alignment = 128 : i64} : !llvm.array<262144 x i8>
// LLVM-DAG: llvm.mlir.global internal @__tile_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8208 x i8>
// LLVM-LABEL: llvm.func @k
// LLVM: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address.p1"
// LLVM: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address.p1"
// LLVM: nvvm.fence.proxy.release <gpu>
// LLVM-NEXT: nvvm.fence.proxy.acquire <gpu>
// LLVM-NEXT: nvvm.fence.proxy.acquire <gpu>
// LLVM: nvvm.mbarrier.init
// LLVM: nvvm.barrier0
// LLVM: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// LLVM-COUNT-9: nvvm.cp.async.bulk.tensor.shared.cluster.global
// LLVM: mbarrier.try_wait.parity.shared.b64
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NEXT: llvm.br ^[[LOOP:bb[0-9]+]](
// LLVM: ^[[LOOP]](
// LLVM: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} : (f32, {{.*}}, i64, i64, i32, i32, i32, i32, i32) -> !llvm.struct<(f32,
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.cond_br %{{.*}}, ^[[LOOP]](
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// LLVM-NEXT: nvvm.barrier0
// LLVM: nvvm.mbarrier.inval
// LLVM-NOT: nvvm.cp.async.shared.global
// LLVM-NOT: nvvm.ldmatrix
// LLVM-NOT: nvvm.mma.sync
// LLVM-NOT: llvm.intr.fma

// tileiras (PTX, sm_90a): the module needs sm_90a; A K-major (trans-a 0),
// B N-major (trans-b 1), D accumulated (scale-d 1); A and B arrive by TMA
// (64- and 128-byte swizzle modes 2 and 3), completing on the mbarrier.
// PTX90: .target sm_90a
// PTX90: .shared .align 1024 .b8 __tile_scratch[8208];
// PTX90: tensormap.replace.tile.swizzle_mode.global.b1024.b32 [{{.*}}], 2;
// PTX90: tensormap.replace.tile.swizzle_mode.global.b1024.b32 [{{.*}}], 3;
// PTX90: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+8192], {{.*}};
// PTX90: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}, {{{.*}}, {{.*}}}], [__tile_scratch+8192];
// PTX90: mbarrier.try_wait.parity.shared.b64
// PTX90: wgmma.fence.sync.aligned;
// The descriptors' layout bits ("Matrix Descriptor Format"): A's swizzle
// mode 2 (64 bytes, bits 62-63), stride byte offset 512 (8 rows of 64 bytes)
// and leading offset 1 (unused), 0x8000002000010000; B's mode 1 (128 bytes),
// stride 1024, leading offset 4096 (32 k rows of 128 bytes: the step
// between 64-column blocks), 0x4000004001000000.
// PTX90: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -9223371899415756800;
// PTX90: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293322072064;
// PTX90: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// PTX90: wgmma.commit_group.sync.aligned;
// PTX90: wgmma.wait_group.sync.aligned 0;
// PTX90-NOT: mma.sync
// PTX90-NOT: fma.rn.f32

// tileiras (PTX, sm_80): mma.sync, no wgmma.
// PTX80: .target sm_80
// PTX80-NOT: wgmma
// PTX80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX80-NOT: wgmma
