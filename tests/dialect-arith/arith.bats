#!/usr/bin/env bats
# cuda_tile elementwise, conversion and shape ops (CudaTileArithOps.td):
# text reads and prints as NVIDIA's cuda-tile-opt does, in custom and generic
# form, and the verifiers give NVIDIA's diagnostics.

setup() {
  DIR="$TILEPIPE_SOURCE_DIR/tests/dialect-arith"
  ORACLE="$TILEPIPE_SHARED_DIR/corpus/oracle/mlir"
  ROUNDTRIP="$DIR/roundtrip.mlir"
}

# SSA names are free to differ from NVIDIA's; everything else must not
# (blank lines aside: the driver ends its output with one).
normalize_ssa() {
  sed -E 's/%[A-Za-z0-9_$.-]+/%v/g' "$1" | sed '/^$/d'
}

@test "every op prints in NVIDIA's custom form" {
  run bash -c "tile-opt '$ROUNDTRIP' | FileCheck --strict-whitespace '$ROUNDTRIP'"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "generic form reads back to the same custom form" {
  run bash -c "tile-opt --mlir-print-op-generic '$ROUNDTRIP' | tile-opt | FileCheck --strict-whitespace '$ROUNDTRIP'"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "printing is a fixed point in custom and generic form" {
  tile-opt "$ROUNDTRIP" > "$BATS_TEST_TMPDIR/once.mlir"
  tile-opt "$BATS_TEST_TMPDIR/once.mlir" > "$BATS_TEST_TMPDIR/twice.mlir"
  diff -u "$BATS_TEST_TMPDIR/once.mlir" "$BATS_TEST_TMPDIR/twice.mlir"
  tile-opt --mlir-print-op-generic "$ROUNDTRIP" > "$BATS_TEST_TMPDIR/g1.mlir"
  tile-opt --mlir-print-op-generic "$BATS_TEST_TMPDIR/g1.mlir" > "$BATS_TEST_TMPDIR/g2.mlir"
  diff -u "$BATS_TEST_TMPDIR/g1.mlir" "$BATS_TEST_TMPDIR/g2.mlir"
}

@test "NVIDIA's printed files with these ops read back identically" {
  local files=(Dialect_CudaTile_arith.mlir Dialect_CudaTile_conversion.mlir)
  local op
  for op in atan2 cat ceil cmpf cmpi cos exp exp2 extract floor log2 mulhii \
            negf negi pack permute pow reshape rsqrt sin tanh unpack xori; do
    files+=("spec_${op}_e0.mlir")
  done
  local f
  for f in "${files[@]}"; do
    [ -f "$ORACLE/$f" ] || { echo "missing $ORACLE/$f"; return 1; }
    tile-opt --no-implicit-module "$ORACLE/$f" > "$BATS_TEST_TMPDIR/out.mlir" ||
      { echo "tile-opt failed on $f"; return 1; }
    diff -u <(normalize_ssa "$ORACLE/$f") <(normalize_ssa "$BATS_TEST_TMPDIR/out.mlir") ||
      { echo "differs: $f"; return 1; }
  done
}

@test "a changed print is caught (the comparison can fail)" {
  tile-opt --no-implicit-module "$ORACLE/Dialect_CudaTile_arith.mlir" |
    sed 's/  : tile/ : tile/' > "$BATS_TEST_TMPDIR/bad.mlir"
  run diff -q <(normalize_ssa "$ORACLE/Dialect_CudaTile_arith.mlir") <(normalize_ssa "$BATS_TEST_TMPDIR/bad.mlir")
  [ "$status" -ne 0 ]
}

@test "folds and canonicalization patterns" {
  run bash -c "tile-opt '$DIR/canonicalize.mlir' --allow-unregistered-dialect --canonicalize --split-input-file | FileCheck --strict-whitespace '$DIR/canonicalize.mlir'"
  echo "$output"
  [ "$status" -eq 0 ]
}

verify_diagnostics() {
  run tile-opt "$DIR/invalid/$1.mlir" --allow-unregistered-dialect \
    --verify-diagnostics --split-input-file
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "diagnostics: floating-point ops" { verify_diagnostics float; }
@test "diagnostics: integer ops and select" { verify_diagnostics integer; }
@test "diagnostics: conversions" { verify_diagnostics conversion; }
@test "diagnostics: shape ops" { verify_diagnostics shape; }

@test "invalid IR exits non-zero with a diagnostic, not a crash" {
  run tile-opt "$DIR/invalid/shape.mlir" --allow-unregistered-dialect --split-input-file
  [ "$status" -ne 0 ]
  [ "$status" -lt 128 ]
  [[ "$output" == *"error:"* ]]
}
