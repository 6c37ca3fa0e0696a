cuda_tile.module @kernels {
  entry @add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>) {
    %0 = iota : tile<128xi32>
    %pa = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa2 = broadcast %pa : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %pb = reshape %b : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb2 = broadcast %pb : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %pc = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pc2 = broadcast %pc : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qa = offset %pa2, %0 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %qb = offset %pb2, %0 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %qc = offset %pc2, %0 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t1 = load_ptr_tko weak %qa : tile<128xptr<f32>> -> tile<128xf32>, token
    %y, %t2 = load_ptr_tko weak %qb : tile<128xptr<f32>> -> tile<128xf32>, token
    %z = addf %x, %y rounding<nearest_even> : tile<128xf32>
    %t3 = store_ptr_tko weak %qc, %z : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
