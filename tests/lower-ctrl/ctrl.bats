#!/usr/bin/env bats
# cuda_tile control flow: for (iter_values), if (results), loop with
# break/continue, early continue in for. Stage output pinned with FileCheck;
# kernels compiled by tileiras and checked against numpy in tile-emu.

setup() {
  IN="$BATS_TEST_DIRNAME"
  CHECK="/usr/bin/python3 $TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}


@test "tile-lower: for -> scf.for with the tile as iter_arg" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN/for-accumulate.mlir' | FileCheck --check-prefix=LOWER '$IN/for-accumulate.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: the loop-carried tile gets a layout" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN/for-accumulate.mlir' | tile-sched | FileCheck --check-prefix=SCHED '$IN/for-accumulate.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: the loop is branches carrying register vectors" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN/for-accumulate.mlir' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN/for-accumulate.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower and tile-llvm: if with a result" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN/if-results.mlir' | FileCheck --check-prefix=LOWER '$IN/if-results.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$IN/if-results.mlir' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN/if-results.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: loop with break/continue is a CFG in a no_inline execute_region" {
  run tile-lower --gpu-name sm_80 "$IN/loop-break-continue.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"scf.execute_region"*"no_inline"* ]]
  [[ "$output" == *'tile_aa.exits = "loop"'* ]]
  [[ "$output" == *"cf.cond_br"* ]]
  [[ "$output" != *"token"* ]]
}

@test "for loop accumulates a tile across iterations (tile-emu)" {
  run $CHECK "$IN/for-accumulate.mlir" --entry accumulate \
    --array 'a=np.arange(128 * 5, dtype=np.float32) % 37' \
    --array 'out=np.zeros(128, np.float32)' --scalar i32:5 \
    --expect 'out = a.reshape(5, 128).sum(0)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "for loop with zero trips yields its initial tile (tile-emu)" {
  run $CHECK "$IN/for-accumulate.mlir" --entry accumulate \
    --array 'a=np.ones(128, np.float32)' \
    --array 'out=np.full(128, 7, np.float32)' --scalar i32:0 \
    --expect 'out = np.zeros(128, np.float32)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "if with results takes each branch (tile-emu)" {
  run $CHECK "$IN/if-results.mlir" --entry choose \
    --array 'a=np.arange(128, dtype=np.float32)' \
    --array 'out=np.zeros(128, np.float32)' --scalar i32:3 --expect 'out = a * 2'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run $CHECK "$IN/if-results.mlir" --entry choose \
    --array 'a=np.arange(128, dtype=np.float32)' \
    --array 'out=np.zeros(128, np.float32)' --scalar i32:-1 --expect 'out = a + 1'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "loop with break and continue (tile-emu)" {
  run $CHECK "$IN/loop-break-continue.mlir" --entry even_rows \
    --array 'a=np.arange(128 * 7, dtype=np.float32) % 13' \
    --array 'out=np.zeros(128, np.float32)' --scalar i32:7 \
    --expect 'out = a.reshape(7, 128)[0::2].sum(0)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "for with an early continue inside an if (tile-emu)" {
  run $CHECK "$IN/for-early-continue.mlir" --entry skip_thirds \
    --array 'a=np.arange(128 * 7, dtype=np.float32) % 11' \
    --array 'out=np.zeros(128, np.float32)' --scalar i32:7 \
    --expect 'out = a.reshape(7, 128)[[1, 2, 4, 5]].sum(0)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "break outside a loop is a compile error (exit 5)" {
  cat > "$BATS_TEST_TMPDIR/bad.mlir" <<'MLIR'
cuda_tile.module @kernels {
  entry @bad(%n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c = cmpi greater_than %n, %c0, signed : tile<i32> -> tile<i1>
    if %c {
      break
    }
    return
  }
}
MLIR
  run tile-lower "$BATS_TEST_TMPDIR/bad.mlir"
  [ "$status" -ne 0 ] || { echo "$output"; false; }
  [ "$status" -ne 139 ]
}
