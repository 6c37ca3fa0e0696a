#!/usr/bin/env bats
# The corpus kernels our lowering handles today, compiled by tileiras from
# cuTile's bytecode and checked against the manifest's numpy reference in
# tile-emu (full corpus shapes). Grows with every lowering issue.

setup() {
  MANIFEST="$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json"
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  RUN="$BATS_TEST_DIRNAME/run-case.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

CASES="samples-VectorAddition-vec_add_kernel_1d.f32 samples-VectorAddition-vec_add_kernel_1d.f16
samples-VectorAddition-vec_add_kernel_1d_gather.f32 samples-VectorAddition-vec_add_kernel_1d_gather.f16
samples-VectorAddition-vec_add_kernel_2d.f32 samples-VectorAddition-vec_add_kernel_2d.f16
samples-MoE-silu_and_mul_kernel.bf16"

check() { # case sm version
  "$RUN" --manifest "$MANIFEST" --case "$1" --bytecode "$BYTECODE/$1.$2.$3.tileirbc" \
    --gpu-name "$2" --bin "$TILEPIPE_BIN" --work "$TMP/$1.$2.$3"
}

@test "elementwise kernels match numpy in tile-emu at every bytecode version (sm_80)" {
  for case in $CASES; do
    for v in 13.1 13.2 13.3 13.4; do
      run check "$case" sm_80 "$v"
      [ "$status" -eq 0 ] || { echo "$case sm_80 $v: $output"; false; }
    done
  done
}

@test "elementwise kernels match numpy in tile-emu for sm_90" {
  for case in $CASES; do
    run check "$case" sm_90 13.4
    [ "$status" -eq 0 ] || { echo "$case sm_90: $output"; false; }
  done
}

@test "the checker catches a wrong result" {
  /usr/bin/python3 - "$MANIFEST" "$TMP/wrong.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
case = m["cases"]["samples-VectorAddition-vec_add_kernel_1d.f32"]
case["numpy_ref"] += " + 0.5"
json.dump(m, open(sys.argv[2], "w"))
PY
  run "$RUN" --manifest "$TMP/wrong.json" --case samples-VectorAddition-vec_add_kernel_1d.f32 \
    --bytecode "$BYTECODE/samples-VectorAddition-vec_add_kernel_1d.f32.sm_80.13.3.tileirbc" \
    --gpu-name sm_80 --bin "$TILEPIPE_BIN" --work "$TMP/wrong"
  [ "$status" -eq 1 ]
  [[ "$output" == *"output c differs"* ]]
}
