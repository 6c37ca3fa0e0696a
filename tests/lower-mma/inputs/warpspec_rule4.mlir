// tilepipe-warp-specialize-rings' rule on a 4-warp kernel (warpspec.bats):
// 256 threads start with 256 registers each, so the consumers would gain
// nothing from the producer's.
#C4 = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile_as.num_warps = 4 : i32} {
  func.func @four_warps(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32, %p: i1) {
    // expected-remark @below {{TMA ring not warp-specialized: the consumers would gain no registers (256 per thread at launch, 256 after setmaxnreg)}}
    %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<64x128xf32, #C4>, chunk = 16 : i64, stages = 3 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
    tile_as.tma_stage_load %am[%i, %i], %bm[%i, %i] slot %i phase %i if %p {acc_type = tensor<64x128xf32, #C4>, chunk = 16 : i64, k_offset = 0 : i64, operand_type = f16, stages = 3 : i64} : [i32, i32], [i32, i32]
    return
  }
}
