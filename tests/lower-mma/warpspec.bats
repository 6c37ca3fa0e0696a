#!/usr/bin/env bats
# Warp specialization of the sm_90a TMA ring (tilepipe-warp-specialize-rings,
# WarpSpecializeRings.cpp): a producer warpgroup after the accumulator's
# warps issues the loads, the consumers wait, multiply and release slots;
# setmaxnreg moves the producer's registers to the consumers. The numbers
# are checked by tests/corpus/matmul.bats (the sm_90a MatMul, persistent
# matmul and BatchMatMul cases run the specialized form by default).

setup() {
  BC="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  MATMUL90="$BC/samples-MatMul-matmul_kernel.f16.sm_90.13.4.tileirbc"
  INPUTS="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs"
}

@test "tile-sched: MatMul on sm_90a splits into a producer warpgroup (setmaxnreg.dec 56, loads only) and consumers (setmaxnreg.inc 224, no loads); -v says so" {
  run bash -c "tileiras '$MATMUL90' --gpu-name sm_90a --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"MatMul.py:93:22: remark: TMA ring warp-specialized: a producer warpgroup (128 threads after the 256 of the accumulator, setmaxnreg.dec to 56 registers) issues the loads; the consumers (setmaxnreg.inc from 168 to 224) wait on the full mbarriers, multiply and release slots"* ]] ||
    { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/s.mlir" "$INPUTS/matmul90_warpspec.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # The producer's part holds no tensor value (acc_type attributes name
  # one): only loops, scalars and ring ops.
  run bash -c "sed -n '/tile_as.producer_warpgroup/,/} else {/p' '$BATS_TEST_TMPDIR/s.mlir' | grep -c ': tensor<\\|-> (*tensor<'"
  [ "$output" = 0 ] || { sed -n '/tile_as.producer_warpgroup/,/} else {/p' "$BATS_TEST_TMPDIR/s.mlir"; false; }
}

@test "tile-sched: warp-specialize=0 keeps the single-role ring, a 4-warp ring gains no registers, a ring fed from memory stays single-role, an sm_120a ring with a wgmma-shaped layout too (remarks say why)" {
  run bash -c "tileiras '$MATMUL90' --gpu-name sm_90a --emit=lowered -o - |
    tile-opt --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands --tilepipe-pipeline-mma-loops \
      '--tilepipe-warp-specialize-rings=warp-specialize=0' -o '$BATS_TEST_TMPDIR/s.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"remark: TMA ring not warp-specialized: warp-specialize=false"* ]] || { echo "$output"; false; }
  ! grep -q 'producer_warpgroup\|setmaxnreg\|producer_warps' "$BATS_TEST_TMPDIR/s.mlir"
  grep -q 'tile_as.tma_ring_begin' "$BATS_TEST_TMPDIR/s.mlir"
  local input
  for input in warpspec_rule.mlir warpspec_rule4.mlir warpspec_rule120.mlir; do
    run tile-opt --tilepipe-warp-specialize-rings --verify-diagnostics "$INPUTS/$input" -o /dev/null
    [ "$status" -eq 0 ] || { echo "$input: $output"; false; }
  done
  run tile-opt '--tilepipe-warp-specialize-rings=producer-registers=20' "$INPUTS/warpspec_rule.mlir" -o /dev/null
  [ "$status" -ne 0 ] && [[ "$output" == *"producer-registers must be a multiple of 8 from 24 to 256, not 20"* ]] ||
    { echo "$output"; false; }
}

@test "verifier: setmaxnreg counts and producer_warpgroup thread counts" {
  run tile-opt --verify-diagnostics --split-input-file "$INPUTS/warpspec_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "PTX (sm_90a): 384 threads; the producer's setmaxnreg.dec and loads, the consumers' setmaxnreg.inc and wgmmas; named barrier 1 of 384 at the ring's ends, the epilogue's barriers count 256; ptxas: no spills" {
  run bash -c "tileiras '$MATMUL90' --gpu-name sm_90a --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$BATS_TEST_TMPDIR/k.ptx" "$INPUTS/matmul90_warpspec_ptx.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # No barrier of the whole CTA is left (the producer exits early).
  ! grep -qE 'bar(rier)?\.sync(\.aligned)?[[:space:]]+0;' "$BATS_TEST_TMPDIR/k.ptx"
  [ "$(grep -c 'setmaxnreg' "$BATS_TEST_TMPDIR/k.ptx")" -eq 2 ] || false
  run ptxas -arch sm_90a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
    { echo "$output"; false; }
}

@test "barriers know their roles: a global alloca's entry and exit meet all 384 threads at barrier 1, tile code's barriers (tile-lower's barrier0 too) count the 256 consumers; the MatMul with both matches numpy in tile-emu" {
  local t="$BATS_TEST_TMPDIR"
  tileiras "$MATMUL90" --gpu-name sm_90a --emit=scheduled -o "$t/s.mlir"
  # At the consumers' start: a global alloca (thread 0 mallocs at the
  # kernel's entry, frees at its exit) and a CTA barrier from tile-lower.
  sed '/^    } else {$/a\      %buf = tile_as.alloca {alignment = 16 : i64, global, num_elem = 16 : i64} : !tile_as.ptr<f32, 1>\n      nvvm.barrier0' \
    "$t/s.mlir" > "$t/alloca.mlir"
  [ "$(grep -c 'tile_as.alloca' "$t/alloca.mlir")" -eq 1 ]
  run tile-llvm "$t/alloca.mlir" -o "$t/k.ll"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run FileCheck --input-file "$t/k.ll" "$INPUTS/warpspec_barriers.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Counting the consumers at the entry and exit too, the producer's 128
  # threads never got past the first.
  run "$TILEPIPE_SOURCE_DIR/tests/corpus/run-case.py" --manifest "$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json" \
    --case samples-MatMul-matmul_kernel.f16 --llvm "$t/k.ll" --gpu-name sm_90a --bin "$TILEPIPE_BIN" \
    --work "$t/run" --shape A=128,40 --shape B=40,256 --shape C=128,256 --grid 1,1,1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
