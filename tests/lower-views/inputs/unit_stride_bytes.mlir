// A column-major KxN byte matrix (strides [1, K], as cuTile's
// BlockScaledMatMul passes B and its scales): the tile's unit-stride
// dimension is its outer one. Grid ceil(K/32) x ceil(N/16); tile (bx, by) is
// rows 32*bx.., columns 16*by.. of the matrix, stored through a plain
// row-major view into `full` ((32*gx)x(16*gy)), zero-padded.
cuda_tile.module @kernels {
  entry @colmajor(%b: tile<ptr<i8>>, %k: tile<i32>, %n: tile<i32>, %full: tile<ptr<i8>>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %c32 = constant <i32: 32> : tile<i32>
    %rows = muli %gx, %c32 : tile<i32>
    %cols = muli %gy, %c16 : tile<i32>
    %src = make_tensor_view %b, shape = [%k, %n], strides = [1, %k] : tile<i32> -> tensor_view<?x?xi8, strides=[1,?]>
    %psrc = make_partition_view %src : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xi8, strides=[1,?]>>
    %t, %t1 = load_view_tko weak %psrc[%bx, %by] token = %tok : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xi8, strides=[1,?]>>, tile<i32> -> tile<32x16xi8>, token
    %dst = make_tensor_view %full, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(32x16), tensor_view<?x?xi8, strides=[?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by] token = %t1 : tile<32x16xi8>, partition_view<tile=(32x16), tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // A static 64x64 column-major matrix on a 16-byte aligned base: the
  // transposed runs are proven whole 16-byte rows; a 2-byte matrix keeps
  // the plain access.
  entry @contiguity(%b: tile<ptr<i8>>, %h: tile<ptr<i16>>, %out: tile<ptr<i8>>, %out16: tile<ptr<i16>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %base = assume div_by<16>, %b : tile<ptr<i8>>
    %v = make_tensor_view %base, shape = [64, 64], strides = [1, 64] : tensor_view<64x64xi8, strides=[1,64]>
    %p = make_partition_view %v : partition_view<tile=(32x16), tensor_view<64x64xi8, strides=[1,64]>>
    %t, %t1 = load_view_tko weak %p[%c0, %c0] token = %tok : partition_view<tile=(32x16), tensor_view<64x64xi8, strides=[1,64]>>, tile<i32> -> tile<32x16xi8>, token
    %o = make_tensor_view %out, shape = [32, 16], strides = [16, 1] : tensor_view<32x16xi8, strides=[16,1]>
    %po = make_partition_view %o : partition_view<tile=(32x16), tensor_view<32x16xi8, strides=[16,1]>>
    %t2 = store_view_tko weak %t, %po[%c0, %c0] token = %tok : tile<32x16xi8>, partition_view<tile=(32x16), tensor_view<32x16xi8, strides=[16,1]>>, tile<i32> -> token
    %hbase = assume div_by<16>, %h : tile<ptr<i16>>
    %hv = make_tensor_view %hbase, shape = [64, 64], strides = [1, 64] : tensor_view<64x64xi16, strides=[1,64]>
    %hp = make_partition_view %hv : partition_view<tile=(32x16), tensor_view<64x64xi16, strides=[1,64]>>
    %u, %u1 = load_view_tko weak %hp[%c0, %c0] token = %tok : partition_view<tile=(32x16), tensor_view<64x64xi16, strides=[1,64]>>, tile<i32> -> tile<32x16xi16>, token
    %o16 = make_tensor_view %out16, shape = [32, 16], strides = [16, 1] : tensor_view<32x16xi16, strides=[16,1]>
    %po16 = make_partition_view %o16 : partition_view<tile=(32x16), tensor_view<32x16xi16, strides=[16,1]>>
    %t3 = store_view_tko weak %u, %po16[%c0, %c0] token = %tok : tile<32x16xi16>, partition_view<tile=(32x16), tensor_view<32x16xi16, strides=[16,1]>>, tile<i32> -> token
    return
  }
}

// The 32x16 tile is read as its 16x32 transpose (one row per matrix
// column, along the unit stride) and permuted back. The column index (by)
// scales by 16 and multiplies the column stride K (%arg1); the row index
// (bx) by 32. K has no known divisor: no contiguity.
// LOWER-LABEL: func.func @colmajor(
// LOWER: arith.muli %{{.*}}, %c16_i32 : i32
// LOWER: %[[C:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x32xi32>
// LOWER: %[[K:.*]] = tile_as.splat %arg1 : tensor<16x32xi32>
// LOWER: arith.muli %[[C]], %[[K]] : tensor<16x32xi32>
// LOWER: arith.muli %{{.*}}, %c32_i32 : i32
// LOWER: %[[T:.*]] = tile_as.load
// LOWER-NOT: contiguity
// LOWER-SAME: -> tensor<16x32xi8>
// LOWER-NEXT: tile_as.permute %[[T]] [1, 0] : tensor<16x32xi8> -> tensor<32x16xi8>
// LOWER: tile_as.store
// LOWER-LABEL: func.func @contiguity(
// LOWER: %[[U:.*]] = tile_as.load {{.*}} {contiguity = 16 : i64{{(, view_alignment = [0-9]+ : i64)?}}}
// LOWER-SAME: -> tensor<16x32xi8>
// LOWER-NEXT: tile_as.permute %[[U]] [1, 0] : tensor<16x32xi8> -> tensor<32x16xi8>
// A 2-byte tile keeps the plain access: no runs along its innermost
// dimension, runs of 8 along the next-innermost one (transposed_contiguity).
// LOWER: tile_as.load %{{[0-9]+}}, %{{[0-9]+}}, %{{[a-z_0-9]+}} {transposed_contiguity = 8 : i64} : {{.*}} -> tensor<32x16xi16>
// LOWER-NOT: tile_as.permute
// LOWER: return
