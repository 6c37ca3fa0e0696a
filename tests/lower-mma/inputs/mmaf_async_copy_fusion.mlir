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
// another user, and runs shorter than 16 bytes keep the register path.
// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: mmaf_global
// CHECK-COUNT-3: tile_as.mmaf %
func.func @not_fused(%a: !pa, %b: !pb, %m: !ma, %acc: !tc) -> (!tc, !tc, !tc, !ta) {
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
