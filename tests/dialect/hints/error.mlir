// Hints checked with -Wunsupported-hints -Werr-hints: warnings, then an error.
cuda_tile.module @unknown_arch {
  // expected-warning @below{{unknown hint key sm_100a}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100a = {num_cta_in_cga = 2}> {
    return
  }
}

// -----

cuda_tile.module @unknown_hint {
  // expected-warning @below{{num_qqq is not known hint for current Operation}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_qqq = 1}> {
    return
  }
}

// -----

cuda_tile.module @cga_not_int {
  // expected-warning @below{{integer value expected for sm_100.num_cta_in_cga}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = "a"}> {
    return
  }
}

// -----

cuda_tile.module @cga_not_pow2 {
  // expected-warning @below{{expected power-of-two ≤ 16 for sm_100.num_cta_in_cga}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 7}> {
    return
  }
}

// -----

cuda_tile.module @cga_on_ampere {
  // expected-warning @below{{expected 1 for sm_80.num_cta_in_cga}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_80 = {num_cta_in_cga = 2}> {
    return
  }
}

// -----

cuda_tile.module @occupancy {
  // expected-warning @below{{integer value in the range [1, 32] is expected for sm_100.occupancy}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {occupancy = 64}> {
    return
  }
}

// -----

cuda_tile.module @warps_not_int {
  // expected-warning @below{{integer value expected for sm_100.num_worker_warps_per_cta}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = "a"}> {
    return
  }
}

// -----

cuda_tile.module @warps_not_pow2 {
  // expected-warning @below{{expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = 9}> {
    return
  }
}

// -----

cuda_tile.module @warps_too_many {
  // expected-warning @below{{expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = 64}> {
    return
  }
}

// -----

cuda_tile.module @latency_on_entry {
  // expected-warning @below{{latency is not known hint for current Operation}}
  // expected-error @below{{Optimization hints verification failed}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<default = {latency = 2}> {
    return
  }
}
