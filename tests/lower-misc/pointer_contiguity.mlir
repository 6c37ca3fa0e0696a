// The contiguity tile-lower proves for pointer-tile loads
// (AccessContiguity.cpp): runs along the innermost dimension that are
// adjacent, aligned to their byte size and under one mask bit. Each kernel
// loads one f16 tile; the checks pin the tile_as.load's
// contiguity (none printed: 1); the loads are stored back so that they
// stay.
cuda_tile.module @kernels {
  // base + iota, base 16-byte aligned: 8 f16 (16 bytes; the run is capped
  // by the base's alignment, not by the 64 adjacent elements).
  entry @aligned(%p: tile<ptr<f16>>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %i = iota : tile<64xi32>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<64xptr<f16>> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // A 4-byte aligned base: pairs.
  entry @base_div4(%p: tile<ptr<f16>>) {
    %a = assume div_by<4>, %p : tile<ptr<f16>>
    %i = iota : tile<64xi32>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<64xptr<f16>> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // Nothing known about the base: single elements.
  entry @unaligned(%p: tile<ptr<f16>>) {
    %i = iota : tile<64xi32>
    %b1 = reshape %p : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<64xptr<f16>> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // 63 - iota runs backwards: single elements.
  entry @reversed(%p: tile<ptr<f16>>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %i = iota : tile<64xi32>
    %c = constant <i32: 63> : tile<64xi32>
    %r = subi %c, %i : tile<64xi32>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %r : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<64xptr<f16>> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // Masked by i < n with n a multiple of 4: runs of 4 share their mask bit.
  entry @mask_lt(%p: tile<ptr<f16>>, %n: tile<i32>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %n4 = assume div_by<4>, %n : tile<i32>
    %i = iota : tile<64xi32>
    %n1 = reshape %n4 : tile<i32> -> tile<1xi32>
    %nb = broadcast %n1 : tile<1xi32> -> tile<64xi32>
    %m = cmpi less_than %i, %nb, signed : tile<64xi32> -> tile<64xi1>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q, %m : tile<64xptr<f16>>, tile<64xi1> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // i <= n flips inside a run even for a multiple of 16: single elements.
  entry @mask_le(%p: tile<ptr<f16>>, %n: tile<i32>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %n16 = assume div_by<16>, %n : tile<i32>
    %i = iota : tile<64xi32>
    %n1 = reshape %n16 : tile<i32> -> tile<1xi32>
    %nb = broadcast %n1 : tile<1xi32> -> tile<64xi32>
    %m = cmpi less_than_or_equal %i, %nb, signed : tile<64xi32> -> tile<64xi1>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q, %m : tile<64xptr<f16>>, tile<64xi1> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
  // Rows of a 2-D tile, row * stride + column with the stride a multiple of
  // 2 only: each row starts 4-byte aligned, so pairs.
  entry @row_stride(%p: tile<ptr<f16>>, %s: tile<i32>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %s2 = assume div_by<2>, %s : tile<i32>
    %r = iota : tile<16xi32>
    %r1 = reshape %r : tile<16xi32> -> tile<16x1xi32>
    %rb = broadcast %r1 : tile<16x1xi32> -> tile<16x64xi32>
    %s1 = reshape %s2 : tile<i32> -> tile<1x1xi32>
    %sb = broadcast %s1 : tile<1x1xi32> -> tile<16x64xi32>
    %ro = muli %rb, %sb : tile<16x64xi32>
    %c = iota : tile<64xi32>
    %c1 = reshape %c : tile<64xi32> -> tile<1x64xi32>
    %cb = broadcast %c1 : tile<1x64xi32> -> tile<16x64xi32>
    %o = addi %ro, %cb : tile<16x64xi32>
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %b = broadcast %b1 : tile<1x1xptr<f16>> -> tile<16x64xptr<f16>>
    %q = offset %b, %o : tile<16x64xptr<f16>>, tile<16x64xi32> -> tile<16x64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<16x64xptr<f16>> -> tile<16x64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<16x64xptr<f16>>, tile<16x64xf16> -> token
    return
  }
  // Offsets read from memory prove nothing.
  entry @loaded_offsets(%p: tile<ptr<f16>>, %o: tile<ptr<i32>>) {
    %a = assume div_by<16>, %p : tile<ptr<f16>>
    %oa = assume div_by<16>, %o : tile<ptr<i32>>
    %i = iota : tile<64xi32>
    %o1 = reshape %oa : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %o1 : tile<1xptr<i32>> -> tile<64xptr<i32>>
    %oq = offset %ob, %i : tile<64xptr<i32>>, tile<64xi32> -> tile<64xptr<i32>>
    %off, %t0 = load_ptr_tko weak %oq : tile<64xptr<i32>> -> tile<64xi32>, token
    %b1 = reshape %a : tile<ptr<f16>> -> tile<1xptr<f16>>
    %b = broadcast %b1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %q = offset %b, %off : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t = load_ptr_tko weak %q : tile<64xptr<f16>> -> tile<64xf16>, token
    %st = store_ptr_tko weak %q, %v : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
}

// LOWER-LABEL: func.func @aligned
// LOWER: tile_as.load %{{[0-9]+}} {contiguity = 8 : i64}
// LOWER-LABEL: func.func @base_div4
// LOWER: tile_as.load %{{[0-9]+}} {contiguity = 2 : i64}
// LOWER-LABEL: func.func @unaligned
// LOWER: tile_as.load %{{[0-9]+}} : tensor<64x!tile_as.ptr<f16, 1>
// LOWER-LABEL: func.func @reversed
// LOWER: tile_as.load %{{[0-9]+}} : tensor<64x!tile_as.ptr<f16, 1>
// LOWER-LABEL: func.func @mask_lt
// LOWER: tile_as.load %{{[0-9]+}}, %{{[0-9]+}} {contiguity = 4 : i64}
// LOWER-LABEL: func.func @mask_le
// LOWER: tile_as.load %{{[0-9]+}}, %{{[0-9]+}} : tensor<64x!tile_as.ptr<f16, 1>
// LOWER-LABEL: func.func @row_stride
// LOWER: tile_as.load %{{[0-9]+}} {contiguity = 2 : i64}
// LOWER-LABEL: func.func @loaded_offsets
// LOWER: tile_as.load %{{[0-9]+}} {contiguity = 4 : i64} : tensor<64x!tile_as.ptr<i32, 1>
// LOWER: tile_as.load %{{[0-9]+}} : tensor<64x!tile_as.ptr<f16, 1>
