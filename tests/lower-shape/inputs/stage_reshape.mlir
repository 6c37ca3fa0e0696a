// tile-lower | tile-sched | tile-llvm of an 8x16 -> 4x32 i32 reshape.
cuda_tile.module @kernels {
  entry @reshape(%a: tile<ptr<i32>>, %b: tile<ptr<i32>>) {
    %v1 = iota : tile<8xi32>
    %v2 = reshape %v1 : tile<8xi32> -> tile<8x1xi32>
    %v3 = broadcast %v2 : tile<8x1xi32> -> tile<8x16xi32>
    %v4 = constant <i32: 16> : tile<8x16xi32>
    %v5 = muli %v3, %v4 : tile<8x16xi32>
    %v6 = iota : tile<16xi32>
    %v7 = reshape %v6 : tile<16xi32> -> tile<1x16xi32>
    %v8 = broadcast %v7 : tile<1x16xi32> -> tile<8x16xi32>
    %v9 = addi %v5, %v8 : tile<8x16xi32>
    %v10 = reshape %a : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %v11 = broadcast %v10 : tile<1x1xptr<i32>> -> tile<8x16xptr<i32>>
    %v12 = offset %v11, %v9 : tile<8x16xptr<i32>>, tile<8x16xi32> -> tile<8x16xptr<i32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<8x16xptr<i32>> -> tile<8x16xi32>, token
    %v14 = reshape %x13 : tile<8x16xi32> -> tile<4x32xi32>
    %v15 = iota : tile<4xi32>
    %v16 = reshape %v15 : tile<4xi32> -> tile<4x1xi32>
    %v17 = broadcast %v16 : tile<4x1xi32> -> tile<4x32xi32>
    %v18 = constant <i32: 32> : tile<4x32xi32>
    %v19 = muli %v17, %v18 : tile<4x32xi32>
    %v20 = iota : tile<32xi32>
    %v21 = reshape %v20 : tile<32xi32> -> tile<1x32xi32>
    %v22 = broadcast %v21 : tile<1x32xi32> -> tile<4x32xi32>
    %v23 = addi %v19, %v22 : tile<4x32xi32>
    %v24 = reshape %b : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %v25 = broadcast %v24 : tile<1x1xptr<i32>> -> tile<4x32xptr<i32>>
    %v26 = offset %v25, %v23 : tile<4x32xptr<i32>>, tile<4x32xi32> -> tile<4x32xptr<i32>>
    %v27 = store_ptr_tko weak %v26, %v14 : tile<4x32xptr<i32>>, tile<4x32xi32> -> token
    return
  }
}

// LOWER-LABEL: func.func @reshape
// LOWER: %[[X:.*]] = tile_as.load %{{.*}} : tensor<8x16x!tile_as.ptr<i32, 1>> -> tensor<8x16xi32>
// LOWER-NEXT: %[[Y:.*]] = tile_as.reshape %[[X]] : tensor<8x16xi32> -> tensor<4x32xi32>
// LOWER: tile_as.store %{{.*}}, %[[Y]] : tensor<4x32x!tile_as.ptr<i32, 1>>, tensor<4x32xi32>

// The two shapes get different layouts, so the elements move through
// shared memory: written at their row-major index in 8x16, read back at
// theirs in 4x32.
// LLVM-LABEL: llvm.func @reshape
// LLVM: ld.global.b32
// LLVM: nvvm.barrier0
// LLVM-NEXT: %[[V:.*]] = llvm.extractelement
// LLVM-NEXT: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// LLVM-NEXT: llvm.store %[[V]], %[[P]] : i32, !llvm.ptr<3>
// LLVM-NEXT: nvvm.barrier0
// LLVM-NEXT: %[[Q:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// LLVM-NEXT: llvm.load %[[Q]] : !llvm.ptr<3> -> i32
// LLVM-NEXT: nvvm.barrier0
// LLVM: st.global.b32
