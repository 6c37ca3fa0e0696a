// Verifier errors of the ring ops (pipeline.bats, with
// tile-opt --verify-diagnostics --split-input-file).
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @past_k(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %b: tensor<32x128x!tile_as.ptr<f16, 1>, #B>, %s: i32, %p: i1) {
  // expected-error @below {{K range [16, 48) does not fit K 32 and the ring's chunk 32}}
  tile_as.mma_stage_copy %a, %b slot %s if %p {chunk = 32 : i64, k_len = 32 : i64, k_offset = 16 : i64, stages = 3 : i64} : tensor<64x32x!tile_as.ptr<f16, 1>, #A>, tensor<32x128x!tile_as.ptr<f16, 1>, #B>
  return
}

// -----

#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @mismatched_k(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %b: tensor<16x128x!tile_as.ptr<f16, 1>, #B>, %s: i32, %p: i1) {
  // expected-error @below {{operands are not [M, K] and [K, N] (or batched)}}
  tile_as.mma_stage_copy %a, %b slot %s if %p {chunk = 16 : i64, k_len = 16 : i64, k_offset = 0 : i64, stages = 3 : i64} : tensor<64x32x!tile_as.ptr<f16, 1>, #A>, tensor<16x128x!tile_as.ptr<f16, 1>, #B>
  return
}
