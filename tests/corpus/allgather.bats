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

@test "all-gather matmul matches numpy in tile-emu (two list items, sm_80 and sm_90)" {
  for target in sm_80:13.3 sm_90:13.4; do
    sm=${target%:*} v=${target#*:}
    run "$RUN" --manifest "$MANIFEST" --case "$CASE" --bytecode "$BYTECODE/$CASE.$sm.$v.tileirbc" \
      --gpu-name "$sm" --bin "$TILEPIPE_BIN" --work "$TMP/$sm" \
      --shape 'inp_list[0]=128,128' --shape 'inp_list[1]=128,128' --shape w=128,128 \
      --shape out=256,128 --grid 2,1,1
    [ "$status" -eq 0 ] || { echo "$sm $v: $output"; false; }
  done
}

@test "all-gather matmul on sm_100 (tcgen05 kind::tf32, accumulator in tensor memory) matches numpy in tile-emu" {
  run "$RUN" --manifest "$MANIFEST" --case "$CASE" --bytecode "$BYTECODE/$CASE.sm_100.13.4.tileirbc" \
    --gpu-name sm_100 --bin "$TILEPIPE_BIN" --work "$TMP/sm_100" \
    --shape 'inp_list[0]=128,128' --shape 'inp_list[1]=128,128' --shape w=128,128 \
    --shape out=256,128 --grid 2,1,1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -q 'call void @llvm.nvvm.tcgen05.mma.shared(' "$TMP/sm_100/kernel.ll" || { echo "no tcgen05.mma"; false; }
}

# The 128x128 tf32 accumulator stays in tensor memory across the K loop and
# the staging addresses are recomputed in it: ptxas spilled 3 KB before, some
# 630 bytes of spill stores remain (issue #10: not yet zero).
@test "all-gather matmul assembles for sm_100a with spills below 1 KiB" {
  local stores
  tileiras "$BYTECODE/$CASE.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx"
  run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  stores=$(echo "$output" | sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p')
  [[ "$status" -eq 0 && -n "$stores" && "$stores" -le 1024 ]] || { echo "$output"; false; }
}
