#!/usr/bin/env bats
# Partition views with a permuted dim_map (inputs/dim_map.mlir): a [1, 0] view
# loads transposed tiles and stores them back in place; ragged shapes run in
# tile-emu against numpy (tests/lib/emu-check.py), the index math and
# contiguity are pinned with FileCheck.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# transpose M N [EXTRA]: an MxN tensor on a ceil(N/16) x ceil(M/32) grid.
# `full` must hold the tensor's transpose padded with -inf (EXTRA is added to
# the expectation, to show a wrong one is caught); `back` (filled with 7) the
# tensor itself, with 7 past its edge.
transpose() {
  local m=$1 n=$2 extra=${3:-0}
  local gx=$(( (n + 15) / 16 )) gy=$(( (m + 31) / 32 ))
  local rows=$((gx * 16)) cols=$((gy * 32))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/dim_map.mlir" --entry transpose --grid "$gx,$gy" \
    --array "a=np.arange($m * $n).astype(np.float32) - 100" --scalar "i32:$m" --scalar "i32:$n" \
    --array "full=np.full($rows * $cols, 3, np.float32)" \
    --array "back=np.full($cols * $rows, 7, np.float32)" --scalar "i32:$rows" \
    --expect "full = np.pad(a.reshape($m, $n).T, ((0, $rows - $n), (0, $cols - $m)), constant_values=-np.inf).ravel() + $extra" \
    --expect "back = np.pad(a.reshape($m, $n), ((0, $cols - $m), (0, $rows - $n)), constant_values=7).ravel()"
}

@test "tile-lower: dim_map [1, 0] swaps sizes and strides; the permuted access is contiguous only along its next-innermost dimension (transposed_contiguity)" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/dim_map.mlir' | FileCheck --check-prefix=LOWER '$IN/dim_map.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: dim_map [1, 0] on a ragged 37x45 tensor transposes and stores back in place" {
  run transpose 37 45
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: dim_map [1, 0] on an exact 64x32 tensor" {
  run transpose 64 32
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong transposed result is caught" {
  run transpose 37 45 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"full differs"* ]]
}

@test "tile-emu: rank-3 dim_map [0, 2, 1] with zero padding on i32 (2x37x45)" {
  local b=2 m=37 n=45
  local gy=$(( (n + 15) / 16 )) gz=$(( (m + 31) / 32 ))
  local rows=$((gy * 16)) cols=$((gz * 32))
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/dim_map.mlir" --entry transpose3 --grid "$b,$gy,$gz" \
    --array "a=np.arange($b * $m * $n).astype(np.int32) + 1" --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:$((m * n))" \
    --array "full=np.full($b * $rows * $cols, -1, np.int32)" \
    --array "back=np.full($b * $m * $n, -1, np.int32)" \
    --expect "full = np.pad(a.reshape($b, $m, $n).transpose(0, 2, 1), ((0, 0), (0, $rows - $n), (0, $cols - $m))).ravel()" \
    --expect "back = a"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
