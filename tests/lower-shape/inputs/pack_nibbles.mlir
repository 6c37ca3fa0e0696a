// pack/unpack of 4-bit elements, two to a byte, the first in the low nibble:
// 64 bytes (given as i32 words 0..255) unpack to 128 i4 (stored
// sign-extended as i32) and to 128 f4E2M1FN (stored as f32); the i4 tile
// packs back to the bytes (stored sign-extended as i32).
cuda_tile.module @kernels {
  entry @nibbles(%raw: tile<ptr<i32>>, %ints: tile<ptr<i32>>, %floats: tile<ptr<f32>>, %back: tile<ptr<i32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %rv = make_tensor_view %raw, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %rp = make_partition_view %rv : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
    %rt, %t0 = load_view_tko weak %rp[%c0] token = %tok : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> tile<64xi32>, token
    %r8 = trunci %rt : tile<64xi32> -> tile<64xi8>
    %i4 = unpack %r8 : tile<64xi8> -> tile<128xi4>
    %iw = exti %i4 signed : tile<128xi4> -> tile<128xi32>
    %iv = make_tensor_view %ints, shape = [128], strides = [1] : tensor_view<128xi32, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>
    %t1 = store_view_tko weak %iw, %ip[%c0] token = %tok : tile<128xi32>, partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>, tile<i32> -> token
    %f4 = unpack %r8 : tile<64xi8> -> tile<128xf4E2M1FN>
    %fw = ftof %f4 : tile<128xf4E2M1FN> -> tile<128xf32>
    %fv = make_tensor_view %floats, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %fp = make_partition_view %fv : partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>
    %t2 = store_view_tko weak %fw, %fp[%c0] token = %tok : tile<128xf32>, partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>, tile<i32> -> token
    %p = pack %i4 : tile<128xi4> -> tile<64xi8>
    %pw = exti %p signed : tile<64xi8> -> tile<64xi32>
    %bv = make_tensor_view %back, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
    %t3 = store_view_tko weak %pw, %bp[%c0] token = %tok : tile<64xi32>, partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
