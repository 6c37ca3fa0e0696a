#!/usr/bin/env bats
# Verifier diagnostics: every file in tests/dialect/invalid is split into
# chunks, each with the diagnostics it must produce (--verify-diagnostics).

@test "every invalid/*.mlir chunk produces exactly its expected diagnostics" {
  local dir="$TILEPIPE_SOURCE_DIR/tests/dialect/invalid" failed=0
  for f in "$dir"/*.mlir; do
    if ! tile-opt --allow-unregistered-dialect --verify-diagnostics \
         --split-input-file "$f" > /dev/null 2> "$BATS_TEST_TMPDIR/err"; then
      echo "FAILED: $(basename "$f")"
      cat "$BATS_TEST_TMPDIR/err"
      failed=1
    fi
  done
  [ "$failed" -eq 0 ]
}

@test "an invalid module is rejected without --verify-diagnostics" {
  printf 'cuda_tile.module @m {\n  entry @k(%%a: tile<4xf32>) {\n    return\n  }\n}\n' > "$BATS_TEST_TMPDIR/bad.mlir"
  run tile-opt "$BATS_TEST_TMPDIR/bad.mlir"
  [ "$status" -ne 0 ]
  [[ "$output" == *"entry op must have scalar types"* ]]
}
