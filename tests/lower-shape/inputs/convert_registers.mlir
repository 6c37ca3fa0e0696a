// tile-llvm input: convert_layout between two blocked layouts that differ
// only in the order of a thread's registers (a warp's 32 threads along
// dim1 either way, warps along dim0): the lane and warp parts of the
// linear layouts agree, so the conversion is one shufflevector, no
// shuffle between lanes and no shared memory.
#a = #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]>
module attributes {tile_as.num_warps = 4 : i32} {
  func.func @convert(%out: !tile_as.ptr<i32, 1>) {
    %rows = tile_as.iota 0 : tensor<8x64xi32, #a>
    %cols = tile_as.iota 1 : tensor<8x64xi32, #a>
    %c64 = arith.constant dense<64> : tensor<8x64xi32, #a>
    %r64 = arith.muli %rows, %c64 : tensor<8x64xi32, #a>
    %index = arith.addi %r64, %cols : tensor<8x64xi32, #a>
    %moved = tile_as.convert_layout %index : tensor<8x64xi32, #a> -> tensor<8x64xi32, #b>
    %rows2 = tile_as.iota 0 : tensor<8x64xi32, #b>
    %cols2 = tile_as.iota 1 : tensor<8x64xi32, #b>
    %d64 = arith.constant dense<64> : tensor<8x64xi32, #b>
    %s64 = arith.muli %rows2, %d64 : tensor<8x64xi32, #b>
    %offs = arith.addi %s64, %cols2 : tensor<8x64xi32, #b>
    %base = tile_as.splat %out : tensor<8x64x!tile_as.ptr<i32, 1>, #b>
    %ptrs = tile_as.addptr %base, %offs : tensor<8x64x!tile_as.ptr<i32, 1>, #b>, tensor<8x64xi32, #b>
    tile_as.store %ptrs, %moved : tensor<8x64x!tile_as.ptr<i32, 1>, #b>, tensor<8x64xi32, #b>
    return
  }
}

// Registers 0-3 of #a are (row, col) (0, 0), (0, 32), (4, 0), (4, 32);
// #b numbers them rows first.
// LLVM-LABEL: llvm.func @convert
// LLVM: llvm.shufflevector %{{.*}}, %{{.*}} [0, 2, 1, 3] : vector<4xi32>
// LLVM-NOT: nvvm.shfl.sync
// LLVM-NOT: !llvm.ptr<3>
// LLVM-NOT: nvvm.barrier0
// LLVM: st.global
