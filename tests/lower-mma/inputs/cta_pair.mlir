// tilepipe-split-tile-blocks-across-cta-pair on C = A x B for ragged
// MxK by KxN f16 matrices, K in tiles of 32, each kernel asking (sm_100 and
// sm_90) for clusters of two CTAs (num_cta_in_cga = 2).
cuda_tile.module @kernels {
  // 128x256 tiles: each CTA of the pair computes 128 of the 256 columns.
  entry @pair_n(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      continue %y : tile<128x256xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 256x64 tiles (N under 128): each CTA computes 128 of the 256 rows.
  entry @pair_m(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x64xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x64xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<256x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x64xf16>, token
      %y = mmaf %ta, %tb, %x : tile<256x32xf16>, tile<32x64xf16>, tile<256x64xf32>
      continue %y : tile<256x64xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x64xf32>, partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // The row sums of the 128x256 product: a reduction along N, the split
  // dimension (and M = 128 is too short to split): one CTA per cluster.
  entry @row_sums(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                 %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      continue %y : tile<128x256xf32>
    }
    %sum = reduce %acc dim=1 identities=[0.000000e+00 : f32] : tile<128x256xf32> -> tile<128xf32>
    (%p: tile<f32>, %q: tile<f32>) {
      %s = addf %p, %q : tile<f32>
      yield %s : tile<f32>
    }
    %sv = make_tensor_view %c, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %sp = make_partition_view %sv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %t3 = store_view_tko weak %sum, %sp[%bx] token = %tok : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }

  // Also writes the first A tile back to A's rows of C's memory as f16: a
  // whole tile, which both CTAs would store: one CTA per cluster.
  entry @store_a(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      continue %y : tile<128x256xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %ta0, %t4 = load_view_tko weak %ap[%bx, %c0] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
    %t5 = store_view_tko weak %ta0, %ap[%bx, %c0] token = %tok : tile<128x32xf16>, partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // C = A x B + bias[n], the bias row loaded once, reshaped to 1x256 and
  // broadcast: each CTA loads its 128 of the row.
  entry @pair_bias(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                  %m: tile<i32>, %n: tile<i32>, %k: tile<i32>, %bias: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      continue %y : tile<128x256xf32>
    }
    %bv1 = make_tensor_view %bias, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %bp1 = make_partition_view %bv1 : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %row, %t4 = load_view_tko weak %bp1[%by] token = %tok : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %row2 = reshape %row : tile<256xf32> -> tile<1x256xf32>
    %rowb = broadcast %row2 : tile<1x256xf32> -> tile<128x256xf32>
    %sum = addf %acc, %rowb : tile<128x256xf32>
    %t3 = store_view_tko weak %sum, %cp[%bx, %by] token = %tok : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched: @pair_n runs on a pair: B, C and their coordinates halve along
// N; the columns start at the tile's plus rank * 128 (start + iota, the form
// the TMA view matcher reads); A stays whole.
// SPLIT-LABEL: func.func @pair_n(
// SPLIT-SAME: attributes {tile_as.ctas_per_cluster = 2 : i32}
// SPLIT-NEXT: %[[RANK:.*]] = tile_as.cluster_cta_rank
// SPLIT-NEXT: %[[C128:.*]] = arith.constant 128 : i32
// SPLIT-NEXT: %[[FIRST:.*]] = arith.muli %[[RANK]], %[[C128]] : i32
// SPLIT: scf.for {{.*}} -> (tensor<128x128xf32>)
// SPLIT: tile_as.load {{.*}} -> tensor<128x32xf16>
// SPLIT: %[[COL:.*]] = arith.addi %{{.*}}, %[[FIRST]] : i32
// SPLIT-NEXT: %[[IOTA:.*]] = tile_as.iota 1 : tensor<32x128xi32>
// SPLIT-NEXT: %[[START:.*]] = tile_as.splat %[[COL]] : tensor<32x128xi32>
// SPLIT-NEXT: arith.addi %[[START]], %[[IOTA]] : tensor<32x128xi32>
// SPLIT: tile_as.load {{.*}} -> tensor<32x128xf16>
// SPLIT: tile_as.mmaf {{.*}} : tensor<128x32xf16>, tensor<32x128xf16>, tensor<128x128xf32>
// SPLIT: tile_as.iota 1 : tensor<128x128xi32>
// SPLIT: tile_as.store {{.*}} : tensor<128x128x!tile_as.ptr<f32, 1>>, tensor<128x128xf32>, tensor<128x128xi1>
// SPLIT-NOT: x256x
// @pair_m: A, C and the rows halve; B stays whole; the function records
// the M split (tile_as.cta_pair_rows: tilepipe-pair-tcgen05-mmas may pair
// its tcgen05.mmas, tests/lower-mma/cta-pair-mma.bats).
// SPLIT-LABEL: func.func @pair_m(
// SPLIT-SAME: attributes {tile_as.cta_pair_rows, tile_as.ctas_per_cluster = 2 : i32}
// SPLIT: %[[MRANK:.*]] = tile_as.cluster_cta_rank
// SPLIT: %[[MFIRST:.*]] = arith.muli %[[MRANK]], %{{.*}} : i32
// SPLIT: scf.for {{.*}} -> (tensor<128x64xf32>)
// SPLIT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[MFIRST]] : i32
// SPLIT-NEXT: tile_as.iota 0 : tensor<128x32xi32>
// SPLIT-NEXT: tile_as.splat %[[ROW]] : tensor<128x32xi32>
// SPLIT: tile_as.mmaf {{.*}} : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf32>
// SPLIT: tile_as.store {{.*}} : tensor<128x64x!tile_as.ptr<f32, 1>>, tensor<128x64xf32>, tensor<128x64xi1>
// SPLIT-NOT: 256x
// The bail-outs leave their kernels as they were.
// SPLIT-LABEL: func.func @row_sums(
// SPLIT-NOT: tile_as.ctas_per_cluster
// SPLIT-NOT: cluster_cta_rank
// SPLIT: tile_as.mmaf {{.*}} : tensor<128x32xf16>, tensor<32x256xf16>, tensor<128x256xf32>
// SPLIT: tile_as.reduce {{.*}} : tensor<128x256xf32> -> tensor<128xf32>
// SPLIT-LABEL: func.func @store_a(
// SPLIT-NOT: tile_as.ctas_per_cluster
// SPLIT-NOT: cluster_cta_rank
// SPLIT: tile_as.mmaf {{.*}} : tensor<128x32xf16>, tensor<32x256xf16>, tensor<128x256xf32>
// @pair_bias: the bias row splits through the broadcast and the reshape
// down to its load, 128 elements per CTA.
// SPLIT-LABEL: func.func @pair_bias(
// SPLIT-SAME: attributes {tile_as.ctas_per_cluster = 2 : i32}
// SPLIT: tile_as.load {{.*}} -> tensor<128xf32>
// SPLIT-NEXT: tile_as.reshape {{.*}} : tensor<128xf32> -> tensor<1x128xf32>
// SPLIT-NEXT: tile_as.broadcast {{.*}} : tensor<1x128xf32> -> tensor<128x128xf32>
// SPLIT-NEXT: arith.addf {{.*}} : tensor<128x128xf32>

// REMARK: remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes columns [r*128, r*128+128) of the 128x256 result
// REMARK: remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes rows [r*128, r*128+128) of the 256x64 result
// REMARK: remark: sm_100: num_cta_in_cga = 2 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): splitting M: 'tile_as.mmaf' M = 128 is under 256; splitting N: 'tile_as.reduce' reduces along the split dimension
// REMARK: note: splitting M stops here
// REMARK: note: splitting N stops here
// REMARK: remark: sm_100: num_cta_in_cga = 2 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): splitting M: 'tile_as.mmaf' M = 128 is under 256; splitting N: 'tile_as.store' writes a whole tile or scalar, which both CTAs would write
// REMARK: note: splitting M stops here
// REMARK: note: splitting N stops here
// REMARK: remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes columns [r*128, r*128+128) of the 128x256 result

// tile-llvm: the pair's kernels read their tile block from %clusterid and
// their half from %cluster_ctarank, and declare clusters of two; the others
// keep %ctaid and clusters of one.
// LLVM-LABEL: define {{.*}} @pair_n(
// LLVM: call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
// LLVM: call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
// LLVM-NOT: ctaid
// LLVM-LABEL: define {{.*}} @row_sums(
// LLVM-NOT: cluster.ctarank
// LLVM: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// LLVM: attributes #0 = { "nvvm.blocksareclusters" "nvvm.cluster_dim"="2,1,1"
// LLVM: "nvvm.blocksareclusters" "nvvm.cluster_dim"="1,1,1"
