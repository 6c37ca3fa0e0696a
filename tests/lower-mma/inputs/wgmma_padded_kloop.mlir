// A K loop of 32x32 f16 tiles on sm_90a (pipeline.bats): the accumulator
// of one warpgroup's 32 rows takes wgmma at M = 64 with padding rows
// (WgmmaToLLVM.cpp), A and B by TMA, but not the K loop's TMA ring, whose
// slots hold A's rows unpadded (PipelineMmaLoops.cpp). C = A x B for a
// ragged MxK by KxN, K in tiles of 16; K and N multiples of 8 (16-byte
// rows, which TMA needs).
cuda_tile.module @kernels {
  entry @kloop(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %a16 = assume div_by<16>, %a : tile<ptr<f16>>
    %b16 = assume div_by<16>, %b : tile<ptr<f16>>
    %c16 = assume div_by<16>, %c : tile<ptr<f32>>
    %k8 = assume div_by<8>, %k : tile<i32>
    %n8 = assume div_by<8>, %n : tile<i32>
    %av = make_tensor_view %a16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<32x32xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<32x32xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x16xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<16x32xf16>, token
      %y = mmaf %ta, %tb, %x : tile<32x16xf16>, tile<16x32xf16>, tile<32x32xf32>
      continue %y : tile<32x32xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<32x32xf32>, partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
