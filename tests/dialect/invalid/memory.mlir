// Token-ordered pointer loads/stores and atomics.

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<f32>>
// expected-error @below{{expected pointee type 'f32' to match the value element type 'i32'}}
%r, %t = cuda_tile.load_ptr_tko weak %p : tile<8xptr<f32>> -> tile<8xi32>, token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<f32>>
// expected-error @below{{weak operations must not have a memory scope}}
%r, %t = cuda_tile.load_ptr_tko weak device %p : tile<8xptr<f32>> -> tile<8xf32>, token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<f32>>
%v = "use_value"() : () -> !cuda_tile.tile<4xf32>
// expected-error @below{{expected pointer and value tiles of the same shape}}
%t = cuda_tile.store_ptr_tko weak %p, %v : tile<8xptr<f32>>, tile<4xf32> -> token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<f32>>
%v = "use_value"() : () -> !cuda_tile.tile<8xf32>
// expected-error @below{{atomic operations cannot use weak ordering}}
%r, %t = cuda_tile.atomic_rmw_tko weak device %p, addf, %v : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<f32>>
%v = "use_value"() : () -> !cuda_tile.tile<8xf32>
// expected-error @below{{atomic mode add does not support element type 'f32'}}
%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, add, %v : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<i32>>
%v = "use_value"() : () -> !cuda_tile.tile<8xi32>
%m = "use_value"() : () -> !cuda_tile.tile<4xi1>
// expected-error @below{{expected mask of the same shape as the pointers}}
%r, %t = cuda_tile.atomic_cas_tko relaxed device %p, %v, %v, %m : tile<8xptr<i32>>, tile<8xi32>, tile<4xi1> -> tile<8xi32>, token

// -----

%p = "use_value"() : () -> !cuda_tile.tile<8xptr<i32>>
%o = "use_value"() : () -> !cuda_tile.tile<4xi32>
// expected-error @below{{expected pointer and offset tiles of the same shape}}
%r = cuda_tile.offset %p, %o : tile<8xptr<i32>>, tile<4xi32> -> tile<8xptr<i32>>
