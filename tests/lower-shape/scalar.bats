#!/usr/bin/env bats
# reshape of a single-element tile to a 0-d tile (cuTile's `item()`, which
# the MoE kernel uses for its expert id): the lowered form pinned with
# FileCheck, and the scalar's value checked in tile-emu for f32 and i32,
# from 1-D and 2-D tiles, at several (dynamic) positions.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs/reshape_to_scalar.mlir"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

@test "tile-lower: a 0-d reshape reads its element through an OR reduce" {
  run bash -c "tile-lower --gpu-name sm_80 -O 0 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: the scalar is the element at the index (f32 and i32, sm_80 and sm_90)" {
  for sm in sm_80 sm_90; do
    for i in 0 37 63; do
      run /usr/bin/python3 "$EMU_CHECK" "$IN" --entry item --bin "$TILEPIPE_BIN" --gpu-name "$sm" \
        --array "a=np.random.default_rng(5).standard_normal(64).astype(np.float32)" \
        --array "ia=np.arange(64).astype(np.int32) * 7 - 100" \
        --array "b=np.zeros(16, np.float32)" --array "c=np.zeros(16, np.int32)" \
        --scalar "i32:$i" --expect "b = np.full(16, a[$i])" --expect "c = ia[$i] + np.arange(16)"
      [ "$status" -eq 0 ] || { echo "$sm i=$i: $output"; false; }
    done
  done
}
