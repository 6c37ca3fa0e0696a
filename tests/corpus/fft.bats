#!/usr/bin/env bats
# cuTile's FFT sample: batched f32 mmaf (DFT matrices), twiddle multiplies and
# the reshape/permute/extract/cat/broadcast chains between the three radix
# stages, at ranks 1 to 4. The 8-point case runs at its corpus shape; the
# 4096-point case (2x128x64 tiles, 16x16x16 factors) runs one block of its
# bytecode (a batch of 2 instead of 64) since the full grid is slow in the
# emulator.

load corpus-common

setup() {
  corpus_setup
  SMALL=samples-FFT-fft_kernel.f32
  LARGE=samples-FFT-fft_kernel-n4096.f32
}

@test "8-point FFT compiles to cubins for every target and bytecode version" {
  for sm in sm_80 sm_90 sm_100 sm_120; do
    for v in 13.1 13.2 13.3 13.4; do
      compiles_to_cubin "$SMALL" "$sm" "$v"
    done
  done
}

@test "8-point FFT matches numpy in tile-emu (sm_80, sm_90)" {
  for sm in sm_80 sm_90; do
    run check "$SMALL" "$sm" 13.4
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "4096-point FFT lowers for every target and bytecode version" {
  for sm in sm_80 sm_90 sm_100 sm_120; do
    for v in 13.1 13.2 13.3 13.4; do
      run tileiras "$BYTECODE/$LARGE.$sm.$v.tileirbc" --gpu-name "$sm" --emit=scheduled -o "$TMP/k.mlir"
      [ "$status" -eq 0 ] || { echo "$sm $v: $output"; false; }
    done
  done
}

@test "4096-point FFT matches numpy in tile-emu (one block of 2 transforms, sm_90)" {
  run check "$LARGE" sm_90 13.3 --shape x_packed_in=2,128,64 --shape y_packed_out=2,128,64 --grid 1,1,1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
