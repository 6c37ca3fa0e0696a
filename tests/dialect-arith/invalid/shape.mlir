// Verifier diagnostics of the shape ops.
// Run by arith.bats: tile-opt %s --allow-unregistered-dialect --verify-diagnostics --split-input-file

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 2, 4 and 4, 4}}
%0 = cuda_tile.broadcast %a : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<1x4xf32>
// expected-error @below {{'cuda_tile.broadcast' op failed to verify that all of {source, result} have same rank}}
%0 = cuda_tile.broadcast %a : !cuda_tile.tile<1x4xf32> -> !cuda_tile.tile<2x2x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8xf32>
// expected-error @below {{'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements}}
%0 = cuda_tile.reshape %a : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<2x2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8xf32>
// expected-error @below {{'cuda_tile.reshape' op requires the same element type for all operands and results}}
%0 = "cuda_tile.reshape"(%a) : (!cuda_tile.tile<8xf32>) -> !cuda_tile.tile<8xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.cat' op expect dim to be [0, 2), but got: 2}}
%0 = cuda_tile.cat %a, %a dim = 2 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x8xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.cat' op invalid concat at position 1, expected: 8 but got: 4}}
%0 = cuda_tile.cat %a, %a dim = 1 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.cat' op expect {lhs, rhs, and result} shape to match at non-concat position 0, expected: 2 but got: 4}}
%0 = cuda_tile.cat %a, %a dim = 1 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x8xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8xf32>
%b = "test.def"() : () -> !cuda_tile.tile<8xf16>
// expected-error @below {{'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have same element type}}
%0 = cuda_tile.cat %a, %b dim = 0 : !cuda_tile.tile<8xf32>, !cuda_tile.tile<8xf16> -> !cuda_tile.tile<16xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8xf32>
%i = "test.def"() : () -> !cuda_tile.tile<i32>
// expected-error @below {{'cuda_tile.extract' op result dim size must divide source dim size evenly}}
%0 = cuda_tile.extract %a[%i] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<16xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8x8xf32>
%i = "test.def"() : () -> !cuda_tile.tile<i32>
// expected-error @below {{'cuda_tile.extract' op incorrect number of indices, expected 2, but found 1}}
%0 = cuda_tile.extract %a[%i] : !cuda_tile.tile<8x8xf32> -> !cuda_tile.tile<4x4xf32>

// -----

// expected-error @below {{'cuda_tile.iota' op expects result type to be 1-d tile}}
%0 = cuda_tile.iota : !cuda_tile.tile<32x64xi32>

// -----

// expected-error @below {{'cuda_tile.iota' op the number of elements 512 exceeds the maximum value of element type 'i8'}}
%0 = cuda_tile.iota : !cuda_tile.tile<512xi8>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<8xf32>
// expected-error @below {{'cuda_tile.permute' op expects at least rank 2, but got: 1}}
%0 = cuda_tile.permute %a [0] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<8xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.permute' op expect permutation size (3) to equal the rank of the source (2)}}
%0 = cuda_tile.permute %a [0, 1, 2] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.permute' op expect permutation elements to be unique}}
%0 = cuda_tile.permute %a [1, 1] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.permute' op permutation element at index 1 (2) is out of bound [0, 2)}}
%0 = cuda_tile.permute %a [0, 2] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2x4xf32>
// expected-error @below {{'cuda_tile.permute' op result shape invalid at index 0, expected: 4, but got: 2}}
%0 = cuda_tile.permute %a [1, 0] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<64xf16>
// expected-error @below {{'cuda_tile.pack' op expected source and result tiles to have the same number of bits, but got: 1024 and 512}}
%0 = cuda_tile.pack %a : !cuda_tile.tile<64xf16> -> !cuda_tile.tile<64xi8>

// -----

// tf32 counts 19 bits (its significant bits, as getIntOrFloatBitWidth and
// upstream's verifier count it), so no power-of-two tile of tf32 fills a
// power-of-two tile of bytes: pack and unpack of tf32 never verify.
%a = "test.def"() : () -> !cuda_tile.tile<8xtf32>
// expected-error @below {{'cuda_tile.pack' op expected source and result tiles to have the same number of bits, but got: 152 and 256}}
%0 = cuda_tile.pack %a : !cuda_tile.tile<8xtf32> -> !cuda_tile.tile<32xi8>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<32xi8>
// expected-error @below {{'cuda_tile.unpack' op expected source and result tiles to have the same number of bits, but got: 256 and 152}}
%0 = cuda_tile.unpack %a : !cuda_tile.tile<32xi8> -> !cuda_tile.tile<8xtf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<64xi16>
// expected-error @below {{'cuda_tile.unpack' op operand #0 must be tile of i8 values, but got '!cuda_tile.tile<64xi16>'}}
%0 = cuda_tile.unpack %a : !cuda_tile.tile<64xi16> -> !cuda_tile.tile<32xi32>
