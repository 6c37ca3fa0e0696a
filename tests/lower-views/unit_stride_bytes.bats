#!/usr/bin/env bats
# Byte tiles whose unit-stride dimension is not the innermost
# (inputs/unit_stride_bytes.mlir: a column-major matrix, as BlockScaledMatMul's
# fp8 B): the load reads the transposed tile in runs along the unit stride and
# permutes it back (CudaTileToTileAA LoadViewLowering). The access is pinned
# with FileCheck, ragged shapes run in tile-emu against numpy.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# colmajor K N [EXTRA]: a column-major KxN i8 matrix (numpy: its NxK
# transpose, row-major) on a ceil(K/32) x ceil(N/16) grid; `full` must hold
# the matrix zero-padded (EXTRA added to the expectation, to show a wrong one
# is caught).
colmajor() {
  local k=$1 n=$2 extra=${3:-0}
  local gx=$(( (k + 31) / 32 )) gy=$(( (n + 15) / 16 ))
  local rows=$((gx * 32)) cols=$((gy * 16))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/unit_stride_bytes.mlir" --entry colmajor \
    --grid "$gx,$gy" --array "b=(np.arange($n * $k) % 251 - 125).astype(np.int8)" \
    --scalar "i32:$k" --scalar "i32:$n" --array "full=np.full($rows * $cols, 7, np.int8)" \
    --expect "full = (np.pad(b.reshape($n, $k).T, ((0, $rows - $k), (0, $cols - $n))) + $extra).astype(np.int8).ravel()"
}

@test "tile-lower: a column-major byte tile is loaded transposed, in runs, and permuted back" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_120 '$IN/unit_stride_bytes.mlir' | FileCheck --check-prefix=LOWER '$IN/unit_stride_bytes.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a ragged 45x37 column-major i8 matrix reads back exactly" {
  run colmajor 45 37
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: an exact 64x32 column-major i8 matrix reads back exactly" {
  run colmajor 64 32
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong column-major read is caught" {
  run colmajor 45 37 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"full differs"* ]]
}
