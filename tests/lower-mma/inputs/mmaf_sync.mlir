// One 32x32 by 32x16 bf16 mmaf into f32 (kernel.py --m 32 --n 16 --k 32 --a bf16 --acc f32): the mma.sync path.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<bf16>>, %b: tile<ptr<bf16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<bf16>>
    %b_p = assume div_by<16>, %b : tile<ptr<bf16>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 32> : tile<i32>
    %c3 = constant <i32: 32> : tile<i32>
    %c4 = constant <i32: 32> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x32), tensor_view<?x?xbf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x32), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<32x32xbf16>, token
    %c8 = constant <i32: 32> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(32x16), tensor_view<?x?xbf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<32x16xbf16>, token
    %c14 = constant <i32: 32> : tile<i32>
    %c15 = constant <i32: 16> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x16xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<32x32xbf16>, tile<32x16xbf16>, tile<32x16xf32>
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

// tile-sched: the accumulator shape takes the m16n8 fragment layout (2x2
// warps: 32 rows are one 16-row fragment per warp row, 16 columns two 8-column
// blocks), other shapes keep the vector-width layout. A's load (16-byte
// runs) and B's (of the accumulator's shape, so in its layout: runs of 2
// elements) fuse into a tile_as.mmaf_global.
// SCHED: tile_as.mmaf_global {{.*}} : tensor<32x32x!tile_as.ptr<bf16, 1>, {{.*}}> mask tensor<32x32xi1, {{.*}}>, tensor<32x16x!tile_as.ptr<bf16, 1>, {{.*}}> mask tensor<32x16xi1, {{.*}}>, tensor<32x16xf32, #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>
// NOFRAG-NOT: sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2]

// tile-llvm: A (32 rows of 32 + 8 padding bf16, a 16-byte trash slot: 2576
// bytes) then B (32 rows of 16 + 8, a trash slot: 1552 bytes), A copied
// with 16-byte cp.async.cg, B with 4-byte cp.async.ca (its runs); per k
// step of 16 one ldmatrix.x4 (A) and one
// ldmatrix.x2.trans (B) feed one mma.sync, in a loop.
// LLVM: llvm.mlir.global internal @__tile_scratch() {{.*}} : !llvm.array<4128 x i8>
// LLVM-LABEL: llvm.func @k
// LLVM: nvvm.barrier0
// LLVM: nvvm.cp.async.shared.global %{{[0-9]+}}, %{{[0-9]+}}, 16, cache = cg
// LLVM: nvvm.cp.async.shared.global %{{[0-9]+}}, %{{[0-9]+}}, 4, cache = ca
// LLVM-NOT: llvm.store {{.*}}!llvm.ptr<3>
// LLVM: nvvm.cp.async.commit.group
// LLVM-NEXT: nvvm.cp.async.wait.group 0
// LLVM-NEXT: nvvm.barrier0
// LLVM: llvm.br ^[[LOOP:bb[0-9]+]](
// LLVM: ^[[LOOP]](
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, {{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// LLVM: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// LLVM-NOT: nvvm.mma.sync
// LLVM: llvm.cond_br %{{.*}}, ^[[LOOP]](
// LLVM-NOT: llvm.intr.fma

// tileiras (PTX): LLVM unrolls the two k steps; no FMAs.
// PTX: bar.sync 0;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: fma.rn.f32
