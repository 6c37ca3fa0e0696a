// tilepipe-warp-specialize-rings' rule (warpspec.bats, tile-opt
// --verify-diagnostics): each kernel with a TMA ring gets a remark at its
// first ring saying whether it was specialized and why not.
#C8 = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
module attributes {tile_as.num_warps = 8 : i32} {
  func.func private @coordinate() -> i32

  // Coordinates from plain arithmetic: the producer takes the loads.
  func.func @arithmetic(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32, %p: i1) {
    %c64 = arith.constant 64 : i32
    %k = arith.muli %i, %c64 : i32
    // expected-remark @below {{TMA ring warp-specialized: a producer warpgroup (128 threads after the 256 of the accumulator, setmaxnreg.dec to 56 registers) issues the loads; the consumers (setmaxnreg.inc from 168 to 224)}}
    %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, stages = 3 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    tile_as.tma_stage_load %am[%i, %k], %bm[%k, %i] slot %i phase %i if %p {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, k_offset = 0 : i64, operand_type = f16, stages = 3 : i64} : [i32, i32], [i32, i32]
    return
  }

  // A coordinate from a call (memory, for all the pass knows): single-role.
  func.func @from_a_call(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32, %p: i1) {
    %k = func.call @coordinate() : () -> i32
    // expected-remark @below {{TMA ring not warp-specialized: its ring coordinates need func.call}}
    %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, stages = 3 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    tile_as.tma_stage_load %am[%i, %k], %bm[%k, %i] slot %i phase %i if %p {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, k_offset = 0 : i64, operand_type = f16, stages = 3 : i64} : [i32, i32], [i32, i32]
    return
  }
}
