// A tcgen05_stage in a kernel marked for the CTA pair's MMA
// (tile_as.tcgen05_cta_pair) whose N = 32 has no pair form (each CTA's half
// must be a multiple of 32 columns): tile-llvm says so at the op
// (cta-pair-mma.bats).
#C = #tile_as.blocked<sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>
module attributes {tile_as.num_warps = 4 : i32, tile_as.target = "sm_100a"} {
func.func @stage(%acc: tensor<128x32xf32, #C>, %i: i32) -> tensor<128x32xf32, #C> attributes {tile_as.ctas_per_cluster = 2 : i32, tile_as.tcgen05_cta_pair} {
  // CHECK: tcgen05_pair_invalid.mlir:[[# @LINE + 1]]:8: error: 'tile_as.tcgen05_stage' op in a CTA pair's kernel (tile_as.tcgen05_cta_pair) needs 128 accumulator rows and N a multiple of 64 up to 256
  %r = tile_as.tcgen05_stage %acc slot %i phase %i {chunk = 16 : i64, operand_type = f16, stages = 3 : i64} : tensor<128x32xf32, #C>
  return %r : tensor<128x32xf32, #C>
}
}
