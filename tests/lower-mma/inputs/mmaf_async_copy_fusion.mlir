// tilepipe-async-copy-mma-operands on hand-laid tile_as IR: which loads of an
// mma.sync mmaf's A and B fuse into a tile_as.mmaf_global (lowering.bats).
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
!pa = tensor<64x32x!tile_as.ptr<f16, 1>, #A>
!pb = tensor<32x128x!tile_as.ptr<f16, 1>, #B>
!ta = tensor<64x32xf16, #A>
!tb = tensor<32x128xf16, #B>
!tc = tensor<64x128xf32, #C>
!ma = tensor<64x32xi1, #A>

// Both loads qualify (zero padding, 16-byte runs): one mmaf_global reads
// through the pointers and masks where the mmaf stood.
// CHECK-LABEL: func.func @fused
// CHECK-NOT: tile_as.load
// CHECK: tile_as.mmaf_global %arg0 mask %arg2, %arg1, %arg3
// CHECK-NOT: tile_as.mmaf {{.*}}:
func.func @fused(%a: !pa, %b: !pb, %m: !ma, %acc: !tc) -> !tc {
  %zero = arith.constant dense<0.0> : !ta
  %x = tile_as.load %a, %m, %zero {contiguity = 8 : i64} : !pa, !ma, !ta -> !ta
  %y = tile_as.load %b {contiguity = 8 : i64} : !pb -> !tb
  %d = tile_as.mmaf %x, %y, %acc : !ta, !tb, !tc
  return %d : !tc
}

// 3-D loads of a batch of one, reshaped to 2-D (cuTile's batched views): the
// pointers and masks are reshaped instead, to the loads' layouts without
// the unit dimension, and the loads go.
#A3 = #tile_as.blocked<sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>
#B3 = #tile_as.blocked<sizePerThread = [1, 1, 8], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>
// CHECK-LABEL: func.func @reshaped
// CHECK-NOT: tile_as.load
// CHECK-DAG: %[[A:[0-9]+]] = tile_as.reshape %arg0 : {{.*}} -> tensor<64x32x!tile_as.ptr<f16, 1>, #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK-DAG: %[[M:[0-9]+]] = tile_as.reshape %arg2 : {{.*}} -> tensor<64x32xi1, #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK-DAG: %[[B:[0-9]+]] = tile_as.reshape %arg1 : {{.*}} -> tensor<32x128x!tile_as.ptr<f16, 1>, #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK: tile_as.mmaf_global %[[A]] mask %[[M]], %[[B]], %arg3
func.func @reshaped(%a: tensor<1x64x32x!tile_as.ptr<f16, 1>, #A3>, %b: tensor<1x32x128x!tile_as.ptr<f16, 1>, #B3>,
                    %m: tensor<1x64x32xi1, #A3>, %acc: !tc) -> !tc {
  %zero = arith.constant dense<0.0> : tensor<1x64x32xf16, #A3>
  %x = tile_as.load %a, %m, %zero {contiguity = 8 : i64} : tensor<1x64x32x!tile_as.ptr<f16, 1>, #A3>, tensor<1x64x32xi1, #A3>, tensor<1x64x32xf16, #A3> -> tensor<1x64x32xf16, #A3>
  %x2 = tile_as.reshape %x : tensor<1x64x32xf16, #A3> -> tensor<64x32xf16, #C>
  %y = tile_as.load %b {contiguity = 8 : i64} : tensor<1x32x128x!tile_as.ptr<f16, 1>, #B3> -> tensor<1x32x128xf16, #B3>
  %y2 = tile_as.reshape %y : tensor<1x32x128xf16, #B3> -> tensor<32x128xf16, #C>
  %d = tile_as.mmaf %x2, %y2, %acc : tensor<64x32xf16, #C>, tensor<32x128xf16, #C>, !tc
  return %d : !tc
}

// A store between the loads and the mmaf may write what they read: the
// copy cannot move past it.
// CHECK-LABEL: func.func @store_between
// CHECK-NOT: mmaf_global
// CHECK: tile_as.mmaf %
func.func @store_between(%a: !pa, %b: !pb, %acc: !tc, %v: !ta) -> !tc {
  %x = tile_as.load %a {contiguity = 8 : i64} : !pa -> !ta
  %y = tile_as.load %b {contiguity = 8 : i64} : !pb -> !tb
  tile_as.store %a, %v {contiguity = 8 : i64} : !pa, !ta
  %d = tile_as.mmaf %x, %y, %acc : !ta, !tb, !tc
  return %d : !tc
}

// Padding other than +0.0 (cp.async can only zero-fill), a load with
// another user, and runs shorter than 16 bytes keep A in registers; B still
// qualifies, so each mmaf_global copies B alone and takes A as registers.
// CHECK-LABEL: func.func @one_operand
// CHECK: %[[X:[0-9]+]] = tile_as.load %arg0, %arg2
// CHECK: tile_as.mmaf_global %[[X]], %arg1, %arg3 : tensor<64x32xf16,
// CHECK: %[[X2:[0-9]+]] = tile_as.load %arg0 {
// CHECK: tile_as.mmaf_global %[[X2]], %arg1, %arg3 : tensor<64x32xf16,
// CHECK: %[[X3:[0-9]+]] = tile_as.load %arg0 {contiguity = 4
// CHECK: tile_as.mmaf_global %[[X3]], %arg1, %arg3 : tensor<64x32xf16,
// CHECK-NOT: tile_as.mmaf %
func.func @one_operand(%a: !pa, %b: !pb, %m: !ma, %acc: !tc) -> (!tc, !tc, !tc, !ta) {
  %one = arith.constant dense<1.0> : !ta
  %x = tile_as.load %a, %m, %one {contiguity = 8 : i64} : !pa, !ma, !ta -> !ta
  %y = tile_as.load %b {contiguity = 8 : i64} : !pb -> !tb
  %d = tile_as.mmaf %x, %y, %acc : !ta, !tb, !tc
  %x2 = tile_as.load %a {contiguity = 8 : i64} : !pa -> !ta
  %y2 = tile_as.load %b {contiguity = 8 : i64} : !pb -> !tb
  %d2 = tile_as.mmaf %x2, %y2, %acc : !ta, !tb, !tc
  %x3 = tile_as.load %a {contiguity = 4 : i64} : !pa -> !ta
  %y3 = tile_as.load %b {contiguity = 8 : i64} : !pb -> !tb
  %d3 = tile_as.mmaf %x3, %y3, %acc : !ta, !tb, !tc
  return %d, %d2, %d3, %x2 : !tc, !tc, !tc, !ta
}

// FMHA's second multiply: P computed in registers, V a [1, 1, S, D] block of
// a 4-D view. V's pointers and mask lose both unit dimensions; P stays.
#V4 = #tile_as.blocked<sizePerThread = [1, 1, 1, 8], threadsPerWarp = [1, 1, 2, 16], warpsPerCTA = [1, 1, 4, 1], order = [3, 2, 1, 0]>
// CHECK-LABEL: func.func @registers_and_4d
// CHECK-DAG: %[[V:[0-9]+]] = tile_as.reshape %arg1 : {{.*}} -> tensor<32x128x!tile_as.ptr<f16, 1>, #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK-DAG: %[[M:[0-9]+]] = tile_as.reshape %arg2 : {{.*}} -> tensor<32x128xi1,
// CHECK: tile_as.mmaf_global %arg0, %[[V]] mask %[[M]], %arg3 : tensor<64x32xf16,
func.func @registers_and_4d(%p: !ta, %v: tensor<1x1x32x128x!tile_as.ptr<f16, 1>, #V4>,
                            %m: tensor<1x1x32x128xi1, #V4>, %acc: !tc) -> !tc {
  %y = tile_as.load %v, %m {contiguity = 8 : i64} : tensor<1x1x32x128x!tile_as.ptr<f16, 1>, #V4>, tensor<1x1x32x128xi1, #V4> -> tensor<1x1x32x128xf16, #V4>
  %y2 = tile_as.reshape %y : tensor<1x1x32x128xf16, #V4> -> tensor<32x128xf16, #C>
  %d = tile_as.mmaf %p, %y2, %acc : !ta, tensor<32x128xf16, #C>, !tc
  return %d : !tc
}

// Neither operand qualifies (A in registers, B's runs too short): the mmaf stays.
// CHECK-LABEL: func.func @neither
// CHECK-NOT: mmaf_global
// CHECK: tile_as.mmaf %
func.func @neither(%p: !ta, %b: !pb, %acc: !tc) -> !tc {
  %y = tile_as.load %b {contiguity = 4 : i64} : !pb -> !tb
  %d = tile_as.mmaf %p, %y, %acc : !ta, !tb, !tc
  return %d : !tc
}
