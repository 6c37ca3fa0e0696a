#!/usr/bin/env bats
# Shape ops that ShapeLowering.cpp rewrites into others: chains of reshapes
# become one reshape or none, insert (no tile_aa counterpart) a repeat of the
# source and a select, pack/unpack shifts of bytes between reshapes; pinned
# with FileCheck and checked in tile-emu.

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

@test "tile-lower: insert is the source repeated over the grid and a select" {
  local in="$BATS_TEST_DIRNAME/inputs/insert.mlir"
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$in' | FileCheck --check-prefix=LOWER '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "insert writes one block (dynamic 2-D index, constant 3-D index) in tile-emu" {
  local rng="np.random.default_rng(9)"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_DIRNAME/inputs/insert.mlir" \
    --entry insert --bin "$TILEPIPE_BIN" \
    --array "s=$rng.standard_normal((4, 16)).astype(np.float32)" \
    --array "d=$rng.standard_normal((16, 64)).astype(np.float32)" \
    --array "out=np.zeros((16, 64), np.float32)" --scalar i32:2 --scalar i32:1 \
    --array "d3=np.arange(256, dtype=np.int32).reshape(2, 8, 16) + 1000" \
    --array "out3=np.zeros((2, 8, 16), np.int32)" \
    --expect "out = d.copy(); out[8:12, 16:32] = s" \
    --expect "out3 = d3.copy(); out3[0:1, 6:8, 0:8] = np.arange(16, dtype=np.int32).reshape(1, 2, 8)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: pack spreads each number over its bytes by shifts" {
  local in="$BATS_TEST_DIRNAME/inputs/pack.mlir"
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$in' | FileCheck --check-prefix=LOWER '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "pack/unpack give numpy's little-endian bytes and back (f32, f16) in tile-emu" {
  local rng="np.random.default_rng(4)"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_DIRNAME/inputs/pack.mlir" \
    --entry pack --bin "$TILEPIPE_BIN" \
    --array "x=$rng.standard_normal((8, 4)).astype(np.float32)" \
    --array "bytes=np.zeros(128, np.int32)" --array "back=np.zeros((8, 4), np.float32)" \
    --array "raw=$rng.integers(0, 256, 64).astype(np.int32)" --array "half=np.zeros(32, np.float16)" \
    --expect "bytes = x.view(np.int8).reshape(-1).astype(np.int32)" --expect "back = x" \
    --expect "half = raw.astype(np.uint8).view(np.float16)" --rtol 0 --atol 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: a single-element tile reshaped to 0-d is a one-element reduce" {
  local in="$BATS_TEST_DIRNAME/inputs/reshape_to_scalar.mlir"
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$in' | FileCheck --check-prefix=LOWER '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "a single-element tile reshaped to 0-d reaches every thread (f32, i32) in tile-emu" {
  for value in 2.5 -0.0 np.nan; do
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" \
      "$BATS_TEST_DIRNAME/inputs/reshape_to_scalar.mlir" --entry to_scalar --bin "$TILEPIPE_BIN" \
      --array "a=np.array([[$value]], np.float32)" --array "k=np.array([-7], np.int32)" \
      --array "out=np.zeros(8, np.float32)" --array "iout=np.zeros(8, np.int32)" \
      --expect "out = np.arange(8, dtype=np.float32) * np.float32($value)" \
      --expect "iout = np.arange(8, dtype=np.int32) - 7"
    [ "$status" -eq 0 ] || { echo "$value: $output"; false; }
  done
}
