// An iota of i8 (cuda_tile allows any integer type; tile_aa.iota counts in
// i32 or i64): tile-lower counts in i32 and truncates, so 0..255 wraps to
// -128..127 like i8 arithmetic. numeric.bats runs it in tile-emu.
cuda_tile.module @kernels {
  entry @iota8(%out: tile<ptr<i8>>) {
    %o = assume div_by<16>, %out : tile<ptr<i8>>
    %i = iota : tile<256xi8>
    %n = iota : tile<256xi32>
    %o1 = reshape %o : tile<ptr<i8>> -> tile<1xptr<i8>>
    %ob = broadcast %o1 : tile<1xptr<i8>> -> tile<256xptr<i8>>
    %p = offset %ob, %n : tile<256xptr<i8>>, tile<256xi32> -> tile<256xptr<i8>>
    %t = store_ptr_tko weak %p, %i : tile<256xptr<i8>>, tile<256xi8> -> token
    return
  }
}

// LOWER: %[[WIDE:.*]] = tile_as.iota 0 : tensor<256xi32>
// LOWER: arith.trunci %[[WIDE]] : tensor<256xi32> to tensor<256xi8>
