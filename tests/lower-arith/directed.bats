#!/usr/bin/env bats
# Directed rounding (rounding<zero|negative_inf|positive_inf>) of addf, subf,
# mulf, divf, fma and sqrt on f16, bf16, f32 and f64: tile_aa.directed_arith
# lowered to PTX's .rz/.rm/.rp forms (f16/bf16 through f32 and one directed
# narrowing, DirectedArithToLLVM.cpp). Checked bit for bit in tile-emu against
# an exact rational reference (directed_reference.py), signs of zero,
# subnormals, overflow and exact results included.

setup() {
  HERE="$BATS_TEST_DIRNAME"
  KERNEL="$HERE/directed_kernel.py"
}

# check_type FMT N: the 18 op/mode outputs of one type in tile-emu.
check_type() {
  /usr/bin/python3 "$KERNEL" kernel "$1" "$2" > "$BATS_TEST_TMPDIR/$1.mlir"
  mapfile -t args < <(/usr/bin/python3 "$KERNEL" args "$1" "$2")
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_TMPDIR/$1.mlir" \
    --entry directed --bin "$TILEPIPE_BIN" --helpers "$HERE/directed_reference.py" "${args[@]}"
  [ "$status" -eq 0 ] || { echo "$1: $output"; false; }
}

@test "f32: add/sub/mul/div/fma/sqrt rounded toward zero, -inf, +inf match the exact reference" {
  check_type f32 512
}

@test "f64: add/sub/mul/div/fma/sqrt rounded toward zero, -inf, +inf match the exact reference" {
  check_type f64 512
}

@test "f16: computed in f32, narrowed in the same direction, match the exact reference" {
  check_type f16 512
}

@test "bf16: computed in f32, narrowed in the same direction, match the exact reference" {
  check_type bf16 512
}

@test "a scalar (rank-0 tile) addf rounding<positive_inf> in tile-emu" {
  cat > "$BATS_TEST_TMPDIR/scalar.mlir" <<'MLIR'
cuda_tile.module @m {
  entry @scalar(%x: tile<f32>, %y: tile<f32>, %out: tile<ptr<f32>>) {
    %r = addf %x, %y rounding<positive_inf> : tile<f32>
    %t = store_ptr_tko weak %out, %r : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}
MLIR
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_TMPDIR/scalar.mlir" \
    --entry scalar --bin "$TILEPIPE_BIN" --scalar f32:1 --scalar f32:1e-30 \
    --array "out=np.zeros(1, np.float32)" --rtol 0 --atol 0 \
    --expect "out = np.nextafter(np.float32(1), np.float32(2)).reshape(1)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower emits tile_aa.directed_arith; tile-llvm the llvm.nvvm .rz/.rm/.rp intrinsics" {
  /usr/bin/python3 "$KERNEL" kernel f64 128 > "$BATS_TEST_TMPDIR/k.mlir"
  tile-lower "$BATS_TEST_TMPDIR/k.mlir" | FileCheck "$HERE/directed-lower.check"
  tileiras "$BATS_TEST_TMPDIR/k.mlir" --emit=llvm -o "$BATS_TEST_TMPDIR/k.ll"
  FileCheck "$HERE/directed-llvm.check" < "$BATS_TEST_TMPDIR/k.ll"
}

@test "directed rounding compiles for every target (ptxas accepts it)" {
  for fmt in f16 bf16 f32 f64; do
    /usr/bin/python3 "$KERNEL" kernel "$fmt" 256 > "$BATS_TEST_TMPDIR/$fmt.mlir"
    for sm in sm_80 sm_90 sm_100; do
      run tileiras "$BATS_TEST_TMPDIR/$fmt.mlir" --gpu-name "$sm" -o "$BATS_TEST_TMPDIR/k.cubin"
      [ "$status" -eq 0 ] && [ -s "$BATS_TEST_TMPDIR/k.cubin" ] || { echo "$fmt $sm: $output"; false; }
    done
  done
}

@test "tile_as.directed_arith verifies its kind, operand count and rounding (exit 5)" {
  for bad in '"fma" "zero" %x, %x : f32, f32' '"add" "nearest_even" %x, %x : f32, f32' \
             '"exp" "zero" %x : f32'; do
    printf 'func.func @k(%%x: f32) {\n  %%r = tile_as.directed_arith %s -> f32\n  return\n}\n' \
      "$bad" > "$BATS_TEST_TMPDIR/bad.mlir"
    run tile-sched "$BATS_TEST_TMPDIR/bad.mlir"
    [ "$status" -eq 5 ] || { echo "$bad: $output"; false; }
    [[ "$output" == *"'fma' takes 3 operands, got 2"* ||
       "$output" == *"rounding must be zero, negative_inf or positive_inf, got 'nearest_even'"* ||
       "$output" == *"unknown kind 'exp'"* ]] || { echo "$bad: $output"; false; }
  done
}
