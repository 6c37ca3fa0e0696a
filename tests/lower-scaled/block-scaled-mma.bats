#!/usr/bin/env bats
# tile_aa/tile_as.mmaf_scaled, the block-scaled multiply block-scaled
# mma.sync runs: CudaTileToTileAA emits it for sm_120/121 (plain or a) when
# the form fits (fp8 operands, e8m0 scales per 32 k, f32 accumulator, M a
# multiple of 16, N eight times a power of two) and decomposes every other
# case; its verifier rejects other forms with their locations.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_fp8.mlir"
  F16="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_small.mlir"
  INVALID="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/invalid_mmaf_scaled.mlir"
  KERNEL="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/kernel.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# lower_to_aa GPU FILE: the module after the cuda_tile -> tile_aa conversion.
lower_to_aa() {
  tile-opt --tilepipe-convert-cuda-tile-to-tile-aa="gpu-name=$1" "$2"
}

@test "sm_120 and sm_121 (plain, a or f) keep the fp8 multiply block-scaled" {
  for gpu in sm_120 sm_121 sm_120a sm_121a sm_120f sm_121f; do
    run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$IN' | FileCheck --check-prefix=KEEP '$IN'"
    [ "$status" -eq 0 ] || { echo "$gpu: $output"; false; }
  done
}

@test "other targets (and none named) decompose it into scaled f32 operands and mmaf" {
  for gpu in sm_80 sm_90a sm_100 sm_100a ""; do
    run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$IN' | FileCheck --check-prefix=SPLIT '$IN'"
    [ "$status" -eq 0 ] || { echo "'$gpu': $output"; false; }
  done
}

@test "the tile_aa -> tile_as conversion carries mmaf_scaled over" {
  run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=sm_120' --tilepipe-convert-tile-aa-to-tile-as '$IN' | FileCheck --check-prefix=AS '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "on sm_120 forms block-scaled mma.sync does not run are decomposed" {
  # f16 operands; N = 4; M = 8; blocks of 16 k; f32 scales. (Tile
  # dimensions are powers of two, so N >= 8 is always eight times one.)
  "$KERNEL" --m 32 --n 4 --k 64 --ks 2 --a f8E4M3FN --scale f8E8M0FNU > "$TMP/n4.mlir"
  "$KERNEL" --m 8 --n 16 --k 64 --ks 2 --a f8E4M3FN --scale f8E8M0FNU > "$TMP/m8.mlir"
  "$KERNEL" --m 16 --n 16 --k 64 --ks 4 --a f8E4M3FN --scale f8E8M0FNU > "$TMP/block16.mlir"
  "$KERNEL" --m 16 --n 16 --k 64 --ks 2 --a f8E4M3FN --scale f32 > "$TMP/f32scale.mlir"
  for f in "$F16" "$TMP/n4.mlir" "$TMP/m8.mlir" "$TMP/block16.mlir" "$TMP/f32scale.mlir"; do
    run lower_to_aa sm_120 "$f"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    [[ "$output" == *"tile_aa.mmaf "* && "$output" != *"mmaf_scaled"* ]] || { echo "$f: $output"; false; }
  done
}

@test "the mmaf_scaled verifier rejects every other form with its location" {
  run tile-opt --verify-diagnostics --split-input-file "$INVALID"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "sm_120 PTX: ldmatrix and block-scaled mma.sync on sm_120a, and ptxas takes the cubin" {
  for gpu in sm_120 sm_120a; do
    run bash -c "tileiras --gpu-name $gpu --emit=ptx -o - '$IN' | FileCheck --check-prefix=PTX '$IN'"
    [ "$status" -eq 0 ] || { echo "$gpu: $output"; false; }
  done
  for gpu in sm_120 sm_120a sm_121; do
    run tileiras --gpu-name "$gpu" -o "$TMP/k.$gpu.cubin" "$IN"
    [ "$status" -eq 0 ] && [ -s "$TMP/k.$gpu.cubin" ] || { echo "$gpu: $output"; false; }
  done
  # tile-ptx -v says why plain sm_120 became sm_120a.
  tileiras --gpu-name sm_120 --emit=llvm -o "$TMP/k.ll" "$IN"
  run tile-ptx -v --gpu-name sm_120 -o "$TMP/k.ptx" "$TMP/k.ll"
  [[ "$output" == "tile-ptx: .target sm_120a: the module uses block_scale, which only the arch-specific target has" ]] ||
    { echo "$output"; false; }
}

# E4M3/E5M2 bit patterns (int32 words) as float64, and e8m0 scale bits as
# powers of two.
E4M3="(lambda u: np.where((u & 0x7F) == 0x7F, np.nan, np.where(u & 0x80, -1, 1) * np.where((u >> 3) & 15, (8 + (u & 7)) * 2.0 ** (((u >> 3) & 15).astype(np.int32) - 10), (u & 7) * 2.0 ** -9)))"
E5M2="(lambda u: (u.astype(np.uint16) << 8).view(np.float16).astype(np.float64))"
E8M0="(lambda bits: np.exp2(bits.astype(np.float64) - 127))"

# scaled_mma_case M N K A-TYPE B-TYPE BATCH(0: 2-D): the kernel compiled for
# sm_120 and run in tile-emu against numpy.
scaled_mma_case() {
  local m=$1 n=$2 k=$3 ta=$4 tb=$5 batch=$6 lead="" ks=$(($3 / 32))
  local gen=(--m "$m" --n "$n" --k "$k" --ks "$ks" --a "$ta" --b "$tb" --scale f8E8M0FNU)
  if [ "$batch" != 0 ]; then lead="$batch,"; gen+=(--batch "$batch"); fi
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  local rng="np.random.default_rng(5)" kdim=$([ "$batch" != 0 ] && echo 2 || echo 1)
  local bits="($rng.integers(0, 0x48, SHAPE) | ($rng.integers(0, 2, SHAPE) << 7)).astype(np.int32)"
  local da=$E4M3 db=$E4M3
  [ "$ta" = f8E4M3FN ] || da=$E5M2
  [ "$tb" = f8E4M3FN ] || db=$E5M2
  local ra="np.repeat($E8M0(sa), 32, axis=$kdim)" rb="np.repeat($E8M0(sb), 32, axis=$((kdim - 1)))"
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --gpu-name sm_120 --bin "$TILEPIPE_BIN" \
    --array "a=${bits//SHAPE/($lead$m,$k)}" --array "b=${bits//SHAPE/($lead$k,$n)}" \
    --array "sa=$rng.integers(120, 135, ($lead$m,$ks)).astype(np.int32)" \
    --array "sb=$rng.integers(120, 135, ($lead$ks,$n)).astype(np.int32)" \
    --array "c=$rng.standard_normal(($lead$m,$n)).astype(np.float32)" \
    --array "d_out=np.zeros(($lead$m,$n), np.float32)" \
    --expect "d_out = ($da(a) * $ra) @ ($db(b) * $rb) + c" --rtol 1e-5 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "block-scaled $m x $n x $k $ta x $tb batch=$batch: $output"; false; }
}

@test "block-scaled mma.sync matches numpy in tile-emu (sm_120): fp8 kinds, scale words, N wrapping, batched" {
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  scaled_mma_case 32 16 64 f8E4M3FN f8E4M3FN 0
  # 8 k blocks: two scale words per row and column.
  scaled_mma_case 64 32 256 f8E4M3FN f8E5M2 0
  # N = 8 on 4 warps: the warps wrap around the one column block.
  scaled_mma_case 16 8 128 f8E5M2 f8E4M3FN 0
  scaled_mma_case 16 16 64 f8E5M2 f8E5M2 2
}

@test "without the mma.sync accumulator layout mmaf_scaled fails cleanly in tile-llvm (exit 5, located)" {
  tile-lower --gpu-name sm_120 "$IN" -o "$TMP/k.lower.mlir"
  tile-opt --tilepipe-assign-layouts='tensor-cores=false' "$TMP/k.lower.mlir" -o "$TMP/k.sched.mlir"
  run tile-llvm "$TMP/k.sched.mlir" -o "$TMP/k.ll"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"k.sched.mlir:"*"error: 'tile_as.mmaf_scaled' op needs the mma.sync accumulator layout"* ]] ||
    { echo "$output"; false; }
}

# colmajor_case EXTRA: inputs/colmajor_b.mlir (B and its scales column-major,
# given to numpy as their N x K transposes) compiled for sm_120 and run in
# tile-emu against numpy, EXTRA added to the expectation (to show a wrong one
# is caught).
colmajor_case() {
  local rng="np.random.default_rng(7)"
  local bits="($rng.integers(0, 0x48, SHAPE) | ($rng.integers(0, 2, SHAPE) << 7)).astype(np.uint8)"
  /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$COLMAJOR" --entry k \
    --gpu-name sm_120 --bin "$TILEPIPE_BIN" \
    --array "a=${bits//SHAPE/(32,128)}" --array "b=${bits//SHAPE/(32,128)}" \
    --array "sa=$rng.integers(120, 135, (32,4)).astype(np.uint8)" \
    --array "sb=$rng.integers(120, 135, (32,4)).astype(np.uint8)" \
    --array "d=np.zeros((32,32), np.float32)" \
    --expect "d = ($E4M3(a) * np.repeat($E8M0(sa), 32, axis=1)) @ ($E4M3(b) * np.repeat($E8M0(sb), 32, axis=1)).T + $1" \
    --rtol 1e-5 --atol 1e-3
}

@test "column-major B and scales: the permutes keep their sources' layouts and tile-emu matches numpy (sm_120)" {
  COLMAJOR="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/colmajor_b.mlir"
  run bash -c "set -o pipefail; tileiras --gpu-name sm_120 --emit=scheduled -o - '$COLMAJOR' | FileCheck --check-prefix=SCHED '$COLMAJOR'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run colmajor_case 0
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run colmajor_case 1
  [ "$status" -eq 1 ] && [[ "$output" == *"d differs"* ]] || { echo "$output"; false; }
}
