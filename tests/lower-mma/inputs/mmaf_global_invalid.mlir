// Verifier errors of tile_as.mmaf_global (lowering.bats, with
// tile-opt --verify-diagnostics --split-input-file).
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @no_pointers(%a: tensor<64x32xf16, #A>, %b: tensor<32x128xf16, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{needs lhs or rhs as global pointers (else it is a tile_as.mmaf)}}
  %d = tile_as.mmaf_global %a, %b, %c : tensor<64x32xf16, #A>, tensor<32x128xf16, #B>, tensor<64x128xf32, #C>
  return
}

// -----

#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @register_mask(%a: tensor<64x32xf16, #A>, %m: tensor<64x32xi1, #A>, %b: tensor<32x128x!tile_as.ptr<f16, 1>, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{lhs mask without lhs pointers}}
  %d = tile_as.mmaf_global %a mask %m, %b, %c : tensor<64x32xf16, #A> mask tensor<64x32xi1, #A>, tensor<32x128x!tile_as.ptr<f16, 1>, #B>, tensor<64x128xf32, #C>
  return
}

// -----

// A view lists 3r - 1 values (r sizes, r - 1 strides, r starts).
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @short_view(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %p: !tile_as.ptr<f16, 1>, %i: i32, %b: tensor<32x128xf16, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{lhs view has 4 values, not 3r - 1 for a tile of rank r (operand rank to 5)}}
  %d = tile_as.mmaf_global %a view %p[%i, %i, %i, %i], %b, %c : tensor<64x32x!tile_as.ptr<f16, 1>, #A> view !tile_as.ptr<f16, 1>[i32, i32, i32, i32], tensor<32x128xf16, #B>, tensor<64x128xf32, #C>
  return
}

// -----

// Only a pointer operand has a view.
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @register_view(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %p: !tile_as.ptr<f16, 1>, %i: i32, %b: tensor<32x128xf16, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{rhs view without rhs pointers and base}}
  %d = tile_as.mmaf_global %a, %b view %p[%i, %i, %i, %i, %i], %c : tensor<64x32x!tile_as.ptr<f16, 1>, #A>, tensor<32x128xf16, #B> view !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32], tensor<64x128xf32, #C>
  return
}

// -----

// Only copied f32 elements are rounded to tf32 after the copy.
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @tf32_of_f16(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %b: tensor<32x128xf16, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{lhs_tf32 needs lhs as pointers to f32}}
  %d = tile_as.mmaf_global %a, %b, %c {lhs_tf32} : tensor<64x32x!tile_as.ptr<f16, 1>, #A>, tensor<32x128xf16, #B>, tensor<64x128xf32, #C>
  return
}

// -----

#A = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @tf32_of_registers(%a: tensor<64x32x!tile_as.ptr<f32, 1>, #A>, %b: tensor<32x128xf32, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{rhs_tf32 needs rhs as pointers to f32}}
  %d = tile_as.mmaf_global %a, %b, %c {lhs_tf32, rhs_tf32} : tensor<64x32x!tile_as.ptr<f32, 1>, #A>, tensor<32x128xf32, #B>, tensor<64x128xf32, #C>
  return
}

// -----

// Only a copied operand has runs to shorten.
#A = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @run_of_registers(%a: tensor<64x32x!tile_as.ptr<f32, 1>, #A>, %b: tensor<32x128xtf32, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{rhs_run needs rhs as pointers and a positive length}}
  %d = tile_as.mmaf_global %a, %b, %c {lhs_tf32, lhs_run = 1 : i64, rhs_run = 1 : i64} : tensor<64x32x!tile_as.ptr<f32, 1>, #A>, tensor<32x128xtf32, #B>, tensor<64x128xf32, #C>
  return
}

// -----

// rhs_view_transposed describes B's view: without one it is an error.
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @transposed_without_view(%a: tensor<64x32xf16, #C>, %b: tensor<32x128x!tile_as.ptr<f16, 1>, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{rhs_view_transposed without an rhs view}}
  %d = tile_as.mmaf_global %a, %b, %c {rhs_view_transposed} : tensor<64x32xf16, #C>, tensor<32x128x!tile_as.ptr<f16, 1>, #B>, tensor<64x128xf32, #C>
  return
}

// -----

// rhs_k_runs says how B's copies run: registers have none.
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @k_runs_of_registers(%a: tensor<64x32x!tile_as.ptr<f16, 1>, #A>, %b: tensor<32x128xf16, #B>, %c: tensor<64x128xf32, #C>) {
  // expected-error @below {{rhs_k_runs needs rhs as pointers}}
  %d = tile_as.mmaf_global %a, %b, %c {rhs_k_runs} : tensor<64x32x!tile_as.ptr<f16, 1>, #A>, tensor<32x128xf16, #B>, tensor<64x128xf32, #C>
  return
}
