#!/usr/bin/env bats
# gather_scatter_view loads and stores (inputs/gather.mlir): along the sparse
# dimension a tile of element indices picks the rows (or columns), the dense
# dimension starts at an element offset; an index outside the tensor reads
# the view's padding_value and writes nothing. Run in tile-emu against numpy
# (inputs/gather_ref.py); the lowered IR is pinned with FileCheck.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# kernel PADDING: inputs/gather.mlir with that padding_value (none: without).
kernel() {
  local attr="padding_value = $1,"
  [ "$1" = none ] && attr=""
  sed "s/PADDING/$attr/" "$IN/gather.mlir" > "$TMP/gather-$1.mlir"
  echo "$TMP/gather-$1.mlir"
}

# Row indices with a duplicate (5), negatives and indices past 13 rows.
ROWS="np.array([5, 0, 12, 5, -1, 13, 7, 2, 100, 11, 1, 1, -7, 3, 6, 4], np.int32)"
# Scatter rows: distinct in-range rows plus out-of-range ones.
SROWS="np.array([4, 0, 12, -1, 13, 7, 2, 9, 11, 1, 10, 3, 6, 5, 8, -3], np.int32)"

# run_rows PADDING PADNUMPY SHIFT: gather_rows on a 13x29 tensor, grid 2x2
# (16 gathered rows, columns 16*by + SHIFT + c), and the scatter of src.
run_rows() {
  local k
  k=$(kernel "$1")
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry gather_rows --grid 2,2 \
    --helpers "$IN/gather_ref.py" \
    --array "a=np.arange(13 * 29).astype(np.float32) - 50" --scalar i32:13 --scalar i32:29 --scalar "i32:$3" \
    --array "rows=$ROWS" --array "out=np.full(16 * 32, 3, np.float32)" --scalar i32:32 \
    --array "srows=$SROWS" --array "src=np.arange(16 * 32).astype(np.float32) + 1000" --scalar i32:32 \
    --array "dst=np.full(13 * 29, 7, np.float32)" \
    --expect "out = gather_rows(a, 13, 29, rows, $3, 2, 2, $2)" \
    --expect "dst = scatter_rows(dst, 13, 29, srows, src, $3, 2, 2)"
}

@test "tile-emu: gathered rows (duplicate, negative and past-the-end indices) read neg_inf padding; the scatter writes only in-range rows" {
  run run_rows neg_inf -np.inf 3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: the dense index is an element offset (shift 0 and 5) and nan/zero padding fill past the last column" {
  run run_rows nan np.nan 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run run_rows zero 0 5
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong padding value or reading the dense index as a tile index is caught" {
  run run_rows neg_inf 0 3
  [ "$status" -eq 1 ]
  [[ "$output" == *"out differs"* ]]
  # Read as a tile index, 16*by + 3 would start past the 29 columns: all padding.
  k=$(kernel pos_inf)
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry gather_rows --grid 2,2 \
    --helpers "$IN/gather_ref.py" \
    --array "a=np.arange(13 * 29).astype(np.float32)" --scalar i32:13 --scalar i32:29 --scalar i32:3 \
    --array "rows=$ROWS" --array "out=np.full(16 * 32, 3, np.float32)" --scalar i32:32 \
    --array "srows=$SROWS" --array "src=np.zeros(16 * 32, np.float32)" --scalar i32:32 \
    --array "dst=np.zeros(13 * 29, np.float32)" \
    --expect "out = gather_rows(a, 13, 29, rows, 3 * 16, 2, 2, np.inf)"
  [ "$status" -eq 1 ]
  [[ "$output" == *"out differs"* ]]
}

@test "tile-emu: gathered columns (sparse_dim=1) with pos_inf padding" {
  k=$(kernel pos_inf)
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry gather_cols --grid 3,2 \
    --helpers "$IN/gather_ref.py" \
    --array "a=np.arange(11 * 9).astype(np.float32)" --scalar i32:11 --scalar i32:9 --scalar i32:1 \
    --array "cols=np.array([8, 0, 3, 3, -2, 9, 4, 1, 7, 6, 5, 100, 2, 0, 8, 8], np.int32)" \
    --array "out=np.full(12 * 16, 3, np.float32)" --scalar i32:16 \
    --expect "out = gather_cols(a, 11, 9, cols, 1, 3, 2, np.inf)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: gathering aligned row segments as 16-byte vectors (random indices, some out of range)" {
  k=$(kernel none)
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry gather_aligned --grid 8,4 \
    --helpers "$IN/gather_ref.py" \
    --array "a=np.arange(64 * 64).astype(np.float32)" \
    --array "rows=np.random.default_rng(1).integers(-8, 72, 64).astype(np.int32)" \
    --array "out=np.full(64 * 64, 3, np.float32)" \
    --expect "out = gather_rows(a, 64, 64, rows, 0, 8, 4, 0)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a rank-3 scatter along the middle dimension (i64 row indices, i32 scalars), the last column past the edge" {
  k=$(kernel none)
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$k" --entry scatter_mid \
    --helpers "$IN/gather_ref.py" \
    --array "src=np.arange(64).astype(np.float32) + 1" \
    --array "rows=np.array([31, 0, 7, -1, 2**32 + 5, 12, 3, 20], np.int64)" \
    --array "dst=np.zeros(256, np.float32)" \
    --expect "dst = scatter_mid(dst, rows, src)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: sparse indices are broadcast across the tile and masked like the dense coordinates" {
  k=$(kernel neg_inf)
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$k' | FileCheck --check-prefix=LOWER '$IN/gather.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: the gather/scatter kernels assemble for sm_80 and sm_90" {
  k=$(kernel neg_inf)
  for sm in sm_80 sm_90; do
    run tileiras "$k" -o "$TMP/gather-$sm.cubin" --gpu-name "$sm"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    [ -s "$TMP/gather-$sm.cubin" ]
  done
}
