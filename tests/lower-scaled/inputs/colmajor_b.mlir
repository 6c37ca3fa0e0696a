// Block-scaled mma.sync with B and its scales column-major, as cuTile's
// BlockScaledMatMul reads them: A (32x128 fp8) and its scales (32x4 e8m0)
// row-major, B (128x32 fp8, strides [1, 128]) and its scales (4x32, strides
// [1, 4]) K-contiguous. The loads read B and its scales N x K in runs along K
// and permute them back (unit_stride_bytes.mlir); AssignLayouts gives the
// permutes their sources' layouts permuted, so they move no data, and the
// mma.sync staging stores B's registers (runs of 16 along K) to its K-major
// rows 16 bytes at a time.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %sa: tile<ptr<f8E8M0FNU>>,
           %sb: tile<ptr<f8E8M0FNU>>, %d: tile<ptr<f32>>) {
    %tok = make_token : token
    %ap = assume div_by<16>, %a : tile<ptr<f8E4M3FN>>
    %bp = assume div_by<16>, %b : tile<ptr<f8E4M3FN>>
    %sap = assume div_by<16>, %sa : tile<ptr<f8E8M0FNU>>
    %sbp = assume div_by<16>, %sb : tile<ptr<f8E8M0FNU>>
    %dp = assume div_by<16>, %d : tile<ptr<f32>>
    %c0 = constant <i32: 0> : tile<i32>
    %c32 = constant <i32: 32> : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %tva = make_tensor_view %ap, shape = [%c32, %c128], strides = [%c128, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(32x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %ta, %t1 = load_view_tko weak %pva[%c0, %c0] token = %tok : partition_view<tile=(32x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<32x128xf8E4M3FN>, token
    %tvb = make_tensor_view %bp, shape = [%c128, %c32], strides = [1, %c128] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[1,?]>
    %pvb = make_partition_view %tvb : partition_view<tile=(128x32), tensor_view<?x?xf8E4M3FN, strides=[1,?]>>
    %tb, %t2 = load_view_tko weak %pvb[%c0, %c0] token = %tok : partition_view<tile=(128x32), tensor_view<?x?xf8E4M3FN, strides=[1,?]>>, tile<i32> -> tile<128x32xf8E4M3FN>, token
    %tvsa = make_tensor_view %sap, shape = [%c32, %c4], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf8E8M0FNU, strides=[?,1]>
    %pvsa = make_partition_view %tvsa : partition_view<tile=(32x4), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>
    %tsa, %t3 = load_view_tko weak %pvsa[%c0, %c0] token = %tok : partition_view<tile=(32x4), tensor_view<?x?xf8E8M0FNU, strides=[?,1]>>, tile<i32> -> tile<32x4xf8E8M0FNU>, token
    %tvsb = make_tensor_view %sbp, shape = [%c4, %c32], strides = [1, %c4] : tile<i32> -> tensor_view<?x?xf8E8M0FNU, strides=[1,?]>
    %pvsb = make_partition_view %tvsb : partition_view<tile=(4x32), tensor_view<?x?xf8E8M0FNU, strides=[1,?]>>
    %tsb, %t4 = load_view_tko weak %pvsb[%c0, %c0] token = %tok : partition_view<tile=(4x32), tensor_view<?x?xf8E8M0FNU, strides=[1,?]>>, tile<i32> -> tile<4x32xf8E8M0FNU>, token
    %zero = constant <f32: 0.000000e+00> : tile<32x32xf32>
    %acc = mmaf_scaled %ta, %tb, %zero, %tsa, %tsb : tile<32x128xf8E4M3FN>, tile<128x32xf8E4M3FN>, tile<32x32xf32>, tile<32x4xf8E8M0FNU>, tile<4x32xf8E8M0FNU>
    %tvd = make_tensor_view %dp, shape = [%c32, %c32], strides = [%c32, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pvd = make_partition_view %tvd : partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>
    %st = store_view_tko weak %acc, %pvd[%c0, %c0] token = %tok : tile<32x32xf32>, partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// B reaches the multiply in its load's layout permuted (runs of 16 along K),
// its scales likewise:
// SCHED: %[[BT:.*]] = tile_as.permute %{{.*}} [1, 0] : tensor<32x128xf8E4M3FN, #tile_as.blocked<sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<128x32xf8E4M3FN, #tile_as.blocked<sizePerThread = [16, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
// SCHED: %[[SBT:.*]] = tile_as.permute %{{.*}} [1, 0] : tensor<32x4xf8E8M0FNU, #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]>> -> tensor<4x32xf8E8M0FNU, #tile_as.blocked<sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]>>
// SCHED: tile_as.mmaf_scaled %{{.*}}, %[[BT]], %{{.*}} scales(%{{.*}}, %[[SBT]])
