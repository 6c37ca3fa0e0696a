#!/usr/bin/env bats
# mmaf_scaled through the stages: the scales widened and repeated over their
# blocks of k, the operands scaled in f32 and an f32 mmaf (FileCheck), PTX
# for every target, and a malformed scale shape rejected with its location.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_small.mlir"
  BAD="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/bad_scale.mlir"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "tile-lower: mmaf_scaled becomes scaled f32 operands and tile_as.mmaf" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: PTX of the scaled multiply, and cubins for sm_80/90/100/120" {
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$IN' | FileCheck --check-prefix=PTX '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for sm in sm_80 sm_90 sm_100 sm_120; do
    run tileiras --gpu-name "$sm" "$IN" -o "$TMP/k.$sm.cubin"
    [ "$status" -eq 0 ] && [ -s "$TMP/k.$sm.cubin" ] || { echo "$sm: $output"; false; }
  done
}

@test "scale tiles that do not split K evenly fail cleanly (exit 5, located, no output)" {
  run tile-lower --gpu-name sm_80 "$BAD" -o "$TMP/bad.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"bad_scale.mlir:10:10: error: 'cuda_tile.mmaf_scaled' op scale tiles must be"* ]]
  [ ! -e "$TMP/bad.mlir" ]
}
