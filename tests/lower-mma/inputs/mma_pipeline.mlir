// tilepipe-pipeline-mma-loops on hand-laid tile_as IR (pipeline.bats): which
// K loops become a ring of cp.async stages, and the ring's shape.
#A = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#C = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
!pa = tensor<64x32x!tile_as.ptr<f16, 1>, #A>
!pb = tensor<32x128x!tile_as.ptr<f16, 1>, #B>
!ia = tensor<64x32xi32, #A>
!ib = tensor<32x128xi32, #B>
!ma = tensor<64x32xi1, #A>
!tc = tensor<64x128xf32, #C>

// A 64x32 by 32x128 f16 tile per iteration: a slot of the whole K (13856
// bytes) fits three times into 48 KiB, so S = 3 and one chunk per
// iteration. Prologue: a barrier, then the copies of iterations 0 and 1
// into slots 0 and 1, each only if that iteration runs (addresses computed
// for those iterations). Body: wait for all but the newest S - 2 = 1
// groups, copy iteration i + 2 into slot (t + 2) % 3, multiply slot t % 3.
// After the loop the ring drains.
// CHECK-LABEL: func.func @ring
// CHECK: tile_as.async_wait {pending = 0 : i64}
// CHECK: %[[IN0:[0-9]+]] = arith.cmpi slt, %[[C0:c0_i32]], %arg3 : i32
// CHECK: %[[K0:[0-9]+]] = arith.muli %[[C0]], %c32_i32
// CHECK: tile_as.mma_stage_copy %{{[0-9]+}} mask %arg2, %{{[0-9]+}} slot %{{.*}} if %[[IN0]] {chunk = 32 : i64, k_len = 32 : i64, k_offset = 0 : i64, stages = 3 : i64}
// CHECK: %[[IV1:[0-9]+]] = arith.addi %[[C0]], %c1
// CHECK: %[[IN1:[0-9]+]] = arith.cmpi slt, %[[IV1]], %arg3 : i32
// CHECK: arith.muli %[[IV1]], %c32_i32
// CHECK: tile_as.mma_stage_copy {{.*}} if %[[IN1]] {chunk = 32 : i64, k_len = 32 : i64, k_offset = 0 : i64, stages = 3 : i64}
// CHECK: scf.for %[[IV:arg[0-9]+]] = %[[C0]] to %arg3 step %c1{{.*}} iter_args(%[[ACC:arg[0-9]+]] = %arg4)
// CHECK: tile_as.async_wait {pending = 1 : i64}
// CHECK: %[[IV2:[0-9]+]] = arith.addi %[[IV]], %c2
// CHECK: %[[IN2:[0-9]+]] = arith.cmpi slt, %[[IV2]], %arg3 : i32
// CHECK: arith.muli %[[IV2]], %c32_i32
// CHECK: tile_as.mma_stage_copy {{.*}} if %[[IN2]]
// CHECK: %[[D:[0-9]+]] = tile_as.mmaf_stage %[[ACC]] slot %{{[0-9]+}} {chunk = 32 : i64, k_len = 32 : i64, operand_type = f16, stages = 3 : i64}
// CHECK-NOT: tile_as.mmaf_global
// CHECK: scf.yield %[[D]]
// CHECK: tile_as.async_wait {pending = 0 : i64}
func.func @ring(%a: !pa, %b: !pb, %m: !ma, %n: i32, %acc: !tc) -> !tc {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c4096 = arith.constant 4096 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (!tc) : i32 {
    %ka = arith.muli %k, %c32 : i32
    %oa = tile_as.splat %ka : !ia
    %pa = tile_as.addptr %a, %oa : !pa, !ia
    %kb = arith.muli %k, %c4096 : i32
    %ob = tile_as.splat %kb : !ib
    %pb = tile_as.addptr %b, %ob : !pb, !ib
    // expected-remark @+1 {{K loop pipelined: a cp.async ring of 3 stages of 32-deep K chunks (64 accumulator and 12 copy-address registers per thread)}}
    %d = tile_as.mmaf_global %pa mask %m, %pb, %c : !pa mask !ma, !pb, !tc
    scf.yield %d : !tc
  }
  return %r : !tc
}

// The corpus MatMul tile (128x64 by 64x256 f16): a whole-K slot takes 52
// KiB, so the ring streams 16-deep chunks, four per iteration, three slots.
// The copies run two chunks ahead: chunks 2 and 3 of the same iteration,
// then chunks 0 and 1 of the next one (addresses cloned at i + 1).
// CHECK-LABEL: func.func @chunks
// CHECK: tile_as.mma_stage_copy {{.*}} {chunk = 16 : i64, k_len = 16 : i64, k_offset = 0 : i64, stages = 3 : i64}
// CHECK: tile_as.mma_stage_copy {{.*}} {chunk = 16 : i64, k_len = 16 : i64, k_offset = 16 : i64, stages = 3 : i64}
// CHECK: scf.for
// CHECK: tile_as.async_wait {pending = 1 : i64}
// CHECK: tile_as.mma_stage_copy %{{[0-9]+}}, %arg1 slot {{.*}} k_offset = 32 : i64
// CHECK: tile_as.mmaf_stage {{.*}} {chunk = 16 : i64, k_len = 16 : i64, operand_type = bf16, stages = 3 : i64}
// CHECK: tile_as.mma_stage_copy %{{[0-9]+}}, %arg1 slot {{.*}} k_offset = 48 : i64
// CHECK: tile_as.mmaf_stage
// CHECK: tile_as.addptr %arg0
// CHECK: tile_as.mma_stage_copy {{.*}} k_offset = 0 : i64
// CHECK: tile_as.mmaf_stage
// CHECK: tile_as.mma_stage_copy {{.*}} k_offset = 16 : i64
// CHECK: tile_as.mmaf_stage
// CHECK-NOT: tile_as.mmaf_stage
// CHECK: scf.yield
#A2 = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#B2 = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#C2 = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]>
func.func @chunks(%a: tensor<128x64x!tile_as.ptr<bf16, 1>, #A2>, %b: tensor<64x256x!tile_as.ptr<bf16, 1>, #B2>,
                  %n: i32, %acc: tensor<128x256xf32, #C2>) -> tensor<128x256xf32, #C2> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (tensor<128x256xf32, #C2>) : i32 {
    %o = tile_as.splat %k : tensor<128x64xi32, #A2>
    %pa = tile_as.addptr %a, %o : tensor<128x64x!tile_as.ptr<bf16, 1>, #A2>, tensor<128x64xi32, #A2>
    // expected-remark @+1 {{K loop pipelined: a cp.async ring of 3 stages of 16-deep K chunks (128 accumulator and 24 copy-address registers per thread)}}
    %d = tile_as.mmaf_global %pa, %b, %c : tensor<128x64x!tile_as.ptr<bf16, 1>, #A2>, tensor<64x256x!tile_as.ptr<bf16, 1>, #B2>, tensor<128x256xf32, #C2>
    scf.yield %d : tensor<128x256xf32, #C2>
  }
  return %r : tensor<128x256xf32, #C2>
}

// Loops that keep the unpipelined multiply: a store in the body (the ring
// may not move reads across it), addresses from a loop-carried value, and
// one operand in registers.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tile_as.mma_stage_copy
// CHECK-NOT: tile_as.async_wait
// CHECK-COUNT-3: tile_as.mmaf_global
func.func @kept(%a: !pa, %b: !pb, %n: i32, %acc: !tc, %x: tensor<64x32xf16, #A>) -> (!tc, !tc, !tc) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (!tc) : i32 {
    %o = tile_as.splat %k : !ia
    %pa = tile_as.addptr %a, %o : !pa, !ia
    tile_as.store %pa, %x : !pa, tensor<64x32xf16, #A>
    %d = tile_as.mmaf_global %pa, %b, %c : !pa, !pb, !tc
    scf.yield %d : !tc
  }
  %r2:2 = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc, %p = %a) -> (!tc, !pa) : i32 {
    %d = tile_as.mmaf_global %p, %b, %c : !pa, !pb, !tc
    %o = tile_as.splat %c1 : !ia
    %p2 = tile_as.addptr %p, %o : !pa, !ia
    scf.yield %d, %p2 : !tc, !pa
  }
  %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (!tc) : i32 {
    %d = tile_as.mmaf_global %x, %b, %c : tensor<64x32xf16, #A>, !pb, !tc
    scf.yield %d : !tc
  }
  return %r, %r2#0, %r3 : !tc, !tc, !tc
}

// The cost rule (max-ring-registers, 160 by default): cuTile's
// BatchMatMul tile takes K 128 deep per iteration, so through the ring its
// 128 accumulator registers per thread sit next to 48 of next-copy
// addresses (8 16-byte runs of A, 16 of B, 64-bit each): 176, and the loop
// keeps its mmaf_global (@chunks: 128 + 24 = 152 is pipelined). Forced
// (max-ring-registers=1024, the FORCED prefix) it streams eight chunks per
// iteration.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: tile_as.mmaf_stage
// CHECK: tile_as.mmaf_global
// CHECK-NOT: tile_as.mmaf_stage
// CHECK: return
// FORCED-LABEL: func.func @wide
// FORCED: scf.for
// FORCED-COUNT-8: tile_as.mmaf_stage {{.*}} {chunk = 16 : i64, k_len = 16 : i64, operand_type = bf16, stages = 3 : i64}
// FORCED-NOT: tile_as.mmaf_stage
// FORCED: scf.yield
#A3 = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
func.func @wide(%a: tensor<128x128x!tile_as.ptr<bf16, 1>, #A3>, %b: tensor<128x256x!tile_as.ptr<bf16, 1>, #B2>,
                %n: i32, %acc: tensor<128x256xf32, #C2>) -> tensor<128x256xf32, #C2> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (tensor<128x256xf32, #C2>) : i32 {
    %o = tile_as.splat %k : tensor<128x128xi32, #A3>
    %pa = tile_as.addptr %a, %o : tensor<128x128x!tile_as.ptr<bf16, 1>, #A3>, tensor<128x128xi32, #A3>
    // expected-remark @+1 {{K loop not pipelined: the ring would keep 128 accumulator and 48 copy-address registers per thread live, over max-ring-registers = 160}}
    %d = tile_as.mmaf_global %pa, %b, %c : tensor<128x128x!tile_as.ptr<bf16, 1>, #A3>, tensor<128x256x!tile_as.ptr<bf16, 1>, #B2>, tensor<128x256xf32, #C2>
    scf.yield %d : tensor<128x256xf32, #C2>
  }
  return %r : tensor<128x256xf32, #C2>
}

// Registers within the rule but no room in shared memory: a 512x16 by
// 16x256 f16 chunk takes 33 KiB staged (rows padded by 16 bytes), so not
// even two fit the 48 KiB a tile kernel has, and the loop stays (on 32
// warps the accumulator takes 128 registers per thread, the copies 4).
// CHECK-LABEL: func.func @no_room
// CHECK-NOT: tile_as.mmaf_stage
// CHECK: tile_as.mmaf_global
#A4 = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [32, 1], order = [1, 0]>
#B4 = #tile_as.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [32, 1], order = [1, 0]>
#C4 = #tile_as.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 4], order = [1, 0]>
func.func @no_room(%a: tensor<512x16x!tile_as.ptr<f16, 1>, #A4>, %b: tensor<16x256x!tile_as.ptr<f16, 1>, #B4>,
                   %n: i32, %acc: tensor<512x256xf32, #C4>) -> tensor<512x256xf32, #C4> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> (tensor<512x256xf32, #C4>) : i32 {
    %o = tile_as.splat %k : tensor<512x16xi32, #A4>
    %pa = tile_as.addptr %a, %o : tensor<512x16x!tile_as.ptr<f16, 1>, #A4>, tensor<512x16xi32, #A4>
    // expected-remark @+1 {{K loop not pipelined: not even two 16-deep chunks of A and B fit the 49152 bytes of static shared memory}}
    %d = tile_as.mmaf_global %pa, %b, %c : tensor<512x16x!tile_as.ptr<f16, 1>, #A4>, tensor<16x256x!tile_as.ptr<f16, 1>, #B4>, tensor<512x256xf32, #C4>
    scf.yield %d : tensor<512x256xf32, #C4>
  }
  return %r : tensor<512x256xf32, #C4>
}
