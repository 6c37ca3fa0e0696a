// Types and attributes of the cuda_tile dialect.

// expected-error @below{{all dimensions must be powers of two, got 5, 5}}
%0 = "use_type"() : () -> !cuda_tile.tile<5x5xf32>

// -----

// expected-error @below{{failed to verify 'elementType'}}
%0 = "use_type"() : () -> !cuda_tile.tile<8x4xi28>

// -----

// expected-error @below{{tile would exceed the maximum of 16777216 elements}}
%0 = "use_type"() : () -> !cuda_tile.tile<1024x1024x1024xf32>

// -----

// expected-error @below{{pointee type must be an integer or float type}}
%0 = "use_type"() : () -> !cuda_tile.ptr<!cuda_tile.ptr<f32>>

// -----

// expected-error @below{{expected strides to have the same rank as the shape}}
%0 = "use_type"() : () -> !cuda_tile.tensor_view<4x4xf32, strides=[1]>

// -----

// expected-error @below{{expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings}}
%0 = "use_type"() : () -> !cuda_tile.partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[0]>

// -----

// expected-error @below{{target dimension is outside of tensor view dimensions, expected strictly less than 2, got 2}}
%0 = "use_type"() : () -> !cuda_tile.partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[0, 2]>

// -----

// expected-error @below{{padding_value nan requires a floating-point element type}}
%0 = "use_type"() : () -> !cuda_tile.partition_view<tile=(4), padding_value = nan, tensor_view<16xi32, strides=[1]>>

// -----

// expected-error @below{{expected 2 traversal strides, got 1}}
%0 = "use_type"() : () -> !cuda_tile.strided_view<tile=(4x4), traversal_strides=[1], tensor_view<16x16xf32, strides=[16,1]>>

// -----

// expected-error @below{{sparse_dim 2 is outside of the tensor_view dimensions}}
%0 = "use_type"() : () -> !cuda_tile.gather_scatter_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=2>

// -----

// expected-error @below{{divisor must be a positive power of 2, got 12}}
%0 = "use_attr"() {a = #cuda_tile.div_by<12>} : () -> ()

// -----

// expected-error @below{{lower bound 5 must be less than or equal to upper bound 2}}
%0 = "use_attr"() {a = #cuda_tile.bounded<5, 2>} : () -> ()
