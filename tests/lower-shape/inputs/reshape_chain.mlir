// Chains of reshapes fold while lowering: 16x32 -> 4x4x32 -> 512 -> 16x32
// returns to its start (no reshape at all), 16x32 -> 2x8x32 -> 8x64 is one
// reshape (one trip through shared memory instead of two). Both results are
// stored row-major, so each output is a copy of the input.
cuda_tile.module @kernels {
  entry @chain(%a: tile<ptr<f32>>, %same: tile<ptr<f32>>, %flat: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %a, shape = [16, 32], strides = [32, 1] : tensor_view<16x32xf32, strides=[32,1]>
    %ap = make_partition_view %av : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>
    %x, %t0 = load_view_tko weak %ap[%c0, %c0] token = %tok : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> tile<16x32xf32>, token
    %r1 = reshape %x : tile<16x32xf32> -> tile<4x4x32xf32>
    %r2 = reshape %r1 : tile<4x4x32xf32> -> tile<512xf32>
    %r3 = reshape %r2 : tile<512xf32> -> tile<16x32xf32>
    %s1 = reshape %x : tile<16x32xf32> -> tile<2x8x32xf32>
    %s2 = reshape %s1 : tile<2x8x32xf32> -> tile<8x64xf32>
    %sv = make_tensor_view %same, shape = [16, 32], strides = [32, 1] : tensor_view<16x32xf32, strides=[32,1]>
    %sp = make_partition_view %sv : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>
    %t1 = store_view_tko weak %r3, %sp[%c0, %c0] token = %tok : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> token
    %fv = make_tensor_view %flat, shape = [8, 64], strides = [64, 1] : tensor_view<8x64xf32, strides=[64,1]>
    %fp = make_partition_view %fv : partition_view<tile=(8x64), tensor_view<8x64xf32, strides=[64,1]>>
    %t2 = store_view_tko weak %s2, %fp[%c0, %c0] token = %tok : tile<8x64xf32>, partition_view<tile=(8x64), tensor_view<8x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}

// LOWER-LABEL: func.func @chain
// LOWER-NOT: tile_as.reshape
// LOWER: tile_as.reshape %{{.*}} : tensor<16x32xf32> -> tensor<8x64xf32>
// LOWER-NOT: tile_as.reshape
// LOWER: return
