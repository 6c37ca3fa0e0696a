#!/usr/bin/env bats
# reduce/scan through the middle stages, the lowered shape pinned with
# FileCheck (combiner region, result layout, shuffles, shared-memory
# exchange between barriers), and the same kernel checked in tile-emu.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-reduce/inputs/reduce_rows.mlir"
}

@test "tile-lower: tile_as.reduce/scan with the combiner over scalars" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: reduce results get a layout of their own shape" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-sched | FileCheck --check-prefix=SCHED '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: butterfly shuffles, shared-memory partials between barriers" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: PTX shuffles and CTA barriers" {
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$IN' | FileCheck --check-prefix=PTX '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: the row sum and reverse row scan match numpy" {
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$IN" --entry rows \
    --bin "$TILEPIPE_BIN" \
    --array "x=np.random.default_rng(3).standard_normal((64, 64)).astype(np.float32)" \
    --array "y=np.zeros(64, np.float32)" --array "z=np.zeros((64, 64), np.float32)" \
    --expect "y = x.sum(axis=1)" \
    --expect "z = np.flip(np.cumsum(np.flip(x, 1), axis=1), 1)" --rtol 1e-4 --atol 1e-4
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
