// No alignment facts: every element is its own (masked) 4-byte access.
cuda_tile.module @kernels {
  entry @copy_unaligned(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<ptr<f32>>) {
    %0 = make_token : token
    %va = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %vb = make_tensor_view %arg2, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %pa = make_partition_view %va : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %ta, %t1 = load_view_tko weak %pa[%bx] token = %0 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %pb = make_partition_view %vb : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %t2 = store_view_tko weak %ta, %pb[%bx] token = %0 : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// LOWER: tile_as.load %{{[0-9]+}}, %{{[0-9]+}}, %{{[a-z0-9_]+}} : tensor<256x!tile_as.ptr<f32, 1>>
// LOWER-NOT: contiguity
// LLVM-COUNT-2: "@$2 ld.global.b32 $0, [$1];", "=r,l,b"
// LLVM-NOT: ld.global.v
