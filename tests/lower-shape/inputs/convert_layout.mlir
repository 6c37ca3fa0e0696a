// tile-llvm input: a tile_as kernel that moves an 8x64 tensor from a
// row-major blocked layout to a column-major one. Each element holds its own
// row-major index, so the stored buffer is 0..511 exactly when the conversion
// put every element where the second layout expects it.
#row = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tile_as.blocked<sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {tile_as.num_warps = 4 : i32} {
  func.func @convert(%out: !tile_as.ptr<i32, 1>) {
    %rows = tile_as.iota 0 : tensor<8x64xi32, #row>
    %cols = tile_as.iota 1 : tensor<8x64xi32, #row>
    %c64 = arith.constant dense<64> : tensor<8x64xi32, #row>
    %r64 = arith.muli %rows, %c64 : tensor<8x64xi32, #row>
    %index = arith.addi %r64, %cols : tensor<8x64xi32, #row>
    %moved = tile_as.convert_layout %index : tensor<8x64xi32, #row> -> tensor<8x64xi32, #col>
    %rows2 = tile_as.iota 0 : tensor<8x64xi32, #col>
    %cols2 = tile_as.iota 1 : tensor<8x64xi32, #col>
    %d64 = arith.constant dense<64> : tensor<8x64xi32, #col>
    %s64 = arith.muli %rows2, %d64 : tensor<8x64xi32, #col>
    %offs = arith.addi %s64, %cols2 : tensor<8x64xi32, #col>
    %base = tile_as.splat %out : tensor<8x64x!tile_as.ptr<i32, 1>, #col>
    %ptrs = tile_as.addptr %base, %offs : tensor<8x64x!tile_as.ptr<i32, 1>, #col>, tensor<8x64xi32, #col>
    tile_as.store %ptrs, %moved : tensor<8x64x!tile_as.ptr<i32, 1>, #col>, tensor<8x64xi32, #col>
    return
  }
}

// 512 i32 = 2 KiB of scratch; every register is stored and reloaded between
// two CTA barriers, and a last barrier frees the buffer.
// LLVM: llvm.mlir.global internal @__tile_scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2048 x i8>
// LLVM-LABEL: llvm.func @convert
// LLVM: nvvm.barrier0
// LLVM-COUNT-4: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// LLVM-NOT: llvm.store
// LLVM: nvvm.barrier0
// LLVM-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// LLVM: nvvm.barrier0
// LLVM: st.global

// The slots are row-major with bits above the 128-byte bank window XORed
// into the bank bits (LayoutConversion.h, exchangeSlotLayout): the column
// reads of #col no longer hit one bank 4 ways, and each thread's 4
// adjacent #row elements stay adjacent and 16-byte aligned, one vector
// store.
// SWZ-LABEL: llvm.func @convert
// SWZ: llvm.xor
// SWZ: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : i32, !llvm.ptr<3>
// SWZ-COUNT-3: llvm.store %{{.*}}, %{{.*}} {alignment = {{4|8}} : i64} : i32, !llvm.ptr<3>
// PTX: st.shared.v4.b32
// PTX-COUNT-4: ld.shared.b32
