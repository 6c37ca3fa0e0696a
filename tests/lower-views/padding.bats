#!/usr/bin/env bats
# Padded partition views (inputs/padding.mlir): a load of a tile that
# overlaps the tensor's edge reads the view's padding_value there, a store
# writes nothing past the edge. Ragged shapes run in tile-emu against numpy
# (tests/lib/emu-check.py); the lowered IR is pinned with FileCheck.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# kernel PADDING: inputs/padding.mlir with that padding_value (none: without).
kernel() {
  local attr="padding_value = $1,"
  [ "$1" = none ] && attr=""
  sed "s/PADDING/$attr/" "$IN/padding.mlir" > "$TMP/pad-$1.mlir"
  echo "$TMP/pad-$1.mlir"
}

# run_pad PADDING M N GX GY PADNUMPY: an MxN tensor on a GXxGY grid of 16x32
# tiles; `full` must be the tensor padded with PADNUMPY, `ragged` (filled
# with 7 beforehand) the tensor with every element past it still 7.
run_pad() {
  local k m=$2 n=$3 gx=$4 gy=$5 pad=$6
  k=$(kernel "$1")
  local rows=$((gx * 16)) cols=$((gy * 32))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry pad --grid "$gx,$gy" \
    --array "a=np.arange($m * $n).astype(np.float32) - 100" --scalar "i32:$m" --scalar "i32:$n" \
    --array "full=np.full($rows * $cols, 3, np.float32)" --scalar "i32:$cols" \
    --array "ragged=np.full($rows * $cols, 7, np.float32)" --scalar "i32:$cols" \
    --expect "full = np.pad(a.reshape($m, $n), ((0, $rows - $m), (0, $cols - $n)), constant_values=$pad).ravel()" \
    --expect "ragged = np.pad(a.reshape($m, $n), ((0, $rows - $m), (0, $cols - $n)), constant_values=7).ravel()"
}

@test "tile-emu: neg_inf padding on a 37x45 tensor (ragged in both dimensions)" {
  run run_pad neg_inf 37 45 3 2 -np.inf
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: pos_inf padding on a 48x45 tensor (ragged columns only)" {
  run run_pad pos_inf 48 45 3 2 np.inf
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: nan padding on a 33x64 tensor (ragged rows only)" {
  run run_pad nan 33 64 3 2 np.nan
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: zero and neg_zero padding on a 5x3 tensor (one partial tile)" {
  run run_pad zero 5 3 1 1 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run run_pad neg_zero 5 3 1 1 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: exact multiples (32x64) need no padding" {
  run run_pad neg_inf 32 64 2 2 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong padding value is caught" {
  run run_pad neg_inf 37 45 3 2 0
  [ "$status" -eq 1 ]
  [[ "$output" == *"full differs"* ]]
}

@test "tile-lower: each padding_value becomes the load's other operand" {
  for p in zero:0.000000e+00 neg_zero:-0.000000e+00 nan:0x7FC00000 pos_inf:0x7F800000 neg_inf:0xFF800000 none:0.000000e+00; do
    k=$(kernel "${p%%:*}")
    run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$k' | FileCheck --check-prefix=LOWER -DPAD='${p#*:}' '$IN/padding.mlir'"
    [ "$status" -eq 0 ] || { echo "$p: $output"; false; }
  done
}

@test "tile-lower: a padding value the element type cannot encode is a diagnostic at the load (exit 5)" {
  run tile-lower --gpu-name sm_80 "$IN/invalid_padding.mlir" -o "$TMP/out.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"invalid_padding.mlir:10:15: error: 'cuda_tile.load_view_tko' op padding_value pos_inf has no 'f8E4M3FN' encoding"* ]]
  [ ! -e "$TMP/out.mlir" ]
}

# run_pad_runs M N GX GY: inputs/padding_runs.mlir, an MxN f16 tensor (N a
# multiple of 8) on a GXxGY grid of 16x64 tiles; `full` must be the tensor
# padded with -inf.
run_pad_runs() {
  local m=$1 n=$2 gx=$3 gy=$4
  local rows=$((gx * 16)) cols=$((gy * 64))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/padding_runs.mlir" --entry pad_runs \
    --grid "$gx,$gy" --array "a=(np.arange($m * $n) % 1000 - 500).astype(np.float16)" \
    --scalar "i32:$m" --scalar "i32:$n" \
    --array "full=np.full($rows * $cols, 3, np.float16)" --scalar "i32:$cols" \
    --expect "full = np.pad(a.reshape($m, $n), ((0, $rows - $m), (0, $cols - $n)), constant_values=-np.inf).ravel()"
}

@test "tile-emu: neg_inf padding of 16-byte runs on a 37x72 f16 tensor (ragged in both dimensions)" {
  run run_pad_runs 37 72 3 2
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: a padded run of 8 f16 takes the padding by 32-bit selects of the loaded words" {
  run bash -c "set -o pipefail; tileiras --gpu-name sm_80 --emit ptx -o - '$IN/padding_runs.mlir' | FileCheck --check-prefix=PTX '$IN/padding_runs.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
