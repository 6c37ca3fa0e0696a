// cat two 16x32 tiles along dim 1 (16x64).
cuda_tile.module @kernels {
  entry @cat(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>) {
    %v1 = iota : tile<16xi32>
    %v2 = reshape %v1 : tile<16xi32> -> tile<16x1xi32>
    %v3 = broadcast %v2 : tile<16x1xi32> -> tile<16x32xi32>
    %v4 = constant <i32: 32> : tile<16x32xi32>
    %v5 = muli %v3, %v4 : tile<16x32xi32>
    %v6 = iota : tile<32xi32>
    %v7 = reshape %v6 : tile<32xi32> -> tile<1x32xi32>
    %v8 = broadcast %v7 : tile<1x32xi32> -> tile<16x32xi32>
    %v9 = addi %v5, %v8 : tile<16x32xi32>
    %v10 = reshape %a : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v11 = broadcast %v10 : tile<1x1xptr<f32>> -> tile<16x32xptr<f32>>
    %v12 = offset %v11, %v9 : tile<16x32xptr<f32>>, tile<16x32xi32> -> tile<16x32xptr<f32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<16x32xptr<f32>> -> tile<16x32xf32>, token
    %v14 = iota : tile<16xi32>
    %v15 = reshape %v14 : tile<16xi32> -> tile<16x1xi32>
    %v16 = broadcast %v15 : tile<16x1xi32> -> tile<16x32xi32>
    %v17 = constant <i32: 32> : tile<16x32xi32>
    %v18 = muli %v16, %v17 : tile<16x32xi32>
    %v19 = iota : tile<32xi32>
    %v20 = reshape %v19 : tile<32xi32> -> tile<1x32xi32>
    %v21 = broadcast %v20 : tile<1x32xi32> -> tile<16x32xi32>
    %v22 = addi %v18, %v21 : tile<16x32xi32>
    %v23 = reshape %b : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v24 = broadcast %v23 : tile<1x1xptr<f32>> -> tile<16x32xptr<f32>>
    %v25 = offset %v24, %v22 : tile<16x32xptr<f32>>, tile<16x32xi32> -> tile<16x32xptr<f32>>
    %x26, %t26 = load_ptr_tko weak %v25 : tile<16x32xptr<f32>> -> tile<16x32xf32>, token
    %v27 = cat %x13, %x26 dim = 1 : tile<16x32xf32>, tile<16x32xf32> -> tile<16x64xf32>
    %v28 = iota : tile<16xi32>
    %v29 = reshape %v28 : tile<16xi32> -> tile<16x1xi32>
    %v30 = broadcast %v29 : tile<16x1xi32> -> tile<16x64xi32>
    %v31 = constant <i32: 64> : tile<16x64xi32>
    %v32 = muli %v30, %v31 : tile<16x64xi32>
    %v33 = iota : tile<64xi32>
    %v34 = reshape %v33 : tile<64xi32> -> tile<1x64xi32>
    %v35 = broadcast %v34 : tile<1x64xi32> -> tile<16x64xi32>
    %v36 = addi %v32, %v35 : tile<16x64xi32>
    %v37 = reshape %c : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v38 = broadcast %v37 : tile<1x1xptr<f32>> -> tile<16x64xptr<f32>>
    %v39 = offset %v38, %v36 : tile<16x64xptr<f32>>, tile<16x64xi32> -> tile<16x64xptr<f32>>
    %v40 = store_ptr_tko weak %v39, %v27 : tile<16x64xptr<f32>>, tile<16x64xf32> -> token
    return
  }
}
