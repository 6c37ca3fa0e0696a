#!/usr/bin/env bats
# ftof to and from f8E4M3FN, f8E5M2, f4E2M1FN and f8E8M0FNU (ArithmeticToLLVM.cpp): round to
# nearest even, saturation to the largest finite value, canonical NaN, exact
# decoding; checked bit for bit in tile-emu against a brute-force reference
# over every code, every tie between neighbouring codes and the specials.

setup() {
  HERE="$BATS_TEST_DIRNAME"
}

@test "f32 -> e4m3/e5m2 -> f32/f16 match the reference bit for bit (tile-emu, sm_80 and sm_90)" {
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/fp8.mlir" --entry fp8 \
      --gpu-name "$sm" --bin "$TILEPIPE_BIN" --helpers "$HERE/fp8_reference.py" --rtol 0 --atol 0 \
      --array "x=fp8_test_inputs(2048)" --array "e4=np.zeros(2048, np.uint8)" \
      --array "e4back=np.zeros(2048, np.float32)" --array "e5=np.zeros(2048, np.uint8)" \
      --array "e5back=np.zeros(2048, np.float16)" \
      --expect "e4 = fp8_encode(x, 'e4m3')" \
      --expect "e4back = fp8_decode_table('e4m3')[fp8_encode(x, 'e4m3')].astype(np.float32)" \
      --expect "e5 = fp8_encode(x, 'e5m2')" \
      --expect "e5back = fp8_decode_table('e5m2')[fp8_encode(x, 'e5m2')].astype(np.float16)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "fp8 conversions compile for every target (ptxas accepts them)" {
  for sm in sm_80 sm_89 sm_90 sm_100 sm_120; do
    run tileiras "$HERE/fp8.mlir" --gpu-name "$sm" -o "$BATS_TEST_TMPDIR/k.cubin"
    [ "$status" -eq 0 ] && [ -s "$BATS_TEST_TMPDIR/k.cubin" ] || { echo "$sm: $output"; false; }
  done
}

@test "one-byte loads and stores (i8, i1) with a masked tail in tile-emu" {
  local rng="np.random.default_rng(5)"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/bytes.mlir" --entry bytes \
    --bin "$TILEPIPE_BIN" \
    --array "a=$rng.integers(-100, 100, 100).astype(np.int8)" --array "flags=np.zeros(100, bool)" \
    --array "b=np.arange(100) % 3 == 0" --array "out=np.zeros(100, np.int8)" \
    --expect "flags = a > 0" --expect "out = np.where(b, -a, a)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "f32 -> f4E2M1FN -> f32 matches the e2m1 reference (ties to even, saturation, NaN to 6) in tile-emu" {
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/fp4.mlir" --entry fp4 \
    --bin "$TILEPIPE_BIN" --helpers "$HERE/mx_reference.py" --rtol 0 --atol 0 \
    --array "x=e2m1_test_inputs(256)" --array "back=np.zeros(256, np.float32)" \
    --expect "back = e2m1_round_trip(x)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "f4E2M1FN conversions compile for sm_80 and sm_100 (ptxas accepts them)" {
  for sm in sm_80 sm_100; do
    run tileiras "$HERE/fp4.mlir" --gpu-name "$sm" -o "$BATS_TEST_TMPDIR/k4.cubin"
    [ "$status" -eq 0 ] && [ -s "$BATS_TEST_TMPDIR/k4.cubin" ] || { echo "$sm: $output"; false; }
  done
}

@test "f32 -> f8E8M0FNU under zero, positive_inf and nearest_even, and back to f32, match the e8m0 reference in tile-emu" {
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/e8m0.mlir" --entry e8m0 \
    --bin "$TILEPIPE_BIN" --helpers "$HERE/mx_reference.py" --rtol 0 --atol 0 \
    --array "x=e8m0_test_inputs(256)" --array "rz=np.zeros(256, np.uint8)" \
    --array "rp=np.zeros(256, np.uint8)" --array "rn=np.zeros(256, np.uint8)" \
    --array "back=np.zeros(256, np.float32)" \
    --expect "rz = e8m0_encode(x, 'zero')" --expect "rp = e8m0_encode(x, 'positive_inf')" \
    --expect "rn = e8m0_encode(x, 'nearest_even')" \
    --expect "back = e8m0_decode(e8m0_encode(x, 'nearest_even'))"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "f8E8M0FNU conversions compile for sm_80 and sm_100 (ptxas accepts them)" {
  for sm in sm_80 sm_100; do
    run tileiras "$HERE/e8m0.mlir" --gpu-name "$sm" -o "$BATS_TEST_TMPDIR/k8.cubin"
    [ "$status" -eq 0 ] && [ -s "$BATS_TEST_TMPDIR/k8.cubin" ] || { echo "$sm: $output"; false; }
  done
}

# ftof f32 -> tf32 (tf32.mlir): rounded to nearest even in the conversion,
# since the tensor cores would truncate: ties both ways, a carry into the
# exponent, the largest f32 values rounding to infinity, infinities and NaN.
@test "f32 -> tf32 rounds to nearest even (ties, carries, overflow to inf, NaN; tile-emu)" {
  local rng="np.random.default_rng(3)"
  local special="np.array([1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11), 1 + 2**-11 + 2**-23, 2 - 2**-23, 3.4e38, np.finfo(np.float32).max, np.inf, -np.inf, np.nan, 0, -0.0, 1e-40, -1e-45], np.float32)"
  local tf32="(lambda v: np.where(np.isnan(v), v, ((v.view(np.uint32).astype(np.uint64) + 0xFFF + ((v.view(np.uint32) >> 13) & 1)) & 0xFFFFE000).astype(np.uint32).view(np.float32)))"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$HERE/tf32.mlir" --entry tf32 \
    --bin "$TILEPIPE_BIN" --rtol 0 --atol 0 \
    --array "x=np.concatenate([$special, ($rng.standard_normal(242) * 10.0 ** $rng.integers(-30, 30, 242)).astype(np.float32)])" \
    --array "rn=np.zeros(256, np.float32)" --expect "rn = $tf32(x)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$HERE/tf32.mlir' | tile-sched | tile-llvm --emit=mlir | FileCheck '$HERE/tf32.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
