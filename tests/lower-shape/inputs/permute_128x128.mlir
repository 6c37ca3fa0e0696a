// 128x128 f32 transpose: 64 KiB, more than the 48 KiB of static shared memory, so it moves in chunks.
cuda_tile.module @kernels {
  entry @permute(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %v1 = iota : tile<128xi32>
    %v2 = reshape %v1 : tile<128xi32> -> tile<128x1xi32>
    %v3 = broadcast %v2 : tile<128x1xi32> -> tile<128x128xi32>
    %v4 = constant <i32: 128> : tile<128x128xi32>
    %v5 = muli %v3, %v4 : tile<128x128xi32>
    %v6 = iota : tile<128xi32>
    %v7 = reshape %v6 : tile<128xi32> -> tile<1x128xi32>
    %v8 = broadcast %v7 : tile<1x128xi32> -> tile<128x128xi32>
    %v9 = addi %v5, %v8 : tile<128x128xi32>
    %v10 = reshape %a : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v11 = broadcast %v10 : tile<1x1xptr<f32>> -> tile<128x128xptr<f32>>
    %v12 = offset %v11, %v9 : tile<128x128xptr<f32>>, tile<128x128xi32> -> tile<128x128xptr<f32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<128x128xptr<f32>> -> tile<128x128xf32>, token
    %v14 = permute %x13 [1, 0] : tile<128x128xf32> -> tile<128x128xf32>
    %v15 = iota : tile<128xi32>
    %v16 = reshape %v15 : tile<128xi32> -> tile<128x1xi32>
    %v17 = broadcast %v16 : tile<128x1xi32> -> tile<128x128xi32>
    %v18 = constant <i32: 128> : tile<128x128xi32>
    %v19 = muli %v17, %v18 : tile<128x128xi32>
    %v20 = iota : tile<128xi32>
    %v21 = reshape %v20 : tile<128xi32> -> tile<1x128xi32>
    %v22 = broadcast %v21 : tile<1x128xi32> -> tile<128x128xi32>
    %v23 = addi %v19, %v22 : tile<128x128xi32>
    %v24 = reshape %b : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v25 = broadcast %v24 : tile<1x1xptr<f32>> -> tile<128x128xptr<f32>>
    %v26 = offset %v25, %v23 : tile<128x128xptr<f32>>, tile<128x128xi32> -> tile<128x128xptr<f32>>
    %v27 = store_ptr_tko weak %v26, %v14 : tile<128x128xptr<f32>>, tile<128x128xf32> -> token
    return
  }
}
