// `order` must be a permutation of the dimensions.
module {
  func.func @k() {
    %r = tile_as.iota 0 : tensor<8x8xi32, #tile_as.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 1]>>
    return
  }
}
