// One 32x16x64 mmaf_scaled of e4m3 A and e5m2 B with f8E8M0FNU scales in
// blocks of 32 k, written by ../kernel.py --m 32 --n 16 --k 64 --ks 2
// --a f8E4M3FN --b f8E5M2 --scale f8E8M0FNU.
//
// On a target with block-scaled mma.sync (sm_120/121, plain or a) the
// multiply keeps operands and scales in their formats.
// KEEP-LABEL: func.func @k
// KEEP-NOT: arith.mulf
// KEEP: %{{.*}} = tile_aa.mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) : tensor<32x64xf8E4M3FN>, tensor<64x16xf8E5M2>, tensor<32x16xf32>, tensor<32x2xf8E8M0FNU>, tensor<2x16xf8E8M0FNU>
// KEEP-NOT: tile_aa.mmaf %
//
// Elsewhere the decomposition: scaled f32 operands and an f32 mmaf.
// SPLIT-LABEL: func.func @k
// SPLIT: arith.mulf %{{.*}} : tensor<32x64xf32>
// SPLIT: arith.mulf %{{.*}} : tensor<64x16xf32>
// SPLIT: tile_aa.mmaf %{{.*}} : tensor<32x64xf32>, tensor<64x16xf32>, tensor<32x16xf32>
// SPLIT-NOT: mmaf_scaled
//
// tile_aa -> tile_as carries the op over unchanged.
// AS: tile_as.mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) : tensor<32x64xf8E4M3FN>, tensor<64x16xf8E5M2>, tensor<32x16xf32>, tensor<32x2xf8E8M0FNU>, tensor<2x16xf8E8M0FNU>
//
// PTX on sm_120 (promoted to sm_120a): A through ldmatrix.x4, B staged as
// [n][k] rows read with plain ldmatrix.x2, one block-scaled mma.sync per
// 16x8 block and k step of 32, and no f32 scaling of the operands.
// PTX: .target sm_120a
// PTX: .entry k(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e5m2.f32.ue8m0
// PTX-NOT: mul.f32
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<i32>>, %b: tile<ptr<i32>>, %sa: tile<ptr<i32>>, %sb: tile<ptr<i32>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<i32>>
    %b_p = assume div_by<16>, %b : tile<ptr<i32>>
    %sa_p = assume div_by<16>, %sa : tile<ptr<i32>>
    %sb_p = assume div_by<16>, %sb : tile<ptr<i32>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 32> : tile<i32>
    %c3 = constant <i32: 64> : tile<i32>
    %c4 = constant <i32: 64> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x64), tensor_view<?x?xi32, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<32x64xi32>, token
    %x6_b = trunci %x6 : tile<32x64xi32> -> tile<32x64xi8>
    %x6_f = bitcast %x6_b : tile<32x64xi8> -> tile<32x64xf8E4M3FN>
    %c8 = constant <i32: 64> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(64x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(64x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<64x16xi32>, token
    %x12_b = trunci %x12 : tile<64x16xi32> -> tile<64x16xi8>
    %x12_f = bitcast %x12_b : tile<64x16xi8> -> tile<64x16xf8E5M2>
    %c14 = constant <i32: 32> : tile<i32>
    %c15 = constant <i32: 2> : tile<i32>
    %c16 = constant <i32: 2> : tile<i32>
    %tv16 = make_tensor_view %sa_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x2), tensor_view<?x?xi32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x2), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<32x2xi32>, token
    %x18_b = trunci %x18 : tile<32x2xi32> -> tile<32x2xi8>
    %x18_f = bitcast %x18_b : tile<32x2xi8> -> tile<32x2xf8E8M0FNU>
    %c20 = constant <i32: 2> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %sb_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(2x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %x24, %lt24 = load_view_tko weak %pv22[%c23, %c23] token = %tok : partition_view<tile=(2x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<2x16xi32>, token
    %x24_b = trunci %x24 : tile<2x16xi32> -> tile<2x16xi8>
    %x24_f = bitcast %x24_b : tile<2x16xi8> -> tile<2x16xf8E8M0FNU>
    %c26 = constant <i32: 32> : tile<i32>
    %c27 = constant <i32: 16> : tile<i32>
    %c28 = constant <i32: 16> : tile<i32>
    %tv28 = make_tensor_view %c_p, shape = [%c26, %c27], strides = [%c28, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv28 = make_partition_view %tv28 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c29 = constant <i32: 0> : tile<i32>
    %x30, %lt30 = load_view_tko weak %pv28[%c29, %c29] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x16xf32>, token
    %d = mmaf_scaled %x6_f, %x12_f, %x30, %x18_f, %x24_f : tile<32x64xf8E4M3FN>, tile<64x16xf8E5M2>, tile<32x16xf32>, tile<32x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %c32 = constant <i32: 32> : tile<i32>
    %c33 = constant <i32: 16> : tile<i32>
    %c34 = constant <i32: 16> : tile<i32>
    %tv34 = make_tensor_view %d_out_p, shape = [%c32, %c33], strides = [%c34, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv34 = make_partition_view %tv34 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c35 = constant <i32: 0> : tile<i32>
    %st36 = store_view_tko weak %d, %pv34[%c35, %c35] token = %tok : tile<32x16xf32>, partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
