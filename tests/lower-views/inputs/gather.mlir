// Gather/scatter through gather_scatter_views of an MxN f32 tensor (row
// stride N). Along the sparse dimension the index is a tile of element
// indices (one per tile row/column; duplicates allowed, an index outside
// [0, size) reads the padding value and writes nothing); along the dense
// dimension it is an element offset (not a tile index), here shifted by
// %shift to start tiles off any multiple of the tile size.
// PADDING is replaced by each padding_value (the bats suite seds it in).
cuda_tile.module @kernels {
  // gather_rows: out[8*bx + r, 16*by + c] = a[rows[8*bx + r], 16*by + shift + c]
  // (grid gx x gy; out is (8*gx) x ldo); then the 8x16 tile of src at
  // [bx, by] is scattered: dst[srows[8*bx + r], 16*by + shift + c] = it.
  entry @gather_rows(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %shift: tile<i32>,
                     %rows: tile<ptr<i32>>, %out: tile<ptr<f32>>, %ldo: tile<i32>,
                     %srows: tile<ptr<i32>>, %src: tile<ptr<f32>>, %lds: tile<i32>,
                     %dst: tile<ptr<f32>>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c8 = constant <i32: 8> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %nrows = muli %gx, %c8 : tile<i32>
    %col = muli %by, %c16 : tile<i32>
    %start = addi %col, %shift : tile<i32>
    %iv = make_tensor_view %rows, shape = [%nrows], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>
    %idx, %t1 = load_view_tko weak %ip[%bx] token = %tok : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    %av = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ag = make_gather_scatter_view %av : gather_scatter_view<tile=(8x16), PADDING tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>
    %t, %t2 = load_view_tko weak %ag[%idx, %start] token = %t1 : gather_scatter_view<tile=(8x16), PADDING tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> tile<8x16xf32>, token
    %ov = make_tensor_view %out, shape = [%nrows, %ldo], strides = [%ldo, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %op = make_partition_view %ov : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>
    %t3 = store_view_tko weak %t, %op[%bx, %by] token = %t2 : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token

    %sv = make_tensor_view %srows, shape = [%nrows], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %sp = make_partition_view %sv : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>
    %sidx, %t4 = load_view_tko weak %sp[%bx] token = %tok : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    %srcv = make_tensor_view %src, shape = [%nrows, %lds], strides = [%lds, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %srcp = make_partition_view %srcv : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s, %t5 = load_view_tko weak %srcp[%bx, %by] token = %t4 : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x16xf32>, token
    %dv = make_tensor_view %dst, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %dg = make_gather_scatter_view %dv : gather_scatter_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>
    %t6 = store_view_tko weak %s, %dg[%sidx, %start] token = %t5 : tile<8x16xf32>, gather_scatter_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> token
    return
  }

  // gather_cols: out[4*bx + r, 8*by + c] = a[4*bx + shift + r, cols[8*by + c]]
  // (grid gx x gy; out is (4*gx) x ldo, ldo = 8*gy).
  entry @gather_cols(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %shift: tile<i32>,
                     %cols: tile<ptr<i32>>, %out: tile<ptr<f32>>, %ldo: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %nrows = muli %gx, %c4 : tile<i32>
    %row = muli %bx, %c4 : tile<i32>
    %start = addi %row, %shift : tile<i32>
    %iv = make_tensor_view %cols, shape = [%ldo], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>
    %idx, %t1 = load_view_tko weak %ip[%by] token = %tok : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    %av = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ag = make_gather_scatter_view %av : gather_scatter_view<tile=(4x8), PADDING tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=1>
    %t, %t2 = load_view_tko weak %ag[%start, %idx] token = %t1 : gather_scatter_view<tile=(4x8), PADDING tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=1>, tile<i32>, tile<8xi32> -> tile<4x8xf32>, token
    %ov = make_tensor_view %out, shape = [%nrows, %ldo], strides = [%ldo, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %op = make_partition_view %ov : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
    %t3 = store_view_tko weak %t, %op[%bx, %by] token = %t2 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // gather_aligned: gather_rows on a 64x64 tensor whose column start is
  // known to be a multiple of 16 (and the base 16-byte aligned): each
  // gathered row segment moves as 16-byte vectors.
  entry @gather_aligned(%a: tile<ptr<f32>>, %rows: tile<ptr<i32>>, %out: tile<ptr<f32>>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %base = assume div_by<16>, %a : tile<ptr<f32>>
    %col = muli %by, %c16 : tile<i32>
    %start = assume div_by<16>, %col : tile<i32>
    %iv = make_tensor_view %rows, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(8), tensor_view<64xi32, strides=[1]>>
    %idx, %t1 = load_view_tko weak %ip[%bx] token = %tok : partition_view<tile=(8), tensor_view<64xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    %av = make_tensor_view %base, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %ag = make_gather_scatter_view %av : gather_scatter_view<tile=(8x16), PADDING tensor_view<64x64xf32, strides=[64,1]>, sparse_dim=0>
    %t, %t2 = load_view_tko weak %ag[%idx, %start] token = %t1 : gather_scatter_view<tile=(8x16), PADDING tensor_view<64x64xf32, strides=[64,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> tile<8x16xf32>, token
    %ov = make_tensor_view %out, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %op = make_partition_view %ov : partition_view<tile=(8x16), tensor_view<64x64xf32, strides=[64,1]>>
    %t3 = store_view_tko weak %t, %op[%bx, %by] token = %t2 : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }

  // scatter_mid: a rank-3 view scattered along its middle dimension with
  // i64 row indices (i32 scalar indices: the math is in i64, so 2**32 + 5
  // stays out of range); the last dimension starts at
  // element 1 of 4, so the tile's last column falls outside and is not
  // written:
  //   dst[b, rows[k], 1 + c] = src[b, k, c]   (b < 2, k < 8, c < 3)
  entry @scatter_mid(%src: tile<ptr<f32>>, %rows: tile<ptr<i64>>, %dst: tile<ptr<f32>>) {
    %c0 = constant <i64: 0> : tile<i64>
    %z = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %sv = make_tensor_view %src, shape = [2, 8, 4], strides = [32, 4, 1] : tensor_view<2x8x4xf32, strides=[32,4,1]>
    %sp = make_partition_view %sv : partition_view<tile=(2x8x4), tensor_view<2x8x4xf32, strides=[32,4,1]>>
    %t, %t1 = load_view_tko weak %sp[%c0, %c0, %c0] : partition_view<tile=(2x8x4), tensor_view<2x8x4xf32, strides=[32,4,1]>>, tile<i64> -> tile<2x8x4xf32>, token
    %iv = make_tensor_view %rows, shape = [8], strides = [1] : tensor_view<8xi64, strides=[1]>
    %ip = make_partition_view %iv : partition_view<tile=(8), tensor_view<8xi64, strides=[1]>>
    %idx, %t2 = load_view_tko weak %ip[%c0] token = %t1 : partition_view<tile=(8), tensor_view<8xi64, strides=[1]>>, tile<i64> -> tile<8xi64>, token
    %dv = make_tensor_view %dst, shape = [2, 32, 4], strides = [128, 4, 1] : tensor_view<2x32x4xf32, strides=[128,4,1]>
    %dg = make_gather_scatter_view %dv : gather_scatter_view<tile=(2x8x4), tensor_view<2x32x4xf32, strides=[128,4,1]>, sparse_dim=1>
    %t3 = store_view_tko weak %t, %dg[%z, %idx, %c1] token = %t2 : tile<2x8x4xf32>, gather_scatter_view<tile=(2x8x4), tensor_view<2x32x4xf32, strides=[128,4,1]>, sparse_dim=1>, tile<i32>, tile<8xi64>, tile<i32> -> token
    return
  }
}

// The sparse index tile is spread across the tile (reshape + broadcast) and
// masked with the same unsigned compare as the dense coordinates, so a
// negative index or one past the size reads the padding constant.
// LOWER-LABEL: func.func @gather_rows(
// LOWER-NOT: contiguity
// LOWER: %[[ROWS:.*]] = tile_as.broadcast %{{.*}} : tensor<8x1xi32> -> tensor<8x16xi32>
// LOWER: %[[R:.*]] = arith.cmpi ult, %[[ROWS]], %{{.*}} : tensor<8x16xi32>
// LOWER: %[[C:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<8x16xi32>
// LOWER: %[[MASK:.*]] = arith.andi %[[R]], %[[C]] : tensor<8x16xi1>
// LOWER: tile_as.load %{{.*}}, %[[MASK]], %{{.*}} :
// LOWER: tile_as.store %{{.*}}, %{{.*}}, %{{.*}} :
// LOWER: tile_as.broadcast %{{.*}} : tensor<8x1xi32> -> tensor<8x16xi32>
// LOWER: tile_as.store %{{.*}}, %{{.*}}, %{{.*}} :
// LOWER-LABEL: func.func @gather_cols(
// LOWER: tile_as.broadcast %{{.*}} : tensor<1x8xi32> -> tensor<4x8xi32>
// Gathered rows are contiguous along the dense inner dimension: vectors of
// 4 f32 when the start is a known multiple of 16 (gather_rows's start is not).
// LOWER-LABEL: func.func @gather_aligned(
// LOWER: tile_as.load {{.*}} {contiguity = 4 : i64{{(, view_alignment = [0-9]+ : i64)?}}}
