// reshape 8x64 -> 4x2x64 of i32.
cuda_tile.module @kernels {
  entry @reshape(%a: tile<ptr<i32>>, %b: tile<ptr<i32>>) {
    %v1 = iota : tile<8xi32>
    %v2 = reshape %v1 : tile<8xi32> -> tile<8x1xi32>
    %v3 = broadcast %v2 : tile<8x1xi32> -> tile<8x64xi32>
    %v4 = constant <i32: 64> : tile<8x64xi32>
    %v5 = muli %v3, %v4 : tile<8x64xi32>
    %v6 = iota : tile<64xi32>
    %v7 = reshape %v6 : tile<64xi32> -> tile<1x64xi32>
    %v8 = broadcast %v7 : tile<1x64xi32> -> tile<8x64xi32>
    %v9 = addi %v5, %v8 : tile<8x64xi32>
    %v10 = reshape %a : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %v11 = broadcast %v10 : tile<1x1xptr<i32>> -> tile<8x64xptr<i32>>
    %v12 = offset %v11, %v9 : tile<8x64xptr<i32>>, tile<8x64xi32> -> tile<8x64xptr<i32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<8x64xptr<i32>> -> tile<8x64xi32>, token
    %v14 = reshape %x13 : tile<8x64xi32> -> tile<4x2x64xi32>
    %v15 = iota : tile<4xi32>
    %v16 = reshape %v15 : tile<4xi32> -> tile<4x1x1xi32>
    %v17 = broadcast %v16 : tile<4x1x1xi32> -> tile<4x2x64xi32>
    %v18 = constant <i32: 128> : tile<4x2x64xi32>
    %v19 = muli %v17, %v18 : tile<4x2x64xi32>
    %v20 = iota : tile<2xi32>
    %v21 = reshape %v20 : tile<2xi32> -> tile<1x2x1xi32>
    %v22 = broadcast %v21 : tile<1x2x1xi32> -> tile<4x2x64xi32>
    %v23 = constant <i32: 64> : tile<4x2x64xi32>
    %v24 = muli %v22, %v23 : tile<4x2x64xi32>
    %v25 = addi %v19, %v24 : tile<4x2x64xi32>
    %v26 = iota : tile<64xi32>
    %v27 = reshape %v26 : tile<64xi32> -> tile<1x1x64xi32>
    %v28 = broadcast %v27 : tile<1x1x64xi32> -> tile<4x2x64xi32>
    %v29 = addi %v25, %v28 : tile<4x2x64xi32>
    %v30 = reshape %b : tile<ptr<i32>> -> tile<1x1x1xptr<i32>>
    %v31 = broadcast %v30 : tile<1x1x1xptr<i32>> -> tile<4x2x64xptr<i32>>
    %v32 = offset %v31, %v29 : tile<4x2x64xptr<i32>>, tile<4x2x64xi32> -> tile<4x2x64xptr<i32>>
    %v33 = store_ptr_tko weak %v32, %v14 : tile<4x2x64xptr<i32>>, tile<4x2x64xi32> -> token
    return
  }
}
