// permute is not lowered yet (transposes need layout conversions).
cuda_tile.module @kernels {
  entry @perm() {
    %c = constant <i32: 1> : tile<8x8xi32>
    %u = permute %c [1, 0] : tile<8x8xi32> -> tile<8x8xi32>
    return
  }
}
