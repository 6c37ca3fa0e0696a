// tile-llvm input: a 2-D tile_as kernel already laid out by tile-sched.
#row = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile_as.num_warps = 4 : i32} {
  func.func @iota2d(%out: !tile_as.ptr<i32, 1>) {
    %rows = tile_as.iota 0 : tensor<8x64xi32, #row>
    %cols = tile_as.iota 1 : tensor<8x64xi32, #row>
    %c64 = arith.constant dense<64> : tensor<8x64xi32, #row>
    %r64 = arith.muli %rows, %c64 : tensor<8x64xi32, #row>
    %offs = arith.addi %r64, %cols : tensor<8x64xi32, #row>
    %base = tile_as.splat %out : tensor<8x64x!tile_as.ptr<i32, 1>, #row>
    %ptrs = tile_as.addptr %base, %offs : tensor<8x64x!tile_as.ptr<i32, 1>, #row>, tensor<8x64xi32, #row>
    tile_as.store %ptrs, %offs {contiguity = 4 : i64} : tensor<8x64x!tile_as.ptr<i32, 1>, #row>, tensor<8x64xi32, #row>
    return
  }
}

// 8x64 over 2x16 lanes and 4 warps: each thread holds one row's 4 adjacent
// columns, lane / 16 picks the row inside a warp, lane % 16 the column group.
// LLVM: llvm.func @iota2d(%{{.*}}: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
// LLVM-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// LLVM-DAG: llvm.mlir.constant(16 : i32)
// LLVM: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};"
// LLVM-NOT: llvm.inline_asm
