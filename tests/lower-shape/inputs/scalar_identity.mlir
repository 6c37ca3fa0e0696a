// extract of a 0-d tile is the tile itself: it has no indices, the single
// block is the whole tile. out = [x + 1, x * 2] from the extracted scalar.
cuda_tile.module @kernels {
  entry @scalar_identity(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %a, shape = [1], strides = [1] : tensor_view<1xf32, strides=[1]>
    %ap = make_partition_view %av : partition_view<tile=(1), tensor_view<1xf32, strides=[1]>>
    %x1, %t0 = load_view_tko weak %ap[%c0] token = %tok : partition_view<tile=(1), tensor_view<1xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
    %x = reshape %x1 : tile<1xf32> -> tile<f32>
    %e = extract %x[] : tile<f32> -> tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %y = addf %e, %one rounding<nearest_even> : tile<f32>
    %two = constant <f32: 2.0> : tile<f32>
    %z = mulf %e, %two rounding<nearest_even> : tile<f32>
    %y1 = reshape %y : tile<f32> -> tile<1xf32>
    %z1 = reshape %z : tile<f32> -> tile<1xf32>
    %w = cat %y1, %z1 dim = 0 : tile<1xf32>, tile<1xf32> -> tile<2xf32>
    %ov = make_tensor_view %out, shape = [2], strides = [1] : tensor_view<2xf32, strides=[1]>
    %op = make_partition_view %ov : partition_view<tile=(2), tensor_view<2xf32, strides=[1]>>
    %t1 = store_view_tko weak %w, %op[%c0] token = %tok : tile<2xf32>, partition_view<tile=(2), tensor_view<2xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
