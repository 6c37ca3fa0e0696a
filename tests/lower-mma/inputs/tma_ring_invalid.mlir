// Verifier errors of the TMA ring ops (pipeline.bats, with
// tile-opt --verify-diagnostics --split-input-file).
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @one_slot(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32) {
  // expected-error @below {{ring of 1 slots of 16 K (at least 2 slots, a positive chunk)}}
  %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<64x128xf32, #C>, chunk = 16 : i64, stages = 1 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
  return
}

// -----

#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @short_view(%a: !tile_as.ptr<f16, 1>, %b: !tile_as.ptr<f16, 1>, %i: i32) {
  // expected-error @below {{view has 4 values, not 3r - 1 for a rank r from 2 to 5}}
  %am, %bm = tile_as.tma_ring_begin %a[%i, %i, %i, %i], %b[%i, %i, %i, %i, %i] {acc_type = tensor<64x128xf32, #C>, chunk = 16 : i64, stages = 3 : i64} : !tile_as.ptr<f16, 1>[i32, i32, i32, i32], !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
  return
}

// -----

#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @one_start(%am: i64, %bm: i64, %i: i32, %p: i1) {
  // expected-error @below {{has 1 starts, not a rank from 2 to 5}}
  tile_as.tma_stage_load %am[%i], %bm[%i, %i] slot %i phase %i if %p {acc_type = tensor<64x128xf32, #C>, chunk = 16 : i64, k_offset = 0 : i64, operand_type = f16, stages = 3 : i64} : [i32], [i32, i32]
  return
}

// -----

#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @close_one_slot() {
  // expected-error @below {{ring of 1 slots of 16 K (at least 2 slots, a positive chunk)}}
  tile_as.tma_ring_close {acc_type = tensor<64x128xf32, #C>, chunk = 16 : i64, operand_type = f16, stages = 1 : i64}
  return
}
