#!/usr/bin/env bats
# cuTile's all-gather matmul sample: its first argument is a list of arrays,
# passed as a device table of int64 words (base, shape..., stride... per
# item) that the kernel loads through a partition view, takes one word of
# (extract, reshape to 0-d) and turns into a pointer with int_to_ptr; then a
# tf32 matmul through zero-padded partition views. run-case.py builds the
# table (tile-emu --pointer-into). The emulator runs a reduced shape: one
# 128x128 tile per list item, so each of the two blocks reads its own item.

load corpus-common

setup() {
  corpus_setup
  CASE=samples-AllGatherMatmul-gather_matmul_kernel.f32
}

@test "all-gather matmul compiles to cubins for every target and bytecode version" {
  for sm in sm_80 sm_90 sm_100 sm_120; do
    for v in 13.1 13.2 13.3 13.4; do
      compiles_to_cubin "$CASE" "$sm" "$v"
    done
  done
}

@test "all-gather matmul matches numpy in tile-emu (two list items, sm_80, sm_90 (tf32 wgmma) and sm_100)" {
  for target in sm_80:13.3 sm_90:13.4 sm_100:13.4; do
    sm=${target%:*} v=${target#*:}
    run "$RUN" --manifest "$MANIFEST" --case "$CASE" --bytecode "$BYTECODE/$CASE.$sm.$v.tileirbc" \
      --gpu-name "$sm" --bin "$TILEPIPE_BIN" --work "$TMP/$sm" \
      --shape 'inp_list[0]=128,128' --shape 'inp_list[1]=128,128' --shape w=128,128 \
      --shape out=256,128 --grid 2,1,1
    [ "$status" -eq 0 ] || { echo "$sm $v: $output"; false; }
  done
  # On sm_100 its f32 A and B stream through the K loop's TMA ring (f32
  # maps) and are rounded to tf32 in the slots, which tcgen05.mma kind::tf32
  # reads.
  grep -q 'llvm.nvvm.tcgen05.mma.shared' "$TMP/sm_100/kernel.ll" &&
    grep -q 'llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d' "$TMP/sm_100/kernel.ll" ||
    { echo "sm_100: no TMA-fed tcgen05.mma from shared memory"; false; }
  # sm_90 takes sm_90a: the tf32 wgmma, B staged K-major (the table's
  # pointers are scalars, no gather).
  grep -q 'wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32' "$TMP/sm_90/kernel.ll" ||
    { echo "sm_90: no tf32 wgmma in the kernel"; false; }
}

# sm_90 (as sm_90a): the f32 loads and their conversions to tf32 fuse into
# TMA loads (f32 maps, boxes of 32 elements); the f32 is rounded to tf32 in
# shared memory (A in place, B while transposed to K-major) before the tf32
# wgmmas read it.
@test "all-gather matmul at sm_90: sm_90a, TMA operands, tf32 wgmma, no spills" {
  tileiras "$BYTECODE/$CASE.sm_90.13.4.tileirbc" --gpu-name sm_90 --emit=ptx -o "$TMP/k.ptx"
  grep -q '^\.target sm_90a$' "$TMP/k.ptx" &&
    grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global' "$TMP/k.ptx" &&
    grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" && ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" &&
    grep -q 'wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32' "$TMP/k.ptx" ||
    { echo "not the TMA-fed tf32 wgmma"; false; }
  run ptxas -arch sm_90a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

@test "all-gather matmul on sm_100 (tcgen05 kind::tf32, accumulator in tensor memory) matches numpy in tile-emu" {
  run "$RUN" --manifest "$MANIFEST" --case "$CASE" --bytecode "$BYTECODE/$CASE.sm_100.13.4.tileirbc" \
    --gpu-name sm_100 --bin "$TILEPIPE_BIN" --work "$TMP/sm_100" \
    --shape 'inp_list[0]=128,128' --shape 'inp_list[1]=128,128' --shape w=128,128 \
    --shape out=256,128 --grid 2,1,1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # (A, in the accumulator layout, may come from tensor memory: .tensor.)
  grep -qE 'call void @llvm.nvvm.tcgen05.mma.(shared|tensor)\(' "$TMP/sm_100/kernel.ll" || { echo "no tcgen05.mma"; false; }
}

# The 128x128 tf32 accumulator stays in tensor memory across the K loop; the
# f32 loads and their ftof fuse into the K loop's tcgen05 TMA ring (f32
# maps, the pointers loaded from the list: maps built at the ring's begin),
# each landed chunk rounded to tf32 in place: no operand passes through
# registers (staged from registers, ptxas spilled 1 KiB; by cp.async it
# took 194 registers, by the ring 94).
@test "all-gather matmul on sm_100a: TMA ring operands rounded in shared memory, tcgen05 kind::tf32, no spills" {
  tileiras "$BYTECODE/$CASE.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx"
  grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global' "$TMP/k.ptx" &&
    grep -q 'tcgen05.mma.cta_group::1.kind::tf32' "$TMP/k.ptx" && ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" ||
    { echo "not the TMA-fed tf32 tcgen05.mma"; false; }
  run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}
