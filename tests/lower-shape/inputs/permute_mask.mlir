// permute of an i1 mask (stored as bytes in shared memory).
cuda_tile.module @kernels {
  entry @permute_mask(%a: tile<ptr<i32>>, %b: tile<ptr<i32>>) {
    %v1 = iota : tile<16xi32>
    %v2 = reshape %v1 : tile<16xi32> -> tile<16x1xi32>
    %v3 = broadcast %v2 : tile<16x1xi32> -> tile<16x32xi32>
    %v4 = constant <i32: 32> : tile<16x32xi32>
    %v5 = muli %v3, %v4 : tile<16x32xi32>
    %v6 = iota : tile<32xi32>
    %v7 = reshape %v6 : tile<32xi32> -> tile<1x32xi32>
    %v8 = broadcast %v7 : tile<1x32xi32> -> tile<16x32xi32>
    %v9 = addi %v5, %v8 : tile<16x32xi32>
    %v10 = reshape %a : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %v11 = broadcast %v10 : tile<1x1xptr<i32>> -> tile<16x32xptr<i32>>
    %v12 = offset %v11, %v9 : tile<16x32xptr<i32>>, tile<16x32xi32> -> tile<16x32xptr<i32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<16x32xptr<i32>> -> tile<16x32xi32>, token
    %v14 = constant <i32: 100> : tile<16x32xi32>
    %v15 = cmpi less_than %x13, %v14, signed : tile<16x32xi32> -> tile<16x32xi1>
    %v16 = permute %v15 [1, 0] : tile<16x32xi1> -> tile<32x16xi1>
    %v17 = exti %v16 unsigned : tile<32x16xi1> -> tile<32x16xi32>
    %v18 = iota : tile<32xi32>
    %v19 = reshape %v18 : tile<32xi32> -> tile<32x1xi32>
    %v20 = broadcast %v19 : tile<32x1xi32> -> tile<32x16xi32>
    %v21 = constant <i32: 16> : tile<32x16xi32>
    %v22 = muli %v20, %v21 : tile<32x16xi32>
    %v23 = iota : tile<16xi32>
    %v24 = reshape %v23 : tile<16xi32> -> tile<1x16xi32>
    %v25 = broadcast %v24 : tile<1x16xi32> -> tile<32x16xi32>
    %v26 = addi %v22, %v25 : tile<32x16xi32>
    %v27 = reshape %b : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %v28 = broadcast %v27 : tile<1x1xptr<i32>> -> tile<32x16xptr<i32>>
    %v29 = offset %v28, %v26 : tile<32x16xptr<i32>>, tile<32x16xi32> -> tile<32x16xptr<i32>>
    %v30 = store_ptr_tko weak %v29, %v17 : tile<32x16xptr<i32>>, tile<32x16xi32> -> token
    return
  }
}
