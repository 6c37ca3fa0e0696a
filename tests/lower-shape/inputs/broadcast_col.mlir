// broadcast a loaded 32x1 column to 32x64.
cuda_tile.module @kernels {
  entry @broadcast(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %v1 = iota : tile<32xi32>
    %v2 = reshape %v1 : tile<32xi32> -> tile<32x1xi32>
    %v3 = broadcast %v2 : tile<32x1xi32> -> tile<32x1xi32>
    %v4 = iota : tile<1xi32>
    %v5 = reshape %v4 : tile<1xi32> -> tile<1x1xi32>
    %v6 = broadcast %v5 : tile<1x1xi32> -> tile<32x1xi32>
    %v7 = addi %v3, %v6 : tile<32x1xi32>
    %v8 = reshape %a : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v9 = broadcast %v8 : tile<1x1xptr<f32>> -> tile<32x1xptr<f32>>
    %v10 = offset %v9, %v7 : tile<32x1xptr<f32>>, tile<32x1xi32> -> tile<32x1xptr<f32>>
    %x11, %t11 = load_ptr_tko weak %v10 : tile<32x1xptr<f32>> -> tile<32x1xf32>, token
    %v12 = broadcast %x11 : tile<32x1xf32> -> tile<32x64xf32>
    %v13 = iota : tile<32xi32>
    %v14 = reshape %v13 : tile<32xi32> -> tile<32x1xi32>
    %v15 = broadcast %v14 : tile<32x1xi32> -> tile<32x64xi32>
    %v16 = constant <i32: 64> : tile<32x64xi32>
    %v17 = muli %v15, %v16 : tile<32x64xi32>
    %v18 = iota : tile<64xi32>
    %v19 = reshape %v18 : tile<64xi32> -> tile<1x64xi32>
    %v20 = broadcast %v19 : tile<1x64xi32> -> tile<32x64xi32>
    %v21 = addi %v17, %v20 : tile<32x64xi32>
    %v22 = reshape %b : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v23 = broadcast %v22 : tile<1x1xptr<f32>> -> tile<32x64xptr<f32>>
    %v24 = offset %v23, %v21 : tile<32x64xptr<f32>>, tile<32x64xi32> -> tile<32x64xptr<f32>>
    %v25 = store_ptr_tko weak %v24, %v12 : tile<32x64xptr<f32>>, tile<32x64xf32> -> token
    return
  }
}
