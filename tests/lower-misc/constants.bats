#!/usr/bin/env bats
# Non-splat tensor constants (TensorConstantToLLVM.cpp): a constant array in
# global memory, each register loaded at its coordinate. Checked bit for bit
# in tile-emu over integer, float (f16, bf16, f32, f64, f8E4M3FN) and i1
# constants, 1-D and 2-D, register vectors of 1 to 16 elements and tiles
# smaller than the CTA; ptxas must accept them.

setup() {
  HERE="$BATS_TEST_DIRNAME"
  KERNEL="$HERE/constant_kernel.py"
  /usr/bin/python3 "$KERNEL" kernel > "$BATS_TEST_TMPDIR/constants.mlir"
}

@test "non-splat constants of every element type and layout load the right elements (tile-emu, sm_80 and sm_90)" {
  mapfile -t args < <(/usr/bin/python3 "$KERNEL" args)
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_TMPDIR/constants.mlir" \
      --entry constants --gpu-name "$sm" --bin "$TILEPIPE_BIN" "${args[@]}"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "the kernel's layouts cover vectors of 1 to 16 registers, 2-D and wrapped tiles" {
  tileiras "$BATS_TEST_TMPDIR/constants.mlir" --emit=llvm -o "$BATS_TEST_TMPDIR/k.ll" \
    --save-temps="$BATS_TEST_TMPDIR"
  run grep -o "arith.constant dense<[^>]*> : tensor<[^,]*, #tile_as.blocked<sizePerThread = \[[0-9, ]*\]" \
    "$BATS_TEST_TMPDIR/constants.sched.mlir"
  for want in "256xi32, #tile_as.blocked<sizePerThread = \[4\]" "64xi8, #tile_as.blocked<sizePerThread = \[16\]" \
              "8x64xbf16, #tile_as.blocked<sizePerThread = \[1, 8\]" "128xf32, #tile_as.blocked<sizePerThread = \[1\]" \
              "8xi32, #tile_as.blocked<sizePerThread = \[4\]"; do
    [[ "$output" =~ $want ]] || { echo "no $want in: $output"; false; }
  done
}

@test "LLVM: an internal addrspace(1) array of the bits, loaded and bitcast per register" {
  tileiras "$HERE/constants.mlir" --emit=llvm -o "$BATS_TEST_TMPDIR/c.ll"
  FileCheck "$HERE/constants.mlir" < "$BATS_TEST_TMPDIR/c.ll"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/constants.mlir" \
    --entry constants --bin "$TILEPIPE_BIN" --array "out=np.zeros(8, np.float16)" --rtol 0 --atol 0 \
    --expect "out = np.array([1, 0, 0, 4, -1, 0, 0, -4], np.float16)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "non-splat constants compile for every target (ptxas accepts them)" {
  for sm in sm_80 sm_90 sm_100; do
    run tileiras "$BATS_TEST_TMPDIR/constants.mlir" --gpu-name "$sm" -o "$BATS_TEST_TMPDIR/k.cubin"
    [ "$status" -eq 0 ] && [ -s "$BATS_TEST_TMPDIR/k.cubin" ] || { echo "$sm: $output"; false; }
  done
}

@test "a constant of more than 100 elements prints as a list that parses again (no hex blob)" {
  run sh -c "tile-opt '$BATS_TEST_TMPDIR/constants.mlir' | tile-opt -"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" != *'"0x'* ]]
}
