#!/usr/bin/env bats
# tilepipe-split-mma-accumulators: a K loop whose accumulator cannot live in
# registers (inputs/split_accumulator.mlir: 256x256 f32, 256 per thread on 8
# warps) runs once per 32x256 sub-tile (64x256 where asked); the numbers are checked in tile-emu
# on ragged shapes (masks on every edge, several K tiles), and cuTile's
# BlockScaledMatMul (split the same way on sm_120) by
# tests/corpus/blockscaled.bats.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/split_accumulator.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  SWIZZLED="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BlockScaledMatMul-block_scaled_matmul_kernel-swizzled.fp8e4m3.sm_120.13.3.tileirbc"
}

@test "tile-sched: with 64 registers per sub-tile, the 256x256 accumulator's loop and store become four 64x256 ones" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-opt --tilepipe-split-mma-accumulators=sub-tile-registers=64 | tee '$BATS_TEST_TMPDIR/s.mlir' | FileCheck --check-prefix=SPLIT '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --check-prefix=ROWS "$IN" --input-file "$BATS_TEST_TMPDIR/s.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: by default (32 registers) eight 32x256 loops, down to the 32-row floor" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-sched"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'scf.for .*-> (tensor<32x256xf32' <<< "$output")" -eq 8 ] || { echo "$output" | grep scf.for; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-opt --tilepipe-split-mma-accumulators=sub-tile-registers=1"
  [ "$(grep -c 'scf.for .*-> (tensor<32x32xf32' <<< "$output")" -eq 64 ] || { echo "$output" | grep scf.for; false; }
}

@test "tile-sched: an accumulator within max-acc-registers keeps its loop" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-opt --tilepipe-split-mma-accumulators=max-acc-registers=256 | FileCheck --check-prefix=KEEP '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_100a '$IN' | tile-opt --tilepipe-split-mma-accumulators=max-acc-registers=256 | FileCheck --check-prefix=KEEP '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# On tcgen05 the accumulator waits in tensor memory during the loop; only
# its read-back after the loop takes registers: 128 rows (one tcgen05.mma)
# at the least, each sub-tile's loop keeping its accumulator in tensor memory.
@test "tile-sched: on sm_100a the 256x256 accumulator splits into two 128x256 loops, each with its accumulator in tensor memory" {
  run bash -c "tile-lower --gpu-name sm_100a '$IN' | tile-sched | FileCheck --check-prefix=TCGEN05 '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# mm M N K [EXTRA]: C = 2 A x B through the split loops in tile-emu.
mm() {
  local m=$1 n=$2 k=$3 extra=${4:-0}
  /usr/bin/python3 "$CHECK" "$IN" --entry mm --gpu-name sm_80 --bin "$TILEPIPE_BIN" \
    --grid "$(( (m + 255) / 256 )),$(( (n + 255) / 256 ))" \
    --array "a=np.random.default_rng(3).standard_normal(($m, $k)).astype(np.float16)" \
    --array "b=np.random.default_rng(4).standard_normal(($k, $n)).astype(np.float16)" \
    --array "c=np.full(($m, $n), 5, np.float32)" \
    --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:$k" \
    --expect "c = 2 * (a.astype(np.float32) @ b.astype(np.float32)) + $extra" --rtol 1e-3 --atol 1e-3
}

@test "tile-emu: the eight split loops compute 2 A x B on a ragged 300x270x80 (sm_80)" {
  run mm 300 270 80
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong split result is caught" {
  run mm 300 270 80 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"c differs"* ]]
}

@test "tile-sched: BlockScaledMatMul's swizzled scales on sm_120: each 32-row loop loads its 1x1x32x4 block of A's scales, reshaped once" {
  # The 2x1x32x16 tile's reshape / permute / reshape chain sliced per group
  # of split dimensions; the permute that then only moves unit dimensions
  # is a reshape, folded into the others.
  run bash -c "tileiras '$SWIZZLED' --gpu-name sm_120 --emit=lowered -o - | tile-opt --tilepipe-split-mma-accumulators"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'scf.for .*-> (tensor<32x256xf32>)' <<< "$output")" -eq 8 ] || { echo "$output" | grep scf.for; false; }
  [ "$(grep -c 'contiguity = 4 : i64, view_alignment = 16 : i64} : tensor<1x1x32x4x!tile_as.ptr<f8E8M0FNU' <<< "$output")" -eq 8 ] ||
    { echo "$output" | grep 'tile_as.load'; false; }
  [ "$(grep -c 'tile_as.reshape %[0-9]* : tensor<1x1x32x4xf8E8M0FNU> -> tensor<32x4xf8E8M0FNU>' <<< "$output")" -eq 8 ] ||
    { echo "$output" | grep 'reshape\|permute'; false; }
}

# Loops that add up tiles elementwise (inputs/split_elementwise.mlir, the
# shape of cuTile's LayerNorm dW/dB column sums): split along the columns no
# reduce removes; the sums are checked in tile-emu on ragged shapes.
@test "tile-sched: two 32x1024 row-sum accumulators become eight 32x128 column strips; a loop reduced along its wide axis stays" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/split_elementwise.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-opt --tilepipe-split-mma-accumulators | tee '$BATS_TEST_TMPDIR/e.mlir' | FileCheck --check-prefix=SPLIT '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --check-prefix=STRIP "$in" --input-file "$BATS_TEST_TMPDIR/e.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: the column strips sum ragged 70x1100 X and Y over rows; row sums of a ragged 40x2100 stay right (sm_80, sm_90)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/split_elementwise.mlir"
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$CHECK" "$in" --entry colsums --gpu-name $sm --bin "$TILEPIPE_BIN" --grid 2 \
      --array "x=np.random.default_rng(5).standard_normal((70, 1100)).astype(np.float32)" \
      --array "y=np.random.default_rng(6).standard_normal((70, 1100)).astype(np.float32)" \
      --array "sx=np.full(1100, 7, np.float32)" --array "sy=np.full(1100, 7, np.float32)" \
      --scalar i32:70 --scalar i32:1100 \
      --expect "sx = x.sum(axis=0)" --expect "sy = y.sum(axis=0)" --rtol 1e-4 --atol 1e-4
    [ "$status" -eq 0 ] || { echo "$sm colsums: $output"; false; }
    run /usr/bin/python3 "$CHECK" "$in" --entry rowsums --gpu-name $sm --bin "$TILEPIPE_BIN" --grid 2 \
      --array "x=np.random.default_rng(7).standard_normal((40, 2100)).astype(np.float32)" \
      --array "sx=np.full(40, 7, np.float32)" --scalar i32:40 --scalar i32:2100 \
      --expect "sx = x.sum(axis=1)" --rtol 1e-4 --atol 1e-4
    [ "$status" -eq 0 ] || { echo "$sm rowsums: $output"; false; }
  done
}
