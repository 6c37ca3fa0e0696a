// Strided views on a ragged MxN f32 tensor (row stride N): tile (bx, by) of
// an 8x16 strided_view with traversal_strides [5, 20] starts at element
// (5*bx, 20*by), so along rows consecutive tiles overlap and along columns
// they leave gaps.
//   full: each loaded tile (nan past the tensor's edge) stored whole
//         through a plain view of a (8*gx)x(16*gy) buffer;
//   out:  the same tile stored through an 8x16 strided_view with traversal
//         strides [10, 20] of an MxN view with row stride ldo: the tiles
//         land at (10*bx, 20*by), nothing between or past them is written.
cuda_tile.module @kernels {
  entry @strided(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>,
                 %full: tile<ptr<f32>>, %out: tile<ptr<f32>>, %ldo: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c8 = constant <i32: 8> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %rows = muli %gx, %c8 : tile<i32>
    %cols = muli %gy, %c16 : tile<i32>
    %src = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ssrc = make_strided_view %src : strided_view<tile=(8x16), traversal_strides=[5,20], padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>
    %t, %t1 = load_view_tko weak %ssrc[%bx, %by] token = %tok : strided_view<tile=(8x16), traversal_strides=[5,20], padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x16xf32>, token
    %dst = make_tensor_view %full, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by] token = %t1 : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %ov = make_tensor_view %out, shape = [%m, %n], strides = [%ldo, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %sov = make_strided_view %ov : strided_view<tile=(8x16), traversal_strides=[10,20], tensor_view<?x?xf32, strides=[?,1]>>
    %t3 = store_view_tko weak %t, %sov[%bx, %by] token = %t1 : tile<8x16xf32>, strided_view<tile=(8x16), traversal_strides=[10,20], tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // get_index_space_shape of an 8x16 strided view with traversal strides
  // [5, 20] over an MxN tensor: one tile per origin inside the tensor,
  // ceil(M/5) x ceil(N/20), stored to counts[0..1].
  entry @count(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %counts: tile<ptr<i32>>) {
    %src = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ssrc = make_strided_view %src : strided_view<tile=(8x16), traversal_strides=[5,20], tensor_view<?x?xf32, strides=[?,1]>>
    %d0, %d1 = get_index_space_shape %ssrc : strided_view<tile=(8x16), traversal_strides=[5,20], tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %v0 = reshape %d0 : tile<i32> -> tile<1xi32>
    %v1 = reshape %d1 : tile<i32> -> tile<1xi32>
    %v = cat %v0, %v1 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>
    %base = reshape %counts : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ptrs = broadcast %base : tile<1xptr<i32>> -> tile<2xptr<i32>>
    %idx = iota : tile<2xi32>
    %p = offset %ptrs, %idx : tile<2xptr<i32>>, tile<2xi32> -> tile<2xptr<i32>>
    %t = store_ptr_tko weak %p, %v : tile<2xptr<i32>>, tile<2xi32> -> token
    return
  }
}

// Tile starts scale by the traversal strides, not the tile shape (the
// column start 20*by is shared by both views); the nan padding is the load's
// other operand.
// LOWER-LABEL: func.func @strided(
// LOWER-DAG: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<8x16xf32>
// LOWER-DAG: %[[C5:.*]] = arith.constant 5 : i32
// LOWER-DAG: %[[C10:.*]] = arith.constant 10 : i32
// LOWER-DAG: %[[C20:.*]] = arith.constant 20 : i32
// LOWER: arith.muli %{{.*}}, %[[C5]] : i32
// LOWER: arith.muli %{{.*}}, %[[C20]] : i32
// LOWER: tile_as.load %{{.*}}, %{{.*}}, %[[NAN]] :
// LOWER: tile_as.store
// LOWER: arith.muli %{{.*}}, %[[C10]] : i32
// LOWER: tile_as.store
// LOWER-NOT: strided_view
