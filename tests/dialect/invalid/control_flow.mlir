// if, for, loop and their terminators.

%c4_i32 = cuda_tile.constant <i32: 4> : tile<i32>
// expected-error @below{{operand #0 must be 0D tile of 1-bit signless integer values, but got '!cuda_tile.tile<i32>'}}
"cuda_tile.if"(%c4_i32) ({
  cuda_tile.yield
}, {
}) : (!cuda_tile.tile<i32>) -> ()

// -----

%true = cuda_tile.constant <i1: true> : tile<i1>
// expected-error @below{{must have an else block if defining values}}
%0 = cuda_tile.if %true -> (tile<i32>) {
  %c = cuda_tile.constant <i32: 1> : tile<i32>
  cuda_tile.yield %c : tile<i32>
}

// -----

%c0_i32 = cuda_tile.constant <i32: 0> : tile<i32>
%c1_i32 = cuda_tile.constant <i32: 1> : tile<i32>
cuda_tile.for %iv in (%c0_i32 to %c1_i32, step %c1_i32) : tile<i32> {
  // expected-error @below{{`for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: (), but found: ('!cuda_tile.tile<i32>')}}
  cuda_tile.continue %c0_i32 : tile<i32>
}

// -----

%c0_i32 = cuda_tile.constant <i32: 0> : tile<i32>
// expected-error @below{{expected induction variable to be same type as bounds}}
"cuda_tile.for"(%c0_i32, %c0_i32, %c0_i32) ({
  ^bb0(%i0 : !cuda_tile.tile<f32>):
    cuda_tile.continue
}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()

// -----

%c0_i32 = cuda_tile.constant <i32: 0> : tile<i32>
%init = cuda_tile.constant <f32: 0.0> : tile<f32>
// expected-error @below{{init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<f32>' != '!cuda_tile.tile<f64>'}}
"cuda_tile.for"(%c0_i32, %c0_i32, %c0_i32, %init) ({
  ^bb0(%i0 : !cuda_tile.tile<i32>, %iter: !cuda_tile.tile<f64>):
    cuda_tile.continue %init : !cuda_tile.tile<f32>
}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<f32>) -> (!cuda_tile.tile<f32>)

// -----

%c0_i32 = cuda_tile.constant <i32: 0> : tile<i32>
cuda_tile.loop {
  // expected-error @below{{operand types must correspond to the parent loop result types}}
  cuda_tile.break %c0_i32 : tile<i32>
}

// -----

%c0_i32 = cuda_tile.constant <i32: 0> : tile<i32>
%c1_i32 = cuda_tile.constant <i32: 1> : tile<i32>
cuda_tile.for %iv in (%c0_i32 to %c1_i32, step %c1_i32) : tile<i32> {
  %cond = "cond"() : () -> !cuda_tile.tile<i1>
  cuda_tile.if %cond {
    // expected-error @below{{can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations}}
    cuda_tile.break
  }
}

// -----

// expected-error @below{{can only be nested within a ancestor chain of 'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' operations}}
cuda_tile.continue
