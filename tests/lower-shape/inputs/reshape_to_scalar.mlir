// A single-element tile reshaped to a 0-d tile (a scalar in tile_aa) reaches
// every thread: a float from a 1x1 tile scales an 8-wide tile, an integer from
// a 1-element tile offsets another (MoE's and AllGatherMatmul's pattern).
cuda_tile.module @kernels {
  entry @to_scalar(%a: tile<ptr<f32>>, %k: tile<ptr<i32>>, %out: tile<ptr<f32>>, %iout: tile<ptr<i32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %a, shape = [1, 1], strides = [1, 1] : tensor_view<1x1xf32, strides=[1,1]>
    %ap = make_partition_view %av : partition_view<tile=(1x1), tensor_view<1x1xf32, strides=[1,1]>>
    %x, %t0 = load_view_tko weak %ap[%c0, %c0] token = %tok : partition_view<tile=(1x1), tensor_view<1x1xf32, strides=[1,1]>>, tile<i32> -> tile<1x1xf32>, token
    %s = reshape %x : tile<1x1xf32> -> tile<f32>
    %s1 = reshape %s : tile<f32> -> tile<1xf32>
    %sb = broadcast %s1 : tile<1xf32> -> tile<8xf32>
    %i = iota : tile<8xi32>
    %f = itof %i signed : tile<8xi32> -> tile<8xf32>
    %y = mulf %f, %sb rounding<nearest_even> : tile<8xf32>
    %ov = make_tensor_view %out, shape = [8], strides = [1] : tensor_view<8xf32, strides=[1]>
    %op = make_partition_view %ov : partition_view<tile=(8), tensor_view<8xf32, strides=[1]>>
    %t1 = store_view_tko weak %y, %op[%c0] token = %tok : tile<8xf32>, partition_view<tile=(8), tensor_view<8xf32, strides=[1]>>, tile<i32> -> token
    %kv = make_tensor_view %k, shape = [1], strides = [1] : tensor_view<1xi32, strides=[1]>
    %kp = make_partition_view %kv : partition_view<tile=(1), tensor_view<1xi32, strides=[1]>>
    %kt, %t2 = load_view_tko weak %kp[%c0] token = %tok : partition_view<tile=(1), tensor_view<1xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
    %ks = reshape %kt : tile<1xi32> -> tile<i32>
    %ks1 = reshape %ks : tile<i32> -> tile<1xi32>
    %kb = broadcast %ks1 : tile<1xi32> -> tile<8xi32>
    %z = addi %i, %kb : tile<8xi32>
    %iv = make_tensor_view %iout, shape = [8], strides = [1] : tensor_view<8xi32, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(8), tensor_view<8xi32, strides=[1]>>
    %t3 = store_view_tko weak %z, %ip[%c0] token = %tok : tile<8xi32>, partition_view<tile=(8), tensor_view<8xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// LOWER-LABEL: func.func @to_scalar
// LOWER: %[[F:.*]] = tile_as.reduce %{{.*}} axis = 0 identities = [-0.000000e+00 : f32]
// LOWER: tile_as.splat %[[F]]
// LOWER: tile_as.reduce %{{.*}} axis = 0 identities = [0 : i32]
