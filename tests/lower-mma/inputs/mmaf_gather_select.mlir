// A gather-fed mmaf: D (64x64 f32) = A[idx] (64 rows of a 32-column f16
// matrix, picked by 64 loaded i32 indices) x B (32x64 f16). On sm_90 and
// sm_90a it takes wgmma, A copied by cp.async and B by TMA; with an odd row
// stride (no 4-byte runs) or A computed from the gather, mma.sync
// (tilepipe-select-wgmma-target; select-target.bats edits it so).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %idx: tile<ptr<i32>>, %b: tile<ptr<f16>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %idx_p = assume div_by<16>, %idx : tile<ptr<i32>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    // The row indices: idx[0..63].
    %i = iota : tile<64xi32>
    %idx1 = reshape %idx_p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %idxs = broadcast %idx1 : tile<1xptr<i32>> -> tile<64xptr<i32>>
    %ip = offset %idxs, %i : tile<64xptr<i32>>, tile<64xi32> -> tile<64xptr<i32>>
    %rows, %t0 = load_ptr_tko weak %ip token = %tok : tile<64xptr<i32>> -> tile<64xi32>, token
    // A's pointers: a + 32 * rows[m] + k.
    %c32 = constant <i32: 32> : tile<64xi32>
    %rowoff = muli %rows, %c32 : tile<64xi32>
    %rowoff2 = reshape %rowoff : tile<64xi32> -> tile<64x1xi32>
    %rowoffb = broadcast %rowoff2 : tile<64x1xi32> -> tile<64x32xi32>
    %k = iota : tile<32xi32>
    %k2 = reshape %k : tile<32xi32> -> tile<1x32xi32>
    %kb = broadcast %k2 : tile<1x32xi32> -> tile<64x32xi32>
    %aoff = addi %rowoffb, %kb : tile<64x32xi32>
    %a1 = reshape %a_p : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %ab = broadcast %a1 : tile<1x1xptr<f16>> -> tile<64x32xptr<f16>>
    %ap = offset %ab, %aoff : tile<64x32xptr<f16>>, tile<64x32xi32> -> tile<64x32xptr<f16>>
    %x, %t1 = load_ptr_tko weak %ap token = %tok : tile<64x32xptr<f16>> -> tile<64x32xf16>, token
    %c32b = constant <i32: 32> : tile<i32>
    %c64 = constant <i32: 64> : tile<i32>
    %tvb = make_tensor_view %b_p, shape = [%c32b, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pvb = make_partition_view %tvb : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %y, %t2 = load_view_tko weak %pvb[%c0, %c0] token = %tok : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x64xf16>, token
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %d = mmaf %x, %y, %zero : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
    %tvd = make_tensor_view %d_out_p, shape = [%c64, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pvd = make_partition_view %tvd : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %st = store_view_tko weak %d, %pvd[%c0, %c0] token = %tok : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
