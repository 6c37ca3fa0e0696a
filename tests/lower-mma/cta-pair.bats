#!/usr/bin/env bats
# tilepipe-split-tile-blocks-across-cta-pair (inputs/cta_pair.mlir): kernels
# asking for clusters of two CTAs (num_cta_in_cga = 2) run each tile block on
# a CTA pair, each CTA computing half of the tile (N halved for a 128x256
# tile, M for a 256-row one; a broadcast bias row splits down to its load);
# kernels whose program cannot be halved (a reduction along the split
# dimension, a whole tile both CTAs would store) keep one CTA per cluster and
# say why under -v. The halves are checked in
# tile-emu (its --grid counts clusters) on ragged shapes on sm_100 (tcgen05)
# and sm_90 (wgmma); cuTile's MatMul and BlockScaledMatMul by tests/corpus.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/cta_pair.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

@test "tile-sched: the pair's tiles halve, iotas along the split start at rank * half; the bail-outs stay whole" {
  # tile-lower records the hint per function for tile-sched.
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | grep -c 'attributes {tile_as.requested_ctas_per_cluster = 2 : i32}'"
  [ "$output" = 5 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | grep -c requested_ctas_per_cluster"
  [ "$output" = 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-opt --tilepipe-split-tile-blocks-across-cta-pair 2>/dev/null | FileCheck --check-prefix=SPLIT '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # It changes the launch contract, so tile-sched runs it at -O0 too.
  run bash -c "tile-lower --gpu-name sm_100 -O0 '$IN' | tile-sched -O0 2>/dev/null"
  [ "$status" -eq 0 ] && [ "$(grep -c 'tile_as.ctas_per_cluster = 2' <<< "$output")" -eq 3 ] ||
    { echo "$output" | grep func.func; false; }
}

@test "tile-sched -v: a remark per kernel, naming the op that stops a split" {
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched -v 2>&1 >/dev/null | FileCheck --check-prefix=REMARK '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: %clusterid and %cluster_ctarank in the pair's kernels, nvvm.cluster_dim 2,1,1; PTX .reqnctapercluster 2, 1, 1" {
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched 2>/dev/null | tile-llvm | FileCheck --check-prefix=LLVM '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  tileiras "$IN" --gpu-name sm_100 --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$(grep -c '^\.reqnctapercluster 2, 1, 1' "$BATS_TEST_TMPDIR/k.ptx")" -eq 3 ] &&
    [ "$(grep -c '^\.reqnctapercluster 1, 1, 1' "$BATS_TEST_TMPDIR/k.ptx")" -eq 2 ] ||
    { grep -n 'entry\|reqnctapercluster' "$BATS_TEST_TMPDIR/k.ptx"; false; }
  run ptxas -arch sm_100a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c ' 0 bytes spill stores, 0 bytes spill loads' <<< "$output")" -eq 5 ] || { echo "$output"; false; }
}

@test "tile-llvm: @pair_n's tcgen05.mma is M = 128, N = 128 per CTA (the instruction descriptor)" {
  tileiras "$IN" --gpu-name sm_100 --emit=llvm -o "$BATS_TEST_TMPDIR/k.ll"
  run /usr/bin/python3 - "$BATS_TEST_TMPDIR/k.ll" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
body = text[text.index("@pair_n("):text.index("@pair_m(")]
shapes = {(((d >> 24) & 31) << 4, ((d >> 17) & 63) << 3)
          for d in map(int, re.findall(r"tcgen05\.mma\.shared\(.*?, i32 (\d+), i1 ", body))}
print(shapes)
sys.exit(0 if shapes == {(128, 128)} else 1)
PY
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-opt: force-ctas=2 splits a kernel without the hint; nothing below sm_90" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN' | tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=2 2>&1 >/dev/null"
  [[ "$output" == *"remark: force-ctas=2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes columns [r*128, r*128+128) of the 128x256 result"* ]] ||
    { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=2 2>&1 >/dev/null"
  [[ "$output" == *"remark: force-ctas=2 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): clusters need sm_90 or newer"* ]] ||
    { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=4 2>&1 >/dev/null"
  [[ "$output" == *"remark: force-ctas=4 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): only clusters of 2 CTAs are formed"* ]] ||
    { echo "$output"; false; }
}

# mm ENTRY SM M N K GRID [EXTRA]: C = A x B (f16) through ENTRY in tile-emu;
# GRID counts clusters (tile blocks).
mm() {
  local entry=$1 sm=$2 m=$3 n=$4 k=$5 grid=$6 extra=${7:-0}
  /usr/bin/python3 "$CHECK" "$IN" --entry "$entry" --gpu-name "$sm" --bin "$TILEPIPE_BIN" --grid "$grid" \
    --array "a=np.random.default_rng(3).standard_normal(($m, $k)).astype(np.float16)" \
    --array "b=np.random.default_rng(4).standard_normal(($k, $n)).astype(np.float16)" \
    --array "c=np.full(($m, $n), 5, np.float32)" \
    --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:$k" \
    --expect "c = a.astype(np.float32) @ b.astype(np.float32) + $extra" --rtol 1e-3 --atol 1e-3
}

@test "tile-emu: the N-split pair computes A x B on a ragged 200x300x72 (sm_100, sm_90)" {
  for sm in sm_100 sm_90; do
    run mm pair_n $sm 200 300 72 2,2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: the M-split pair computes A x B on a ragged 300x100x72 (sm_100, sm_90)" {
  for sm in sm_100 sm_90; do
    run mm pair_m $sm 300 100 72 2,2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: the pair adds its half of the bias row (broadcast) on a ragged 200x300x72 (sm_100)" {
  run /usr/bin/python3 "$CHECK" "$IN" --entry pair_bias --gpu-name sm_100 --bin "$TILEPIPE_BIN" --grid 2,2 \
    --array "a=np.random.default_rng(3).standard_normal((200, 72)).astype(np.float16)" \
    --array "b=np.random.default_rng(4).standard_normal((72, 300)).astype(np.float16)" \
    --array "c=np.full((200, 300), 5, np.float32)" \
    --scalar "i32:200" --scalar "i32:300" --scalar "i32:72" \
    --array "bias=np.random.default_rng(5).standard_normal(300).astype(np.float32)" \
    --expect "c = a.astype(np.float32) @ b.astype(np.float32) + bias" --rtol 1e-3 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong half is caught" {
  run mm pair_n sm_100 200 300 72 2,2 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"c differs"* ]]
}

@test "tile-opt: force-ctas=2 leaves a kernel that reads memory it writes (AllGatherMatmul's gathered loads) on one CTA" {
  local f="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-AllGatherMatmul-gather_matmul_kernel.f32.sm_100.13.4.tileirbc"
  run bash -c "tileiras '$f' --gpu-name sm_100 --emit=lowered -o - | tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=2 2>&1 >/dev/null"
  [[ "$output" == *"remark: force-ctas=2 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): splitting M: 'tile_as.mmaf' M = 128 is under 256; splitting N: 'tile_as.load' reads memory the kernel may also write; the pair's CTAs do not wait for each other's stores"* ]] ||
    { echo "$output"; false; }
}
