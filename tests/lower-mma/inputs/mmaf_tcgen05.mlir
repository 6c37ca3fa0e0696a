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
// loads of A and B fuse into a tile_as.mmaf_global (cp.async operands).
// SCHED: tile_as.mmaf_global {{.*}} : tensor<128x32x!tile_as.ptr<f16, 1>, {{.*}}>, tensor<32x64x!tile_as.ptr<f16, 1>, {{.*}}>, tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>

// tile-llvm (sm_100): A and B are fused global loads (mmaf_global), copied
// by cp.async into the swizzled staging. The instruction descriptor
// 0x08110010 (f32 D, f16 A and B, A K-major, B MN-major, N = 64, M = 128);
// A's descriptor bits 0x8000402000010000 (64-byte swizzle 4 at bits 61-63,
// version 1 at bit 46, stride 512 bytes, leading 16 by convention), B's
// 0x4000404001000000 (128-byte swizzle 2, stride 1024, leading 4096: the
// step between 64-element N blocks); warp 0 allocates 64 columns on entry and
// gives up the permit; the two mbarriers are initialised; every warp
// stores its accumulator rows to tensor memory (two tcgen05.st 32x32b.x32)
// and waits for them; the chunk is copied, fenced for the async proxy and
// published; thread 0 issues a tcgen05.mma per k step, all accumulating,
// and commits to mbarrier 0; every thread waits for its phase 0, loads its
// 64 columns back with two tcgen05.ld 32x32b.x32 (no adds: the sums are
// complete), and the mbarriers are invalidated; warp 0 frees the tensor
// memory before the return. No mma.sync, ldmatrix or wgmma.
// LLVM-DAG: llvm.mlir.global internal @__tile_tmem_mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
// LLVM-DAG: llvm.mlir.global internal @__tile_tmem_address() {addr_space = 3 : i32, alignment = 4 : i64} : i32
// LLVM-LABEL: llvm.func @k
// LLVM-DAG: %[[IDESC:.*]] = llvm.mlir.constant(135331856 : i32) : i32
// LLVM-DAG: %[[FIXEDA:.*]] = llvm.mlir.constant(-9223301530671579136 : i64) : i64
// LLVM-DAG: %[[FIXEDB:.*]] = llvm.mlir.constant(4611756662066249728 : i64) : i64
// LLVM-DAG: %[[COLUMNS:.*]] = llvm.mlir.constant(64 : i32) : i32
// LLVM-DAG: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
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
// LLVM: nvvm.mbarrier.init
// LLVM-NEXT: nvvm.mbarrier.init
// LLVM: nvvm.tcgen05.st %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM: nvvm.tcgen05.st %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <store>
// LLVM-NEXT: nvvm.tcgen05.fence <before>
// LLVM: nvvm.barrier0
// LLVM: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM: nvvm.cp.async.commit.group
// LLVM-NEXT: nvvm.cp.async.wait.group 0
// LLVM-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// LLVM-NEXT: nvvm.barrier0
// LLVM: nvvm.tcgen05.fence <after>
// LLVM: llvm.or %{{.*}}, %[[FIXEDA]] : i64
// LLVM: llvm.or %{{.*}}, %[[FIXEDB]] : i64
// LLVM: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// LLVM-NOT: nvvm.tcgen05.mma
// LLVM: nvvm.tcgen05.commit
// LLVM: mbarrier.try_wait.parity.shared.b64
// LLVM-NEXT: nvvm.tcgen05.fence <after>
// LLVM-NEXT: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <load>
// LLVM-NOT: llvm.fadd
// LLVM: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// LLVM-NEXT: nvvm.tcgen05.wait <load>
// LLVM-NOT: nvvm.tcgen05.ld
// LLVM: nvvm.mbarrier.inval
// LLVM: nvvm.tcgen05.dealloc %{{.*}}, %[[COLUMNS]] : !llvm.ptr<6>, i32
// LLVM-NEXT: llvm.br
// LLVM: llvm.return
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
// PTX: cp.async.cg.shared.global
// PTX: fence.proxy.async.shared::cta;
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x32.b32
// PTX: tcgen05.wait::ld.sync.aligned;
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// PTX-NOT: mma.sync
// PTX-NOT: fma.rn.f32
