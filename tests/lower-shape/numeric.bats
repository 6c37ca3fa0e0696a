#!/usr/bin/env bats
# Small shape kernels compiled by tileiras and run in tile-emu: every
# element must land where numpy puts it (tests/lib/emu-check.py).

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

check() {
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$@"
}

# check_io FILE ENTRY N DTYPE EXPECT: a = 0..N-1, b zeros, one expectation on b.
check_io() {
  check "$IN/$1" --entry "$2" --array "a=np.arange($3).astype(np.$4)" \
    --array "b=np.zeros($3, np.$4)" --expect "$5"
}

@test "permute: 16x64 f32 transpose (non-square)" {
  run check_io permute_16x64.mlir permute 1024 float32 'b = a.reshape(16,64).T.ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "permute: 64x32 f16 transpose" {
  run check_io permute_f16_64x32.mlir permute 2048 float16 'b = a.reshape(64,32).T.ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "permute: 3-D [2, 0, 1]" {
  run check_io permute_3d.mlir permute 512 float32 'b = a.reshape(4,8,16).transpose(2,0,1).ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "permute: 128x128 f32 (64 KiB) moves in chunks through 48 KiB of shared memory" {
  run check_io permute_128x128.mlir permute 16384 float32 'b = a.reshape(128,128).T.ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "permute: an i1 mask (bytes in shared memory)" {
  run check "$IN/permute_mask.mlir" --entry permute_mask \
    --array 'a=np.random.RandomState(1).randint(0, 200, 512).astype(np.int32)' \
    --array 'b=np.full(512, 7, np.int32)' --expect 'b = (a.reshape(16,32) < 100).T.astype(np.int32).ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "permute: a wrong expectation is caught" {
  run check_io permute_16x64.mlir permute 1024 float32 'b = a'
  [ "$status" -eq 1 ]
  [[ "$output" == *"b differs"* ]]
}

@test "reshape: 16x32 -> 32x16 keeps row-major order" {
  run check_io reshape_16x32.mlir reshape 512 float32 'b = a.copy()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "reshape: 8x64 -> 4x2x64 (i32)" {
  run check_io reshape_3d.mlir reshape 512 int32 'b = a.copy()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "broadcast: a 1x64 row to 32x64" {
  run check "$IN/broadcast_row.mlir" --entry broadcast --array 'a=np.arange(64).astype(np.float32)' \
    --array 'b=np.zeros(2048, np.float32)' --expect 'b = np.tile(a, 32)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "broadcast: a 32x1 column to 32x64" {
  run check "$IN/broadcast_col.mlir" --entry broadcast --array 'a=np.arange(32).astype(np.float32)' \
    --array 'b=np.zeros(2048, np.float32)' --expect 'b = np.repeat(a, 64)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "extract: block [1, 2] of a 32x64 tile in 16x16 blocks (dynamic indices)" {
  run check "$IN/extract_32x64.mlir" --entry extract --array 'a=np.arange(2048).astype(np.float32)' \
    --array 'b=np.zeros(256, np.float32)' --scalar i32:1 --scalar i32:2 \
    --expect 'b = a.reshape(32,64)[16:32, 32:48].ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "extract: block [0, 3]" {
  run check "$IN/extract_32x64.mlir" --entry extract --array 'a=np.arange(2048).astype(np.float32)' \
    --array 'b=np.zeros(256, np.float32)' --scalar i32:0 --scalar i32:3 \
    --expect 'b = a.reshape(32,64)[0:16, 48:64].ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "cat: two 16x32 tiles along dim 1" {
  run check "$IN/cat_dim1.mlir" --entry cat --array 'a=np.arange(512).astype(np.float32)' \
    --array 'b=-np.arange(512).astype(np.float32)' --array 'c=np.zeros(1024, np.float32)' \
    --expect 'c = np.concatenate([a.reshape(16,32), b.reshape(16,32)], axis=1).ravel()'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "cat: two 16x32 f16 tiles along dim 0" {
  run check "$IN/cat_dim0.mlir" --entry cat --array 'a=np.arange(512).astype(np.float16)' \
    --array 'b=-np.arange(512).astype(np.float16)' --array 'c=np.zeros(1024, np.float16)' \
    --expect 'c = np.concatenate([a, b])'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "extract: a 0-d tile is itself (out = [x + 1, x * 2])" {
  run check "$IN/scalar_identity.mlir" --entry scalar_identity --array 'a=np.array([3.5], np.float32)' \
    --array 'out=np.zeros(2, np.float32)' --expect 'out = np.array([a[0] + 1, a[0] * 2], np.float32)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "pack/unpack: 4-bit elements (i4, f4E2M1FN) two to a byte, low nibble first" {
  run check "$IN/pack_nibbles.mlir" --entry nibbles --helpers "$TILEPIPE_SOURCE_DIR/tests/lower-arith/mx_reference.py" \
    --rtol 0 --atol 0 --array 'raw=np.random.default_rng(3).integers(0, 256, 64).astype(np.int32)' \
    --array 'ints=np.zeros(128, np.int32)' --array 'floats=np.zeros(128, np.float32)' \
    --array 'back=np.zeros(64, np.int32)' \
    --expect 'ints = (np.stack([raw & 15, raw >> 4], 1).ravel() ^ 8) - 8' \
    --expect 'floats = np.array([(-1 if c & 8 else 1) * E2M1_MAGNITUDES[c & 7] for c in np.stack([raw & 15, raw >> 4], 1).ravel()], np.float32)' \
    --expect 'back = raw.astype(np.int8)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run tileiras "$IN/pack_nibbles.mlir" --gpu-name sm_80 -o "$BATS_TEST_TMPDIR/nibbles.cubin"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "pack/unpack: i1 eight to a byte (bit 0 first), i64 and i16 low byte first" {
  run check "$IN/pack_widths.mlir" --entry widths --rtol 0 --atol 0 \
    --array 'flags=np.random.default_rng(5).integers(0, 2, 32).astype(np.int32)' \
    --array 'bits=np.zeros(4, np.int32)' --array 'back=np.zeros(32, np.int32)' \
    --array 'wide=np.random.default_rng(6).integers(-2**62, 2**62, 8).astype(np.int64)' \
    --array 'halves=np.zeros(32, np.int32)' \
    --expect 'bits = np.packbits(flags.astype(np.uint8), bitorder="little").astype(np.int32)' \
    --expect 'back = flags' --expect 'halves = wide.view(np.int16).astype(np.int32)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run tileiras "$IN/pack_widths.mlir" --gpu-name sm_80 -o "$BATS_TEST_TMPDIR/widths.cubin"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "iota of i8: 0..255 wraps to -128..127" {
  run check "$IN/iota_narrow.mlir" --entry iota8 --array "b=np.zeros(256, np.int8)" \
    --expect 'b = np.arange(256).astype(np.int8)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
