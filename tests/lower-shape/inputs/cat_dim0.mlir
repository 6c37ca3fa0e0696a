// cat two 16x32 f16 tiles along dim 0 (32x32).
cuda_tile.module @kernels {
  entry @cat(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f16>>) {
    %v1 = iota : tile<16xi32>
    %v2 = reshape %v1 : tile<16xi32> -> tile<16x1xi32>
    %v3 = broadcast %v2 : tile<16x1xi32> -> tile<16x32xi32>
    %v4 = constant <i32: 32> : tile<16x32xi32>
    %v5 = muli %v3, %v4 : tile<16x32xi32>
    %v6 = iota : tile<32xi32>
    %v7 = reshape %v6 : tile<32xi32> -> tile<1x32xi32>
    %v8 = broadcast %v7 : tile<1x32xi32> -> tile<16x32xi32>
    %v9 = addi %v5, %v8 : tile<16x32xi32>
    %v10 = reshape %a : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %v11 = broadcast %v10 : tile<1x1xptr<f16>> -> tile<16x32xptr<f16>>
    %v12 = offset %v11, %v9 : tile<16x32xptr<f16>>, tile<16x32xi32> -> tile<16x32xptr<f16>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<16x32xptr<f16>> -> tile<16x32xf16>, token
    %v14 = iota : tile<16xi32>
    %v15 = reshape %v14 : tile<16xi32> -> tile<16x1xi32>
    %v16 = broadcast %v15 : tile<16x1xi32> -> tile<16x32xi32>
    %v17 = constant <i32: 32> : tile<16x32xi32>
    %v18 = muli %v16, %v17 : tile<16x32xi32>
    %v19 = iota : tile<32xi32>
    %v20 = reshape %v19 : tile<32xi32> -> tile<1x32xi32>
    %v21 = broadcast %v20 : tile<1x32xi32> -> tile<16x32xi32>
    %v22 = addi %v18, %v21 : tile<16x32xi32>
    %v23 = reshape %b : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %v24 = broadcast %v23 : tile<1x1xptr<f16>> -> tile<16x32xptr<f16>>
    %v25 = offset %v24, %v22 : tile<16x32xptr<f16>>, tile<16x32xi32> -> tile<16x32xptr<f16>>
    %x26, %t26 = load_ptr_tko weak %v25 : tile<16x32xptr<f16>> -> tile<16x32xf16>, token
    %v27 = cat %x13, %x26 dim = 0 : tile<16x32xf16>, tile<16x32xf16> -> tile<32x32xf16>
    %v28 = iota : tile<32xi32>
    %v29 = reshape %v28 : tile<32xi32> -> tile<32x1xi32>
    %v30 = broadcast %v29 : tile<32x1xi32> -> tile<32x32xi32>
    %v31 = constant <i32: 32> : tile<32x32xi32>
    %v32 = muli %v30, %v31 : tile<32x32xi32>
    %v33 = iota : tile<32xi32>
    %v34 = reshape %v33 : tile<32xi32> -> tile<1x32xi32>
    %v35 = broadcast %v34 : tile<1x32xi32> -> tile<32x32xi32>
    %v36 = addi %v32, %v35 : tile<32x32xi32>
    %v37 = reshape %c : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %v38 = broadcast %v37 : tile<1x1xptr<f16>> -> tile<32x32xptr<f16>>
    %v39 = offset %v38, %v36 : tile<32x32xptr<f16>>, tile<32x32xi32> -> tile<32x32xptr<f16>>
    %v40 = store_ptr_tko weak %v39, %v27 : tile<32x32xptr<f16>>, tile<32x32xf16> -> token
    return
  }
}
