// One 32x64 by 64x16 fp8 e4m3 mmaf into f32 (kernel.py --m 32 --n 16 --k 64 --a f8E4M3FN --acc f32): the mma.sync path from sm_89 on, the FMA path before.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f8E4M3FN>>
    %b_p = assume div_by<16>, %b : tile<ptr<f8E4M3FN>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 32> : tile<i32>
    %c3 = constant <i32: 64> : tile<i32>
    %c4 = constant <i32: 64> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<32x64xf8E4M3FN>, token
    %c8 = constant <i32: 64> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(64x16), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(64x16), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<64x16xf8E4M3FN>, token
    %c14 = constant <i32: 32> : tile<i32>
    %c15 = constant <i32: 16> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x16xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<32x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<32x16xf32>
    %c20 = constant <i32: 32> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<32x16xf32>, partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched (sm_89): the accumulator takes the paired-column m16n8
// fragment layout (four adjacent columns per lane), and both zero-padded
// loads fuse into a tile_as.mmaf_global: A and B keep 16-byte runs; on
// sm_80 (no fp8 mma.sync) the multiply keeps the FMA path, unfused.
// SCHED: tile_as.mmaf_global {{.*}} : tensor<32x64x!tile_as.ptr<f8E4M3FN, 1>, {{.*}}>> mask {{.*}}, tensor<64x16x!tile_as.ptr<f8E4M3FN, 1>, {{.*}}>> mask {{.*}}, tensor<32x16xf32, #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>
// SM80-NOT: tile_as.mmaf_global
// SM80: tile_as.mmaf
// SM80-NOT: tile_as.mmaf_global

// tile-llvm (sm_89): A (32 rows of 64 + 16 padding bytes, a 16-byte trash
// slot: 2576 bytes) then B as global memory holds it (64 rows of K, each 16
// + 16 bytes of N, a trash slot: 2064 bytes), both copied by cp.async.cg;
// per k step of 32 one ldmatrix.x4 (A) and one ldmatrix.x4.trans (B: byte
// pairs of four row pairs) whose registers four prmt sort
// into the B fragments of the even and the odd columns, for two fp8
// mma.sync intrinsics (nvvm.mma.sync rejects e4m3).
// LLVM: llvm.mlir.global internal @__tile_scratch() {{.*}} : !llvm.array<4640 x i8>
// LLVM-LABEL: llvm.func @k
// LLVM: nvvm.barrier0
// LLVM: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM: nvvm.cp.async.commit.group
// LLVM: nvvm.cp.async.wait.group 0
// LLVM: nvvm.barrier0
// LLVM: llvm.br ^[[LOOP:bb[0-9]+]](
// LLVM: ^[[LOOP]](
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// LLVM-COUNT-4: llvm.call_intrinsic "llvm.nvvm.prmt"
// LLVM-COUNT-2: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// LLVM-NOT: llvm.call_intrinsic "llvm.nvvm.mma
// LLVM: llvm.cond_br %{{.*}}, ^[[LOOP]](
// LLVM-NOT: llvm.intr.fma

// tileiras (PTX, sm_89): the two k steps unrolled, A and B by cp.async, no
// FMAs; the prmt selectors are constants.
// PTX-NOT: st.shared
// PTX: cp.async.cg.shared.global
// PTX: cp.async.cg.shared.global
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: prmt.b32 {{.*}}, 0x6420U;
// PTX: prmt.b32 {{.*}}, 0x7531U;
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX-NOT: fma.rn.f32

// tileiras (PTX, sm_80): FMAs, no mma.sync.
// PTX80-NOT: mma.sync
// PTX80: fma.rn.f32
// PTX80-NOT: mma.sync
