// Scale tiles whose k extent exceeds K (128 scales for 64 k) cannot say which
// block each k belongs to: tile-lower rejects the op with its location.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>) {
    %x = constant <f16: 1.0> : tile<16x64xf16>
    %y = constant <f16: 1.0> : tile<64x16xf16>
    %c = constant <f32: 0.0> : tile<16x16xf32>
    %sa = constant <f32: 1.0> : tile<16x128xf32>
    %sb = constant <f32: 1.0> : tile<128x16xf32>
    %d = mmaf_scaled %x, %y, %c, %sa, %sb : tile<16x64xf16>, tile<64x16xf16>, tile<16x16xf32>, tile<16x128xf32>, tile<128x16xf32>
    return
  }
}
