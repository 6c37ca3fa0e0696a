// One 32x64 u8 by 64x16 s8 mmai into i32 (kernel.py --m 32 --n 16 --k 64 --a i8 --acc i32 --unsigned-lhs): the mma.sync path (m16n8k32, sm_80 on).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<i8>>, %b: tile<ptr<i8>>, %c: tile<ptr<i32>>, %d_out: tile<ptr<i32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<i8>>
    %b_p = assume div_by<16>, %b : tile<ptr<i8>>
    %c_p = assume div_by<16>, %c : tile<ptr<i32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<i32>>
    %c2 = constant <i32: 32> : tile<i32>
    %c3 = constant <i32: 64> : tile<i32>
    %c4 = constant <i32: 64> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x64), tensor_view<?x?xi8, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<32x64xi8>, token
    %c8 = constant <i32: 64> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(64x16), tensor_view<?x?xi8, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(64x16), tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<64x16xi8>, token
    %c14 = constant <i32: 32> : tile<i32>
    %c15 = constant <i32: 16> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<32x16xi32>, token
    %d = mmai %x6, %x12, %x18 unsigned signed : tile<32x64xi8>, tile<64x16xi8>, tile<32x16xi32>
    %c20 = constant <i32: 32> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(32x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<32x16xi32>, partition_view<tile=(32x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched: the accumulator takes the m16n8 fragment layout.
// SCHED: tile_as.mmai {{.*}} : tensor<32x64xi8, {{.*}}>, tensor<64x16xi8, {{.*}}>, tensor<32x16xi32, #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>

// tile-llvm: A in 16-byte stores, B transposed a byte at a time; per k step
// of 32 one ldmatrix.x4 (A) and one plain ldmatrix.x2 (B) feed one u8 x s8
// mma.sync that wraps (mmai's adds wrap; nvvm.mma.sync's default is
// satfinite), in a loop; no multiplies of elements.
// LLVM-LABEL: llvm.func @k
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<3>
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// LLVM: nvvm.barrier0
// LLVM: llvm.br ^[[LOOP:bb[0-9]+]](
// LLVM: ^[[LOOP]](
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, {{.*}}}
// LLVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 2 : i32, {{.*}}}
// LLVM: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, {{.*}}multiplicandAPtxType = #nvvm.mma_type<u8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// LLVM: llvm.cond_br %{{.*}}, ^[[LOOP]](

// PTX: mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32
// PTX-NOT: satfinite
