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
