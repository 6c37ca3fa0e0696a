// tilepipe-warp-specialize-rings' rule on sm_120a (warpspec.bats): the ring's
// consumers are mma.sync there, which has no setmaxnreg-balanced form, also
// where the accumulator's layout (8 warps along M, 128 rows) is the one
// wgmma would use too: the target decides.
#C8 = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
module attributes {tile_as.num_warps = 8 : i32, tile_as.target = "sm_120a"} {
  func.func @mma_sync_consumers(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32, %p: i1) {
    // expected-remark @below {{TMA ring not warp-specialized: its consumers are mma.sync, not wgmma}}
    %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, stages = 3 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    tile_as.tma_stage_load %am[%i, %i], %bm[%i, %i] slot %i phase %i if %p {acc_type = tensor<128x128xf32, #C8>, chunk = 16 : i64, k_offset = 0 : i64, operand_type = f16, stages = 3 : i64} : [i32, i32], [i32, i32]
    return
  }
}
