// One 16x16x64 mmaf_scaled: f16 operands, f8E8M0FNU scales (2 per row of A,
// 2 per column of B, so blocks of 32 k), written by
// ../kernel.py --m 16 --n 16 --k 64 --ks 2 --a f16 --scale f8E8M0FNU.
//
// tile-lower: the scales' exponent bits move into f32's exponent field, each scale
// is repeated over its block of k, the widened operands are multiplied by
// them and an f32 tile_as.mmaf does the rest.
// LOWER-LABEL: func.func @k
// LOWER-DAG: arith.extf %{{.*}} : tensor<16x64xf16> to tensor<16x64xf32>
// LOWER-DAG: arith.extf %{{.*}} : tensor<64x16xf16> to tensor<64x16xf32>
// LOWER: arith.shli %{{.*}} : tensor<16x2xi32>
// LOWER: arith.bitcast %{{.*}} : tensor<16x2xi32> to tensor<16x2xf32>
// LOWER: tile_as.reshape %{{.*}} : tensor<16x2xf32> -> tensor<16x2x1xf32>
// LOWER: tile_as.broadcast %{{.*}} : tensor<16x2x1xf32> -> tensor<16x2x32xf32>
// LOWER: tile_as.reshape %{{.*}} : tensor<16x2x32xf32> -> tensor<16x64xf32>
// LOWER: tile_as.reshape %{{.*}} : tensor<2x16xf32> -> tensor<2x1x16xf32>
// LOWER: tile_as.broadcast %{{.*}} : tensor<2x1x16xf32> -> tensor<2x32x16xf32>
// LOWER: tile_as.reshape %{{.*}} : tensor<2x32x16xf32> -> tensor<64x16xf32>
// LOWER: %[[A:.*]] = arith.mulf %{{.*}} : tensor<16x64xf32>
// LOWER: %[[B:.*]] = arith.mulf %{{.*}} : tensor<64x16xf32>
// LOWER: tile_as.mmaf %[[A]], %[[B]], %{{.*}} : tensor<16x64xf32>, tensor<64x16xf32>, tensor<16x16xf32>
// LOWER-NOT: mmaf_scaled
//
// PTX of the kernel: the FMA path of mmaf runs on the scaled f32 operands.
// PTX: .entry k(
// PTX: shl.b32
// PTX: mul.f32
// PTX: fma.rn.f32
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %sa: tile<ptr<i32>>, %sb: tile<ptr<i32>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %sa_p = assume div_by<16>, %sa : tile<ptr<i32>>
    %sb_p = assume div_by<16>, %sb : tile<ptr<i32>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 16> : tile<i32>
    %c3 = constant <i32: 64> : tile<i32>
    %c4 = constant <i32: 64> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(16x64), tensor_view<?x?xf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(16x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<16x64xf16>, token
    %c8 = constant <i32: 64> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(64x16), tensor_view<?x?xf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(64x16), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x16xf16>, token
    %c14 = constant <i32: 16> : tile<i32>
    %c15 = constant <i32: 2> : tile<i32>
    %c16 = constant <i32: 2> : tile<i32>
    %tv16 = make_tensor_view %sa_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(16x2), tensor_view<?x?xi32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(16x2), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<16x2xi32>, token
    %x18_b = trunci %x18 : tile<16x2xi32> -> tile<16x2xi8>
    %x18_f = bitcast %x18_b : tile<16x2xi8> -> tile<16x2xf8E8M0FNU>
    %c20 = constant <i32: 2> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %sb_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(2x16), tensor_view<?x?xi32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %x24, %lt24 = load_view_tko weak %pv22[%c23, %c23] token = %tok : partition_view<tile=(2x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<2x16xi32>, token
    %x24_b = trunci %x24 : tile<2x16xi32> -> tile<2x16xi8>
    %x24_f = bitcast %x24_b : tile<2x16xi8> -> tile<2x16xf8E8M0FNU>
    %c26 = constant <i32: 16> : tile<i32>
    %c27 = constant <i32: 16> : tile<i32>
    %c28 = constant <i32: 16> : tile<i32>
    %tv28 = make_tensor_view %c_p, shape = [%c26, %c27], strides = [%c28, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv28 = make_partition_view %tv28 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c29 = constant <i32: 0> : tile<i32>
    %x30, %lt30 = load_view_tko weak %pv28[%c29, %c29] token = %tok : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token
    %d = mmaf_scaled %x6, %x12, %x30, %x18_f, %x24_f : tile<16x64xf16>, tile<64x16xf16>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %c32 = constant <i32: 16> : tile<i32>
    %c33 = constant <i32: 16> : tile<i32>
    %c34 = constant <i32: 16> : tile<i32>
    %tv34 = make_tensor_view %d_out_p, shape = [%c32, %c33], strides = [%c34, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv34 = make_partition_view %tv34 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c35 = constant <i32: 0> : tile<i32>
    %st36 = store_view_tko weak %d, %pv34[%c35, %c35] token = %tok : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
