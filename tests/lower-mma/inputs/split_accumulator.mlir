// A K loop whose 256x256 f32 accumulator is 256 registers per thread on 8
// warps (tilepipe-split-mma-accumulators): C = 2 * (A x B) for ragged
// MxK by KxN f16 matrices, one 256x256 tile per block, K in tiles of 32.
// The loop and the store (through the doubling) become four, one per 64x256
// sub-tile: A's rows and the store's rows are offset by 64, 128, 192.
cuda_tile.module @kernels {
  entry @mm(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
            %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x256xf32>
    %two = constant <f32: 2.000000e+00> : tile<256x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<256x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<256x32xf16>, tile<32x256xf16>, tile<256x256xf32>
      continue %y : tile<256x256xf32>
    }
    %out = mulf %acc, %two : tile<256x256xf32>
    %t3 = store_view_tko weak %out, %cp[%bx, %by] token = %tok : tile<256x256xf32>, partition_view<tile=(256x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// SPLIT-LABEL: func.func @mm(
// SPLIT-COUNT-4: scf.for {{.*}} -> (tensor<64x256xf32>)
// SPLIT-NOT: scf.for
// SPLIT-NOT: tensor<256x256xf32>
// SPLIT: return

// Each loop reads its 64 rows of A and all of B; the first sub-tile's rows
// start at the block's row, the later ones 64, 128 and 192 further down.
// ROWS-LABEL: func.func @mm(
// ROWS: scf.for
// ROWS: tile_as.load {{.*}} -> tensor<64x32xf16>
// ROWS: tile_as.load {{.*}} -> tensor<32x256xf16>
// ROWS: tile_as.mmaf {{.*}} : tensor<64x32xf16>, tensor<32x256xf16>, tensor<64x256xf32>
// ROWS: scf.yield
// ROWS: arith.mulf {{.*}} : tensor<64x256xf32>
// ROWS: tile_as.store {{.*}} : tensor<64x256x!tile_as.ptr<f32, 1>>, tensor<64x256xf32>, tensor<64x256xi1>
// ROWS: scf.for
// ROWS: arith.constant dense<64> : tensor<64x32xi32>
// ROWS: tile_as.store
// ROWS: scf.for
// ROWS: arith.constant dense<128> : tensor<64x32xi32>
// ROWS: tile_as.store
// ROWS: scf.for
// ROWS: arith.constant dense<192> : tensor<64x32xi32>
// ROWS: tile_as.store
// ROWS-NEXT: return

// KEEP-LABEL: func.func @mm(
// KEEP-COUNT-1: scf.for {{.*}} -> (tensor<256x256xf32>)
// KEEP-NOT: scf.for

// On tcgen05 (sm_100a, tile-sched): two 128x256 sub-tiles, one loop each
// with its accumulator in tensor memory.
// TCGEN05-LABEL: func.func @mm(
// TCGEN05: tile_as.acc_to_tmem
// TCGEN05-NEXT: scf.for {{.*}} -> (tensor<128x256xf32
// TCGEN05: tile_as.acc_from_tmem
// TCGEN05: tile_as.store
// TCGEN05: tile_as.acc_to_tmem
// TCGEN05-NEXT: scf.for {{.*}} -> (tensor<128x256xf32
// TCGEN05: tile_as.acc_from_tmem
// TCGEN05: tile_as.store
// TCGEN05-NOT: scf.for
// TCGEN05-NOT: tensor<256x256xf32
// TCGEN05: return
