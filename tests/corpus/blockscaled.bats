#!/usr/bin/env bats
# cuTile's block-scaled matmul sample: fp8 e4m3 operands with f8E8M0FNU
# scales (one per 32 k), plain 2-D scale tiles and the 32x4x4-swizzled 4-D
# ones (reshape + permute back to 2-D in the kernel), through mmaf_scaled.
# Its bytecode exists for sm_100 and sm_120 (13.3, 13.4); the numeric checks
# run the sm_100 bytecode in tile-emu as sm_90 (the decomposition into f32
# operands and mmaf) and as sm_100 (tcgen05.mma kind::mxf8f6f4.block_scale)
# and the sm_120 bytecode as sm_120 (block-scaled mma.sync), at the corpus
# shape (its numpy_prep fixes M, N, K, so no reduced shape).

load corpus-common

setup() {
  corpus_setup
  CASES="samples-BlockScaledMatMul-block_scaled_matmul_kernel-plain.fp8e4m3
samples-BlockScaledMatMul-block_scaled_matmul_kernel-swizzled.fp8e4m3"
}

# One bytecode version per target: each compile takes about a minute on a CI
# machine (scripts/corpus-status covers every version).
@test "block-scaled matmul compiles to cubins for sm_100 (13.4) and sm_120 (13.3)" {
  for case in $CASES; do
    for target in sm_100:13.4 sm_120:13.3; do
      sm=${target%:*} v=${target#*:}
      compiles_to_cubin "$case" "$sm" "$v"
    done
  done
}

@test "block-scaled matmul matches numpy in tile-emu (plain and swizzled scales)" {
  for case in $CASES; do
    run "$RUN" --manifest "$MANIFEST" --case "$case" --bytecode "$BYTECODE/$case.sm_100.13.4.tileirbc" \
      --gpu-name sm_90 --bin "$TILEPIPE_BIN" --work "$TMP/$case"
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}

@test "block-scaled matmul on sm_120 (block-scaled mma.sync) matches numpy in tile-emu" {
  for case in $CASES; do
    run check "$case" sm_120 13.3
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}

# Block-scaled mma.sync is a family feature of sm_120f (ptxas 13 assembles
# it there): the family target gets sm_120a's kernel, not the f32
# decomposition, which spilled 3.7-4.4 KB.
@test "block-scaled matmul on sm_120f: sm_120a's block-scaled mma.sync kernel, no spills, matches numpy in tile-emu" {
  local case
  for case in $CASES; do
    tileiras "$BYTECODE/$case.sm_120.13.3.tileirbc" --gpu-name sm_120a --emit=ptx -o "$TMP/a.ptx"
    tileiras "$BYTECODE/$case.sm_120.13.3.tileirbc" --gpu-name sm_120f --emit=ptx -o "$TMP/f.ptx"
    grep -q '^.target sm_120f' "$TMP/f.ptx" &&
      grep -q 'mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale' "$TMP/f.ptx" ||
      { echo "$case: no block-scaled mma.sync for sm_120f"; false; }
    diff <(grep -v '^.target' "$TMP/a.ptx") <(grep -v '^.target' "$TMP/f.ptx") ||
      { echo "$case: sm_120f PTX differs from sm_120a's"; false; }
    run ptxas -arch sm_120f -v -o "$TMP/k.cubin" "$TMP/f.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$case: $output"; false; }
    run check "$case" sm_120f 13.3
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}

# tcgen05 (block_scale kinds too) is a family feature of sm_100f/103f/110f:
# they get the `a` target's kernel, not mma.sync on the f32 decomposition,
# which spilled 4.5-5.4 KB.
@test "block-scaled matmul on sm_100f, 103f, 110f: the sm_XXa tcgen05 kernel, no spills; sm_100f matches numpy in tile-emu" {
  local case gpu
  for case in $CASES; do
    for gpu in sm_100f sm_103f sm_110f; do
      tileiras "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name ${gpu%f}a --emit=ptx -o "$TMP/a.ptx"
      tileiras "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name $gpu --emit=ptx -o "$TMP/f.ptx"
      grep -q "^.target $gpu" "$TMP/f.ptx" &&
        grep -q 'tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale' "$TMP/f.ptx" ||
        { echo "$case: no block-scaled tcgen05.mma for $gpu"; false; }
      diff <(grep -v '^.target\|^.version' "$TMP/a.ptx") <(grep -v '^.target\|^.version' "$TMP/f.ptx") ||
        { echo "$case: $gpu PTX differs from ${gpu%f}a's"; false; }
      run ptxas -arch $gpu -v -o "$TMP/k.cubin" "$TMP/f.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $gpu: $output"; false; }
    done
    run check "$case" sm_100f 13.4
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}

@test "block-scaled matmul on sm_100 (tcgen05.mma block_scale) matches numpy in tile-emu" {
  for case in $CASES; do
    run check "$case" sm_100 13.4
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
    grep -q 'llvm.nvvm.tcgen05.mma.shared.mxf8f6f4.block_scale' "$TMP/$case.sm_100.13.4/kernel.ll" ||
      { echo "$case: no block-scaled tcgen05.mma in the sm_100 kernel"; false; }
  done
}

# num_cta_in_cga = 2 (tilepipe-split-tile-blocks-across-cta-pair): each CTA
# of the pair computes 128 of the 256x256 tile's rows, in one 128x256 K
# loop that keeps its accumulator in tensor memory for the whole loop
# (tilepipe-keep-accumulators-in-tmem), read back once after it, with the
# staging addresses recomputed in the loop. (Without the pair, the 256x256
# accumulator and its scales exceed the 512 tensor-memory columns and run as
# two 128x256 loops: tests/lower-mma/split.bats.) B (and its scales), loaded N x K
# and permuted, keep the load's layout permuted (no exchange through shared
# memory), A and B are staged 16 bytes of K per st.shared.v4, and the
# read-back tile is stored to global memory 4 columns per st.global.v4.
# ptxas spilled about 6.5 KB, then 1.4-1.7 KB; now nothing.
@test "block-scaled matmul on sm_100a: the accumulator stays in tensor memory across the K loop; no spills" {
  local case
  for case in $CASES; do
    # B's permute result: the 256x128 load's layout ([1, 16], K fastest) permuted.
    tileiras "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=scheduled -o "$TMP/k.mlir"
    grep -q 'tile_as.permute %[0-9]* \[1, 0\] : tensor<256x128xf8E4M3FN, #tile_as.blocked<sizePerThread = \[1, 16\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[8, 1\], order = \[1, 0\]>> -> tensor<128x256xf8E4M3FN, #tile_as.blocked<sizePerThread = \[16, 1\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[1, 8\], order = \[0, 1\]>>' "$TMP/k.mlir" ||
      { echo "$case: B's permute does not keep the load's layout"; false; }
    [ "$(grep -c 'scf.for .*-> (tensor<128x256xf32' "$TMP/k.mlir")" -eq 1 ] &&
      [ "$(grep -c 'scf.for' "$TMP/k.mlir")" -eq 1 ] || { echo "$case: not one 128x256 K loop"; false; }
    tileiras "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx"
    grep -q 'tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale' "$TMP/k.ptx" &&
      grep -q '^\.reqnctapercluster 2, 1, 1' "$TMP/k.ptx" || { echo "$case: no block-scaled tcgen05.mma on a CTA pair"; false; }
    # 16 bytes per store (LLVM spells it v4.b32 or v2.b64).
    grep -q 'st.shared.v4.b32\|st.shared.v2.b64' "$TMP/k.ptx" ||
      { echo "$case: A and B not staged by vector stores"; false; }
    grep -q 'st.global.v4.b32' "$TMP/k.ptx" || { echo "$case: D not stored by vector stores"; false; }
    run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$case: $output"; false; }
  done
}
