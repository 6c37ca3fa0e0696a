#!/usr/bin/env bats
# cuda_tile folds and canonicalization patterns (FileCheck over tile-opt --canonicalize).

@test "cuda_tile.if canonicalization patterns" {
  f="$BATS_TEST_DIRNAME/canonicalize/if.mlir"
  run bash -c "tile-opt '$f' --canonicalize --split-input-file | FileCheck '$f'"
  echo "$output"
  [ "$status" -eq 0 ]
}
