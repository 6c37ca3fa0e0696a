// 3-D permute [2, 0, 1] of a 4x8x16 tile.
cuda_tile.module @kernels {
  entry @permute(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %v1 = iota : tile<4xi32>
    %v2 = reshape %v1 : tile<4xi32> -> tile<4x1x1xi32>
    %v3 = broadcast %v2 : tile<4x1x1xi32> -> tile<4x8x16xi32>
    %v4 = constant <i32: 128> : tile<4x8x16xi32>
    %v5 = muli %v3, %v4 : tile<4x8x16xi32>
    %v6 = iota : tile<8xi32>
    %v7 = reshape %v6 : tile<8xi32> -> tile<1x8x1xi32>
    %v8 = broadcast %v7 : tile<1x8x1xi32> -> tile<4x8x16xi32>
    %v9 = constant <i32: 16> : tile<4x8x16xi32>
    %v10 = muli %v8, %v9 : tile<4x8x16xi32>
    %v11 = addi %v5, %v10 : tile<4x8x16xi32>
    %v12 = iota : tile<16xi32>
    %v13 = reshape %v12 : tile<16xi32> -> tile<1x1x16xi32>
    %v14 = broadcast %v13 : tile<1x1x16xi32> -> tile<4x8x16xi32>
    %v15 = addi %v11, %v14 : tile<4x8x16xi32>
    %v16 = reshape %a : tile<ptr<f32>> -> tile<1x1x1xptr<f32>>
    %v17 = broadcast %v16 : tile<1x1x1xptr<f32>> -> tile<4x8x16xptr<f32>>
    %v18 = offset %v17, %v15 : tile<4x8x16xptr<f32>>, tile<4x8x16xi32> -> tile<4x8x16xptr<f32>>
    %x19, %t19 = load_ptr_tko weak %v18 : tile<4x8x16xptr<f32>> -> tile<4x8x16xf32>, token
    %v20 = permute %x19 [2, 0, 1] : tile<4x8x16xf32> -> tile<16x4x8xf32>
    %v21 = iota : tile<16xi32>
    %v22 = reshape %v21 : tile<16xi32> -> tile<16x1x1xi32>
    %v23 = broadcast %v22 : tile<16x1x1xi32> -> tile<16x4x8xi32>
    %v24 = constant <i32: 32> : tile<16x4x8xi32>
    %v25 = muli %v23, %v24 : tile<16x4x8xi32>
    %v26 = iota : tile<4xi32>
    %v27 = reshape %v26 : tile<4xi32> -> tile<1x4x1xi32>
    %v28 = broadcast %v27 : tile<1x4x1xi32> -> tile<16x4x8xi32>
    %v29 = constant <i32: 8> : tile<16x4x8xi32>
    %v30 = muli %v28, %v29 : tile<16x4x8xi32>
    %v31 = addi %v25, %v30 : tile<16x4x8xi32>
    %v32 = iota : tile<8xi32>
    %v33 = reshape %v32 : tile<8xi32> -> tile<1x1x8xi32>
    %v34 = broadcast %v33 : tile<1x1x8xi32> -> tile<16x4x8xi32>
    %v35 = addi %v31, %v34 : tile<16x4x8xi32>
    %v36 = reshape %b : tile<ptr<f32>> -> tile<1x1x1xptr<f32>>
    %v37 = broadcast %v36 : tile<1x1x1xptr<f32>> -> tile<16x4x8xptr<f32>>
    %v38 = offset %v37, %v35 : tile<16x4x8xptr<f32>>, tile<16x4x8xi32> -> tile<16x4x8xptr<f32>>
    %v39 = store_ptr_tko weak %v38, %v20 : tile<16x4x8xptr<f32>>, tile<16x4x8xf32> -> token
    return
  }
}
