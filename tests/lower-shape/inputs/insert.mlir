// insert writes a 4x16 source over one block of a 16x64 destination (a 4x4
// grid of blocks): block (%i, %j) from kernel arguments, and block (3, 0)
// into a 3-D 2x8x16 destination along its last two dimensions.
cuda_tile.module @kernels {
  entry @insert(%s: tile<ptr<f32>>, %d: tile<ptr<f32>>, %out: tile<ptr<f32>>, %i: tile<i32>, %j: tile<i32>, %d3: tile<ptr<i32>>, %out3: tile<ptr<i32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %sv = make_tensor_view %s, shape = [4, 16], strides = [16, 1] : tensor_view<4x16xf32, strides=[16,1]>
    %sp = make_partition_view %sv : partition_view<tile=(4x16), tensor_view<4x16xf32, strides=[16,1]>>
    %src, %t0 = load_view_tko weak %sp[%c0, %c0] token = %tok : partition_view<tile=(4x16), tensor_view<4x16xf32, strides=[16,1]>>, tile<i32> -> tile<4x16xf32>, token
    %dv = make_tensor_view %d, shape = [16, 64], strides = [64, 1] : tensor_view<16x64xf32, strides=[64,1]>
    %dp = make_partition_view %dv : partition_view<tile=(16x64), tensor_view<16x64xf32, strides=[64,1]>>
    %dst, %t1 = load_view_tko weak %dp[%c0, %c0] token = %tok : partition_view<tile=(16x64), tensor_view<16x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
    %r = insert %src into %dst[%i, %j] : tile<4x16xf32> -> tile<16x64xf32>
    %ov = make_tensor_view %out, shape = [16, 64], strides = [64, 1] : tensor_view<16x64xf32, strides=[64,1]>
    %op = make_partition_view %ov : partition_view<tile=(16x64), tensor_view<16x64xf32, strides=[64,1]>>
    %t2 = store_view_tko weak %r, %op[%c0, %c0] token = %tok : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<16x64xf32, strides=[64,1]>>, tile<i32> -> token
    %iota = iota : tile<16xi32>
    %small = reshape %iota : tile<16xi32> -> tile<1x2x8xi32>
    %d3v = make_tensor_view %d3, shape = [2, 8, 16], strides = [128, 16, 1] : tensor_view<2x8x16xi32, strides=[128,16,1]>
    %d3p = make_partition_view %d3v : partition_view<tile=(2x8x16), tensor_view<2x8x16xi32, strides=[128,16,1]>>
    %big, %t3 = load_view_tko weak %d3p[%c0, %c0, %c0] token = %tok : partition_view<tile=(2x8x16), tensor_view<2x8x16xi32, strides=[128,16,1]>>, tile<i32> -> tile<2x8x16xi32>, token
    %r3 = insert %small into %big[%c0, %c3, %c0] : tile<1x2x8xi32> -> tile<2x8x16xi32>
    %o3v = make_tensor_view %out3, shape = [2, 8, 16], strides = [128, 16, 1] : tensor_view<2x8x16xi32, strides=[128,16,1]>
    %o3p = make_partition_view %o3v : partition_view<tile=(2x8x16), tensor_view<2x8x16xi32, strides=[128,16,1]>>
    %t4 = store_view_tko weak %r3, %o3p[%c0, %c0, %c0] token = %tok : tile<2x8x16xi32>, partition_view<tile=(2x8x16), tensor_view<2x8x16xi32, strides=[128,16,1]>>, tile<i32> -> token
    return
  }
}

// The source repeated over the grid, selected where the element's block
// (coordinate / source extent, per dimension) is the index.
// LOWER-LABEL: func.func @insert
// LOWER: tile_as.reshape %{{.*}} : tensor<4x16xf32> -> tensor<1x4x1x16xf32>
// LOWER: tile_as.broadcast %{{.*}} : tensor<1x4x1x16xf32> -> tensor<4x4x4x16xf32>
// LOWER: tile_as.reshape %{{.*}} : tensor<4x4x4x16xf32> -> tensor<16x64xf32>
// LOWER: arith.divui %{{.*}} : tensor<16x64xi32>
// LOWER: arith.cmpi eq, %{{.*}} : tensor<16x64xi32>
// LOWER: arith.divui %{{.*}} : tensor<16x64xi32>
// LOWER: arith.cmpi eq, %{{.*}} : tensor<16x64xi32>
// LOWER: arith.andi %{{.*}} : tensor<16x64xi1>
// LOWER: arith.select %{{.*}} : tensor<16x64xi1>, tensor<16x64xf32>
// LOWER-NOT: insert
