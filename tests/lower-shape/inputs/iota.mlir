// An iota of 512 stored through a pointer tile: 4 warps, 4 consecutive
// registers per thread (tile-lower proves the store's pointers contiguous,
// so it becomes one st.global.v4). tile-llvm builds the coordinates as one splat of the
// thread's base plus a constant vector (RegisterEmitter::coordinateVector),
// the form in which LLVM folds the constants into their users (stages.bats).
cuda_tile.module @kernels {
  entry @k(%out: tile<ptr<i32>>) {
    %o = assume div_by<16>, %out : tile<ptr<i32>>
    %i = iota : tile<512xi32>
    %o1 = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %o1 : tile<1xptr<i32>> -> tile<512xptr<i32>>
    %p = offset %ob, %i : tile<512xptr<i32>>, tile<512xi32> -> tile<512xptr<i32>>
    %t = store_ptr_tko weak %p, %i : tile<512xptr<i32>>, tile<512xi32> -> token
    return
  }
}

// LLVM: %[[C:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi32>) : vector<4xi32>
// LLVM: %[[B:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<4xi32>
// LLVM-NEXT: llvm.add %[[B]], %[[C]] : vector<4xi32>
