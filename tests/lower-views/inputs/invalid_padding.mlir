// f8E4M3FN has no infinity: a pos_inf padding_value cannot be lowered and
// must fail with a diagnostic at the load, not crash.
cuda_tile.module @kernels {
  entry @f8pad(%a: tile<ptr<f8E4M3FN>>, %n: tile<i32>, %out: tile<ptr<f8E4M3FN>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %v = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf8E4M3FN, strides=[1]>
    %p = make_partition_view %v : partition_view<tile=(64), padding_value = pos_inf, tensor_view<?xf8E4M3FN, strides=[1]>>
    // error: padding_value pos_inf has no 'f8E4M3FN' encoding
    %t, %t1 = load_view_tko weak %p[%c0] token = %tok : partition_view<tile=(64), padding_value = pos_inf, tensor_view<?xf8E4M3FN, strides=[1]>>, tile<i32> -> tile<64xf8E4M3FN>, token
    %o = make_tensor_view %out, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf8E4M3FN, strides=[1]>
    %po = make_partition_view %o : partition_view<tile=(64), tensor_view<?xf8E4M3FN, strides=[1]>>
    %t2 = store_view_tko weak %t, %po[%c0] token = %t1 : tile<64xf8E4M3FN>, partition_view<tile=(64), tensor_view<?xf8E4M3FN, strides=[1]>>, tile<i32> -> token
    return
  }
}
