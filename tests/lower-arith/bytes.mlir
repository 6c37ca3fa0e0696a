// One-byte memory accesses (ld/st.global.b8 through a 16-bit register):
// i8 in, i1 out (a byte per bool), i1 in, i8 out; 1-element-per-thread
// layouts make every access a single byte; a masked tail (100 of 128).
cuda_tile.module @kernels {
  entry @bytes(%a: tile<ptr<i8>>, %flags: tile<ptr<i1>>, %b: tile<ptr<i1>>, %out: tile<ptr<i8>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %a, shape = [100], strides = [1] : tensor_view<100xi8, strides=[1]>
    %ap = make_partition_view %av : partition_view<tile=(128), tensor_view<100xi8, strides=[1]>>
    %x, %t0 = load_view_tko weak %ap[%c0] token = %tok : partition_view<tile=(128), tensor_view<100xi8, strides=[1]>>, tile<i32> -> tile<128xi8>, token
    %zero = constant <i8: 0> : tile<128xi8>
    %pos = cmpi greater_than %x, %zero, signed : tile<128xi8> -> tile<128xi1>
    %fv = make_tensor_view %flags, shape = [100], strides = [1] : tensor_view<100xi1, strides=[1]>
    %fp = make_partition_view %fv : partition_view<tile=(128), tensor_view<100xi1, strides=[1]>>
    %t1 = store_view_tko weak %pos, %fp[%c0] token = %tok : tile<128xi1>, partition_view<tile=(128), tensor_view<100xi1, strides=[1]>>, tile<i32> -> token
    %bv = make_tensor_view %b, shape = [100], strides = [1] : tensor_view<100xi1, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(128), tensor_view<100xi1, strides=[1]>>
    %y, %t2 = load_view_tko weak %bp[%c0] token = %tok : partition_view<tile=(128), tensor_view<100xi1, strides=[1]>>, tile<i32> -> tile<128xi1>, token
    %neg = negi %x : tile<128xi8>
    %z = select %y, %neg, %x : tile<128xi1>, tile<128xi8>
    %ov = make_tensor_view %out, shape = [100], strides = [1] : tensor_view<100xi8, strides=[1]>
    %op = make_partition_view %ov : partition_view<tile=(128), tensor_view<100xi8, strides=[1]>>
    %t3 = store_view_tko weak %z, %op[%c0] token = %tok : tile<128xi8>, partition_view<tile=(128), tensor_view<100xi8, strides=[1]>>, tile<i32> -> token
    return
  }
}
