// Verifier and parser diagnostics of the integer ops and select.
// Run by arith.bats: tile-opt %s --allow-unregistered-dialect --verify-diagnostics --split-input-file

%a = "test.def"() : () -> !cuda_tile.tile<2xf32>
// expected-error @below {{'cuda_tile.addi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<2xf32>'}}
%0 = cuda_tile.addi %a, %a : !cuda_tile.tile<2xf32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi4>
// expected-error @below {{'cuda_tile.muli' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<2xi4>'}}
%0 = cuda_tile.muli %a, %a : !cuda_tile.tile<2xi4>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
%b = "test.def"() : () -> !cuda_tile.tile<2xi16>
// expected-error @below {{'cuda_tile.xori' op failed to verify that all of {lhs, rhs, result} have same type}}
%0 = "cuda_tile.xori"(%a, %b) : (!cuda_tile.tile<2xi32>, !cuda_tile.tile<2xi16>) -> !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag}}
%0 = cuda_tile.divi %a, %a unsigned rounding<negative_inf> : !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{'cuda_tile.divi' op invalid rounding mode specified, expect one of [zero, negative_inf, positive_inf]}}
%0 = cuda_tile.divi %a, %a signed rounding<approx> : !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported}}
%0 = cuda_tile.negi %a overflow<no_unsigned_wrap> : !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{expected valid keyword}}
// expected-error @below {{expected signedness to be one of: {'signed', 'unsigned'}}}
%0 = cuda_tile.maxi %a, %a : !cuda_tile.tile<2xi32>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{expected signedness to be one of: {'signed', 'unsigned'}}}
%0 = cuda_tile.cmpi equal %a, %a, ordered : !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi1>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}}}
%0 = cuda_tile.cmpi bigger %a, %a, signed : !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi1>

// -----

%a = "test.def"() : () -> !cuda_tile.tile<2xi16>
// expected-error @below {{'cuda_tile.cmpi' op result #0 must be tile of i1 values, but got '!cuda_tile.tile<2xi16>'}}
%0 = "cuda_tile.cmpi"(%a, %a) <{comparison_predicate = #cuda_tile.comparison_predicate<less_than>, signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<2xi16>, !cuda_tile.tile<2xi16>) -> !cuda_tile.tile<2xi16>

// -----

%c = "test.def"() : () -> !cuda_tile.tile<2xi1>
%v = "test.def"() : () -> !cuda_tile.tile<2xf4E2M1FN>
// expected-error @below {{'cuda_tile.select' op cannot operate on sub-byte type F4E2M1FN}}
%0 = cuda_tile.select %c, %v, %v : !cuda_tile.tile<2xi1>, !cuda_tile.tile<2xf4E2M1FN>

// -----

%c = "test.def"() : () -> !cuda_tile.tile<4xi1>
%v = "test.def"() : () -> !cuda_tile.tile<2xi32>
// expected-error @below {{'cuda_tile.select' op failed to verify that all of {cond, val_if_true, val_if_false, result} have same shape}}
%0 = cuda_tile.select %c, %v, %v : !cuda_tile.tile<4xi1>, !cuda_tile.tile<2xi32>
