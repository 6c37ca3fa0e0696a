// ftof to and from the 8-bit floats: f32 -> f8E4M3FN -> f32 and
// f32 -> f8E5M2 -> f16, the fp8 bytes stored as they are (1-byte stores).
// fp8.bats checks every code, every tie and the specials against
// fp8_reference.py.
cuda_tile.module @kernels {
  entry @fp8(%x: tile<ptr<f32>>, %e4: tile<ptr<f8E4M3FN>>, %e4back: tile<ptr<f32>>, %e5: tile<ptr<f8E5M2>>, %e5back: tile<ptr<f16>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(2048), tensor_view<2048xf32, strides=[1]>>
    %e4v = make_tensor_view %e4, shape = [2048], strides = [1] : tensor_view<2048xf8E4M3FN, strides=[1]>
    %e4p = make_partition_view %e4v : partition_view<tile=(2048), tensor_view<2048xf8E4M3FN, strides=[1]>>
    %e4backv = make_tensor_view %e4back, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
    %e4backp = make_partition_view %e4backv : partition_view<tile=(2048), tensor_view<2048xf32, strides=[1]>>
    %e5v = make_tensor_view %e5, shape = [2048], strides = [1] : tensor_view<2048xf8E5M2, strides=[1]>
    %e5p = make_partition_view %e5v : partition_view<tile=(2048), tensor_view<2048xf8E5M2, strides=[1]>>
    %e5backv = make_tensor_view %e5back, shape = [2048], strides = [1] : tensor_view<2048xf16, strides=[1]>
    %e5backp = make_partition_view %e5backv : partition_view<tile=(2048), tensor_view<2048xf16, strides=[1]>>
    %in, %t0 = load_view_tko weak %xp[%c0] token = %tok : partition_view<tile=(2048), tensor_view<2048xf32, strides=[1]>>, tile<i32> -> tile<2048xf32>, token
    %a = ftof %in : tile<2048xf32> -> tile<2048xf8E4M3FN>
    %ab = ftof %a : tile<2048xf8E4M3FN> -> tile<2048xf32>
    %b = ftof %in : tile<2048xf32> -> tile<2048xf8E5M2>
    %bb = ftof %b : tile<2048xf8E5M2> -> tile<2048xf16>
    %t1 = store_view_tko weak %a, %e4p[%c0] token = %tok : tile<2048xf8E4M3FN>, partition_view<tile=(2048), tensor_view<2048xf8E4M3FN, strides=[1]>>, tile<i32> -> token
    %t2 = store_view_tko weak %ab, %e4backp[%c0] token = %tok : tile<2048xf32>, partition_view<tile=(2048), tensor_view<2048xf32, strides=[1]>>, tile<i32> -> token
    %t3 = store_view_tko weak %b, %e5p[%c0] token = %tok : tile<2048xf8E5M2>, partition_view<tile=(2048), tensor_view<2048xf8E5M2, strides=[1]>>, tile<i32> -> token
    %t4 = store_view_tko weak %bb, %e5backp[%c0] token = %tok : tile<2048xf16>, partition_view<tile=(2048), tensor_view<2048xf16, strides=[1]>>, tile<i32> -> token
    return
  }
}
