#!/usr/bin/env bats
# optimization_hints checking: silent by default, warnings with
# -Wunsupported-hints, verification errors with -Werr-hints as well.

setup() {
  HINTS="$TILEPIPE_SOURCE_DIR/tests/dialect/hints"
  ORACLE="$TILEPIPE_SHARED_DIR/corpus/oracle/mlir"
}

@test "-Wunsupported-hints warns about each unknown or invalid hint" {
  run tile-opt -Wunsupported-hints --verify-diagnostics --split-input-file "$HINTS/warn.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "-Werr-hints makes each of them a verification error" {
  run tile-opt -Wunsupported-hints -Werr-hints --verify-diagnostics --split-input-file "$HINTS/error.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "valid hints give no diagnostic even with -Werr-hints" {
  run tile-opt -Wunsupported-hints -Werr-hints --verify-diagnostics "$HINTS/valid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "without the flags unknown hints are accepted silently (tile-read)" {
  for f in "$ORACLE"/Dialect_CudaTile_entry_opt_hints_*.mlir; do
    run tile-read "$f"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    [[ "$output" != *warning* ]]
  done
}

@test "tile-read -Wunsupported-hints -Werr-hints rejects NVIDIA's error cases with exit 5 and a location" {
  local n=0
  for f in "$ORACLE"/Dialect_CudaTile_entry_opt_hints_error_*.mlir; do
    run tile-read -Wunsupported-hints -Werr-hints "$f" -o "$BATS_TEST_TMPDIR/out.mlir"
    [ "$status" -eq 5 ] || { echo "$f: status $status: $output"; false; }
    [[ "$output" == *"warning: "* ]]
    [[ "$output" == *"$(basename "$f")"*"error: Optimization hints verification failed"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out.mlir" ]
    n=$((n + 1))
  done
  [ "$n" -gt 0 ]
}

@test "every hint cuTile writes passes the checks (cutile corpus bytecode, 13.3)" {
  local n=0
  for f in "$TILEPIPE_SHARED_DIR"/corpus/cutile/bytecode/*.sm_100.13.3.tileirbc; do
    run tile-read -Wunsupported-hints -Werr-hints "$f" -o /dev/null
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    [[ "$output" != *warning* ]] || { echo "$f: $output"; false; }
    n=$((n + 1))
  done
  [ "$n" -gt 10 ]
}
