// Globals of elements below a byte lie in memory as views read them: i4 two
// to a byte (element 2k in the low nibble of byte k), i1 one to a byte. The
// kernel reads both through views and writes them out as i32:
//   out = [1, -2, 3, -4, 5, -6, 7, -8, 1, 0, 1, 1]
// LLVM-DAG: @nib = addrspace(1) constant [4 x i8] c"\E1\C3\A5\87", align 1
// LLVM-DAG: @flags = addrspace(1) constant [4 x i8] c"\01\00\01\01", align 1
cuda_tile.module @m {
  global constant @nib <i4: [1, -2, 3, -4, 5, -6, 7, -8]> : tile<8xi4>
  global constant @flags <i1: [true, false, true, true]> : tile<4xi1>
  entry @k(%out: tile<ptr<i32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %n = get_global @nib : tile<ptr<i4>>
    %nv = make_tensor_view %n, shape = [8], strides = [1] : tensor_view<8xi4, strides=[1]>
    %np = make_partition_view %nv : partition_view<tile=(8), tensor_view<8xi4, strides=[1]>>
    %x, %t0 = load_view_tko weak %np[%c0] token = %tok : partition_view<tile=(8), tensor_view<8xi4, strides=[1]>>, tile<i32> -> tile<8xi4>, token
    %xw = exti %x signed : tile<8xi4> -> tile<8xi32>
    %f = get_global @flags : tile<ptr<i1>>
    %fv = make_tensor_view %f, shape = [4], strides = [1] : tensor_view<4xi1, strides=[1]>
    %fp = make_partition_view %fv : partition_view<tile=(4), tensor_view<4xi1, strides=[1]>>
    %y, %t1 = load_view_tko weak %fp[%c0] token = %tok : partition_view<tile=(4), tensor_view<4xi1, strides=[1]>>, tile<i32> -> tile<4xi1>, token
    %yw = exti %y unsigned : tile<4xi1> -> tile<4xi32>
    %ov = make_tensor_view %out, shape = [12], strides = [1] : tensor_view<12xi32, strides=[1]>
    %op8 = make_partition_view %ov : partition_view<tile=(8), tensor_view<12xi32, strides=[1]>>
    %t2 = store_view_tko weak %xw, %op8[%c0] token = %tok : tile<8xi32>, partition_view<tile=(8), tensor_view<12xi32, strides=[1]>>, tile<i32> -> token
    %op4 = make_partition_view %ov : partition_view<tile=(4), tensor_view<12xi32, strides=[1]>>
    %c2 = constant <i32: 2> : tile<i32>
    %t3 = store_view_tko weak %yw, %op4[%c2] token = %t2 : tile<4xi32>, partition_view<tile=(4), tensor_view<12xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
