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

@test "tile_as.directed_arith verifies its kind, operand count, rounding and flush_to_zero (exit 5)" {
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
  printf 'func.func @k(%%x: f16) {\n  %%r = tile_as.directed_arith "add" "zero" flush_to_zero %%x, %%x : f16, f16 -> f16\n  return\n}\n' \
    > "$BATS_TEST_TMPDIR/bad.mlir"
  run tile-sched "$BATS_TEST_TMPDIR/bad.mlir"
  [ "$status" -eq 5 ] && [[ "$output" == *"flush_to_zero needs f32, got 'f16'"* ]] || { echo "$output"; false; }
}

@test "flush_to_zero (f32) uses the .ftz forms: subnormal operands and results become signed zeros" {
  tileiras "$HERE/directed-ftz.mlir" --emit=llvm -o "$BATS_TEST_TMPDIR/ftz.ll"
  FileCheck "$HERE/directed-ftz.mlir" < "$BATS_TEST_TMPDIR/ftz.ll"
  # x: a subnormal (flushed: +0), a normal whose product with y is subnormal
  # (flushed), -subnormal (flushed: -0, and -0 + -0 is -0), 1; `kept` has no
  # flush_to_zero.
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/directed-ftz.mlir" \
    --entry ftz --bin "$TILEPIPE_BIN" \
    --array "x=np.array([1e-40, 2.0**-100, -1e-40, 1.0], np.float32)" \
    --array "y=np.array([0.0, 2.0**-30, -0.0, 2.0**-30], np.float32)" \
    --array "sum=np.zeros(4, np.uint32)" --array "prod=np.zeros(4, np.uint32)" \
    --array "kept=np.zeros(4, np.uint32)" \
    --expect "sum = np.array([0.0, np.nextafter(np.float32(2.0**-30), np.float32(1)), -0.0, np.nextafter(np.float32(1), np.float32(2))], np.float32).view(np.uint32)" \
    --expect "prod = np.array([0.0, 0.0, 0.0, 2.0**-30], np.float32).view(np.uint32)" \
    --expect "kept = np.array([1e-40, 2.0**-30, -1e-40, 1.0], np.float32).view(np.uint32)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
