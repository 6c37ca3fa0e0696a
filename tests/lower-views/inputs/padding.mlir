// Padded partition views on a ragged tensor: an MxN f32 tensor (row stride N)
// in 16x32 tiles, one tile per block (grid ceil(M/16) x ceil(N/32)).
//   full:   each loaded tile stored whole into a (16*gx)x(32*gy) buffer, so
//           the elements past the tensor's edge show the padding value read;
//   ragged: the same tile stored back through an MxN view with row stride
//           ldr, so nothing past the edge may be written.
// PADDING is replaced by each padding_value the dialect defines (the bats
// suite seds it in; `none` drops the attribute).
cuda_tile.module @kernels {
  entry @pad(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>,
             %full: tile<ptr<f32>>, %ldf: tile<i32>,
             %ragged: tile<ptr<f32>>, %ldr: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %rows = muli %gx, %c16 : tile<i32>
    %src = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %psrc = make_partition_view %src : partition_view<tile=(16x32), PADDING tensor_view<?x?xf32, strides=[?,1]>>
    %t, %t1 = load_view_tko weak %psrc[%bx, %by] token = %tok : partition_view<tile=(16x32), PADDING tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %dst = make_tensor_view %full, shape = [%rows, %ldf], strides = [%ldf, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by] token = %t1 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %rag = make_tensor_view %ragged, shape = [%m, %n], strides = [%ldr, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %prag = make_partition_view %rag : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %t3 = store_view_tko weak %t, %prag[%bx, %by] token = %t1 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// The load masks each dimension with an unsigned compare against the
// tensor's size (negative coordinates are out of bounds too) and reads the
// padding constant there; the stores are masked the same way.
// LOWER-LABEL: func.func @pad(
// LOWER: %[[OTHER:.*]] = arith.constant dense<[[PAD]]> : tensor<16x32xf32>
// LOWER: %[[R:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<16x32xi32>
// LOWER: %[[C:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<16x32xi32>
// LOWER: %[[MASK:.*]] = arith.andi %[[R]], %[[C]] : tensor<16x32xi1>
// LOWER: %[[T:.*]] = tile_as.load %{{.*}}, %[[MASK]], %[[OTHER]] :
// LOWER: tile_as.store %{{.*}}, %[[T]], %{{.*}} :
// LOWER: tile_as.store %{{.*}}, %[[T]], %[[MASK]] :
