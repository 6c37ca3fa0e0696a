// Tensor views, tile views and their loads/stores.

%p = "use_value"() : () -> !cuda_tile.tile<ptr<f32>>
// expected-error @below{{expected a base pointer to 'f16'}}
%tv = "cuda_tile.make_tensor_view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<ptr<f32>>) -> !cuda_tile.tensor_view<16xf16, strides=[1]>

// -----

%p = "use_value"() : () -> !cuda_tile.tile<ptr<f32>>
// expected-error @below{{expected 1 dynamic shape operands, got 0}}
%tv = "cuda_tile.make_tensor_view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<ptr<f32>>) -> !cuda_tile.tensor_view<?xf32, strides=[1]>

// -----

%p = "use_value"() : () -> !cuda_tile.tile<ptr<f32>>
// expected-error @below{{shape and strides do not match the result type}}
%tv = cuda_tile.make_tensor_view %p, shape = [8], strides = [1] : tensor_view<16xf32, strides=[1]>

// -----

%v = "use_value"() : () -> !cuda_tile.partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
%i = cuda_tile.constant <i32: 0> : tile<i32>
// expected-error @below{{expected 1 index operands, got 2}}
%t, %tok = cuda_tile.load_view_tko weak %v[%i, %i] : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
%i = cuda_tile.constant <i32: 0> : tile<i32>
// expected-error @below{{expected tile type to match the view tile shape}}
%t, %tok = cuda_tile.load_view_tko weak %v[%i] : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%x = cuda_tile.constant <i32: 0> : tile<4xi32>
// expected-error @below{{expected tile element type 'f32', got 'i32'}}
%tok = cuda_tile.store_view_tko weak %x, %v[%i] : tile<4xi32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token

// -----

%v = "use_value"() : () -> !cuda_tile.partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%x = cuda_tile.constant <f32: 0.0> : tile<4xf32>
// expected-error @below{{xchg is not a reduction}}
%tok = cuda_tile.atomic_red_view_tko relaxed device %v[%i], xchg, %x : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token

// -----

// A gather_scatter_view's sparse dimension takes a 1-d tile of indices as
// long as the tile along that dimension.
%v = "use_value"() : () -> !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>, sparse_dim=0>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%rows = cuda_tile.iota : tile<8xi32>
// expected-error @below{{expected index 0 (the sparse dimension) to be a 1-d tile of 4 indices, got '!cuda_tile.tile<8xi32>'}}
%t, %tok = cuda_tile.load_view_tko weak %v[%rows, %i] : gather_scatter_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> tile<4x8xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>, sparse_dim=0>
%i = cuda_tile.constant <i32: 0> : tile<i32>
// expected-error @below{{expected index 0 (the sparse dimension) to be a 1-d tile of 4 indices, got '!cuda_tile.tile<i32>'}}
%t, %tok = cuda_tile.load_view_tko weak %v[%i, %i] : gather_scatter_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>, sparse_dim=0>, tile<i32> -> tile<4x8xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.gather_scatter_view<tile=(2x4x8), tensor_view<2x16x8xf32, strides=[128,8,1]>, sparse_dim=1>
%i = cuda_tile.constant <i64: 0> : tile<i64>
%j = cuda_tile.constant <i32: 0> : tile<i32>
%rows = cuda_tile.iota : tile<4xi32>
%t = cuda_tile.constant <f32: 0.0> : tile<2x4x8xf32>
// expected-error @below{{expected all scalar indices to have the same type}}
%tok = cuda_tile.store_view_tko weak %t, %v[%i, %rows, %j] : tile<2x4x8xf32>, gather_scatter_view<tile=(2x4x8), tensor_view<2x16x8xf32, strides=[128,8,1]>, sparse_dim=1>, tile<i64>, tile<4xi32>, tile<i32> -> token

// -----

// Only the sparse dimension of a gather_scatter_view takes a tile of indices.
%v = "use_value"() : () -> !cuda_tile.partition_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%rows = cuda_tile.iota : tile<4xi32>
// expected-error @below{{index operand 0 must be a scalar tile (rank 0), got '!cuda_tile.tile<4xi32>'}}
%t, %tok = cuda_tile.load_view_tko weak %v[%rows, %i] : partition_view<tile=(4x8), tensor_view<16x8xf32, strides=[8,1]>>, tile<4xi32>, tile<i32> -> tile<4x8xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.gather_scatter_view<tile=(2x4x8), tensor_view<2x16x8xf32, strides=[128,8,1]>, sparse_dim=1>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%rows = cuda_tile.iota : tile<4xi32>
// expected-error @below{{expected 1 or 3 index types, got 2}}
%t, %tok = cuda_tile.load_view_tko weak %v[%i, %rows, %i] : gather_scatter_view<tile=(2x4x8), tensor_view<2x16x8xf32, strides=[128,8,1]>, sparse_dim=1>, tile<i32>, tile<4xi32> -> tile<2x4x8xf32>, token

// -----

%v = "use_value"() : () -> !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<16x8xi32, strides=[8,1]>, sparse_dim=0>
%i = cuda_tile.constant <i32: 0> : tile<i32>
%x = cuda_tile.constant <i32: 1> : tile<4x8xi32>
// expected-error @below{{gather_scatter_view is not supported; use partition_view instead}}
%tok = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %i], add, %x : tile<4x8xi32>, gather_scatter_view<tile=(4x8), tensor_view<16x8xi32, strides=[8,1]>, sparse_dim=0>, tile<i32> -> token
