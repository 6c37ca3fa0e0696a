// The wgmma kernel of mmaf_wgmma.mlir storing D as cuTile's batched views
// and FMHA's Out do: the f32 accumulator reshaped to 1 x 64 x 64, then
// converted to f16 (ftof after the reshape), into a 3-D partition view.
// tile-sched's tilepipe-store-tiles-by-tma applies the truncf to the
// accumulator before the reshape and drops the reshape: the f32 tile moves
// nowhere, and store_tma takes the 64 x 64 f16 tile in the wgmma layout,
// which goes to shared memory by stmatrix (lowering.bats).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f16>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f16>>
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
    %c20 = constant <i32: 1> : tile<i32>
    %c21 = constant <i32: 64> : tile<i32>
    %c22 = constant <i32: 64> : tile<i32>
    %c23 = constant <i32: 4096> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21, %c22], strides = [%c23, %c22, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %c24 = constant <i32: 0> : tile<i32>
    %r = reshape %d : tile<64x64xf32> -> tile<1x64x64xf32>
    %h = ftof %r : tile<1x64x64xf32> -> tile<1x64x64xf16>
    %st24 = store_view_tko weak %h, %pv22[%c24, %c24, %c24] token = %tok : tile<1x64x64xf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}

// SCHED: arith.truncf %{{.*}} : tensor<64x64xf32, #[[ACC:tile_as.blocked<sizePerThread = \[1, 2\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]> to tensor<64x64xf16, #[[ACC]]>
// SCHED-NOT: tile_as.reshape
// SCHED: tile_as.store_tma %{{.*}} : tensor<64x64xf16, #[[ACC]]>

// Off sm_90a (lowering.bats): the truncf in the accumulator's layout, the
// reshape to the same layout under a leading unit dimension, the store of it.
// KEEP: arith.truncf %{{.*}} : tensor<64x64xf32, #[[FRAG:tile_as.blocked<sizePerThread = \[[0-9, ]*\], threadsPerWarp = \[[0-9, ]*\], warpsPerCTA = \[[0-9, ]*\], order = \[1, 0\]>]]> to tensor<64x64xf16, #[[FRAG]]>
// KEEP: tile_as.reshape %{{.*}} : tensor<64x64xf16, #[[FRAG]]> -> tensor<1x64x64xf16, #tile_as.blocked<sizePerThread = [1, {{.*}}], threadsPerWarp = [1, {{.*}}], warpsPerCTA = [1, {{.*}}], order = [2, 1, 0]>>
// KEEP: tile_as.store
