// pack/unpack of the widths other than 8 and 4 bits: i1 (eight to a byte,
// the first in bit 0, as the oracle's `pack tile<16xi1> -> tile<2xi8>`
// counts them), i16 and i64 (two and eight bytes, low byte first).
//   flags: 32 words 0/1 -> i1 -> pack -> 4 bytes (stored as i32 0..255)
//          -> unpack -> i1 -> back as i32
//   wide:  8 i64 -> pack -> 64 bytes -> unpack as 32 i16 (stored as i32)
cuda_tile.module @kernels {
  entry @widths(%flags: tile<ptr<i32>>, %bits: tile<ptr<i32>>, %back: tile<ptr<i32>>, %wide: tile<ptr<i64>>, %halves: tile<ptr<i32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %fv = make_tensor_view %flags, shape = [32], strides = [1] : tensor_view<32xi32, strides=[1]>
    %fp = make_partition_view %fv : partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>
    %f, %t0 = load_view_tko weak %fp[%c0] token = %tok : partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>, tile<i32> -> tile<32xi32>, token
    %b = trunci %f : tile<32xi32> -> tile<32xi1>
    %p = pack %b : tile<32xi1> -> tile<4xi8>
    %pw = exti %p unsigned : tile<4xi8> -> tile<4xi32>
    %bv = make_tensor_view %bits, shape = [4], strides = [1] : tensor_view<4xi32, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(4), tensor_view<4xi32, strides=[1]>>
    %t1 = store_view_tko weak %pw, %bp[%c0] token = %tok : tile<4xi32>, partition_view<tile=(4), tensor_view<4xi32, strides=[1]>>, tile<i32> -> token
    %u = unpack %p : tile<4xi8> -> tile<32xi1>
    %uw = exti %u unsigned : tile<32xi1> -> tile<32xi32>
    %kv = make_tensor_view %back, shape = [32], strides = [1] : tensor_view<32xi32, strides=[1]>
    %kp = make_partition_view %kv : partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>
    %t2 = store_view_tko weak %uw, %kp[%c0] token = %tok : tile<32xi32>, partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>, tile<i32> -> token
    %wv = make_tensor_view %wide, shape = [8], strides = [1] : tensor_view<8xi64, strides=[1]>
    %wp = make_partition_view %wv : partition_view<tile=(8), tensor_view<8xi64, strides=[1]>>
    %w, %t3 = load_view_tko weak %wp[%c0] token = %tok : partition_view<tile=(8), tensor_view<8xi64, strides=[1]>>, tile<i32> -> tile<8xi64>, token
    %wb = pack %w : tile<8xi64> -> tile<64xi8>
    %h = unpack %wb : tile<64xi8> -> tile<32xi16>
    %hw = exti %h signed : tile<32xi16> -> tile<32xi32>
    %hv = make_tensor_view %halves, shape = [32], strides = [1] : tensor_view<32xi32, strides=[1]>
    %hp = make_partition_view %hv : partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>
    %t4 = store_view_tko weak %hw, %hp[%c0] token = %tok : tile<32xi32>, partition_view<tile=(32), tensor_view<32xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
