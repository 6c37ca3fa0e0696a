// Verifier errors of tile_as.store_tma (lowering.bats, with
// tile-opt --verify-diagnostics --split-input-file).
func.func @f32(%v: tensor<64x64xf32>, %p: !tile_as.ptr<f32, 1>, %i: i32) {
  // expected-error @below {{stores f16 or bf16 tiles only, not 'f32'}}
  tile_as.store_tma %v, %p[%i, %i, %i, %i, %i] : tensor<64x64xf32>, !tile_as.ptr<f32, 1>[i32, i32, i32, i32, i32]
  return
}

// -----

func.func @base_type(%v: tensor<64x64xf16>, %p: !tile_as.ptr<bf16, 1>, %i: i32) {
  // expected-error @below {{base points to 'bf16', the tile holds 'f16'}}
  tile_as.store_tma %v, %p[%i, %i, %i, %i, %i] : tensor<64x64xf16>, !tile_as.ptr<bf16, 1>[i32, i32, i32, i32, i32]
  return
}

// -----

func.func @view_length(%v: tensor<64x64xf16>, %p: !tile_as.ptr<f16, 1>, %i: i32) {
  // expected-error @below {{needs a tile of rank 2 or more and 3r - 1 view values for r from its rank to 5, has rank 2 and 4 values}}
  tile_as.store_tma %v, %p[%i, %i, %i, %i] : tensor<64x64xf16>, !tile_as.ptr<f16, 1>[i32, i32, i32, i32]
  return
}

// -----

func.func @leading(%v: tensor<2x64x64xf16>, %p: !tile_as.ptr<f16, 1>, %i: i32) {
  // expected-error @below {{tile dimensions before the last two must be 1}}
  tile_as.store_tma %v, %p[%i, %i, %i, %i, %i, %i, %i, %i] : tensor<2x64x64xf16>, !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32, i32, i32, i32]
  return
}

// -----

func.func @view_rank(%v: tensor<1x64x64xf16>, %p: !tile_as.ptr<f16, 1>, %i: i32) {
  // expected-error @below {{has rank 3 and 5 values}}
  tile_as.store_tma %v, %p[%i, %i, %i, %i, %i] : tensor<1x64x64xf16>, !tile_as.ptr<f16, 1>[i32, i32, i32, i32, i32]
  return
}
