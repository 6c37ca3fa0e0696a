// Canonicalization patterns of cuda_tile.if.
// Run by tests/dialect/canonicalize.bats: tile-opt %s --canonicalize --split-input-file | FileCheck %s

// if (c ^ true) A else B  ->  if (c) B else A
// CHECK-LABEL: @negated_condition
// CHECK: %[[R:.*]] = cuda_tile.if %arg0 -> (tile<4xf32>) {
// CHECK-NEXT: negf %arg2
// CHECK: } else {
// CHECK-NEXT: negf %arg1
func.func @negated_condition(%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %t = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>
  %n = cuda_tile.xori %c, %t : !cuda_tile.tile<i1>
  %r = cuda_tile.if %n -> (!cuda_tile.tile<4xf32>) {
    %x = cuda_tile.negf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %x : !cuda_tile.tile<4xf32>
  } else {
    %y = cuda_tile.negf %b : !cuda_tile.tile<4xf32>
    cuda_tile.yield %y : !cuda_tile.tile<4xf32>
  }
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// Unused results go; a result both branches yield from outside is that value.
// CHECK-LABEL: @unused_and_invariant_results
// CHECK: %[[R:.*]] = cuda_tile.if %arg0 -> (tile<4xf32>) {
// CHECK: return %[[R]], %arg2
func.func @unused_and_invariant_results(%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf32>) -> (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>) {
  %r:3 = cuda_tile.if %c -> (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>) {
    %x = cuda_tile.negf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %x, %x, %b : !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>
  } else {
    %y = cuda_tile.absf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %y, %y, %b : !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>
  }
  return %r#0, %r#2 : !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>
}

// -----

// A constant condition keeps only the branch taken.
// CHECK-LABEL: @static_condition
// CHECK-NOT: cuda_tile.if
// CHECK: %[[X:.*]] = cuda_tile.absf %arg0
// CHECK: return %[[X]]
func.func @static_condition(%a: !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32> {
  %f = cuda_tile.constant <i1: false> : !cuda_tile.tile<i1>
  %r = cuda_tile.if %f -> (!cuda_tile.tile<4xf32>) {
    %x = cuda_tile.negf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %x : !cuda_tile.tile<4xf32>
  } else {
    %y = cuda_tile.absf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %y : !cuda_tile.tile<4xf32>
  }
  return %r : !cuda_tile.tile<4xf32>
}

// -----

// Yield-only branches with scalar results are a select.
// CHECK-LABEL: @to_select
// CHECK-NOT: cuda_tile.if
// CHECK: %[[S:.*]] = cuda_tile.select %arg0, %arg1, %arg2 : tile<i1>, tile<i32>
// CHECK: return %[[S]]
func.func @to_select(%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<i32>, %b: !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32> {
  %r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {
    cuda_tile.yield %a : !cuda_tile.tile<i32>
  } else {
    cuda_tile.yield %b : !cuda_tile.tile<i32>
  }
  return %r : !cuda_tile.tile<i32>
}

// -----

// Tile-shaped results stay an if (select would need a broadcast condition).
// CHECK-LABEL: @no_select_for_tiles
// CHECK: cuda_tile.if
func.func @no_select_for_tiles(%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xi32>, %b: !cuda_tile.tile<4xi32>) -> !cuda_tile.tile<4xi32> {
  %r = cuda_tile.if %c -> (!cuda_tile.tile<4xi32>) {
    cuda_tile.yield %a : !cuda_tile.tile<4xi32>
  } else {
    cuda_tile.yield %b : !cuda_tile.tile<4xi32>
  }
  return %r : !cuda_tile.tile<4xi32>
}

// -----

// An else that does nothing is dropped; two ifs on one condition merge.
// CHECK-LABEL: @empty_else_and_combine
// CHECK: %[[R:.*]]:2 = cuda_tile.if %arg0 -> (tile<4xf32>, tile<4xf32>) {
// CHECK-NEXT: %[[X:.*]] = negf %arg1
// CHECK-NEXT: %[[Y:.*]] = absf %[[X]]
// CHECK-NEXT: print_tko
// CHECK-NEXT: yield %[[X]], %[[Y]]
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %arg1, %arg1
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @empty_else_and_combine(%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xf32>) -> (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>) {
  %r = cuda_tile.if %c -> (!cuda_tile.tile<4xf32>) {
    %x = cuda_tile.negf %a : !cuda_tile.tile<4xf32>
    cuda_tile.yield %x : !cuda_tile.tile<4xf32>
  } else {
    cuda_tile.yield %a : !cuda_tile.tile<4xf32>
  }
  %s = cuda_tile.if %c -> (!cuda_tile.tile<4xf32>) {
    %y = cuda_tile.absf %r : !cuda_tile.tile<4xf32>
    %p = cuda_tile.print_tko "x" -> !cuda_tile.token
    cuda_tile.yield %y : !cuda_tile.tile<4xf32>
  } else {
    cuda_tile.yield %r : !cuda_tile.tile<4xf32>
  }
  return %r, %s : !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>
}

// -----

// Nested ifs without else become one if on both conditions.
// CHECK-LABEL: @nested
// CHECK: %[[AND:.*]] = cuda_tile.andi %arg0, %arg1 : tile<i1>
// CHECK: cuda_tile.if %[[AND]] {
// CHECK-NEXT: print_tko
// CHECK-NOT: cuda_tile.if
func.func @nested(%a: !cuda_tile.tile<i1>, %b: !cuda_tile.tile<i1>) {
  cuda_tile.if %a {
    cuda_tile.if %b {
      %p = cuda_tile.print_tko "both" -> !cuda_tile.token
    }
  } else {
  }
  return
}

// -----

// A branch leaving by `continue` is not moved or merged.
// CHECK-LABEL: @loop_exit_branch
// CHECK: print_tko
// CHECK-NEXT: if %arg0 {
// CHECK-NEXT: continue
func.func @loop_exit_branch(%c: !cuda_tile.tile<i1>) {
  cuda_tile.loop {
    %p = cuda_tile.print_tko "iteration" -> !cuda_tile.token
    cuda_tile.if %c {
      cuda_tile.continue
    }
    cuda_tile.break
  }
  return
}

// -----

// Both branches continue: the continue moves after the if; what followed it
// was unreachable.
// CHECK-LABEL: @common_exit
// CHECK: cuda_tile.loop {
// CHECK-NEXT: if %arg0 {
// CHECK-NEXT: print_tko "a"
// CHECK-NEXT: } else {
// CHECK-NEXT: print_tko "b"
// CHECK-NEXT: }
// (the loop printer elides the trailing `continue`)
// CHECK-NEXT: }
// CHECK-NOT: unreachable
func.func @common_exit(%c: !cuda_tile.tile<i1>) {
  cuda_tile.loop {
    cuda_tile.if %c {
      %p = cuda_tile.print_tko "a" -> !cuda_tile.token
      cuda_tile.continue
    } else {
      %q = cuda_tile.print_tko "b" -> !cuda_tile.token
      cuda_tile.continue
    }
    %r = cuda_tile.print_tko "unreachable" -> !cuda_tile.token
    cuda_tile.break
  }
  return
}
