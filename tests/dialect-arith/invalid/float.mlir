// Verifier and parser diagnostics of the floating-point ops.
// Run by arith.bats: tile-opt %s --allow-unregistered-dialect --verify-diagnostics --split-input-file

%a = "test.def"() : () -> !cuda_tile.tile<2x4xi32>
// expected-error @below {{'cuda_tile.addf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<2x4xi32>'}}
%0 = "cuda_tile.addf"(%a, %a) : (!cuda_tile.tile<2x4xi32>, !cuda_tile.tile<2x4xi32>) -> !cuda_tile.tile<2x4xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf8E5M2>
// expected-error @below {{'cuda_tile.absf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<2xf8E5M2>'}}
%0 = cuda_tile.absf %a : !cuda_tile.tile<2xf8E5M2>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.subf' op failed to verify that all of {lhs, rhs, result} have same type}}
%0 = "cuda_tile.subf"(%a, %a) : (!cuda_tile.tile<2xf32>, !cuda_tile.tile<2xf32>) -> !cuda_tile.tile<4xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but got: 'f16'}}
%0 = cuda_tile.addf %a, %a rounding<zero> flush_to_zero : !cuda_tile.tile<2xf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'}}
%0 = cuda_tile.mulf %a, %a rounding<approx> : !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.fma' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
%0 = "cuda_tile.fma"(%a, %a, %a) <{rounding_mode = #cuda_tile.rounding<full>}> : (!cuda_tile.tile<2xf32>, !cuda_tile.tile<2xf32>, !cuda_tile.tile<2xf32>) -> !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf64>
// expected-error @below {{'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'f64'}}
%0 = cuda_tile.divf %a, %a rounding<approx> : !cuda_tile.tile<2xf64>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.divf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx, full]}}
%0 = "cuda_tile.divf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_int_to_zero>}> : (!cuda_tile.tile<2xf32>, !cuda_tile.tile<2xf32>) -> !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx', got: 'full'}}
%0 = cuda_tile.sqrt %a rounding<full> : !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xbf16>
// expected-error @below {{'cuda_tile.sqrt' op flush_to_zero modifier only supported for f32 data type, but got: 'bf16'}}
%0 = cuda_tile.sqrt %a flush_to_zero : !cuda_tile.tile<2xbf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.exp' op approx modifier only supported for f32 data type, but got: 'f16'}}
%0 = cuda_tile.exp %a rounding<approx> : !cuda_tile.tile<2xf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{expected rounding mode to be one of: 'approx', 'full', got: 'zero'}}
%0 = cuda_tile.tanh %a rounding<zero> : !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]}}
%0 = "cuda_tile.tanh"(%a) <{rounding_mode = #cuda_tile.rounding<zero>}> : (!cuda_tile.tile<2xf32>) -> !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: 'f16'}}
%0 = cuda_tile.exp2 %a flush_to_zero : !cuda_tile.tile<2xf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf64>
// expected-error @below {{'cuda_tile.rsqrt' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'}}
%0 = cuda_tile.rsqrt %a flush_to_zero : !cuda_tile.tile<2xf64>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf64>
// expected-error @below {{'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'}}
%0 = cuda_tile.maxf %a, %a propagate_nan flush_to_zero : !cuda_tile.tile<2xf64>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.cmpf' op failed to verify that Result type has i1 element type and same shape as operands}}
%0 = "cuda_tile.cmpf"(%a, %a) <{comparison_predicate = #cuda_tile.comparison_predicate<equal>, comparison_ordering = #cuda_tile.comparison_ordering<ordered>}> : (!cuda_tile.tile<2xf32>, !cuda_tile.tile<2xf32>) -> !cuda_tile.tile<4xi1>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}}}
%0 = cuda_tile.cmpf equal signed %a, %a : !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xi1>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
%n = "test.def"() : () -> !cuda_tile.tile<4xi32>
// expected-error @below {{'cuda_tile.powi' op failed to verify that all of {source, exponent} have same shape}}
%0 = cuda_tile.powi %a, %n : !cuda_tile.tile<2xf32>, !cuda_tile.tile<4xi32>
