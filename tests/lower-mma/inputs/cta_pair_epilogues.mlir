// tilepipe-split-tile-blocks-across-cta-pair on epilogues that hidden
// kernels may carry after a multiply (tests/lower-mma/cta-pair-epilogues.bats):
// a reduction along the dimension the split keeps whole (row statistics of
// an M split, column sums of an N split) stored beside the product, two
// multiplies sharing A (a gated product), and the product stored transposed.
// Every kernel asks for clusters of two CTAs on sm_100 and sm_90; C = A x B
// for ragged MxK by KxN f16 matrices, K in tiles of 32.
cuda_tile.module @kernels {
  // 256x64 tiles split by M: C = A x B - rowmax and r = rowmax (a reduction
  // along N, which each CTA holds whole for its 128 rows).
  entry @m_rowmax(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                  %m: tile<i32>, %n: tile<i32>, %k: tile<i32>, %r: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
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
    %mx = reduce %acc dim=1 identities=[0xFF800000 : f32] : tile<256x64xf32> -> tile<256xf32>
    (%p: tile<f32>, %q: tile<f32>) {
      %s = maxf %p, %q : tile<f32>
      yield %s : tile<f32>
    }
    %mx2 = reshape %mx : tile<256xf32> -> tile<256x1xf32>
    %mxb = broadcast %mx2 : tile<256x1xf32> -> tile<256x64xf32>
    %d = subf %acc, %mxb : tile<256x64xf32>
    %t3 = store_view_tko weak %d, %cp[%bx, %by] token = %tok : tile<256x64xf32>, partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %rv = make_tensor_view %r, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %rp = make_partition_view %rv : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %t4 = store_view_tko weak %mx, %rp[%bx] token = %tok : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }

  // 128x256 tiles split by N: C = A x B and s[bx, :] = the tile's column
  // sums (a reduction along M, which each CTA holds whole for its 128
  // columns), reshaped to a 1x256 row.
  entry @n_colsum(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                  %m: tile<i32>, %n: tile<i32>, %k: tile<i32>, %s: tile<ptr<f32>>, %mt: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
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
    %cs = reduce %acc dim=0 identities=[0.000000e+00 : f32] : tile<128x256xf32> -> tile<256xf32>
    (%p: tile<f32>, %q: tile<f32>) {
      %t = addf %p, %q : tile<f32>
      yield %t : tile<f32>
    }
    %cs2 = reshape %cs : tile<256xf32> -> tile<1x256xf32>
    %sv = make_tensor_view %s, shape = [%mt, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %sp = make_partition_view %sv : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>
    %t4 = store_view_tko weak %cs2, %sp[%bx, %by] token = %tok : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // A gated product, as a fused MoE or MLP kernel computes it: C = (A x B)
  // * (A x B2), two 128x256 multiplies sharing A, both split by N.
  entry @n_gated(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                 %m: tile<i32>, %n: tile<i32>, %k: tile<i32>, %b2: tile<ptr<f16>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %b2v = make_tensor_view %b2, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %b2p = make_partition_view %b2v : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc:2 = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero, %x2 = %zero) -> (tile<128x256xf32>, tile<128x256xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %tb2, %t5 = load_view_tko weak %b2p[%i, %by] token = %tok : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x256xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      %y2 = mmaf %ta, %tb2, %x2 : tile<128x32xf16>, tile<32x256xf16>, tile<128x256xf32>
      continue %y, %y2 : tile<128x256xf32>, tile<128x256xf32>
    }
    %g = mulf %acc#0, %acc#1 : tile<128x256xf32>
    %t3 = store_view_tko weak %g, %cp[%bx, %by] token = %tok : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 128x256 tiles split by N, the product stored transposed into the NxM
  // C^T: the permute carries the split to C^T's rows.
  entry @n_transposed(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                      %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%n, %m], strides = [%m, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>
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
    %tr = permute %acc [1, 0] : tile<128x256xf32> -> tile<256x128xf32>
    %t3 = store_view_tko weak %tr, %cp[%by, %bx] token = %tok : tile<256x128xf32>, partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
