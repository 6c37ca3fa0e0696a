// module, entry, global, get_global, constant, assume, print_tko.

cuda_tile.module @kernels {
  // expected-error @below{{entry op must have scalar types (rank 0 !cuda_tile.tile)}}
  cuda_tile.entry @kernel(%arg0: !cuda_tile.tile<4xf32>) {
    cuda_tile.return
  }
}

// -----

cuda_tile.module @kernels {
  // expected-error @below{{is not allowed at the top level of a cuda_tile.module}}
  "use_op"() : () -> ()
}

// -----

cuda_tile.module @kernels {
  // expected-error @below{{alignment must be a positive power of two, got 3}}
  cuda_tile.global @g alignment = 3 <i32: [1, 2]> : tile<2xi32>
}

// -----

cuda_tile.module @kernels {
  cuda_tile.global @g <i32: [1, 2]> : tile<2xi32>
  cuda_tile.entry @kernel() {
    // expected-error @below{{'missing' does not reference a valid global}}
    %0 = cuda_tile.get_global @missing : tile<ptr<i32>>
    cuda_tile.return
  }
}

// -----

cuda_tile.module @kernels {
  cuda_tile.global @g <i32: [1, 2]> : tile<2xi32>
  cuda_tile.entry @kernel() {
    // expected-error @below{{expected a pointer to 'i32', the element type of the global}}
    %0 = cuda_tile.get_global @g : tile<ptr<f32>>
    cuda_tile.return
  }
}

// -----

// expected-error @below{{constant literal shape does not match the tile shape}}
%0 = cuda_tile.constant <i32: [1, 2, 3, 4]> : tile<2xi32>

// -----

// expected-error @below{{integer constant out of range for 'i8'}}
%0 = cuda_tile.constant <i8: 300> : tile<i8>

// -----

// expected-error @below{{constant element type 'f32' does not match the tile element type 'f16'}}
%0 = cuda_tile.constant <f32: 1.0> : tile<f16>

// -----

%0 = cuda_tile.constant <f32: 1.0> : tile<4xf32>
// expected-error @below{{div_by predicate expects a tile of integers or pointers, or a tensor_view}}
%1 = cuda_tile.assume div_by<16>, %0 : tile<4xf32>

// -----

%0 = cuda_tile.constant <i32: 1> : tile<4xi32>
// expected-error @below{{expected 1 same_elements values, got 2}}
%1 = cuda_tile.assume same_elements<[1, 2]>, %0 : tile<4xi32>

// -----

// expected-error @below{{incorrect number of operands: expected 1, found 0}}
%0 = cuda_tile.print_tko "Expect one parameter %i" -> token
