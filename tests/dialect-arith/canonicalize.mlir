// Folds and canonicalization patterns of the elementwise ops.
// Run by arith.bats: tile-opt %s --allow-unregistered-dialect --canonicalize --split-input-file | FileCheck --strict-whitespace %s

// addf puts a multiply on its left, where FMA fusion looks for it.
// CHECK-LABEL: @addf_mul_to_lhs
// CHECK: %[[MUL:.*]] = cuda_tile.mulf
// CHECK: cuda_tile.addf %[[MUL]], %[[C:[^ ]+]] rounding<zero> : tile<f32>
func.func @addf_mul_to_lhs(%a: !cuda_tile.tile<f32>, %c: !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32> {
  %mul = cuda_tile.mulf %a, %a : !cuda_tile.tile<f32>
  %r = cuda_tile.addf %c, %mul rounding<zero> : !cuda_tile.tile<f32>
  return %r : !cuda_tile.tile<f32>
}

// -----

// CHECK-LABEL: @addf_keeps_order
// CHECK: cuda_tile.addf %[[M1:[^,]+]], %[[M2:[^ ]+]]  : tile<f32>
func.func @addf_keeps_order(%a: !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32> {
  %m1 = cuda_tile.mulf %a, %a : !cuda_tile.tile<f32>
  %m2 = cuda_tile.mulf %m1, %a : !cuda_tile.tile<f32>
  %r = cuda_tile.addf %m1, %m2 : !cuda_tile.tile<f32>
  return %r : !cuda_tile.tile<f32>
}

// -----

// CHECK-LABEL: @select_same_arms
// CHECK-NOT: select
// CHECK: return %arg1
func.func @select_same_arms(%c: !cuda_tile.tile<4xi1>, %x: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %r = cuda_tile.select %c, %x, %x : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf32>
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// CHECK-LABEL: @select_constant_condition
// CHECK-NOT: select
// CHECK: return %arg1
func.func @select_constant_condition(%x: !cuda_tile.tile<4xf32>, %y: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %false = cuda_tile.constant <i1: false> : !cuda_tile.tile<4xi1>
  %r = cuda_tile.select %false, %x, %y : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf32>
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// CHECK-LABEL: @select_bool_identity
// CHECK-NOT: select
// CHECK: return %arg0
func.func @select_bool_identity(%c: !cuda_tile.tile<4xi1>) -> !cuda_tile.tile<4xi1> {
  %true = cuda_tile.constant <i1: true> : !cuda_tile.tile<4xi1>
  %false = cuda_tile.constant <i1: false> : !cuda_tile.tile<4xi1>
  %r = cuda_tile.select %c, %true, %false : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi1>
  return %r : !cuda_tile.tile<4xi1>
}

// -----

// CHECK-LABEL: @select_of_equality
// CHECK-NOT: select
// CHECK: return %arg1
func.func @select_of_equality(%a: !cuda_tile.tile<4xi32>, %b: !cuda_tile.tile<4xi32>) -> !cuda_tile.tile<4xi32> {
  %eq = cuda_tile.cmpi equal %a, %b, signed : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xi1>
  %r = cuda_tile.select %eq, %a, %b : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi32>
  return %r : !cuda_tile.tile<4xi32>
}

// -----

// CHECK-LABEL: @select_of_negation
// CHECK-NOT: xori
// CHECK: cuda_tile.select %arg0, %arg2, %arg1
func.func @select_of_negation(%c: !cuda_tile.tile<4xi1>, %x: !cuda_tile.tile<4xf32>, %y: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %true = cuda_tile.constant <i1: true> : !cuda_tile.tile<4xi1>
  %not = cuda_tile.xori %c, %true : !cuda_tile.tile<4xi1>
  %r = cuda_tile.select %not, %x, %y : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf32>
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// CHECK-LABEL: @select_nested
// CHECK: %[[R:.*]] = cuda_tile.select %arg0, %arg1, %arg3
// CHECK: return %[[R]]
func.func @select_nested(%c: !cuda_tile.tile<4xi1>, %a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf32>, %d: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %inner = cuda_tile.select %c, %a, %b : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf32>
  %r = cuda_tile.select %c, %inner, %d : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf32>
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// CHECK-LABEL: @select_of_constants
// CHECK-NOT: select
// CHECK: cuda_tile.constant <i32: [1, 20, 3, 40]> : tile<4xi32>
func.func @select_of_constants() -> !cuda_tile.tile<4xi32> {
  %c = cuda_tile.constant <i1: [true, false, true, false]> : !cuda_tile.tile<4xi1>
  %a = cuda_tile.constant <i32: [1, 2, 3, 4]> : !cuda_tile.tile<4xi32>
  %b = cuda_tile.constant <i32: [10, 20, 30, 40]> : !cuda_tile.tile<4xi32>
  %r = cuda_tile.select %c, %a, %b : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi32>
  return %r : !cuda_tile.tile<4xi32>
}

// -----

// CHECK-LABEL: @select_to_exti
// CHECK-NOT: select
// CHECK: cuda_tile.exti %arg0 unsigned : tile<4xi1> -> tile<4xi32>
func.func @select_to_exti(%c: !cuda_tile.tile<4xi1>) -> !cuda_tile.tile<4xi32> {
  %one = cuda_tile.constant <i32: 1> : !cuda_tile.tile<4xi32>
  %zero = cuda_tile.constant <i32: 0> : !cuda_tile.tile<4xi32>
  %r = cuda_tile.select %c, %one, %zero : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi32>
  return %r : !cuda_tile.tile<4xi32>
}

// -----

// CHECK-LABEL: @select_to_not
// CHECK: %[[TRUE:.*]] = cuda_tile.constant <i1: true> : tile<4xi1>
// CHECK: cuda_tile.xori %arg0, %[[TRUE]] : tile<4xi1>
// CHECK-NOT: select
func.func @select_to_not(%c: !cuda_tile.tile<4xi1>) -> !cuda_tile.tile<4xi1> {
  %true = cuda_tile.constant <i1: true> : !cuda_tile.tile<4xi1>
  %false = cuda_tile.constant <i1: false> : !cuda_tile.tile<4xi1>
  %r = cuda_tile.select %c, %false, %true : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi1>
  return %r : !cuda_tile.tile<4xi1>
}

// -----

// Two finite constants add up under the op's rounding mode.
// CHECK-LABEL: @addf_constants
// CHECK: %[[SUM:.*]] = cuda_tile.constant <f32: [4.000000e+00, 1.000000e+00]> : tile<2xf32>
// CHECK-NOT: addf
// CHECK: return %[[SUM]]
func.func @addf_constants() -> !cuda_tile.tile<2xf32> {
  %a = cuda_tile.constant <f32: [1.5, -1.0]> : !cuda_tile.tile<2xf32>
  %b = cuda_tile.constant <f32: [2.5, 2.0]> : !cuda_tile.tile<2xf32>
  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<2xf32>
  return %r : !cuda_tile.tile<2xf32>
}

// -----

// 1 + 2^-30 is not representable in f32: rounding up gives the next float.
// CHECK-LABEL: @addf_constants_rounding
// CHECK: cuda_tile.constant <f32: 1.00000012> : tile<f32>
// CHECK-NOT: addf
func.func @addf_constants_rounding() -> !cuda_tile.tile<f32> {
  %a = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>
  %b = cuda_tile.constant <f32: 9.3132257461547852E-10> : !cuda_tile.tile<f32>
  %r = cuda_tile.addf %a, %b rounding<positive_inf> : !cuda_tile.tile<f32>
  return %r : !cuda_tile.tile<f32>
}

// -----

// Infinities are left alone.
// CHECK-LABEL: @addf_infinity_not_folded
// CHECK: cuda_tile.addf
func.func @addf_infinity_not_folded() -> !cuda_tile.tile<f32> {
  %a = cuda_tile.constant <f32: 0x7F800000> : !cuda_tile.tile<f32>
  %b = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>
  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>
  return %r : !cuda_tile.tile<f32>
}
