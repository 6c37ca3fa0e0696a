// atomic_rmw_tko is not lowered yet: tile-lower must reject it cleanly.
cuda_tile.module @kernels {
  entry @atomic(%p: tile<ptr<i32>>) {
    %c = constant <i32: 1> : tile<i32>
    %r, %t = atomic_rmw_tko relaxed device %p, add, %c : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
