// Malformed tile_aa / tile_as shape ops: each chunk must give exactly its
// diagnostic (tile-opt --verify-diagnostics --split-input-file).

func.func @permute_repeats(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{permutation is not a permutation of [0, 2)}}
  %p = tile_as.permute %t [0, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @permute_shape(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{result dimension 0 is 4, expected 8}}
  %p = tile_aa.permute %t [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reshape_count(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{source and result hold different numbers of elements}}
  %r = tile_as.reshape %t : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @extract_divides(%t: tensor<4x8xf32>, %i: i32) {
  // expected-error @+1 {{result dimension 3 does not divide source dimension 8}}
  %r = tile_aa.extract %t[%i, %i] : tensor<4x8xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @extract_indices(%t: tensor<4x8xf32>, %i: i32) {
  // expected-error @+1 {{source rank, result rank and index count differ}}
  %r = tile_as.extract %t[%i] : tensor<4x8xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @cat_shapes(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{shapes do not concatenate along dim 0}}
  %r = tile_as.cat %a, %b dim = 0 : tensor<4x8xf32>, tensor<4x4xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @cat_dim(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{dim 2 out of range for rank 2}}
  %r = tile_aa.cat %a, %b dim = 2 : tensor<4x8xf32>, tensor<4x4xf32> -> tensor<4x12xf32>
  return
}
