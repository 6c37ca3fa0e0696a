#!/usr/bin/env bats
# K-loop software pipelining (tilepipe-pipeline-mma-loops): the ring's shape
# on hand-laid tile_as IR, and on cuTile's MatMul its lowering: a prologue of
# cp.async groups before the loop, wait_group S - 2 = 1 and a barrier before
# each chunk's ldmatrix/mma.sync, a drain after the loop. The numbers are
# checked by tests/corpus/matmul.bats (MatMul, persistent and batched
# matmul run through the ring, forced, ragged K included).

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mma_pipeline.mlir"
  MATMUL="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_80.13.4.tileirbc"
}

@test "tile-sched: a K loop of one mmaf_global becomes a ring of 3 stages with a peeled prologue" {
  # max-acc-registers=128: @chunks has the corpus MatMul's accumulator.
  run bash -c "tile-opt --tilepipe-pipeline-mma-loops=max-acc-registers=128 '$IN' | FileCheck '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # By default that accumulator (128 registers per thread) keeps its loop.
  run bash -c "tile-opt --tilepipe-pipeline-mma-loops '$IN' | FileCheck --check-prefix=DEFAULT '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: cuTile's MatMul (128 accumulator registers per thread) keeps its loop; forced, it streams 16-deep chunks" {
  run bash -c "tileiras '$MATMUL' --gpu-name sm_80 --emit=scheduled -o -"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"tile_as.mmaf_global"* && "$output" != *"mma_stage_copy"* ]] ||
    { echo "$output" | grep mmaf; false; }
  run bash -c "tileiras '$MATMUL' --gpu-name sm_80 --emit=lowered -o - | tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops=max-acc-registers=128 > '$BATS_TEST_TMPDIR/s.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run cat "$BATS_TEST_TMPDIR/s.mlir"
  [[ "$output" != *"tile_as.mmaf_global"* ]] || { echo "$output" | grep mmaf; false; }
  [ "$(grep -c 'tile_as.mmaf_stage' <<< "$output")" -eq 4 ] || { echo "$output" | grep mmaf; false; }
  [ "$(grep -c 'tile_as.mma_stage_copy' <<< "$output")" -eq 6 ] || { echo "$output" | grep copy; false; }
  [ "$(grep -c 'tile_as.async_wait {pending = 1 : i64}' <<< "$output")" -eq 4 ] || false
  [ "$(grep -c 'tile_as.async_wait {pending = 0 : i64}' <<< "$output")" -eq 2 ] || false
}

# The ring stages and multiplies in the 16-bit form; an fp8 mmaf_global
# (BatchMatMul's, both operands by cp.async) keeps its loop, forced or not.
@test "tile-sched: an fp8 mmaf_global's K loop keeps its own staging (no ring), even forced" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$bc' --gpu-name sm_90 --emit=lowered -o - | tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops=max-acc-registers=128"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"tile_as.mmaf_global"* && "$output" != *"tile_as.mma_stage_copy"* ]] ||
    { echo "$output" | grep mma; false; }
}

@test "PTX: prologue groups, wait_group 1 and bar.sync before ldmatrix, a drain after the loop" {
  run bash -c "tileiras '$MATMUL' --gpu-name sm_80 --emit=lowered -o - | tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops=max-acc-registers=128 | tile-llvm | tile-ptx --gpu-name sm_80 | grep -E 'cp.async.(commit|wait)|bar.sync|ldmatrix|mma.sync'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # 2 prologue groups, then per chunk in the loop: wait_group 1, bar.sync, one
  # group of copies, ldmatrix and mma.sync; wait_group 0 and bar.sync after.
  [ "$(grep -c 'cp.async.commit_group' <<< "$output")" -eq 6 ] || { echo "$output"; false; }
  [ "$(grep -c 'cp.async.wait_group 	1' <<< "$output")" -eq 4 ] || { echo "$output"; false; }
  [[ "$output" == *"cp.async.wait_group 	1;"*"bar.sync"*"cp.async.commit_group;"*"ldmatrix"*"mma.sync"* ]] ||
    { echo "$output"; false; }
  [[ "$output" == *"mma.sync"*"cp.async.wait_group 	0;"*"bar.sync"* ]] || { echo "$output"; false; }
}

@test "verifier: a copy past K or with mismatched K" {
  run tile-opt --verify-diagnostics --split-input-file "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mma_ring_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: on sm_90a the wgmma path's mmaf_global keeps its loop, forced too (the ring feeds mma.sync)" {
  local matmul90="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-MatMul-matmul_kernel.f16.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$matmul90' --gpu-name sm_90a --emit=lowered -o - | tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops=max-acc-registers=1024"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"tile_as.mmaf_global"* && "$output" != *"mma_stage_copy"* ]] ||
    { echo "$output" | grep -E "mmaf|stage"; false; }
}
