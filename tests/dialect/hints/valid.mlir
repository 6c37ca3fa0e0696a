// Hints every checker accepts: no diagnostic even with -Werr-hints.
cuda_tile.module @valid {
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<default = {occupancy = 2}, sm_80 = {num_cta_in_cga = 1}, sm_100 = {num_cta_in_cga = 2, num_worker_warps_per_cta = 8, occupancy = 32}> {
    return
  }
}
