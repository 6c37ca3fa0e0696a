// Rank-0 views: a tensor_view with no dimensions is the one element at its
// base. out = x * 3 + k (f32 x, i32 k, each read through a rank-0
// partition_view), stored through a rank-0 view; total += x by an atomic add
// through a rank-0 view.
cuda_tile.module @kernels {
  entry @rank0(%a: tile<ptr<f32>>, %k: tile<ptr<i32>>, %out: tile<ptr<f32>>, %total: tile<ptr<f32>>) {
    %tok = make_token : token
    %av = make_tensor_view %a, shape = [], strides = [] : tensor_view<f32>
    %ap = make_partition_view %av : partition_view<tile=(), tensor_view<f32>>
    %x, %t0 = load_view_tko weak %ap[] token = %tok : partition_view<tile=(), tensor_view<f32>> -> tile<f32>, token
    %kv = make_tensor_view %k, shape = [], strides = [] : tensor_view<i32>
    %kp = make_partition_view %kv : partition_view<tile=(), tensor_view<i32>>
    %ki, %t1 = load_view_tko weak %kp[] token = %tok : partition_view<tile=(), tensor_view<i32>> -> tile<i32>, token
    %kf = itof %ki signed : tile<i32> -> tile<f32>
    %three = constant <f32: 3.0> : tile<f32>
    %x3 = mulf %x, %three rounding<nearest_even> : tile<f32>
    %y = addf %x3, %kf rounding<nearest_even> : tile<f32>
    %ov = make_tensor_view %out, shape = [], strides = [] : tensor_view<f32>
    %op = make_partition_view %ov : partition_view<tile=(), tensor_view<f32>>
    %t2 = store_view_tko weak %y, %op[] token = %tok : tile<f32>, partition_view<tile=(), tensor_view<f32>> -> token
    %tv = make_tensor_view %total, shape = [], strides = [] : tensor_view<f32>
    %tp = make_partition_view %tv : partition_view<tile=(), tensor_view<f32>>
    %t3 = atomic_red_view_tko relaxed device %tp[], addf, %x : tile<f32>, partition_view<tile=(), tensor_view<f32>> -> token
    return
  }
}

// LOWER-LABEL: func.func @rank0
// LOWER: %[[P:.*]] = tile_as.splat %arg0 : tensor<1x!tile_as.ptr<f32, 1>>
// LOWER-NEXT: tile_as.load %[[P]] : tensor<1x!tile_as.ptr<f32, 1>> -> tensor<1xf32>
