// Verifier and parser diagnostics of the conversions.
// Run by arith.bats: tile-opt %s --allow-unregistered-dialect --verify-diagnostics --split-input-file

%a = "test.def"() : () -> !cuda_tile.tile<4xi16>
// expected-error @below {{'cuda_tile.bitcast' op failed to verify that all of {source, result} have same shape}}
%0 = cuda_tile.bitcast %a : !cuda_tile.tile<4xi16> -> !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<i32>
// expected-error @below {{'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<i32>' of width 32 to type '!cuda_tile.tile<i16>' of width 16}}
%0 = cuda_tile.bitcast %a : !cuda_tile.tile<i32> -> !cuda_tile.tile<i16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<i8>
// expected-error @below {{'cuda_tile.exti' op extending to smaller or identical integer}}
%0 = cuda_tile.exti %a signed : !cuda_tile.tile<i8> -> !cuda_tile.tile<i8>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi8>
// expected-error @below {{expected valid keyword}}
// expected-error @below {{expected signedness to be one of: {'signed', 'unsigned'}}}
%0 = cuda_tile.exti %a : !cuda_tile.tile<2xi8> -> !cuda_tile.tile<2xi16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi8>
// expected-error @below {{'cuda_tile.trunci' op truncating to larger or identical integer}}
%0 = cuda_tile.trunci %a : !cuda_tile.tile<2xi8> -> !cuda_tile.tile<2xi16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi8>
// expected-error @below {{'cuda_tile.trunci' op failed to verify that all of {from, to} have same shape}}
%0 = cuda_tile.trunci %a : !cuda_tile.tile<2xi8> -> !cuda_tile.tile<i4>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.ftof' op converting tiles must not be a no-op}}
%0 = cuda_tile.ftof %a : !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.ftof' op invalid rounding mode specified for ftof. Only 'nearest_even' is supported}}
%0 = cuda_tile.ftof %a rounding<zero> : !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xf16>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.ftof' op result #0 must be tile of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '!cuda_tile.tile<2xi32>'}}
%0 = cuda_tile.ftof %a : !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{expected rounding mode to be one of: 'nearest_int_to_zero', got: 'zero'}}
%0 = cuda_tile.ftoi %a signed rounding<zero> : !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.ftoi' op invalid rounding mode specified. Only 'nearest_int_to_zero' is supported}}
%0 = "cuda_tile.ftoi"(%a) <{signedness = #cuda_tile.signedness<signed>, rounding_mode = #cuda_tile.rounding<zero>}> : (!cuda_tile.tile<2xf16>) -> !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi16>
// expected-error @below {{'cuda_tile.itof' op invalid rounding mode specified. Only 'nearest_even' is supported}}
%0 = cuda_tile.itof %a signed rounding<zero> : !cuda_tile.tile<2xi16> -> !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xf16>
// expected-error @below {{'cuda_tile.itof' op operand #0 must be tile of i1 or i4 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<2xf16>'}}
%0 = cuda_tile.itof %a signed : !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<i32>
// expected-error @below {{'cuda_tile.int_to_ptr' op operand #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'}}
%0 = cuda_tile.int_to_ptr %a : !cuda_tile.tile<i32> -> !cuda_tile.tile<ptr<i8>>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<!cuda_tile.ptr<i8>>
// expected-error @below {{'cuda_tile.ptr_to_int' op result #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'}}
%0 = cuda_tile.ptr_to_int %a : !cuda_tile.tile<ptr<i8>> -> !cuda_tile.tile<i32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<i64>
// expected-error @below {{'cuda_tile.ptr_to_ptr' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<i64>'}}
%0 = cuda_tile.ptr_to_ptr %a : !cuda_tile.tile<i64> -> !cuda_tile.tile<ptr<i8>>
