// f16 transpose of a 64x32 tile.
cuda_tile.module @kernels {
  entry @permute(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>) {
    %v1 = iota : tile<64xi32>
    %v2 = reshape %v1 : tile<64xi32> -> tile<64x1xi32>
    %v3 = broadcast %v2 : tile<64x1xi32> -> tile<64x32xi32>
    %v4 = constant <i32: 32> : tile<64x32xi32>
    %v5 = muli %v3, %v4 : tile<64x32xi32>
    %v6 = iota : tile<32xi32>
    %v7 = reshape %v6 : tile<32xi32> -> tile<1x32xi32>
    %v8 = broadcast %v7 : tile<1x32xi32> -> tile<64x32xi32>
    %v9 = addi %v5, %v8 : tile<64x32xi32>
    %v10 = reshape %a : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %v11 = broadcast %v10 : tile<1x1xptr<f16>> -> tile<64x32xptr<f16>>
    %v12 = offset %v11, %v9 : tile<64x32xptr<f16>>, tile<64x32xi32> -> tile<64x32xptr<f16>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<64x32xptr<f16>> -> tile<64x32xf16>, token
    %v14 = permute %x13 [1, 0] : tile<64x32xf16> -> tile<32x64xf16>
    %v15 = iota : tile<32xi32>
    %v16 = reshape %v15 : tile<32xi32> -> tile<32x1xi32>
    %v17 = broadcast %v16 : tile<32x1xi32> -> tile<32x64xi32>
    %v18 = constant <i32: 64> : tile<32x64xi32>
    %v19 = muli %v17, %v18 : tile<32x64xi32>
    %v20 = iota : tile<64xi32>
    %v21 = reshape %v20 : tile<64xi32> -> tile<1x64xi32>
    %v22 = broadcast %v21 : tile<1x64xi32> -> tile<32x64xi32>
    %v23 = addi %v19, %v22 : tile<32x64xi32>
    %v24 = reshape %b : tile<ptr<f16>> -> tile<1x1xptr<f16>>
    %v25 = broadcast %v24 : tile<1x1xptr<f16>> -> tile<32x64xptr<f16>>
    %v26 = offset %v25, %v23 : tile<32x64xptr<f16>>, tile<32x64xi32> -> tile<32x64xptr<f16>>
    %v27 = store_ptr_tko weak %v26, %v14 : tile<32x64xptr<f16>>, tile<32x64xf16> -> token
    return
  }
}
