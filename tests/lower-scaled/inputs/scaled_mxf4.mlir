// One 32x16x128 mmaf_scaled of packed e2m1 A and B (loaded from memory two
// to a byte) with f8E8M0FNU scales per 32 k (MX-FP4), written by
// ../kernel.py --m 32 --n 16 --k 128 --ks 4 --a f4E2M1FN --scale f8E8M0FNU.
//
// On sm_120/121 the multiply keeps operands and scales in their formats.
// KEEP-LABEL: func.func @k
// KEEP-NOT: arith.mulf
// KEEP: tile_aa.mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) : tensor<32x128xf4E2M1FN>, tensor<128x16xf4E2M1FN>, tensor<32x16xf32>, tensor<32x4xf8E8M0FNU>, tensor<4x16xf8E8M0FNU>
//
// Elsewhere the decomposition into scaled f32 operands and an f32 mmaf.
// SPLIT-LABEL: func.func @k
// SPLIT: arith.mulf %{{.*}} : tensor<32x128xf32>
// SPLIT: tile_aa.mmaf %{{.*}} : tensor<32x128xf32>, tensor<128x16xf32>, tensor<32x16xf32>
// SPLIT-NOT: mmaf_scaled
//
// PTX on sm_120 (promoted to sm_120a): the e2m1 bytes staged a byte per
// element, read by ldmatrix and packed eight to a register by prmt, and one
// m16n8k64 kind::mxf4 mma.sync with two ue8m0 scales per step.
// PTX: .target sm_120a
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX: prmt.b32
// PTX: mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0
// PTX-NOT: mul.f32
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f4E2M1FN>>, %b: tile<ptr<f4E2M1FN>>, %sa: tile<ptr<i32>>, %sb: tile<ptr<i32>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f4E2M1FN>>
    %b_p = assume div_by<16>, %b : tile<ptr<f4E2M1FN>>
    %sa_p = assume div_by<16>, %sa : tile<ptr<i32>>
    %sb_p = assume div_by<16>, %sb : tile<ptr<i32>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 32> : tile<i32>
    %c3 = constant <i32: 128> : tile<i32>
    %c4 = constant <i32: 128> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf4E2M1FN, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x128), tensor_view<?x?xf4E2M1FN, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x128), tensor_view<?x?xf4E2M1FN, strides=[?,1]>>, tile<i32> -> tile<32x128xf4E2M1FN>, token
    %c8 = constant <i32: 128> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf4E2M1FN, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(128x16), tensor_view<?x?xf4E2M1FN, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(128x16), tensor_view<?x?xf4E2M1FN, strides=[?,1]>>, tile<i32> -> tile<128x16xf4E2M1FN>, token
    %c14 = constant <i32: 32> : tile<i32>
    %c15 = constant <i32: 4> : tile<i32>
    %c16 = constant <i32: 4> : tile<i32>
    %tv16 = make_tensor_view %sa_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x4), tensor_view<?x?xi32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x4), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<32x4xi32>, token
    %x18_b = trunci %x18 : tile<32x4xi32> -> tile<32x4xi8>
    %x18_f = bitcast %x18_b : tile<32x4xi8> -> tile<32x4xf8E8M0FNU>
    %c20 = constant <i32: 4> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %sb_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(4x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %x24, %lt24 = load_view_tko weak %pv22[%c23, %c23] token = %tok : partition_view<tile=(4x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<4x16xi32>, token
    %x24_b = trunci %x24 : tile<4x16xi32> -> tile<4x16xi8>
    %x24_f = bitcast %x24_b : tile<4x16xi8> -> tile<4x16xf8E8M0FNU>
    %c26 = constant <i32: 32> : tile<i32>
    %c27 = constant <i32: 16> : tile<i32>
    %c28 = constant <i32: 16> : tile<i32>
    %tv28 = make_tensor_view %c_p, shape = [%c26, %c27], strides = [%c28, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv28 = make_partition_view %tv28 : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c29 = constant <i32: 0> : tile<i32>
    %x30, %lt30 = load_view_tko weak %pv28[%c29, %c29] token = %tok : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x16xf32>, token
    %d = mmaf_scaled %x6, %x12, %x30, %x18_f, %x24_f : tile<32x128xf4E2M1FN>, tile<128x16xf4E2M1FN>, tile<32x16xf32>, tile<32x4xf8E8M0FNU>, tile<4x16xf8E8M0FNU>
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
