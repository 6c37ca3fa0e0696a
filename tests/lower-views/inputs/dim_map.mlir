// Partition views with dim_map = [1, 0] on a ragged MxN f32 tensor (row
// stride N): tile dimension 0 (16 wide) runs along the tensor's columns,
// tile dimension 1 (32 wide) along its rows, so tile (i, j) of index
// (bx, by) is element (32*by + j, 16*bx + i) - a transposed read. Grid:
// ceil(N/16) x ceil(M/32).
//   full: each tile stored whole through a plain view of a (16*gx)x(32*gy)
//         buffer: the transpose of the tensor, padded with -inf;
//   back: the tile stored through the same dim_map into an MxN view with row
//         stride ldb: the tensor again, nothing written past its edge.
cuda_tile.module @kernels {
  entry @transpose(%a: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>,
                   %full: tile<ptr<f32>>, %back: tile<ptr<f32>>, %ldb: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %c32 = constant <i32: 32> : tile<i32>
    %rows = muli %gx, %c16 : tile<i32>
    %cols = muli %gy, %c32 : tile<i32>
    %src = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %psrc = make_partition_view %src : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %t, %t1 = load_view_tko weak %psrc[%bx, %by] token = %tok : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<16x32xf32>, token
    %dst = make_tensor_view %full, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by] token = %t1 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %bv = make_tensor_view %back, shape = [%m, %n], strides = [%ldb, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pbv = make_partition_view %bv : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %t3 = store_view_tko weak %t, %pbv[%bx, %by] token = %t1 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> token
    return
  }

  // Static 64x64 tensor on a 16-byte aligned base: the plain view's rows are
  // contiguous (4 x f32 per access), the permuted view's tile rows are not.
  entry @contiguity(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>) {
    %tok = make_token : token
    %base = assume div_by<16>, %a : tile<ptr<f32>>
    %c0 = constant <i32: 0> : tile<i32>
    %v = make_tensor_view %base, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %plain = make_partition_view %v : partition_view<tile=(16x32), tensor_view<64x64xf32, strides=[64,1]>>
    %t, %t1 = load_view_tko weak %plain[%c0, %c0] token = %tok : partition_view<tile=(16x32), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x32xf32>, token
    %perm = make_partition_view %v : partition_view<tile=(16x32), tensor_view<64x64xf32, strides=[64,1]>, dim_map=[1, 0]>
    %u, %u1 = load_view_tko weak %perm[%c0, %c0] token = %tok : partition_view<tile=(16x32), tensor_view<64x64xf32, strides=[64,1]>, dim_map=[1, 0]>, tile<i32> -> tile<16x32xf32>, token
    %s = addf %t, %u : tile<16x32xf32>
    %o = make_tensor_view %out, shape = [16, 32], strides = [32, 1] : tensor_view<16x32xf32, strides=[32,1]>
    %po = make_partition_view %o : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>
    %t2 = store_view_tko weak %s, %po[%c0, %c0] token = %tok : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> token
    return
  }

  // Rank 3 with dim_map = [0, 2, 1] (as cuTile's MoE kernel loads its
  // weights) on i32 elements: a BxMxN tensor (strides [M*N, N, 1]) in
  // 1x16x32 tiles whose dimension 1 runs along N and dimension 2 along M;
  // grid B x ceil(N/16) x ceil(M/32). `full` ((B)x(16*gy)x(32*gz)) gets each
  // batch transposed, zero-padded; `back` (BxMxN) gets the tensor again.
  entry @transpose3(%a: tile<ptr<i32>>, %m: tile<i32>, %n: tile<i32>, %mn: tile<i32>,
                    %full: tile<ptr<i32>>, %back: tile<ptr<i32>>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %c32 = constant <i32: 32> : tile<i32>
    %rows = muli %gy, %c16 : tile<i32>
    %cols = muli %gz, %c32 : tile<i32>
    %plane = muli %rows, %cols : tile<i32>
    %src = make_tensor_view %a, shape = [%gx, %m, %n], strides = [%mn, %n, 1] : tile<i32> -> tensor_view<?x?x?xi32, strides=[?,?,1]>
    %psrc = make_partition_view %src : partition_view<tile=(1x16x32), padding_value = zero, tensor_view<?x?x?xi32, strides=[?,?,1]>, dim_map=[0, 2, 1]>
    %t, %t1 = load_view_tko weak %psrc[%bx, %by, %bz] token = %tok : partition_view<tile=(1x16x32), padding_value = zero, tensor_view<?x?x?xi32, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x16x32xi32>, token
    %dst = make_tensor_view %full, shape = [%gx, %rows, %cols], strides = [%plane, %cols, 1] : tile<i32> -> tensor_view<?x?x?xi32, strides=[?,?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(1x16x32), tensor_view<?x?x?xi32, strides=[?,?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by, %bz] token = %t1 : tile<1x16x32xi32>, partition_view<tile=(1x16x32), tensor_view<?x?x?xi32, strides=[?,?,1]>>, tile<i32> -> token
    %bv = make_tensor_view %back, shape = [%gx, %m, %n], strides = [%mn, %n, 1] : tile<i32> -> tensor_view<?x?x?xi32, strides=[?,?,1]>
    %pbv = make_partition_view %bv : partition_view<tile=(1x16x32), tensor_view<?x?x?xi32, strides=[?,?,1]>, dim_map=[0, 2, 1]>
    %t3 = store_view_tko weak %t, %pbv[%bx, %by, %bz] token = %t1 : tile<1x16x32xi32>, partition_view<tile=(1x16x32), tensor_view<?x?x?xi32, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> token
    return
  }
}

// Index dimension 0 scales by 16 and is compared with N (%arg2), dimension 1
// by 32 against M (%arg1); the row stride multiplies dimension 1. The tile's
// inner dimension has the tensor's row stride, so the load is not
// contiguous.
// LOWER-LABEL: func.func @transpose(
// LOWER: %[[S0:.*]] = arith.muli %{{.*}}, %c16_i32 : i32
// LOWER: %[[C0:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x32xi32>
// LOWER: %[[N:.*]] = tile_as.splat %arg2 : tensor<16x32xi32>
// LOWER: arith.cmpi ult, %[[C0]], %[[N]] : tensor<16x32xi32>
// LOWER: arith.muli %{{.*}}, %c32_i32 : i32
// LOWER: %[[C1:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x32xi32>
// LOWER: %[[M:.*]] = tile_as.splat %arg1 : tensor<16x32xi32>
// LOWER: arith.cmpi ult, %[[C1]], %[[M]] : tensor<16x32xi32>
// LOWER: arith.muli %[[C1]], %[[N]] : tensor<16x32xi32>
// LOWER: tile_as.load {{.*}} : tensor<16x32x!tile_as.ptr<f32, 1>>, tensor<16x32xi1>, tensor<16x32xf32> -> tensor<16x32xf32>
// LOWER: tile_as.store
// LOWER: tile_as.store
// LOWER: return
// LOWER-LABEL: func.func @contiguity(
// LOWER: tile_as.load {{.*}} {contiguity = 4 : i64{{(, view_alignment = [0-9]+ : i64)?}}}
// The permuted access has no runs along its innermost dimension, only
// along the next-innermost one (which TMA reads as a K-major operand).
// LOWER: tile_as.load %{{[0-9]+}}, %{{[0-9]+}}, %{{[a-z_0-9]+}} {transposed_contiguity = 4 : i64} : {{.*}} -> tensor<16x32xf32>
