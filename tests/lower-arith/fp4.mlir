// ftof f32 -> f4E2M1FN -> f32, the e2m1 tile kept in registers. fp8.bats
// checks it against mx_reference.py: every code, every tie, saturation, NaN.
cuda_tile.module @kernels {
  entry @fp4(%x: tile<ptr<f32>>, %back: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %xt, %t0 = load_view_tko weak %xp[%c0] token = %tok : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %f = ftof %xt : tile<256xf32> -> tile<256xf4E2M1FN>
    %b = ftof %f : tile<256xf4E2M1FN> -> tile<256xf32>
    %bv = make_tensor_view %back, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %t1 = store_view_tko weak %b, %bp[%c0] token = %tok : tile<256xf32>, partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
