#!/usr/bin/env bats
# Shape ops that fold while lowering (ShapeLowering.cpp): chains of reshapes
# become one reshape or none, pinned with FileCheck and checked in tile-emu.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs/reshape_chain.mlir"
}

@test "tile-lower: a reshape chain is one tile_as.reshape, a round trip none" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "folded reshape chains keep the row-major order (tile-emu)" {
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$IN" --entry chain \
    --bin "$TILEPIPE_BIN" --array "a=np.random.default_rng(2).standard_normal((16, 32)).astype(np.float32)" \
    --array "same=np.zeros((16, 32), np.float32)" --array "flat=np.zeros((8, 64), np.float32)" \
    --expect "same = a" --expect "flat = a.reshape(8, 64)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
