#!/usr/bin/env bats
# Every module NVIDIA's tools printed (cuTile kernels and NVIDIA's own test
# suite) must read and print back as the same text, SSA names aside, and its
# generic form must round-trip too. Walks the whole corpus folders.

setup() {
  DIR="$TILEPIPE_SOURCE_DIR/tests/dialect"
  CORPUS="$TILEPIPE_SHARED_DIR/corpus"
}

@test "cuTile kernels (corpus/cutile/mlir) print back unchanged" {
  run python3 "$DIR/check-corpus.py" "$(command -v tile-opt)" "$CORPUS/cutile/mlir"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "NVIDIA test-suite modules (corpus/oracle/mlir) print back unchanged" {
  run python3 "$DIR/check-corpus.py" "$(command -v tile-opt)" "$CORPUS/oracle/mlir"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "the checker catches a changed module" {
  mkdir -p "$BATS_TEST_TMPDIR/c"
  printf 'cuda_tile.module @m {\n  entry @k() {\n    %%0 = make_token : token\n    return\n  }\n}\n' > "$BATS_TEST_TMPDIR/c/good.mlir"
  # Printed back with `make_token : token`, not as written: must be reported.
  printf 'cuda_tile.module @m {\n  entry @k() {\n    %%0 = cuda_tile.make_token : !cuda_tile.token\n    return\n  }\n}\n' > "$BATS_TEST_TMPDIR/c/odd.mlir"
  run python3 "$DIR/check-corpus.py" "$(command -v tile-opt)" "$BATS_TEST_TMPDIR/c"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"1 passed, 1 failed"* ]]
  [[ "$output" == *"odd.mlir"* ]]
}

@test "the normalizer renames SSA values but keeps everything else" {
  run "$DIR/normalize-ssa.py" <<< '%a = addi %x, %b : tile<i32> "100%d"'
  [ "$output" = '%v0 = addi %v1, %v2 : tile<i32> "100%d"' ]
  [ "$("$DIR/normalize-ssa.py" <<< 'tile<i32>')" != "$("$DIR/normalize-ssa.py" <<< 'tile<i64>')" ]
}

@test "tilepipe's own modules (tests/dialect/roundtrip: 13.4 ops, gather_scatter_view accesses) print back unchanged" {
  run python3 "$DIR/check-corpus.py" "$(command -v tile-opt)" "$DIR/roundtrip"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"0 failed"* ]]
}
