#!/usr/bin/env bats
# The corpus kernels that need shape ops: transpose (permute of a 32x32 f32 /
# 128x128 f16 tile through shared memory) and the 2-D gather vector add
# (reshapes and broadcasts of index tiles). Compiled by tileiras from cuTile's
# bytecode for every target, and checked against the manifest's numpy
# reference in tile-emu (full corpus shapes).

setup() {
  MANIFEST="$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json"
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  RUN="$BATS_TEST_DIRNAME/run-case.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

CASES="samples-Transpose-transpose_kernel.f32 samples-Transpose-transpose_kernel.f16
samples-VectorAddition-vec_add_kernel_2d_gather.f32 samples-VectorAddition-vec_add_kernel_2d_gather.f16"

compile() { # case sm version
  tileiras "$BYTECODE/$1.$2.$3.tileirbc" --gpu-name "$2" -o "$TMP/$1.$2.$3.cubin" &&
    [ -s "$TMP/$1.$2.$3.cubin" ]
}

check() { # case sm version
  "$RUN" --manifest "$MANIFEST" --case "$1" --bytecode "$BYTECODE/$1.$2.$3.tileirbc" \
    --gpu-name "$2" --bin "$TILEPIPE_BIN" --work "$TMP/$1.$2.$3"
}

# Each target compiles two of the four cases to a cubin, so every case reaches
# two targets (ptxas dominates the run time; the sm_80 LLVM IR of all four
# is also run numerically below).
@test "shape kernels compile to cubins for sm_80, sm_90, sm_100 and sm_120 (13.4)" {
  set -- $CASES
  local pairs="sm_80:$1 sm_80:$4 sm_90:$2 sm_90:$3 sm_100:$1 sm_100:$3 sm_120:$2 sm_120:$4"
  for pair in $pairs; do
    run compile "${pair#*:}" "${pair%%:*}" 13.4
    [ "$status" -eq 0 ] || { echo "$pair: $output"; false; }
  done
}

@test "shape kernels compile at every bytecode version (sm_90)" {
  for case in samples-Transpose-transpose_kernel.f16 samples-VectorAddition-vec_add_kernel_2d_gather.f32; do
    for v in 13.1 13.2 13.3; do
      run compile "$case" sm_90 "$v"
      [ "$status" -eq 0 ] || { echo "$case $v: $output"; false; }
    done
  done
}

@test "transpose PTX stages the tile through shared memory between CTA barriers" {
  run tileiras "$BYTECODE/samples-Transpose-transpose_kernel.f16.sm_80.13.4.tileirbc" \
    --gpu-name sm_80 --emit=ptx -o "$TMP/t.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -Eq '\.shared .*__tile_scratch\[32768\]' "$TMP/t.ptx"
  grep -q 'st\.shared' "$TMP/t.ptx"
  grep -q 'ld\.shared' "$TMP/t.ptx"
  grep -Eq 'bar\.sync|barrier\.sync' "$TMP/t.ptx"
}

@test "shape kernels match numpy in tile-emu (sm_80)" {
  for case in $CASES; do
    run check "$case" sm_80 13.4
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}
