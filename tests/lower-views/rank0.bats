#!/usr/bin/env bats
# Rank-0 views (inputs/rank0.mlir): a tensor_view with no dimensions is one
# element at its base, loaded, stored and atomically added in tile-emu
# (tests/lib/emu-check.py) and assembled by ptxas.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# rank0 A K TOTAL: out must be A * 3 + K, total TOTAL + A (added once).
rank0() {
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/rank0.mlir" --entry rank0 \
    --array "a=np.array([$1], np.float32)" --array "k=np.array([$2], np.int32)" \
    --array 'out=np.zeros(1, np.float32)' --array "total=np.array([$3], np.float32)" \
    --expect 'out = a * 3 + k' --expect 'total = np.array([np.float32('"$3"') + a[0]], np.float32)'
}

@test "tile-emu: rank-0 views load f32 and i32, store and atomically add one element" {
  run rank0 2.5 -4 10
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run rank0 -0.75 7 -1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: a rank-0 load is unmasked, one element at the base" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/rank0.mlir' | FileCheck --check-prefix=LOWER '$IN/rank0.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: the rank-0 kernel assembles for sm_80" {
  run tileiras "$IN/rank0.mlir" -o "$BATS_TEST_TMPDIR/rank0.cubin" --gpu-name sm_80
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ -s "$BATS_TEST_TMPDIR/rank0.cubin" ]
}
