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

// tile-sched (sm_89): the accumulator takes the m16n8 fragment layout; on
// sm_80 (no fp8 mma.sync) it keeps a vector-width one.
// SCHED: tile_as.mmaf {{.*}} : tensor<32x64xf8E4M3FN, {{.*}}>, tensor<64x16xf8E4M3FN, {{.*}}>, tensor<32x16xf32, #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>
// SM80-NOT: tensor<32x16xf32, #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4]

// tile-llvm (sm_89): A (32 rows of 64 + 16 padding bytes, a 16-byte trash
// slot: 2576 bytes) then B transposed (16 rows of N, each 64 + 16 bytes of K,
// a trash slot: 1296 bytes); A in 16-byte stores, B a byte at a time; per k
// step of 32 one ldmatrix.x4 (A) and one plain ldmatrix.x2 (B, its rows
// columns of N) feed the fp8 mma.sync intrinsic (nvvm.mma.sync rejects e4m3).
// LLVM: llvm.mlir.global internal @__tile_scratch() {{.*}} : !llvm.array<3872 x i8>
// LLVM-LABEL: llvm.func @k
// LLVM: nvvm.barrier0
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<3>
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// LLVM: nvvm.barrier0
// LLVM: llvm.br ^[[LOOP:bb[0-9]+]](
// LLVM: ^[[LOOP]](
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 2 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// LLVM: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// LLVM-NOT: llvm.call_intrinsic "llvm.nvvm.mma
// LLVM: llvm.cond_br %{{.*}}, ^[[LOOP]](
// LLVM-NOT: llvm.intr.fma

// tileiras (PTX, sm_89): the two k steps unrolled, no FMAs, no ldmatrix.trans.
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX-NOT: fma.rn.f32
// PTX-NOT: .trans

// tileiras (PTX, sm_80): FMAs, no mma.sync.
// PTX80-NOT: mma.sync
// PTX80: fma.rn.f32
// PTX80-NOT: mma.sync
