// sin, cos and tan of f32 and f64 tiles (128 elements). libdevice reduces
// large arguments with inline PTX carry chains (mad.lo.cc/madc.hi), which
// tile-emu translates into IR; inputs up to 1e30 take that path.
cuda_tile.module @trig {
  entry @trig32(%x: tile<ptr<f32>>, %s: tile<ptr<f32>>, %c: tile<ptr<f32>>, %t: tile<ptr<f32>>) {
    %idx = iota : tile<128xi32>
    %px = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bx = broadcast %px : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qx = offset %bx, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %v, %tok = load_ptr_tko weak %qx : tile<128xptr<f32>> -> tile<128xf32>, token
    %sv = sin %v : tile<128xf32>
    %cv = cos %v : tile<128xf32>
    %tv = tan %v : tile<128xf32>
    %ps = reshape %s : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bs = broadcast %ps : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qs = offset %bs, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %t1 = store_ptr_tko weak %qs, %sv : tile<128xptr<f32>>, tile<128xf32> -> token
    %pc = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bc = broadcast %pc : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qc = offset %bc, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %t2 = store_ptr_tko weak %qc, %cv : tile<128xptr<f32>>, tile<128xf32> -> token
    %pt = reshape %t : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bt = broadcast %pt : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qt = offset %bt, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %t3 = store_ptr_tko weak %qt, %tv : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
  entry @trig64(%x: tile<ptr<f64>>, %s: tile<ptr<f64>>, %c: tile<ptr<f64>>) {
    %idx = iota : tile<128xi32>
    %px = reshape %x : tile<ptr<f64>> -> tile<1xptr<f64>>
    %bx = broadcast %px : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %qx = offset %bx, %idx : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %v, %tok = load_ptr_tko weak %qx : tile<128xptr<f64>> -> tile<128xf64>, token
    %sv = sin %v : tile<128xf64>
    %cv = cos %v : tile<128xf64>
    %ps = reshape %s : tile<ptr<f64>> -> tile<1xptr<f64>>
    %bs = broadcast %ps : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %qs = offset %bs, %idx : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %t1 = store_ptr_tko weak %qs, %sv : tile<128xptr<f64>>, tile<128xf64> -> token
    %pc = reshape %c : tile<ptr<f64>> -> tile<1xptr<f64>>
    %bc = broadcast %pc : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %qc = offset %bc, %idx : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %t2 = store_ptr_tko weak %qc, %cv : tile<128xptr<f64>>, tile<128xf64> -> token
    return
  }
}
