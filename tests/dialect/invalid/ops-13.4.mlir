// Ops added in bytecode 13.4: insert, gdc_*_tko, memory_fence_alias_tko.

%s = "use_value"() : () -> !cuda_tile.tile<2x4xf32>
%d = "use_value"() : () -> !cuda_tile.tile<4x8xi32>
%i = "use_value"() : () -> !cuda_tile.tile<i32>
// expected-error @below{{source and destination element type do not match}}
%r = cuda_tile.insert %s into %d[%i, %i] : tile<2x4xf32> -> tile<4x8xi32>

// -----

%s = "use_value"() : () -> !cuda_tile.tile<8x4xf32>
%d = "use_value"() : () -> !cuda_tile.tile<4x8xf32>
%i = "use_value"() : () -> !cuda_tile.tile<i32>
// expected-error @below{{source dim size must divide destination dim size evenly}}
%r = cuda_tile.insert %s into %d[%i, %i] : tile<8x4xf32> -> tile<4x8xf32>

// -----

%s = "use_value"() : () -> !cuda_tile.tile<2x4xf32>
%d = "use_value"() : () -> !cuda_tile.tile<4x8xf32>
%i = "use_value"() : () -> !cuda_tile.tile<i32>
// expected-error @below{{incorrect number of indices, expected 2, but found 1}}
%r = cuda_tile.insert %s into %d[%i] : tile<2x4xf32> -> tile<4x8xf32>

// -----

%s = "use_value"() : () -> !cuda_tile.tile<4xf32>
%d = "use_value"() : () -> !cuda_tile.tile<4x8xf32>
// expected-error @below{{failed to verify that all of {source, destination} have same rank}}
%r = "cuda_tile.insert"(%s, %d) : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4x8xf32>) -> !cuda_tile.tile<4x8xf32>

// -----

%s = "use_value"() : () -> !cuda_tile.tile<2x4xf32>
%d = "use_value"() : () -> !cuda_tile.tile<4x8xf32>
%i = "use_value"() : () -> !cuda_tile.tile<i32>
// expected-error @below{{failed to verify that all of {destination, result} have same type}}
%r = "cuda_tile.insert"(%s, %d, %i, %i) : (!cuda_tile.tile<2x4xf32>, !cuda_tile.tile<4x8xf32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<2x4xf32>

// -----

%t = "use_value"() : () -> !cuda_tile.tile<i32>
// expected-error @below{{operand #0 must be}}
%r = "cuda_tile.gdc_wait_tko"(%t) : (!cuda_tile.tile<i32>) -> !cuda_tile.token

// -----

%t = "use_value"() : () -> !cuda_tile.token
// expected-error @below{{operand group starting at #0 requires 0 or 1 element, but found 2}}
%r = "cuda_tile.gdc_launch_dependents_tko"(%t, %t) : (!cuda_tile.token, !cuda_tile.token) -> !cuda_tile.token

// -----

// expected-error @below{{requires a single operand}}
%r = "cuda_tile.memory_fence_alias_tko"() : () -> !cuda_tile.token

// -----

%t = "use_value"() : () -> !cuda_tile.token
// expected-error @below{{result #0 must be}}
%r = "cuda_tile.memory_fence_alias_tko"(%t) : (!cuda_tile.token) -> !cuda_tile.tile<i32>
