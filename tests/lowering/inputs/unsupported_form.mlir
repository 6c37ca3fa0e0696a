// Every cuda_tile op lowers; what tile-lower still rejects are forms with
// no encoding: here a pos_inf padding_value on f8E4M3FN, which has no
// infinity. It must fail cleanly (exit 5, a diagnostic naming why).
cuda_tile.module @kernels {
  entry @pad_f8(%p: tile<ptr<f8E4M3FN>>) {
    %c0 = constant <i32: 0> : tile<i32>
    %tv = make_tensor_view %p, shape = [16], strides = [1] : tensor_view<16xf8E4M3FN, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(32), padding_value = pos_inf, tensor_view<16xf8E4M3FN, strides=[1]>>
    %t, %tok = load_view_tko weak %pv[%c0] : partition_view<tile=(32), padding_value = pos_inf, tensor_view<16xf8E4M3FN, strides=[1]>>, tile<i32> -> tile<32xf8E4M3FN>, token
    return
  }
}
