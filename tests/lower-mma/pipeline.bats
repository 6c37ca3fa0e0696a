#!/usr/bin/env bats
# K-loop software pipelining (tilepipe-pipeline-mma-loops): the ring's shape
# on hand-laid tile_as IR, and on cuTile's MatMul its lowering: a prologue of
# cp.async groups before the loop, wait_group S - 2 = 1 and a barrier before
# each chunk's ldmatrix/mma.sync, a drain after the loop. The numbers are
# checked by tests/corpus/matmul.bats (MatMul and persistent matmul through
# the default ring, batched matmul through a forced one, ragged K included).
# On sm_90a the same pass builds a TMA ring (full/empty mbarriers per stage,
# wgmma with one group in flight), on sm_120a/121a the same ring read by
# ldmatrix + mma.sync; their numbers are checked there too.

# single_role_sched BYTECODE [OPTIONS]: tile-sched's passes at sm_90a with
# tilepipe-warp-specialize-rings off, so that the TMA ring keeps one role
# (warpspec.bats checks the specialized form that tileiras builds); OPTIONS
# go to tilepipe-pipeline-mma-loops.
single_role_sched() {
  tileiras "$1" --gpu-name sm_90a --emit=lowered -o - |
    tile-opt --tilepipe-select-wgmma-target --tilepipe-split-mma-accumulators \
      --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-store-tiles-by-tma \
      "--tilepipe-pipeline-mma-loops${2:+=$2}" '--tilepipe-warp-specialize-rings=warp-specialize=0' \
      --tilepipe-keep-accumulators-in-tmem
}

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mma_pipeline.mlir"
  MATMUL="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_80.13.4.tileirbc"
  BATCHED="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BatchMatMul-batch_matmul_kernel.f16.sm_80.13.4.tileirbc"
}

@test "tile-sched: a K loop of one mmaf_global becomes a ring of 3 stages with a peeled prologue; the cost rule keeps a K-128 tile's loop, the shared-memory budget a 512-row one" {
  run bash -c "tile-opt --tilepipe-pipeline-mma-loops '$IN' | FileCheck '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-opt --tilepipe-pipeline-mma-loops=max-ring-registers=1024 '$IN' 2>/dev/null | FileCheck --check-prefix=FORCED '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Each matched loop's remark: pipelined, or kept by the cost rule or for
  # want of shared memory (@no_room).
  run tile-opt --tilepipe-pipeline-mma-loops --verify-diagnostics "$IN" -o /dev/null
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: cuTile's MatMul streams 16-deep chunks through the ring by default; BatchMatMul keeps its loop (-v says why)" {
  run bash -c "tileiras '$MATMUL' --gpu-name sm_80 --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"MatMul.py:93:22: remark: K loop pipelined: a cp.async ring of 3 stages of 16-deep K chunks (128 accumulator and 24 copy-address registers per thread)"* ]] ||
    { echo "$output"; false; }
  run cat "$BATS_TEST_TMPDIR/s.mlir"
  [[ "$output" != *"tile_as.mmaf_global"* ]] || { echo "$output" | grep mmaf; false; }
  [ "$(grep -c 'tile_as.mmaf_stage' <<< "$output")" -eq 4 ] || { echo "$output" | grep mmaf; false; }
  [ "$(grep -c 'tile_as.mma_stage_copy' <<< "$output")" -eq 6 ] || { echo "$output" | grep copy; false; }
  [ "$(grep -c 'tile_as.async_wait {pending = 1 : i64}' <<< "$output")" -eq 4 ] || false
  [ "$(grep -c 'tile_as.async_wait {pending = 0 : i64}' <<< "$output")" -eq 2 ] || false
  run bash -c "tileiras '$BATCHED' --gpu-name sm_80 --emit=scheduled -o '$BATS_TEST_TMPDIR/b.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"BatchMatMul.py:44:22: remark: K loop not pipelined: the ring would keep 128 accumulator and 48 copy-address registers per thread live, over max-ring-registers = 160"* ]] ||
    { echo "$output"; false; }
  grep -q 'tile_as.mmaf_global' "$BATS_TEST_TMPDIR/b.mlir" && ! grep -q 'mma_stage_copy' "$BATS_TEST_TMPDIR/b.mlir"
}

# The ring stages and multiplies in the 16-bit form; an fp8 mmaf_global
# (BatchMatMul's, both operands by cp.async) keeps its loop, forced or not.
@test "tile-sched: an fp8 mmaf_global's K loop keeps its own staging (no ring), even forced" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$bc' --gpu-name sm_90 --emit=lowered -o - | tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops=max-ring-registers=1024"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"tile_as.mmaf_global"* && "$output" != *"tile_as.mma_stage_copy"* ]] ||
    { echo "$output" | grep mma; false; }
}

@test "PTX (default tileiras, sm_80): MatMul's prologue groups, wait_group 1 and bar.sync before ldmatrix, a drain after the loop" {
  run bash -c "tileiras '$MATMUL' --gpu-name sm_80 --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # 2 prologue groups and one per chunk (4 per iteration); a wait_group 1 per chunk.
  [ "$(grep -c 'cp.async.commit_group' "$BATS_TEST_TMPDIR/k.ptx")" -eq 6 ] || false
  [ "$(grep -c 'cp.async.wait_group 	1;' "$BATS_TEST_TMPDIR/k.ptx")" -eq 4 ] || false
}

@test "verifier: a copy past K or with mismatched K" {
  run tile-opt --verify-diagnostics --split-input-file "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mma_ring_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# sm_90a: the wgmma path's mmaf_global (A and B by TMA) takes the TMA ring:
# full/empty mbarriers per stage, phases tracked from the chunk index. The
# ring's single-role form (one thread of the multiplying warps issues the
# loads) is pinned here; tileiras then warp-specializes it (warpspec.bats).
@test "tile-sched: on sm_90a cuTile's MatMul K loop becomes a TMA ring of 3 stages of 16-deep chunks (-v says so); the release slot is the refilled one, the phase flips every S chunks" {
  local matmul90="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$matmul90' --gpu-name sm_90a --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"MatMul.py:93:22: remark: K loop pipelined: a TMA ring of 3 stages of 16-deep K chunks, full and empty mbarriers per stage, one wgmma group in flight (128 accumulator registers per thread)"* ]] ||
    { echo "$output"; false; }
  single_role_sched "$matmul90" > "$BATS_TEST_TMPDIR/s.mlir" 2>/dev/null
  run FileCheck --input-file "$BATS_TEST_TMPDIR/s.mlir" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul90_ring.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # One ring; 2 prologue loads and 4 per iteration; 4 chunks multiplied.
  run cat "$BATS_TEST_TMPDIR/s.mlir"
  [[ "$output" != *"tile_as.mmaf_global"* ]] || false
  [ "$(grep -c 'tile_as.tma_ring_begin' <<< "$output")" -eq 1 ] || false
  [ "$(grep -c 'tile_as.tma_stage_load' <<< "$output")" -eq 6 ] || false
  [ "$(grep -c 'tile_as.wgmma_stage' <<< "$output")" -eq 4 ] || false
  [ "$(grep -c 'tile_as.tma_ring_end' <<< "$output")" -eq 1 ] || false
}

@test "PTX (sm_90a, single-role ring): MatMul's mbarrier ring: init, prologue loads, per chunk full wait, wgmma, wait_group 1, empty release, next load; a draining wait before the epilogue" {
  local matmul90="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_90.13.4.tileirbc"
  single_role_sched "$matmul90" 2>/dev/null | tile-llvm --gpu-name sm_90a -o "$BATS_TEST_TMPDIR/k.ll"
  tile-ptx "$BATS_TEST_TMPDIR/k.ll" --gpu-name sm_90a -o "$BATS_TEST_TMPDIR/k.ptx"
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul90_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # 2 x 3 mbarriers initialized and invalidated; a wait_group 1 per chunk.
  [ "$(grep -c 'mbarrier.init.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 6 ] || false
  [ "$(grep -c 'mbarrier.inval.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 6 ] || false
  [ "$(grep -c 'wgmma.wait_group.sync.aligned 	1;' "$BATS_TEST_TMPDIR/k.ptx")" -eq 4 ] || false
}

# The persistent matmul's single-role ring, carried across its tile loop:
# begun (mbarriers initialized) before the loop, whose new i32 iter_arg
# counts the chunks of the tiles before, a CTA barrier (resume) where each
# tile's ring began, slots and parities from that count, an end that only
# drains the wgmmas, and the barrier and invalidation after the loop. In
# tile-emu its four tiles on 1 and 3 CTAs match numpy (the producer,
# thread 0, waits on parities that go on from tile to tile).
@test "tile-sched (sm_90a, single-role ring): the persistent matmul's ring is carried across its tile loop; numerics in tile-emu" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-persistent_matmul_kernel.f16.sm_90.13.4.tileirbc"
  single_role_sched "$bc" > "$BATS_TEST_TMPDIR/s.mlir" 2>/dev/null
  cat > "$BATS_TEST_TMPDIR/s.check" <<'CHECK'
CHECK: tile_as.tma_ring_begin
CHECK-NOT: warp_specialized
CHECK: scf.for {{.*}} iter_args({{.*}}%[[BASE:arg[0-9]+]] = %c0_i32{{.*}}) -> ({{.*}}i32)
CHECK: tile_as.tma_ring_resume {acc_type
CHECK: arith.addi %[[BASE]], %c0_i32
CHECK: %[[SLOT:[0-9]+]] = arith.remui %{{[0-9]+}}, %c3_i32
CHECK: tile_as.tma_stage_load {{.*}} slot %[[SLOT]] phase
CHECK: scf.for
CHECK: tile_as.wgmma_stage
CHECK: tile_as.tma_ring_end {{.*}}carried
CHECK: %[[NEXT:[0-9]+]] = arith.addi %[[BASE]], %{{[0-9]+}} : i32
CHECK: scf.yield {{.*}}%[[NEXT]]
CHECK: tile_as.tma_ring_close {acc_type
CHECK-NOT: warp_specialized
CHECK-SAME: stages = 3
CHECK
  run FileCheck --input-file "$BATS_TEST_TMPDIR/s.mlir" "$BATS_TEST_TMPDIR/s.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'tile_as.tma_ring_begin' "$BATS_TEST_TMPDIR/s.mlir")" -eq 1 ] || false
  tile-llvm --gpu-name sm_90a "$BATS_TEST_TMPDIR/s.mlir" -o "$BATS_TEST_TMPDIR/k.ll"
  local grid
  for grid in 1 3; do
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/corpus/run-case.py" \
      --manifest "$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json" \
      --case samples-MatMul-persistent_matmul_kernel.f16 --llvm "$BATS_TEST_TMPDIR/k.ll" \
      --gpu-name sm_90a --bin "$TILEPIPE_BIN" --work "$BATS_TEST_TMPDIR/w$grid" \
      --shape A=144,200 --shape B=200,272 --shape C=144,272 --grid $grid,1,1
    [ "$status" -eq 0 ] || { echo "grid $grid: $output"; false; }
  done
  # carry-rings=0: a ring per tile, begun and ended inside the tile loop.
  single_role_sched "$bc" carry-rings=0 > "$BATS_TEST_TMPDIR/n.mlir" 2>/dev/null
  run cat "$BATS_TEST_TMPDIR/n.mlir"
  [[ "$output" == *"tile_as.tma_ring_begin"* && "$output" != *"tma_ring_resume"* &&
     "$output" != *"tma_ring_close"* && "$output" != *"carried"* ]] || false
}

@test "tile-sched: on sm_120a cuTile's MatMul K loop becomes a TMA ring read by ldmatrix + mma.sync (-v says so); each chunk releases its own slot" {
  local matmul120="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_120.13.4.tileirbc"
  run bash -c "tileiras '$matmul120' --gpu-name sm_120a --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"MatMul.py:93:22: remark: K loop pipelined: a TMA ring of 3 stages of 16-deep K chunks, full and empty mbarriers per stage, ldmatrix + mma.sync from the swizzled slots (128 accumulator registers per thread)"* ]] ||
    { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/s.mlir" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul120_ring.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run cat "$BATS_TEST_TMPDIR/s.mlir"
  [[ "$output" != *"tile_as.mmaf_global"* && "$output" != *"tile_as.wgmma_stage"* ]] || false
  [ "$(grep -c 'tile_as.tma_stage_load' <<< "$output")" -eq 6 ] || false
  [ "$(grep -c 'tile_as.mmaf_tma_stage' <<< "$output")" -eq 4 ] || false
}

@test "PTX (default tileiras, sm_120a): MatMul's TMA ring: maps, mbarriers, boxes, per chunk full wait, swizzled ldmatrix at constant offsets, mma.sync, release; no cp.async" {
  local matmul120="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_120.13.4.tileirbc"
  run bash -c "tileiras '$matmul120' --gpu-name sm_120a --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul120_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'mbarrier.init.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 6 ] || false
  [ "$(grep -c 'mbarrier.inval.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 6 ] || false
  ! grep -q 'wgmma' "$BATS_TEST_TMPDIR/k.ptx"
}

# sm_100a: the tcgen05 path's mmaf_global (A and B by TMA) takes the TMA
# ring across K: thread 0 loads 2 chunks ahead and issues the MMAs, each
# slot released by the tcgen05.commit of the MMAs that read it, the
# accumulator in tensor memory from before the ring to after its end.
@test "tile-sched: on sm_100a cuTile's MatMul K loop becomes a TMA ring of 3 stages read by tcgen05.mma (-v says so); the accumulator stays in tensor memory" {
  local matmul100="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_100.13.4.tileirbc"
  run bash -c "tileiras '$matmul100' --gpu-name sm_100 --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"MatMul.py:93:22: remark: K loop pipelined: a TMA ring of 3 stages of 16-deep K chunks, full and empty mbarriers per stage, tcgen05.mma from the swizzled slots, each slot released by the tcgen05.commit of its MMAs (the accumulator in tensor memory)"* ]] &&
    [[ "$output" == *"remark: TMA ring not warp-specialized: its consumer is tcgen05.mma, issued by the same thread as the loads"* ]] ||
    { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/s.mlir" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul100_ring.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run cat "$BATS_TEST_TMPDIR/s.mlir"
  [[ "$output" != *"tile_as.mmaf_global"* && "$output" != *"tmem_accumulator"* ]] || false
  [ "$(grep -c 'tile_as.tma_stage_load' <<< "$output")" -eq 6 ] || false
  [ "$(grep -c 'tile_as.tcgen05_stage' <<< "$output")" -eq 4 ] || false
  [ "$(grep -c 'tile_as.acc_to_tmem' <<< "$output")" -eq 1 ] || false
  [ "$(grep -c 'tile_as.acc_from_tmem' <<< "$output")" -eq 1 ] || false
}

@test "PTX (default tileiras, sm_100a): MatMul's tcgen05 ring: per chunk full wait, tcgen05.mma, commit to the empty mbarrier, next loads; one drain commit and wait before the epilogue" {
  local matmul100="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_100.13.4.tileirbc"
  run tileiras "$matmul100" --gpu-name sm_100 --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul100_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # 2 x 3 ring mbarriers and the drain one; 4 chunk commits and the drain's.
  [ "$(grep -c 'mbarrier.init.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 7 ] || false
  [ "$(grep -c 'mbarrier.inval.shared.b64' "$BATS_TEST_TMPDIR/k.ptx")" -eq 7 ] || false
  [ "$(grep -c 'tcgen05.commit' "$BATS_TEST_TMPDIR/k.ptx")" -eq 5 ] || false
  ! grep -q 'wgmma\|cp.async.cg' "$BATS_TEST_TMPDIR/k.ptx"
}

@test "sm_100a: MatMul f16/bf16, persistent matmul f16 and BatchMatMul f16 and fp8 take the tcgen05 TMA ring (-v) and assemble without spills in at most 48 KiB of shared memory" {
  local case smem
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
    BatchMatMul-batch_matmul_kernel.f16 BatchMatMul-batch_matmul_kernel.fp8e4m3; do
    run bash -c "tileiras '$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-$case.sm_100.13.4.tileirbc' --gpu-name sm_100 -v --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
    # fp8's chunks are 32 deep: one 32-byte k step, as f16's 16.
    local depth=16
    [[ "$case" != *fp8* ]] || depth=32
    [[ "$output" == *"remark: K loop pipelined: a TMA ring of 3 stages of $depth-deep K chunks, full and empty mbarriers per stage, tcgen05.mma"* ]] ||
      { echo "$case: $output"; false; }
    [[ "$case" != *fp8* ]] || grep -q 'tcgen05.mma.cta_group::1.kind::f8f6f4' "$BATS_TEST_TMPDIR/k.ptx" ||
      { echo "$case: no kind::f8f6f4"; false; }
    grep -q 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64' "$BATS_TEST_TMPDIR/k.ptx" &&
      grep -q 'cp.async.bulk.tensor.[23]d.shared::cluster.global.tile' "$BATS_TEST_TMPDIR/k.ptx" ||
      { echo "$case: no ring in the PTX"; false; }
    run ptxas -arch sm_100a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$case: $output"; false; }
    smem=$(echo "$output" | sed -n 's/.* \([0-9]*\) bytes smem.*/\1/p')
    [ -n "$smem" ] && [ "$smem" -le 49152 ] || { echo "$case: $smem bytes of shared memory"; false; }
  done
}

# sm_100a tf32: f32 loads rounded by ftof take the tcgen05 ring with f32
# maps; each landed chunk is rounded to tf32 in place by every thread (the
# tensor cores would truncate), fenced and published by a CTA barrier
# before thread 0 issues kind::tf32. A 32-row tile multiplies at M = 64:
# its A lands in boxes of 8 rows, one per 16-row slice.
@test "PTX (sm_100a): the f32 MatMuls take the tcgen05 ring (-v): f32 maps, 8-row A boxes into the M = 64 form, the slot rounded to tf32 by every thread before kind::tf32; no cp.async, no spills" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode" case
  run tileiras "$bc/samples-MatMul-matmul_kernel.f32.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul100_tf32_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'tcgen05.commit' "$BATS_TEST_TMPDIR/k.ptx")" -eq 2 ] || false
  for case in MatMul-matmul_kernel.f32 MatMul-matmul_kernel-nonmult.f32 \
    MatMul-persistent_matmul_kernel.f32 AllGatherMatmul-gather_matmul_kernel.f32; do
    run bash -c "tileiras '$bc/samples-$case.sm_100.13.4.tileirbc' --gpu-name sm_100 -v --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
    [[ "$output" == *"remark: K loop pipelined: a TMA ring of 3 stages of "*"-deep K chunks, full and empty mbarriers per stage, tcgen05.mma from the swizzled slots, each slot released by the tcgen05.commit of its MMAs (the accumulator in tensor memory"*"; every thread rounds each landed chunk to tf32 in place)"* ]] ||
      { echo "$case: $output"; false; }
    [[ "$case" != MatMul-* || "$output" == *"; M = 64 with padding rows between A's 8-row groups;"* ]] ||
      { echo "$case: not the M = 64 form: $output"; false; }
    grep -q 'tcgen05.mma.cta_group::1.kind::tf32' "$BATS_TEST_TMPDIR/k.ptx" &&
      grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global.tile' "$BATS_TEST_TMPDIR/k.ptx" &&
      grep -q 'mbarrier.try_wait.parity' "$BATS_TEST_TMPDIR/k.ptx" &&
      grep -q 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64' "$BATS_TEST_TMPDIR/k.ptx" &&
      ! grep -q 'cp.async.c[ag]' "$BATS_TEST_TMPDIR/k.ptx" ||
      { echo "$case: not the tf32 ring"; false; }
    run ptxas -arch sm_100a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$case: $output"; false; }
  done
}

@test "tile-llvm: a tcgen05_stage whose accumulator is not in the tcgen05 layout is a located error (exit 5)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/tcgen05_stage_invalid.mlir"
  run tile-llvm --gpu-name sm_100a "$in" -o "$BATS_TEST_TMPDIR/k.ll"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  run FileCheck --input-file <(echo "$output") "$in"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "PTX (sm_120a): MatMul f32's TMA ring of f32 maps, A by ldmatrix and B by ld.shared.b32 (second words under row 4's pattern), rounded to tf32; fp8 BatchMatMul's u8 maps, B by ldmatrix.x4.trans + prmt" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  run tileiras "$bc/samples-MatMul-matmul_kernel.f32.sm_120.13.4.tileirbc" --gpu-name sm_120a --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/matmul120_tf32_ring_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # fp8: 1-byte maps (elemtype 0), A's 32-byte and B's 128-byte swizzle;
  # A's four x4 fragments 1024 bytes apart; B's paired fragments.
  run tileiras "$bc/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_120.13.4.tileirbc" --gpu-name sm_120a \
    --emit=ptx -o "$BATS_TEST_TMPDIR/f.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  local f="$BATS_TEST_TMPDIR/f.ptx"
  [ "$(grep -c 'tensormap.replace.tile.elemtype.global.b1024.b32.*, 0;' "$f")" -eq 2 ] &&
    grep -q 'tensormap.replace.tile.swizzle_mode.global.b1024.b32.*, 1;' "$f" &&
    grep -q 'tensormap.replace.tile.swizzle_mode.global.b1024.b32.*, 3;' "$f" &&
    grep -q 'cp.async.bulk.tensor.3d.shared::cta.global.tile' "$f" &&
    grep -qE 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 .*\+3072\];' "$f" &&
    grep -q 'ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16' "$f" &&
    grep -q 'prmt.b32.*0x6420U;' "$f" && grep -q 'prmt.b32.*0x7531U;' "$f" &&
    grep -q 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32' "$f" &&
    ! grep -q 'cp.async.c[ag]' "$f" && ! grep -q 'shared::cluster' "$f" || { echo "fp8: not the TMA ring's form"; false; }
  # No stack frame: the shared::cluster form of the same loads had one.
  local p
  for p in k f; do
    run ptxas -arch sm_120a -v -o "$BATS_TEST_TMPDIR/$p.cubin" "$BATS_TEST_TMPDIR/$p.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$p: $output"; false; }
  done
}

@test "tile-llvm (sm_120a): an mmaf_tma_stage of a type the ring's mma.sync cannot read fails with a located error (exit 5)" {
  run tile-llvm "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_tma_stage_invalid.mlir" --gpu-name sm_120a -o /dev/null
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"mmaf_tma_stage_invalid.mlir:7:10: error: 'tile_as.mmaf_tma_stage' op has no mma.sync form reading 'f8E4M3FN' from a TMA ring slot (B N-major)"* ]] ||
    { echo "$output"; false; }
}

@test "verifier: TMA ring ops (begin, close) with a one-slot ring or a view of the wrong length" {
  run tile-opt --verify-diagnostics --split-input-file "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/tma_ring_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "sm_90a: MatMul f16/bf16, persistent matmul f16 and BatchMatMul f16 all take the TMA ring (-v), release slots on empty mbarriers in the PTX, and assemble without spills" {
  local case
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
    BatchMatMul-batch_matmul_kernel.f16; do
    run bash -c "tileiras '$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-$case.sm_90.13.4.tileirbc' --gpu-name sm_90a -v --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
    [[ "$output" == *"remark: K loop pipelined: a TMA ring of 3 stages of 16-deep K chunks"* ]] ||
      { echo "$case: $output"; false; }
    grep -q 'mbarrier.arrive.shared.b64' "$BATS_TEST_TMPDIR/k.ptx" &&
      grep -q 'wgmma.wait_group.sync.aligned[[:space:]]*1;' "$BATS_TEST_TMPDIR/k.ptx" ||
      { echo "$case: no ring in the PTX"; false; }
    run ptxas -arch sm_90a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$case: $output"; false; }
  done
}

# A 32-row tile of one warpgroup (inputs/wgmma_padded_kloop.mlir) takes
# wgmma at M = 64 with padding rows and TMA loads, but keeps its loop: the
# TMA ring's slots hold A's rows unpadded, so the ring would misplace them.
# The sums in tile-emu over three K tiles of a ragged 50x40x40.
@test "sm_90a: a 32x32 f16 K loop takes padded wgmma and TMA without the TMA ring (-v), and matches numpy in tile-emu" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/wgmma_padded_kloop.mlir"
  run tileiras "$in" --gpu-name sm_90a -v --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] && [[ "$output" == *"32 rows at M = 64, the rest padding"* && "$output" != *"K loop pipelined"* ]] ||
    { echo "$output"; false; }
  grep -q 'wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16' "$BATS_TEST_TMPDIR/k.ptx" &&
    grep -q 'cp.async.bulk.tensor.2d' "$BATS_TEST_TMPDIR/k.ptx" || { echo "no m64n32k16 wgmma fed by TMA"; false; }
  local rng="np.random.default_rng"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$in" --entry kloop --gpu-name sm_90a \
    --bin "$TILEPIPE_BIN" --grid 2,2 \
    --array "a=$rng(3).standard_normal((50, 40)).astype(np.float16)" \
    --array "b=$rng(4).standard_normal((40, 40)).astype(np.float16)" \
    --array "c=np.full((50, 40), 5, np.float32)" \
    --scalar i32:50 --scalar i32:40 --scalar i32:40 \
    --expect "c = a.astype(np.float32) @ b.astype(np.float32)" --rtol 1e-3 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
