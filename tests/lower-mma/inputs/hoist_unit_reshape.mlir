// tilepipe-hoist-elementwise-over-unit-reshapes on tile_as IR (before
// layouts): which elementwise ops move before a reshape that only adds or
// drops unit dimensions, and which stay.

// FMHA's epilogue: the truncf and the mulf by a splat before it move in
// front of the reshape (the splat rebuilt in the 2-D shape), so the reshape
// relabels the f16 tile.
// CHECK-LABEL: func.func @narrowing_chain
// CHECK-SAME: (%[[ACC:.*]]: tensor<64x32xf32>, %[[S:.*]]: f32
// CHECK: %[[SPLAT:.*]] = tile_as.splat %[[S]] : tensor<64x32xf32>
// CHECK: %[[MUL:.*]] = arith.mulf %[[ACC]], %[[SPLAT]] : tensor<64x32xf32>
// CHECK-NOT: tile_as.reshape
// CHECK: %[[CONST:.*]] = arith.constant dense<2.000000e+00> : tensor<64x32xf32>
// CHECK-NOT: tile_as.reshape
// CHECK: %[[ADD:.*]] = arith.addf %[[MUL]], %[[CONST]] : tensor<64x32xf32>
// CHECK-NOT: tile_as.reshape
// CHECK: %[[NARROW:.*]] = arith.truncf %[[ADD]] : tensor<64x32xf32> to tensor<64x32xf16>
// CHECK: %[[OUT:.*]] = tile_as.reshape %[[NARROW]] : tensor<64x32xf16> -> tensor<1x1x64x32xf16>
// CHECK: return %[[OUT]]
func.func @narrowing_chain(%acc: tensor<64x32xf32>, %s: f32) -> tensor<1x1x64x32xf16> {
  %r = tile_as.reshape %acc : tensor<64x32xf32> -> tensor<1x1x64x32xf32>
  %splat = tile_as.splat %s : tensor<1x1x64x32xf32>
  %m = arith.mulf %r, %splat : tensor<1x1x64x32xf32>
  %two = arith.constant dense<2.0> : tensor<1x1x64x32xf32>
  %a = arith.addf %m, %two : tensor<1x1x64x32xf32>
  %h = arith.truncf %a : tensor<1x1x64x32xf32> to tensor<1x1x64x32xf16>
  return %h : tensor<1x1x64x32xf16>
}

// A widening extf stays after its reshape, which keeps moving the narrow
// tile.
// CHECK-LABEL: func.func @widening_stays
// CHECK: tile_as.reshape %{{.*}} : tensor<64x32xf16> -> tensor<1x64x32xf16>
// CHECK: arith.extf %{{.*}} : tensor<1x64x32xf16> to tensor<1x64x32xf32>
func.func @widening_stays(%x: tensor<64x32xf16>) -> tensor<1x64x32xf32> {
  %r = tile_as.reshape %x : tensor<64x32xf16> -> tensor<1x64x32xf16>
  %w = arith.extf %r : tensor<1x64x32xf16> to tensor<1x64x32xf32>
  return %w : tensor<1x64x32xf32>
}

// A reshape something else uses too stays, and the op after it: hoisting
// would leave both reshapes.
// CHECK-LABEL: func.func @shared_reshape_stays
// CHECK: %[[R:.*]] = tile_as.reshape %{{.*}} : tensor<64x32xf32> -> tensor<1x64x32xf32>
// CHECK: arith.truncf %[[R]] : tensor<1x64x32xf32> to tensor<1x64x32xf16>
func.func @shared_reshape_stays(%x: tensor<64x32xf32>) -> (tensor<1x64x32xf16>, tensor<1x64x32xf32>) {
  %r = tile_as.reshape %x : tensor<64x32xf32> -> tensor<1x64x32xf32>
  %h = arith.truncf %r : tensor<1x64x32xf32> to tensor<1x64x32xf16>
  return %h, %r : tensor<1x64x32xf16>, tensor<1x64x32xf32>
}

// Operands reshaped from different shapes, or a reshape that regroups
// elements (64x32 -> 32x64), keep the op where it is.
// CHECK-LABEL: func.func @mismatched_stays
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<1x64x32xf32>
// CHECK: arith.truncf %{{.*}} : tensor<32x64xf32> to tensor<32x64xf16>
func.func @mismatched_stays(%x: tensor<64x32xf32>, %y: tensor<1x64x32x1xf32>, %z: tensor<64x32xf32>)
    -> (tensor<1x64x32xf32>, tensor<32x64xf16>) {
  %rx = tile_as.reshape %x : tensor<64x32xf32> -> tensor<1x64x32xf32>
  %ry = tile_as.reshape %y : tensor<1x64x32x1xf32> -> tensor<1x64x32xf32>
  %s = arith.addf %rx, %ry : tensor<1x64x32xf32>
  %rz = tile_as.reshape %z : tensor<64x32xf32> -> tensor<32x64xf32>
  %h = arith.truncf %rz : tensor<32x64xf32> to tensor<32x64xf16>
  return %s, %h : tensor<1x64x32xf32>, tensor<32x64xf16>
}

// Dropping unit dimensions counts too: both operands come from 1x64x32.
// CHECK-LABEL: func.func @dropped_units
// CHECK: %[[SUB:.*]] = arith.subf %{{.*}}, %{{.*}} : tensor<1x64x32xf32>
// CHECK: tile_as.reshape %[[SUB]] : tensor<1x64x32xf32> -> tensor<64x32xf32>
func.func @dropped_units(%x: tensor<1x64x32xf32>, %y: tensor<1x64x32xf32>) -> tensor<64x32xf32> {
  %rx = tile_as.reshape %x : tensor<1x64x32xf32> -> tensor<64x32xf32>
  %ry = tile_as.reshape %y : tensor<1x64x32xf32> -> tensor<64x32xf32>
  %d = arith.subf %rx, %ry : tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// Scalar elementwise ops are left alone.
// CHECK-LABEL: func.func @scalars
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
func.func @scalars(%x: f32, %y: f32) -> f32 {
  %s = arith.addf %x, %y : f32
  return %s : f32
}
