#!/usr/bin/env bats
# get_index_space_shape on partition views with a ragged last tile: the
# tile-lower output (FileCheck lines in the input) and the counts the compiled
# kernel stores, run in tile-emu (tests/lib/emu-check.py).

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# counts ROWS COLS EXPECTED: runs index_space.mlir on a ROWSxCOLS tensor;
# out[0..5] must be EXPECTED (out[6..7] stay -1).
counts() {
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/index_space.mlir" \
    --entry index_space --array 'a=np.zeros(1, np.float32)' \
    --scalar "i32:$1" --scalar "i32:$2" --array 'out=np.full(8, -1, np.int32)' \
    --expect "out = np.array([$3, -1, -1], np.int32)"
}

@test "tile-lower: get_index_space_shape becomes ceil divisions (or constants)" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/index_space.mlir' | FileCheck --check-prefix=LOWER '$IN/index_space.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: 100x70 in 16x32 tiles is 7x3 (5x4 with dim_map [1, 0])" {
  run counts 100 70 '7, 3, 7, 3, 5, 4'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: exact multiples 96x64 give 6x2 (4x3 with dim_map [1, 0])" {
  run counts 96 64 '6, 2, 7, 3, 4, 3'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: one element past a tile boundary adds a tile: 97x65 is 7x3" {
  run counts 97 65 '7, 3, 7, 3, 5, 4'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong count is caught" {
  run counts 100 70 '6, 2, 7, 3, 5, 4'
  [ "$status" -eq 1 ]
  [[ "$output" == *"out differs"* ]]
}
