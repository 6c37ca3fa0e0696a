// tile-lower | tile-sched | tile-llvm of an 8x16 f32 transpose.
cuda_tile.module @kernels {
  entry @permute(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %v1 = iota : tile<8xi32>
    %v2 = reshape %v1 : tile<8xi32> -> tile<8x1xi32>
    %v3 = broadcast %v2 : tile<8x1xi32> -> tile<8x16xi32>
    %v4 = constant <i32: 16> : tile<8x16xi32>
    %v5 = muli %v3, %v4 : tile<8x16xi32>
    %v6 = iota : tile<16xi32>
    %v7 = reshape %v6 : tile<16xi32> -> tile<1x16xi32>
    %v8 = broadcast %v7 : tile<1x16xi32> -> tile<8x16xi32>
    %v9 = addi %v5, %v8 : tile<8x16xi32>
    %v10 = reshape %a : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v11 = broadcast %v10 : tile<1x1xptr<f32>> -> tile<8x16xptr<f32>>
    %v12 = offset %v11, %v9 : tile<8x16xptr<f32>>, tile<8x16xi32> -> tile<8x16xptr<f32>>
    %x13, %t13 = load_ptr_tko weak %v12 : tile<8x16xptr<f32>> -> tile<8x16xf32>, token
    %v14 = permute %x13 [1, 0] : tile<8x16xf32> -> tile<16x8xf32>
    %v15 = iota : tile<16xi32>
    %v16 = reshape %v15 : tile<16xi32> -> tile<16x1xi32>
    %v17 = broadcast %v16 : tile<16x1xi32> -> tile<16x8xi32>
    %v18 = constant <i32: 8> : tile<16x8xi32>
    %v19 = muli %v17, %v18 : tile<16x8xi32>
    %v20 = iota : tile<8xi32>
    %v21 = reshape %v20 : tile<8xi32> -> tile<1x8xi32>
    %v22 = broadcast %v21 : tile<1x8xi32> -> tile<16x8xi32>
    %v23 = addi %v19, %v22 : tile<16x8xi32>
    %v24 = reshape %b : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %v25 = broadcast %v24 : tile<1x1xptr<f32>> -> tile<16x8xptr<f32>>
    %v26 = offset %v25, %v23 : tile<16x8xptr<f32>>, tile<16x8xi32> -> tile<16x8xptr<f32>>
    %v27 = store_ptr_tko weak %v26, %v14 : tile<16x8xptr<f32>>, tile<16x8xf32> -> token
    return
  }
}

// LOWER-LABEL: func.func @permute
// LOWER: %[[X:.*]] = tile_as.load %{{.*}} : tensor<8x16x!tile_as.ptr<f32, 1>> -> tensor<8x16xf32>
// LOWER-NEXT: %[[Y:.*]] = tile_as.permute %[[X]] [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
// LOWER: tile_as.store %{{.*}}, %[[Y]] : tensor<16x8x!tile_as.ptr<f32, 1>>, tensor<16x8xf32>

// Source and result take the default layouts of their shapes.
// SCHED: tile_as.permute %{{.*}} [1, 0] : tensor<8x16xf32, #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<16x8xf32, #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>

// 128 f32 = 512 bytes of scratch. Each thread's one loaded register is
// stored to shared memory between two barriers, read back from its permuted
// slot, and a last barrier frees the buffer before the global store.
// LLVM: llvm.mlir.global internal @__tile_scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x i8>
// LLVM-LABEL: llvm.func @permute
// LLVM: ld.global.b32
// LLVM: nvvm.barrier0
// LLVM-NEXT: %[[V:.*]] = llvm.extractelement
// LLVM-NEXT: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// LLVM-NEXT: llvm.store %[[V]], %[[P]] : f32, !llvm.ptr<3>
// LLVM-NEXT: nvvm.barrier0
// LLVM-NEXT: %[[Q:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// LLVM-NEXT: llvm.load %[[Q]] : !llvm.ptr<3> -> f32
// LLVM-NEXT: nvvm.barrier0
// LLVM: st.global.b32
