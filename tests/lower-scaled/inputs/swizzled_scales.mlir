// The corpus block-scaled matmul's scale path at a reduced shape: A's
// f8E8M0FNU scales arrive in cuBLAS' 32x4x4 swizzle (a 1x1x32x16 tile for
// 128 rows x 4 scales) and are put back in row order as the kernel does
// (reshape to 5-D, permute [0, 3, 2, 1, 4], reshape to 128x4); B's are plain
// 4x16. Scale bits come as i32 words (no 1-byte loads needed), operands are
// f16: D = (A * SA) x (B * SB) + C, 128x16x128 in blocks of 32 k.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %sa: tile<ptr<i32>>, %sb: tile<ptr<i32>>, %c: tile<ptr<f32>>, %d: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %n1 = constant <i32: 1> : tile<i32>
    %n4 = constant <i32: 4> : tile<i32>
    %n16 = constant <i32: 16> : tile<i32>
    %n32 = constant <i32: 32> : tile<i32>
    %n128 = constant <i32: 128> : tile<i32>
    %n512 = constant <i32: 512> : tile<i32>
    %av = make_tensor_view %a, shape = [%n128, %n128], strides = [%n128, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
    %at, %t0 = load_view_tko weak %ap[%c0, %c0] token = %tok : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x128xf16>, token
    %bv = make_tensor_view %b, shape = [%n128, %n16], strides = [%n16, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bp = make_partition_view %bv : partition_view<tile=(128x16), tensor_view<?x?xf16, strides=[?,1]>>
    %bt, %t1 = load_view_tko weak %bp[%c0, %c0] token = %tok : partition_view<tile=(128x16), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x16xf16>, token
    %sav = make_tensor_view %sa, shape = [%n1, %n1, %n32, %n16], strides = [%n512, %n512, %n16, 1] : tile<i32> -> tensor_view<?x?x?x?xi32, strides=[?,?,?,1]>
    %sap = make_partition_view %sav : partition_view<tile=(1x1x32x16), tensor_view<?x?x?x?xi32, strides=[?,?,?,1]>>
    %saw, %t2 = load_view_tko weak %sap[%c0, %c0, %c0, %c0] token = %tok : partition_view<tile=(1x1x32x16), tensor_view<?x?x?x?xi32, strides=[?,?,?,1]>>, tile<i32> -> tile<1x1x32x16xi32>, token
    %sa8 = trunci %saw : tile<1x1x32x16xi32> -> tile<1x1x32x16xi8>
    %sae = bitcast %sa8 : tile<1x1x32x16xi8> -> tile<1x1x32x16xf8E8M0FNU>
    %sa5 = reshape %sae : tile<1x1x32x16xf8E8M0FNU> -> tile<1x1x32x4x4xf8E8M0FNU>
    %sap5 = permute %sa5 [0, 3, 2, 1, 4] : tile<1x1x32x4x4xf8E8M0FNU> -> tile<1x4x32x1x4xf8E8M0FNU>
    %sa2 = reshape %sap5 : tile<1x4x32x1x4xf8E8M0FNU> -> tile<128x4xf8E8M0FNU>
    %sbv = make_tensor_view %sb, shape = [%n4, %n16], strides = [%n16, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %sbp = make_partition_view %sbv : partition_view<tile=(4x16), tensor_view<?x?xi32, strides=[?,1]>>
    %sbw, %t3 = load_view_tko weak %sbp[%c0, %c0] token = %tok : partition_view<tile=(4x16), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<4x16xi32>, token
    %sb8 = trunci %sbw : tile<4x16xi32> -> tile<4x16xi8>
    %sbe = bitcast %sb8 : tile<4x16xi8> -> tile<4x16xf8E8M0FNU>
    %cv = make_tensor_view %c, shape = [%n128, %n16], strides = [%n16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %cp = make_partition_view %cv : partition_view<tile=(128x16), tensor_view<?x?xf32, strides=[?,1]>>
    %ct, %t4 = load_view_tko weak %cp[%c0, %c0] token = %tok : partition_view<tile=(128x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x16xf32>, token
    %r = mmaf_scaled %at, %bt, %ct, %sa2, %sbe : tile<128x128xf16>, tile<128x16xf16>, tile<128x16xf32>, tile<128x4xf8E8M0FNU>, tile<4x16xf8E8M0FNU>
    %dv = make_tensor_view %d, shape = [%n128, %n16], strides = [%n16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %dp = make_partition_view %dv : partition_view<tile=(128x16), tensor_view<?x?xf32, strides=[?,1]>>
    %t5 = store_view_tko weak %r, %dp[%c0, %c0] token = %tok : tile<128x16xf32>, partition_view<tile=(128x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
