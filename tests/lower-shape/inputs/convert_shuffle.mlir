// tile-llvm input: convert_layout between two blocked layouts that give
// each warp the same elements (warps along dim0 alike) but place them on
// other lanes: threads [8, 4] with dim1 fastest, then dim0 fastest. The
// linear layouts plan warp shuffles (LayoutConversion.h): one
// shfl.sync.idx per result register, no shared memory. Each element holds
// its row-major index, so the stored buffer is 0..511 exactly when every
// element arrived.
#a = #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 1]>
module attributes {tile_as.num_warps = 4 : i32} {
  func.func @convert(%out: !tile_as.ptr<i32, 1>) {
    %rows = tile_as.iota 0 : tensor<64x8xi32, #a>
    %cols = tile_as.iota 1 : tensor<64x8xi32, #a>
    %c8 = arith.constant dense<8> : tensor<64x8xi32, #a>
    %r8 = arith.muli %rows, %c8 : tensor<64x8xi32, #a>
    %index = arith.addi %r8, %cols : tensor<64x8xi32, #a>
    %moved = tile_as.convert_layout %index : tensor<64x8xi32, #a> -> tensor<64x8xi32, #b>
    %rows2 = tile_as.iota 0 : tensor<64x8xi32, #b>
    %cols2 = tile_as.iota 1 : tensor<64x8xi32, #b>
    %d8 = arith.constant dense<8> : tensor<64x8xi32, #b>
    %s8 = arith.muli %rows2, %d8 : tensor<64x8xi32, #b>
    %offs = arith.addi %s8, %cols2 : tensor<64x8xi32, #b>
    %base = tile_as.splat %out : tensor<64x8x!tile_as.ptr<i32, 1>, #b>
    %ptrs = tile_as.addptr %base, %offs : tensor<64x8x!tile_as.ptr<i32, 1>, #b>, tensor<64x8xi32, #b>
    tile_as.store %ptrs, %moved : tensor<64x8x!tile_as.ptr<i32, 1>, #b>, tensor<64x8xi32, #b>
    return
  }
}

// Four registers per thread, each from a shuffle; no barrier, no shared
// memory.
// LLVM-LABEL: llvm.func @convert
// LLVM-NOT: nvvm.barrier0
// LLVM-COUNT-4: nvvm.shfl.sync idx
// LLVM-NOT: nvvm.shfl.sync
// LLVM-NOT: !llvm.ptr<3>
// LLVM-NOT: nvvm.barrier0
// LLVM: st.global
