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
