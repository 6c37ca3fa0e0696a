#!/usr/bin/env bats
# cuTile's LayerNorm sample: the forward pass (row mean and variance over
# 1024-wide tiles of a padded partition view, then the normalized output) and
# the dW/dB column sums of the backward pass, in bf16 and f16. Each runs at
# its corpus shape and at a reduced ragged shape whose last tile overlaps the
# tensor's edge (the padding_value = zero loads must read zeros there and the
# stores must not write past it).

load corpus-common

setup() {
  corpus_setup
  FWD=samples-LayerNorm-layer_norm_fwd
  DWDB=samples-LayerNorm-layer_norm_bwd_dwdb
}

# 4 rows of 1040 (one full tile and a 16-wide ragged one).
FWD_RAGGED=(--shape X=4,1040 --shape W=1040 --shape B=1040 --shape Y=4,1040
            --shape Mean=4 --shape Rstd=4 --grid 4,1,1)
# 48 rows of 1040: ragged along both the 32-row and the 1024-column tiles.
DWDB_RAGGED=(--shape DW=48,1040 --shape DB=48,1040 --shape FINAL_DW=1040
             --shape FINAL_DB=1040 --grid 2,1,1)

@test "layer_norm_fwd and layer_norm_bwd_dwdb compile to cubins for every target and bytecode version" {
  for case in $FWD $DWDB; do
    for dtype in bf16 f16; do
      for sm in sm_80 sm_90 sm_100 sm_120; do
        for v in 13.1 13.2 13.3 13.4; do
          compiles_to_cubin "$case.$dtype" "$sm" "$v"
        done
      done
    done
  done
}

@test "layer_norm_fwd matches numpy in tile-emu at its corpus shape (bf16, f16; sm_80, sm_90)" {
  for dtype in bf16 f16; do
    for sm in sm_80 sm_90; do
      run check "$FWD.$dtype" "$sm" 13.4
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
    done
  done
}

@test "layer_norm_fwd matches numpy in tile-emu on ragged 4x1040 rows (bf16, f16; sm_80, sm_90)" {
  for dtype in bf16 f16; do
    for sm in sm_80 sm_90; do
      run check "$FWD.$dtype" "$sm" 13.1 "${FWD_RAGGED[@]}"
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
    done
  done
}

@test "layer_norm_bwd_dwdb matches numpy in tile-emu at its corpus shape and ragged 48x1040 (bf16, f16; sm_80, sm_90)" {
  for dtype in bf16 f16; do
    for sm in sm_80 sm_90; do
      run check "$DWDB.$dtype" "$sm" 13.3
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
      run check "$DWDB.$dtype" "$sm" 13.2 "${DWDB_RAGGED[@]}"
      [ "$status" -eq 0 ] || { echo "$dtype $sm ragged: $output"; false; }
    done
  done
}

# layer_norm_bwd_dwdb carries two 32x1024 f32 sums through its row loop: 512
# registers per thread on 4 warps, which spilled 13-19 KB. The loop runs once
# per 32x128 column strip instead (tilepipe-split-mma-accumulators' elementwise
# case), each strip reducing and storing its columns.
@test "layer_norm_bwd_dwdb runs its row loop per 128-column strip and assembles without spills (sm_80, sm_90, sm_100, sm_120)" {
  local sm
  for sm in sm_80 sm_90 sm_100 sm_120; do
    tileiras "$BYTECODE/$DWDB.f16.$sm.13.4.tileirbc" --gpu-name $sm --emit=scheduled -o "$TMP/d.mlir"
    [ "$(grep -c 'scf.for .*-> (tensor<32x128xf32, .*tensor<32x128xf32' "$TMP/d.mlir")" -eq 8 ] ||
      { grep scf.for "$TMP/d.mlir"; false; }
    tileiras "$BYTECODE/$DWDB.f16.$sm.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/d.ptx"
    run ptxas -arch $sm -v -o "$TMP/d.cubin" "$TMP/d.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$sm: $output"; false; }
  done
}
