// A tcgen05_stage whose accumulator is not in the tcgen05 layout (here
// mma.sync's fragments): tile-llvm says so at the op (pipeline.bats).
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module {
func.func @stage(%acc: tensor<128x128xf32, #C>, %i: i32) -> tensor<128x128xf32, #C> {
  // CHECK: tcgen05_stage_invalid.mlir:[[# @LINE + 1]]:8: error: 'tile_as.tcgen05_stage' op needs an [M, N] f32 accumulator in the tcgen05 layout and f16, bf16, tf32 or fp8 operands
  %r = tile_as.tcgen05_stage %acc slot %i phase %i {chunk = 16 : i64, operand_type = f16, stages = 3 : i64} : tensor<128x128xf32, #C>
  return %r : tensor<128x128xf32, #C>
}
}
