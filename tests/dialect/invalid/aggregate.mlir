// reduce, scan and the matrix multiply-accumulate ops.

%x = cuda_tile.constant <f32: 0.0> : tile<8xf32>
// expected-error @below{{dimension 1 is out of range for rank 1}}
%r = cuda_tile.reduce %x dim=1 identities=[0.0 : f32] : tile<8xf32> -> tile<f32>
(%a: tile<f32>, %b: tile<f32>) {
  %s = cuda_tile.addf %a, %b : tile<f32>
  cuda_tile.yield %s : tile<f32>
}

// -----

%x = cuda_tile.constant <f32: 0.0> : tile<8xf32>
// expected-error @below{{expected identity 0 to be a 'f32' value}}
%r = cuda_tile.reduce %x dim=0 identities=[0 : i32] : tile<8xf32> -> tile<f32>
(%a: tile<f32>, %b: tile<f32>) {
  cuda_tile.yield %a : tile<f32>
}

// -----

%x = cuda_tile.constant <f32: 0.0> : tile<8xf32>
// expected-error @below{{unexpected result type '!cuda_tile.tile<4xf32>'}}
%r = cuda_tile.scan %x dim=0 reverse=false identities=[0.0 : f32] : tile<8xf32> -> tile<4xf32>
(%a: tile<f32>, %b: tile<f32>) {
  cuda_tile.yield %a : tile<f32>
}

// -----

%a = "use_value"() : () -> !cuda_tile.tile<4x16xf32>
%b = "use_value"() : () -> !cuda_tile.tile<8x16xf32>
%c = "use_value"() : () -> !cuda_tile.tile<4x16xf32>
// expected-error @below{{dim 1 of lhs (16) and dim 0 of rhs (8) must match, but got lhs shape (4, 16) and rhs shape (8, 16)}}
%0 = cuda_tile.mmaf %a, %b, %c : tile<4x16xf32>, tile<8x16xf32>, tile<4x16xf32>

// -----

%a = "use_value"() : () -> !cuda_tile.tile<4x8xf32>
%b = "use_value"() : () -> !cuda_tile.tile<8x16xf16>
%c = "use_value"() : () -> !cuda_tile.tile<4x16xf32>
// expected-error @below{{failed to verify that all of {lhs, rhs} have the same element type}}
%0 = cuda_tile.mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf16>, tile<4x16xf32>

// -----

%a = "use_value"() : () -> !cuda_tile.tile<4x8xi16>
%b = "use_value"() : () -> !cuda_tile.tile<8x16xi16>
%c = "use_value"() : () -> !cuda_tile.tile<4x16xi32>
// expected-error @below{{expected i8 inputs and an i32 accumulator}}
%0 = cuda_tile.mmai %a, %b, %c signed signed : tile<4x8xi16>, tile<8x16xi16>, tile<4x16xi32>
