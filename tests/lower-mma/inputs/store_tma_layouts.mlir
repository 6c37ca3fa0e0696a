// tile-llvm input (lowering.bats): the same 32x64 f16 tile (element (r, c)
// = 64 r + c) stored by tile_as.store_tma into the 30 x 56 view of a 32x64
// array (row stride 64) from two register layouts. @fragment holds
// stmatrix's fragments (two adjacent columns a lane, four lanes to a row of
// 8 columns, rows by lanes 4-31 and warps): it goes to shared memory by
// stmatrix.x4. @blocked holds 8 adjacent columns a lane: st.shared.v4.
// The choice follows the layout; neither kernel multiplies anything.
#fragment = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile_as.num_warps = 4 : i32, tile_as.target = "sm_90a"} {
  func.func @fragment(%out: !tile_as.ptr<f16, 1>) {
    %rows = tile_as.iota 0 : tensor<32x64xi32, #fragment>
    %cols = tile_as.iota 1 : tensor<32x64xi32, #fragment>
    %c64 = arith.constant dense<64> : tensor<32x64xi32, #fragment>
    %r64 = arith.muli %rows, %c64 : tensor<32x64xi32, #fragment>
    %index = arith.addi %r64, %cols : tensor<32x64xi32, #fragment>
    %value = arith.sitofp %index : tensor<32x64xi32, #fragment> to tensor<32x64xf16, #fragment>
    %size0 = arith.constant 30 : i32
    %size1 = arith.constant 56 : i32
    %stride = arith.constant 64 : i32
    %zero = arith.constant 0 : i32
    tile_as.store_tma %value, %out[%size0, %size1, %stride, %zero, %zero] : tensor<32x64xf16, #fragment>, !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    return
  }
  func.func @blocked(%out: !tile_as.ptr<f16, 1>) {
    %rows = tile_as.iota 0 : tensor<32x64xi32, #blocked>
    %cols = tile_as.iota 1 : tensor<32x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<32x64xi32, #blocked>
    %r64 = arith.muli %rows, %c64 : tensor<32x64xi32, #blocked>
    %index = arith.addi %r64, %cols : tensor<32x64xi32, #blocked>
    %value = arith.sitofp %index : tensor<32x64xi32, #blocked> to tensor<32x64xf16, #blocked>
    %size0 = arith.constant 30 : i32
    %size1 = arith.constant 56 : i32
    %stride = arith.constant 64 : i32
    %zero = arith.constant 0 : i32
    tile_as.store_tma %value, %out[%size0, %size1, %stride, %zero, %zero] : tensor<32x64xf16, #blocked>, !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    return
  }
}
