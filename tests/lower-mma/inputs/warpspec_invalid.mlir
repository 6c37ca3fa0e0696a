// Verifier errors of the warp-specialization ops (warpspec.bats, with
// tile-opt --verify-diagnostics --split-input-file).
func.func @count_not_a_multiple_of_8() {
  // expected-error @below {{count 236 is not a multiple of 8 from 24 to 256}}
  tile_as.setmaxnreg {count = 236 : i64, increase = true}
  return
}

// -----

func.func @count_below_24() {
  // expected-error @below {{count 16 is not a multiple of 8 from 24 to 256}}
  tile_as.setmaxnreg {count = 16 : i64, increase = false}
  return
}

// -----

func.func @consumers_not_whole_warpgroups() {
  // expected-error @below {{consumer_threads 96 is not a positive multiple of 128 leaving room for a producer warpgroup in a 1024-thread CTA}}
  %p = tile_as.producer_warpgroup {consumer_threads = 96 : i64}
  return
}

// -----

func.func @no_room_for_a_producer() {
  // expected-error @below {{consumer_threads 1024 is not a positive multiple of 128}}
  %p = tile_as.producer_warpgroup {consumer_threads = 1024 : i64}
  return
}
