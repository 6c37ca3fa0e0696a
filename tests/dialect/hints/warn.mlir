// Hints checked with -Wunsupported-hints only: warnings, verification passes.
cuda_tile.module @unknown_arch {
  // expected-warning @below{{unknown hint key sm_100a}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100a = {num_cta_in_cga = 2}> {
    return
  }
}

// -----

cuda_tile.module @unknown_hint {
  // expected-warning @below{{num_qqq is not known hint for current Operation}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_qqq = 1}> {
    return
  }
}

// -----

cuda_tile.module @cga_not_int {
  // expected-warning @below{{integer value expected for sm_100.num_cta_in_cga}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = "a"}> {
    return
  }
}

// -----

cuda_tile.module @cga_not_pow2 {
  // expected-warning @below{{expected power-of-two ≤ 16 for sm_100.num_cta_in_cga}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 7}> {
    return
  }
}

// -----

cuda_tile.module @cga_on_ampere {
  // expected-warning @below{{expected 1 for sm_80.num_cta_in_cga}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_80 = {num_cta_in_cga = 2}> {
    return
  }
}

// -----

cuda_tile.module @occupancy {
  // expected-warning @below{{integer value in the range [1, 32] is expected for sm_100.occupancy}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {occupancy = 64}> {
    return
  }
}

// -----

cuda_tile.module @warps_not_int {
  // expected-warning @below{{integer value expected for sm_100.num_worker_warps_per_cta}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = "a"}> {
    return
  }
}

// -----

cuda_tile.module @warps_not_pow2 {
  // expected-warning @below{{expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = 9}> {
    return
  }
}

// -----

cuda_tile.module @warps_too_many {
  // expected-warning @below{{expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_worker_warps_per_cta = 64}> {
    return
  }
}

// -----

cuda_tile.module @latency_on_entry {
  // expected-warning @below{{latency is not known hint for current Operation}}
  entry @k(%arg0: tile<ptr<f32>>) optimization_hints=<default = {latency = 2}> {
    return
  }
}

// -----

cuda_tile.module @memory_ops {
  entry @k(%p: tile<ptr<f32>>) {
    %t = make_token : token
    %v = make_tensor_view %p, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %pv = make_partition_view %v : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    // expected-warning @below{{integer value in the range [1, 10] is expected for sm_90.latency}}
    %x, %t1 = load_view_tko weak %pv[%c0] token = %t optimization_hints = <sm_90 = {latency = 11}> : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
    // expected-warning @below{{boolean value expected for default.allow_tma}}
    %t2 = store_view_tko weak %x, %pv[%c0] token = %t1 optimization_hints = <default = {allow_tma = 1}> : tile<64xf32>, partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>, tile<i32> -> token
    // expected-warning @below{{allow_tma is not known hint for current Operation}}
    %y, %t3 = load_ptr_tko weak %p optimization_hints = <sm_100 = {allow_tma = true}> : tile<ptr<f32>> -> tile<f32>, token
    return
  }
}
