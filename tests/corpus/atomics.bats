#!/usr/bin/env bats
# cuTile's LayerNorm backward dX with partial dW/dB: each row block takes the
# spin lock of its row group (row % GROUP_SIZE_M) with atomic_cas_tko acquire
# (a scalar CAS in a loop: every thread must see the one old value), adds its
# dW/dB tiles with plain loads and stores, and releases the lock with
# atomic_rmw_tko release xchg. tile-emu runs CTAs one after another, so the
# lock never contends there, but a lock left taken hangs the next block of
# its group (the emulator's time limit) and lost partial sums show in DW/DB.
# Reduced shapes (16 rows of 1040 in 4 groups, the 1040 columns ragged
# against the 1024-wide tile): the corpus grid of 1024 blocks is slow in the
# emulator.

load corpus-common

setup() {
  corpus_setup
  CASE=samples-LayerNorm-layer_norm_bwd_dx_partial_dwdb
}

REDUCED=(--shape X=16,1040 --shape DX=16,1040 --shape DY=16,1040 --shape W=1040
         --shape DW=4,1040 --shape DB=4,1040 --shape Mean=16 --shape Rstd=16
         --shape Locks=4 --grid 16,1,1)

@test "layer_norm_bwd_dx_partial_dwdb compiles to cubins for every target and bytecode version" {
  for dtype in bf16 f16; do
    for sm in sm_80 sm_90 sm_100 sm_120; do
      for v in 13.1 13.2 13.3 13.4; do
        compiles_to_cubin "$CASE.$dtype" "$sm" "$v"
      done
    done
  done
}

@test "layer_norm_bwd_dx_partial_dwdb matches numpy in tile-emu on 16x1040 rows in 4 groups (bf16, f16; sm_80, sm_90)" {
  for dtype in bf16 f16; do
    for sm in sm_80 sm_90; do
      run check "$CASE.$dtype" "$sm" 13.4 "${REDUCED[@]}"
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
    done
  done
}

@test "the lock's acquire CAS and release exchange keep their ordering in PTX" {
  run bash -c "tileiras '$BYTECODE/$CASE.f16.sm_90.13.4.tileirbc' --gpu-name sm_90 --emit=ptx -o - | tr -d '\t'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"atom.acquire.gpu.global.cas.b32"*"fence.release.gpu;"*"atom.global.exch.b32"* ]] ||
    { echo "$output" | grep -E 'atom|fence'; false; }
}
