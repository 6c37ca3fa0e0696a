// tile-llvm on sm_120a (pipeline.bats): an fp8 mmaf_tma_stage whose accumulator
// lacks the paired columns (B would have to be K-major, which TMA does not
// write) fails with a located error, exit 5.
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
module attributes {tile_as.target = "sm_120a", tile_as.num_warps = 4 : i32} {
  func.func @k(%c: tensor<32x32xf32, #C>, %s: i32, %p: i32) -> tensor<32x32xf32, #C> {
    %d = tile_as.mmaf_tma_stage %c slot %s phase %p {chunk = 32 : i64, operand_type = f8E4M3FN, stages = 3 : i64} : tensor<32x32xf32, #C>
    return %d : tensor<32x32xf32, #C>
  }
}
