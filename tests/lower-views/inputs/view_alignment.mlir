// view_alignment (tile_as.load): what divides a view's base address and
// its non-unit strides, without the extents and tile start that
// `contiguity` folds in. An MxK f32 view of no proven extents: its runs are
// single elements (contiguity 1, elided) but a 16-byte aligned base and a
// row stride of 4k elements make every row start 16-byte aligned (TMA's
// rule); an unproven stride or base gives nothing.
cuda_tile.module @kernels {
  // LOWER-LABEL: @aligned
  // LOWER: tile_as.load {{.*}} {view_alignment = 4 : i64} : tensor<16x16x!tile_as.ptr<f32, 1>>
  entry @aligned(%a: tile<ptr<f32>>, %m: tile<i32>, %k: tile<i32>, %s: tile<i32>, %out: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %base = assume div_by<16>, %a : tile<ptr<f32>>
    %stride = assume div_by<4>, %s : tile<i32>
    %v = make_tensor_view %base, shape = [%m, %k], strides = [%stride, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %p = make_partition_view %v : partition_view<tile=(16x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %t, %t1 = load_view_tko weak %p[%c0, %c0] token = %tok : partition_view<tile=(16x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token
    %o = make_tensor_view %out, shape = [16, 16], strides = [16, 1] : tensor_view<16x16xf32, strides=[16,1]>
    %po = make_partition_view %o : partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>
    %t2 = store_view_tko weak %t, %po[%c0, %c0] token = %t1 : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>, tile<i32> -> token
    return
  }

  // LOWER-LABEL: @unaligned
  // LOWER-NOT: view_alignment
  // LOWER: return
  entry @unaligned(%a: tile<ptr<f32>>, %m: tile<i32>, %k: tile<i32>, %s: tile<i32>, %out: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %base = assume div_by<16>, %a : tile<ptr<f32>>
    %v = make_tensor_view %base, shape = [%m, %k], strides = [%s, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %p = make_partition_view %v : partition_view<tile=(16x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %t, %t1 = load_view_tko weak %p[%c0, %c0] token = %tok : partition_view<tile=(16x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token
    %o = make_tensor_view %out, shape = [16, 16], strides = [16, 1] : tensor_view<16x16xf32, strides=[16,1]>
    %po = make_partition_view %o : partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>
    %t2 = store_view_tko weak %t, %po[%c0, %c0] token = %t1 : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>, tile<i32> -> token
    return
  }
}
