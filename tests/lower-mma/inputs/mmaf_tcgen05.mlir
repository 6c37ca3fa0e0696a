// One 128x32 by 32x64 f16 mmaf into f32 (kernel.py --m 128 --n 64 --k 32 --a f16 --acc f32): the tcgen05 path on sm_100 (plain, 103 and 110 too), with the accumulator in tensor memory.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 128> : tile<i32>
    %c3 = constant <i32: 32> : tile<i32>
    %c4 = constant <i32: 32> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(128x32), tensor_view<?x?xf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(128x32), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
    %c8 = constant <i32: 32> : tile<i32>
    %c9 = constant <i32: 64> : tile<i32>
    %c10 = constant <i32: 64> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x64xf16>, token
    %c14 = constant <i32: 128> : tile<i32>
    %c15 = constant <i32: 64> : tile<i32>
    %c16 = constant <i32: 64> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x64xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<128x32xf16>, tile<32x64xf16>, tile<128x64xf32>
    %c20 = constant <i32: 128> : tile<i32>
    %c21 = constant <i32: 64> : tile<i32>
    %c22 = constant <i32: 64> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<128x64xf32>, partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched (sm_100): the accumulator takes the layout tcgen05.ld.32x32b
// gives: lane l of warp w holds row 32 * (w % 4) + l, all 64 columns; the
// loads of A and B fuse into a tile_as.mmaf_global with their views
// (base[sizes, outer stride, starts]), which the lowering reads by TMA
// (-v says so).
// SCHED: tile_as.mmaf_global %{{.*}} mask %{{.*}} view %arg0[%c128_i32, %c32_i32, %c32_i32, %c0_i32, %c0_i32], %{{.*}} mask %{{.*}} view %arg1[%c32_i32, %c64_i32, %c64_i32, %c0_i32, %c0_i32], %{{.*}} : tensor<128x32x!tile_as.ptr<f16, 1>, {{.*}} view !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], tensor<32x64x!tile_as.ptr<f16, 1>, {{.*}} view !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
// REMARK: mmaf_tcgen05.mlir:30:10: remark: sm_100: tcgen05.mma operands by TMA (cp.async.bulk.tensor into the swizzled staging, mbarrier expect_tx): A and B

// tile-llvm (sm_100): A and B are fused global loads (mmaf_global) with
// views, loaded by TMA into the swizzled staging. The instruction descriptor
// 0x08110010 (f32 D, f16 A and B, A K-major, B MN-major, N = 64, M = 128);
// A's descriptor bits 0x8000402000010000 (64-byte swizzle 4 at bits 61-63,
// version 1 at bit 46, stride 512 bytes, leading 16 by convention), B's
// 0x4000404001000000 (128-byte swizzle 2, stride 1024, leading 4096: the
// step between 64-element N blocks); warp 0 allocates 64 columns on entry and
// gives up the permit; thread 0 writes both tensor maps (64-byte swizzle 2
// for A's 32 K elements, 128-byte swizzle 3 for B's 64 N elements) and
// fences them; the two commit mbarriers are initialised; every warp stores
// its accumulator rows to tensor memory (two tcgen05.st 32x32b.x32) and
// waits for them; thread 0 initialises the TMA mbarrier, a barrier
// publishes it all; thread 0 alone arrives with expect_tx of 8192 + 4096
// bytes (A: 128 rows of 64 bytes, B: 32 rows of 128), issues A's and B's box, waits for the mbarrier's phase 0, issues
// a tcgen05.mma per k step, all accumulating, commits to mbarrier 0 and
// waits for its phase 0; a barrier passes that on, every thread loads its
// 64 columns back with two tcgen05.ld 32x32b.x32 (no adds: the sums are
// complete), and the mbarriers are invalidated; warp 0 frees the tensor
// memory before the return. No cp.async, mma.sync, ldmatrix or wgmma.
// LLVM-DAG: llvm.mlir.global internal @__tile_tmem_mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
// LLVM-DAG: llvm.mlir.global internal @__tile_tmem_address() {addr_space = 3 : i32, alignment = 4 : i64} : i32
// LLVM-LABEL: llvm.func @k
// LLVM-DAG: %[[IDESC:.*]] = llvm.mlir.constant(135331856 : i32) : i32
// LLVM-DAG: %[[FIXEDA:.*]] = llvm.mlir.constant(-9223301530671579136 : i64) : i64
// LLVM-DAG: %[[FIXEDB:.*]] = llvm.mlir.constant(4611756662066249728 : i64) : i64
// LLVM-DAG: %[[COLUMNS:.*]] = llvm.mlir.constant(64 : i32) : i32
// LLVM-DAG: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// LLVM-DAG: %[[SW64:.*]] = llvm.mlir.constant(2 : i32) : i32
// LLVM-DAG: %[[SW128:.*]] = llvm.mlir.constant(3 : i32) : i32
// LLVM-DAG: %[[BYTES:.*]] = llvm.mlir.constant(12288 : i32) : i32
// LLVM: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// LLVM-NEXT: %[[WARP0:.*]] = llvm.icmp "ult" %[[TID]], %{{.*}} : i32
// LLVM-NEXT: llvm.cond_br %[[WARP0]], ^[[ALLOC:bb[0-9]+]], ^[[BODY:bb[0-9]+]]
// LLVM: ^[[ALLOC]]:
// LLVM-NEXT: nvvm.tcgen05.alloc %{{.*}}, %[[COLUMNS]] : !llvm.ptr<3>, i32
// LLVM-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// LLVM: ^[[BODY]]:
// LLVM: nvvm.tcgen05.fence <before>
// LLVM-NEXT: nvvm.barrier0
// LLVM-NEXT: nvvm.tcgen05.fence <after>
// LLVM: %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// LLVM: llvm.cond_br %[[T0]]
// LLVM: "llvm.nvvm.tensormap.replace.global.address.p1"
// LLVM: "llvm.nvvm.tensormap.replace.swizzle.mode.p1"(%{{.*}}, %[[SW64]]) :
// LLVM: "llvm.nvvm.tensormap.replace.global.address.p1"
// LLVM: "llvm.nvvm.tensormap.replace.swizzle.mode.p1"(%{{.*}}, %[[SW128]]) :
// LLVM: nvvm.fence.proxy.release <gpu>
// LLVM-NEXT: nvvm.fence.proxy.acquire <gpu>
// LLVM-NEXT: nvvm.fence.proxy.acquire <gpu>
// LLVM: nvvm.mbarrier.init
// LLVM-NEXT: nvvm.mbarrier.init
// LLVM: nvvm.tcgen05.st %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM: nvvm.tcgen05.st %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <store>
// LLVM-NEXT: nvvm.tcgen05.fence <before>
// LLVM: llvm.cond_br %[[T0]]
// LLVM: nvvm.mbarrier.init %[[FULL:.*]], %{{.*}} : !llvm.ptr<3>, i32
// LLVM: nvvm.tcgen05.fence <before>
// LLVM-NEXT: nvvm.barrier0
// LLVM-NEXT: nvvm.tcgen05.fence <after>
// LLVM: llvm.cond_br %[[T0]]
// LLVM: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %[[BYTES]] : !llvm.ptr<3>, i32
// LLVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL]], box[%{{.*}}, %{{.*}}]
// LLVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL]], box[%{{.*}}, %{{.*}}]
// LLVM-NEXT: llvm.inline_asm {{.*}}mbarrier.try_wait.parity.shared.b64{{.*}} %[[FULL]]
// LLVM: nvvm.tcgen05.fence <after>
// LLVM: llvm.or %{{.*}}, %[[FIXEDA]] : i64
// LLVM: llvm.or %{{.*}}, %[[FIXEDB]] : i64
// LLVM: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// LLVM-NOT: nvvm.tcgen05.mma
// LLVM: nvvm.tcgen05.commit
// LLVM: llvm.cond_br %[[T0]]
// LLVM: mbarrier.try_wait.parity.shared.b64
// LLVM: nvvm.tcgen05.fence <before>
// LLVM-NEXT: nvvm.barrier0
// LLVM-NEXT: nvvm.tcgen05.fence <after>
// LLVM-NEXT: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <load>
// LLVM-NOT: llvm.fadd
// LLVM: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <load>
// LLVM-NOT: nvvm.tcgen05.ld
// LLVM: nvvm.mbarrier.inval
// LLVM: nvvm.mbarrier.inval %[[FULL]]
// LLVM: nvvm.tcgen05.dealloc %{{.*}}, %[[COLUMNS]] : !llvm.ptr<6>, i32
// LLVM-NEXT: llvm.br
// LLVM: llvm.return
// LLVM-NOT: nvvm.cp.async.shared.global
// LLVM-NOT: nvvm.ldmatrix
// LLVM-NOT: nvvm.mma.sync
// LLVM-NOT: wgmma

// tileiras (PTX, sm_100): the module needs sm_100a.
// PTX: .target sm_100a
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// PTX: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// PTX: mbarrier.init.shared.b64
// PTX: tcgen05.st.sync.aligned.32x32b.x32.b32
// PTX: tcgen05.wait::st.sync.aligned;
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x32.b32
// PTX: tcgen05.wait::ld.sync.aligned;
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// PTX-NOT: cp.async.cg
// PTX-NOT: mma.sync
// PTX-NOT: fma.rn.f32
