#!/usr/bin/env bats
# Every elementwise arithmetic op of cuda_tile against numpy, one kernel per
# group of ops (check-ops.py holds the table), with the edge cases the spec
# pins down: division rounding of negative operands, NaN in min/max and
# comparisons, saturating float -> int conversions.

setup() {
  CHECK="$BATS_TEST_DIRNAME/check-ops.py"
}

@test "integer arithmetic, division rounding, shifts, comparisons (i32)" {
  run /usr/bin/python3 "$CHECK" --group i32-binary
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "float arithmetic, NaN rules of minf/maxf, ordered/unordered cmpf (f32)" {
  run /usr/bin/python3 "$CHECK" --group f32-binary
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "math ops through libdevice (f32)" {
  run /usr/bin/python3 "$CHECK" --group f32-math
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "float -> int saturates, NaN -> 0; ftof; bitcast" {
  run /usr/bin/python3 "$CHECK" --group f32-convert
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "int -> float, exti, trunci" {
  run /usr/bin/python3 "$CHECK" --group i32-convert
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: rounding, NaN and saturation rules pick the upstream ops" {
  run bash -c "/usr/bin/python3 '$CHECK' --print i32-binary > '$BATS_TEST_TMPDIR/i.mlir' && tile-lower -O0 '$BATS_TEST_TMPDIR/i.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for op in arith.divsi arith.floordivsi arith.ceildivsi arith.divui arith.ceildivui \
            arith.remsi arith.remui arith.maxsi arith.minui arith.shrsi arith.shrui \
            arith.mulsi_extended math.absi "arith.cmpi ult"; do
    [[ "$output" == *"$op"* ]] || { echo "missing $op"; false; }
  done
  run bash -c "/usr/bin/python3 '$CHECK' --print f32-binary > '$BATS_TEST_TMPDIR/f.mlir' && tile-lower -O0 '$BATS_TEST_TMPDIR/f.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for op in arith.maxnumf arith.minnumf arith.maximumf arith.minimumf math.fma \
            "arith.cmpf one" "arith.cmpf une" "arith.cmpf ult" arith.remf; do
    [[ "$output" == *"$op"* ]] || { echo "missing $op"; false; }
  done
}

@test "tile-lower: ftoi clamps to the integer range and maps NaN to 0" {
  run bash -c "/usr/bin/python3 '$CHECK' --print f32-convert > '$BATS_TEST_TMPDIR/c.mlir' && tile-lower -O0 '$BATS_TEST_TMPDIR/c.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"arith.fptosi"* && "$output" == *"arith.fptoui"* ]]
  [[ "$output" == *"arith.cmpf uno"* && "$output" == *"arith.cmpf oge"* ]]
  [[ "$output" == *"2.14748365E+9"* ]]  # 2^31, the bound of i32
  [[ "$output" == *"2147483647"* ]]
}

@test "sin/cos/tan compile to libdevice calls" {
  cat > "$BATS_TEST_TMPDIR/trig.mlir" <<'MLIR'
cuda_tile.module @m {
  entry @trig(%a: tile<ptr<f32>>) {
    %idx = iota : tile<128xi32>
    %p = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %b = broadcast %p : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %q = offset %b, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t = load_ptr_tko weak %q : tile<128xptr<f32>> -> tile<128xf32>, token
    %s = sin %x : tile<128xf32>
    %c = cos %s : tile<128xf32>
    %r = tan %c : tile<128xf32>
    %t2 = store_ptr_tko weak %q, %r : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
MLIR
  run tileiras "$BATS_TEST_TMPDIR/trig.mlir" --emit=llvm -o "$BATS_TEST_TMPDIR/trig.ll" --gpu-name sm_80
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run cat "$BATS_TEST_TMPDIR/trig.ll"
  [[ "$output" == *"@__nv_sinf"* && "$output" == *"@__nv_cosf"* && "$output" == *"@__nv_tanf"* ]]
}

@test "ftof rounding<zero> of a 0-d tile to f8E8M0FNU lowers and assembles (2^-1 from 0.75)" {
  cat > "$BATS_TEST_TMPDIR/rz.mlir" <<'MLIR'
cuda_tile.module @m {
  entry @rz(%x: tile<f32>, %out: tile<ptr<f8E8M0FNU>>) {
    %y = ftof %x rounding<zero> : tile<f32> -> tile<f8E8M0FNU>
    %t = store_ptr_tko weak %out, %y : tile<ptr<f8E8M0FNU>>, tile<f8E8M0FNU> -> token
    return
  }
}
MLIR
  run tileiras "$BATS_TEST_TMPDIR/rz.mlir" --gpu-name sm_80 -o "$BATS_TEST_TMPDIR/rz.cubin"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$BATS_TEST_TMPDIR/rz.mlir" --entry rz \
    --bin "$TILEPIPE_BIN" --scalar f32:0.75 --array 'out=np.zeros(1, np.uint8)' \
    --expect 'out = np.array([126], np.uint8)'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
