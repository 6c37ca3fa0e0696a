#!/usr/bin/env bats
# i4 and f4E2M1FN tiles loaded and stored through views (inputs/subbyte.mlir):
# two elements to a byte, padding and masks per element, neighbouring
# nibbles outside the tensor left alone. Run in tile-emu against numpy; the
# lowering pinned with FileCheck; ptxas must accept the PTX.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

check() {
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/subbyte.mlir" \
    --helpers "$IN/subbyte_ref.py" --rtol 0 --atol 0 "$@"
}

# run_ints M: the i4 kernel on M rows (M / 4 blocks).
run_ints() {
  local m=$1
  check --entry ints --grid $((m / 4)) \
    --array "a=pack(np.random.default_rng(1).integers(0, 16, $m * 12))" \
    --array "wide=np.zeros($m * 16, np.int8)" \
    --array "neg=np.random.default_rng(2).integers(0, 256, $m * 8).astype(np.uint8)" \
    --array "pair=np.random.default_rng(3).integers(0, 256, $m * 8).astype(np.uint8)" \
    --scalar "i32:$m" \
    --expect "wide = np.pad(signed(nibbles(a)).reshape($m, 12), ((0, 0), (0, 4))).astype(np.int8).ravel()" \
    --expect "neg = with_columns(neg, 16, 11, -signed(nibbles(a)).reshape($m, 12)[:, :11])" \
    --expect "pair = with_columns(pair, 16, 12, -signed(nibbles(a)).reshape($m, 12))"
}

@test "tile-emu: i4 through views, padded columns, odd-width (nibble atomics) and paired (byte) stores" {
  run run_ints 8
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: f4E2M1FN through views with neg_zero padding, doubled and stored as bytes" {
  run check --entry floats --grid 3 \
    --array "x=pack(np.random.default_rng(4).integers(0, 16, 12 * 6))" \
    --array "out=np.zeros(12 * 3, np.uint8)" --scalar "i32:12" \
    --expect "out = doubled(x)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong expectation (the nibbles outside the odd-width tensor overwritten) is caught" {
  run check --entry ints --grid 1 \
    --array "a=pack(np.random.default_rng(1).integers(0, 16, 4 * 12))" \
    --array "wide=np.zeros(4 * 16, np.int8)" \
    --array "neg=np.random.default_rng(2).integers(0, 256, 4 * 8).astype(np.uint8)" \
    --array "pair=np.random.default_rng(3).integers(0, 256, 4 * 8).astype(np.uint8)" \
    --scalar "i32:4" \
    --expect "neg = with_columns(neg, 16, 12, -signed(nibbles(a)).reshape(4, 12))"
  [ "$status" -eq 1 ]
  [[ "$output" == *"neg differs"* ]]
}

@test "tile-lower: nibble loads, atomic nibble stores for odd widths, byte stores for proven pairs" {
  run bash -c "set -o pipefail; tile-opt --tilepipe-convert-cuda-tile-to-tile-aa '$IN/subbyte.mlir' | FileCheck --check-prefix=LOWER '$IN/subbyte.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: ptxas accepts the sub-byte kernels (sm_80, sm_100)" {
  for sm in sm_80 sm_100; do
    run tileiras "$IN/subbyte.mlir" -o "$BATS_TEST_TMPDIR/subbyte-$sm.cubin" --gpu-name "$sm"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "a 4-bit element through pointers is rejected with a diagnostic" {
  cat > "$BATS_TEST_TMPDIR/ptr.mlir" <<'MLIR'
cuda_tile.module @kernels {
  entry @k(%p: tile<ptr<i4>>) {
    %tok = make_token : token
    %v, %t = load_ptr_tko weak %p token = %tok : tile<ptr<i4>> -> tile<i4>, token
    return
  }
}
MLIR
  run tile-lower --gpu-name sm_80 "$BATS_TEST_TMPDIR/ptr.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"accesses of 4-bit elements through pointers are not lowered"* ]]
}
