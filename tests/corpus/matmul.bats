#!/usr/bin/env bats
# cuTile's matmul-family samples: MatMul (f16, bf16, f32 as tf32, and the
# non-multiple f32 shape), persistent matmul (f16, f32), BatchMatMul (f16,
# fp8 e4m3), AttentionFMHA (causal and not, f16 and bf16) and the fused MoE
# kernels (w1, w2). Each compiles for every target and bytecode version and
# matches numpy in tile-emu on sm_80 and sm_90 (fp8 has no sm_80 bytecode),
# the f16/bf16 ones on sm_100 (tcgen05) too. On sm_90 the f16/bf16 kernels,
# the gather-fed MoE included, take wgmma (sm_90 becomes sm_90a for them),
# so their mma.sync path runs on sm_80.
# All load through zero-padded partition views and run mmaf inside their
# K loops. MatMul, persistent matmul and FMHA run at their corpus shapes;
# the others at reduced shapes of the same bytecode (ragged edges included),
# since the emulator takes minutes at full size.

load corpus-common

setup() {
  corpus_setup
}

# compile_all CUBIN_VERSIONS CASE...: for every target a case has bytecode
# for, a cubin from each version in CUBIN_VERSIONS ("all" for every one) and
# the scheduled tile IR (everything but LLVM and ptxas) from the others.
compile_all() {
  local cubin=$1 case sm v f
  shift
  for case in "$@"; do
    for sm in sm_80 sm_90 sm_100 sm_120; do
      for v in 13.1 13.2 13.3 13.4; do
        f="$BYTECODE/$case.$sm.$v.tileirbc"
        [ -e "$f" ] || continue
        if [ "$cubin" = all ] || [ "$cubin" = "$v" ]; then
          tileiras "$f" --gpu-name "$sm" -o "$TMP/k.cubin" && [ -s "$TMP/k.cubin" ] ||
            { echo "$case $sm $v: no cubin"; return 1; }
          rm -f "$TMP/k.cubin"
        else
          tileiras "$f" --gpu-name "$sm" --emit=scheduled -o "$TMP/k.mlir" ||
            { echo "$case $sm $v: does not lower"; return 1; }
        fi
      done
    done
  done
}

@test "MatMul and persistent matmul compile to cubins for every target and bytecode version" {
  run compile_all all samples-MatMul-matmul_kernel.f16 samples-MatMul-matmul_kernel.bf16 \
    samples-MatMul-matmul_kernel.f32 samples-MatMul-matmul_kernel-nonmult.f32 \
    samples-MatMul-persistent_matmul_kernel.f16 samples-MatMul-persistent_matmul_kernel.f32
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "BatchMatMul and fused MoE: cubins for every target (13.4), every version lowers" {
  run compile_all 13.4 samples-BatchMatMul-batch_matmul_kernel.f16 \
    samples-BatchMatMul-batch_matmul_kernel.fp8e4m3 \
    samples-MoE-fused_moe_kernel-w1.bf16 samples-MoE-fused_moe_kernel-w2.bf16
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "AttentionFMHA: causal f16 cubins for every target (13.4), every case and version lowers" {
  run compile_all 13.4 samples-AttentionFMHA-fmha_kernel-causal.f16
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run compile_all none samples-AttentionFMHA-fmha_kernel-noncausal.f16 \
    samples-AttentionFMHA-fmha_kernel-causal.bf16 samples-AttentionFMHA-fmha_kernel-noncausal.bf16
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "MatMul f16, bf16 and f32 (tf32) match numpy in tile-emu at the corpus shape (sm_80, sm_90)" {
  for dtype in f16 bf16 f32; do
    for sm in sm_80 sm_90; do
      run check samples-MatMul-matmul_kernel.$dtype "$sm" 13.4
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
    done
  done
}

@test "sm_100 (tcgen05): MatMul f16/bf16, persistent matmul, BatchMatMul f16 and fp8, FMHA and MoE match numpy in tile-emu" {
  # The f16/bf16 mmafs take tcgen05.mma with the accumulator in tensor
  # memory; the reduced shapes are the sm_80/sm_90 tests' own.
  local case
  for case in samples-MatMul-matmul_kernel.f16 samples-MatMul-matmul_kernel.bf16 \
      samples-MatMul-persistent_matmul_kernel.f16 samples-AttentionFMHA-fmha_kernel-causal.f16 \
      samples-AttentionFMHA-fmha_kernel-noncausal.f16 samples-AttentionFMHA-fmha_kernel-causal.bf16 \
      samples-AttentionFMHA-fmha_kernel-noncausal.bf16; do
    run check $case sm_100 13.4
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
    grep -q "llvm.nvvm.tcgen05.mma" "$TMP/$case.sm_100.13.4/kernel.ll" || { echo "$case: no tcgen05.mma"; false; }
  done
  run check samples-BatchMatMul-batch_matmul_kernel.f16 sm_100 13.4 \
    --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
  [ "$status" -eq 0 ] || { echo "BatchMatMul: $output"; false; }
  run check samples-MoE-fused_moe_kernel-w1.bf16 sm_100 13.4 \
    --shape A=48,128 --shape B=64,256,128 --shape C=384,256 --grid 128,1,1
  [ "$status" -eq 0 ] || { echo "w1: $output"; false; }
  # fp8 e4m3 takes tcgen05.mma.kind::f8f6f4; ragged along M, N and K.
  run check samples-BatchMatMul-batch_matmul_kernel.fp8e4m3 sm_100 13.4 \
    --shape A=1,144,208 --shape B=1,208,272 --shape C=1,144,272 --grid 1,2,2
  [ "$status" -eq 0 ] || { echo "BatchMatMul fp8: $output"; false; }
  # (the intrinsic's kind operand: 2 is kind::f8f6f4)
  grep -qE 'call void @llvm.nvvm.tcgen05.mma.shared\(.*, i1 [%a-z0-9]+, i32 2, ' \
    "$TMP/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_100.13.4/kernel.ll" ||
    { echo "BatchMatMul fp8: no kind::f8f6f4 tcgen05.mma"; false; }
}

# The sm_100a TMA ring across K (tile_as.tcgen05_stage; pipeline.bats pins
# its IR and PTX): the corpus shape runs 12 K tiles, 48 chunks through 3
# slots, so every slot's parity flips many times; the ragged shape ends
# M, N and K mid-tile (K = 136: the last tile's loads are zero-filled).
# BatchMatMul fp8 streams 32-deep chunks (kind::f8f6f4) through the same
# ring; the sm_100 test above runs it ragged.
@test "sm_100 (tcgen05 TMA ring): MatMul f16 at the corpus shape and ragged along M, N and K, and BatchMatMul fp8 at the corpus shape, match numpy in tile-emu" {
  local case=samples-MatMul-matmul_kernel.f16
  run tileiras -v "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=scheduled -o "$TMP/k.mlir"
  [[ "$status" -eq 0 && "$output" == *"remark: K loop pipelined: a TMA ring of 3 stages of 16-deep K chunks, full and empty mbarriers per stage, tcgen05.mma"* ]] ||
    { echo "$output"; false; }
  run check $case sm_100 13.4
  [ "$status" -eq 0 ] || { echo "corpus shape: $output"; false; }
  run check $case sm_100 13.4 --shape A=200,136 --shape B=136,304 --shape C=200,304 --grid 4,1,1
  [ "$status" -eq 0 ] || { echo "ragged: $output"; false; }
  grep -q "llvm.nvvm.tcgen05.commit" "$TMP/$case.sm_100.13.4/kernel.ll" || { echo "no tcgen05.commit"; false; }
  case=samples-BatchMatMul-batch_matmul_kernel.fp8e4m3
  run tileiras -v "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=scheduled -o "$TMP/k.mlir"
  [[ "$status" -eq 0 && "$output" == *"remark: K loop pipelined: a TMA ring of 3 stages of 32-deep K chunks, full and empty mbarriers per stage, tcgen05.mma"* ]] ||
    { echo "$output"; false; }
  run check $case sm_100 13.4
  [ "$status" -eq 0 ] || { echo "fp8 corpus shape: $output"; false; }
}

# num_cta_in_cga = 2 (tilepipe-split-tile-blocks-across-cta-pair): each tile
# block runs on a cluster of two CTAs (.blocksareclusters: the launch's grid
# counts clusters), each computing 128 of the tile's 256 columns.
@test "MatMul's num_cta_in_cga = 2 (sm_100): each tile block on a CTA pair, 128 columns each" {
  local f="$BYTECODE/samples-MatMul-matmul_kernel.f16.sm_100.13.3.tileirbc"
  run tileiras -v --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx" "$f"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes columns [r*128, r*128+128) of the 128x256 result"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.reqnctapercluster 2, 1, 1' "$TMP/k.ptx" && grep -q '^\.blocksareclusters' "$TMP/k.ptx" &&
    grep -q '%cluster_ctarank' "$TMP/k.ptx" && grep -q '%clusterid.x' "$TMP/k.ptx" ||
    { echo "no cluster of two"; false; }
  run tile-pack "$TMP/k.ptx" --gpu-name sm_100a --print-kernels
  [[ "$output" == *"cluster=2,1,1 blocks-are-clusters=1"* ]] || { echo "$output"; false; }
  # The hint is keyed sm_100: nothing to say on sm_90.
  run tileiras -v --gpu-name sm_90 --emit=ptx -o "$TMP/k90.ptx" \
    "$BYTECODE/samples-MatMul-matmul_kernel.f16.sm_90.13.3.tileirbc"
  [ "$status" -eq 0 ] && [[ "$output" != *"num_cta_in_cga"* ]]
  grep -q '^\.reqnctapercluster 1, 1, 1' "$TMP/k90.ptx"
}

# The split runs at every -O level (it changes what a launch means): the
# hinted MatMul on CTA pairs at -O0 (no TMA ring, no tensor-memory
# accumulator across the loop) and -O1 matches numpy too, ragged, 3 x 3 tile blocks;
# 8 of them leave the last tile unwritten and fail.
@test "MatMul's num_cta_in_cga = 2 (sm_100) at -O0 and -O1: CTA pairs match numpy in tile-emu (ragged)" {
  local case=samples-MatMul-matmul_kernel.f16 O
  for O in 0 1; do
    tileiras "$BYTECODE/$case.sm_100.13.4.tileirbc" --gpu-name sm_100 -O$O --emit=llvm -o "$TMP/k$O.ll"
    grep -q '"nvvm.cluster_dim"="2,1,1"' "$TMP/k$O.ll" || { echo "-O$O: no cluster of two"; false; }
    run check $case sm_100 13.4 --llvm "$TMP/k$O.ll" --shape A=300,200 --shape B=200,520 --shape C=300,520 --grid 9,1,1
    [ "$status" -eq 0 ] || { echo "-O$O: $output"; false; }
  done
  run check $case sm_100 13.4 --llvm "$TMP/k0.ll" --shape A=300,200 --shape B=200,520 --shape C=300,520 --grid 8,1,1
  [ "$status" -ne 0 ]
}

# The f32 MatMul's 32x32 tile is too small to share: one CTA per cluster.
@test "MatMul f32's num_cta_in_cga = 2 (sm_100) is reported unused with -v: the 32x32 tile is too small" {
  run tileiras -v --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx" \
    "$BYTECODE/samples-MatMul-matmul_kernel.f32.sm_100.13.4.tileirbc"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"remark: sm_100: num_cta_in_cga = 2 not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): splitting M: 'tile_as.mmaf' M = 32 is under 256; splitting N: 'tile_as.mmaf' N = 32 is under 128"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.reqnctapercluster 1, 1, 1' "$TMP/k.ptx"
}

# check_pair CASE SM [run-case args]: the case compiled with every kernel on
# CTA pairs (tile-opt's force-ctas=2: these ask for no cluster), run in
# tile-emu against numpy.
check_pair() {
  local case=samples-$1 sm=$2
  shift 2
  tileiras "$BYTECODE/$case.$sm.13.4.tileirbc" --gpu-name $sm --emit=lowered -o "$TMP/l.mlir" || return 1
  tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=2 "$TMP/l.mlir" -o "$TMP/p.mlir" 2>"$TMP/remarks"
  grep -q "remark: force-ctas=2: each tile block runs on a CTA pair" "$TMP/remarks" || { cat "$TMP/remarks"; return 1; }
  tile-sched "$TMP/p.mlir" -o "$TMP/s.mlir" 2>/dev/null && tile-llvm "$TMP/s.mlir" -o "$TMP/k.ll" || return 1
  grep -q '"nvvm.cluster_dim"="2,1,1"' "$TMP/k.ll" || { echo "no cluster of two"; return 1; }
  check $case $sm 13.4 --llvm "$TMP/k.ll" "$@"
}

# Forced onto CTA pairs (a developer's check of the split, and of the launch
# semantics on a Hopper: docs/launch-and-packaging.md), the persistent
# matmul (its tile loop strides by %nclusterid, both CTAs of a cluster taking
# the same tiles), BatchMatMul (a batch dimension) and the fused MoE kernels
# (gathered A rows) run 128 or 64 columns per CTA, on sm_100 (tcgen05) and
# sm_90 (wgmma), ragged where the other tests run them ragged.
@test "persistent matmul, BatchMatMul f16/fp8 and MoE w1/w2 on CTA pairs (force-ctas=2) match numpy in tile-emu (sm_100, sm_90)" {
  local sm
  for sm in sm_100 sm_90; do
    run check_pair MatMul-persistent_matmul_kernel.f16 $sm
    [ "$status" -eq 0 ] || { echo "persistent $sm: $output"; false; }
    run check_pair BatchMatMul-batch_matmul_kernel.f16 $sm \
      --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
    [ "$status" -eq 0 ] || { echo "BatchMatMul $sm: $output"; false; }
    run check_pair BatchMatMul-batch_matmul_kernel.fp8e4m3 $sm \
      --shape A=1,144,208 --shape B=1,208,272 --shape C=1,144,272 --grid 1,2,2
    [ "$status" -eq 0 ] || { echo "BatchMatMul fp8 $sm: $output"; false; }
    run check_pair MoE-fused_moe_kernel-w1.bf16 $sm \
      --shape A=48,128 --shape B=64,256,128 --shape C=384,256 --grid 128,1,1
    [ "$status" -eq 0 ] || { echo "MoE w1 $sm: $output"; false; }
    run check_pair MoE-fused_moe_kernel-w2.bf16 $sm \
      --shape A=384,128 --shape B=64,128,128 --shape C=384,128 --grid 64,1,1
    [ "$status" -eq 0 ] || { echo "MoE w2 $sm: $output"; false; }
  done
}

@test "MatMul f32 on shapes that are no multiple of the tile (100x68 by 68x52; sm_80, sm_90)" {
  for sm in sm_80 sm_90; do
    run check samples-MatMul-matmul_kernel-nonmult.f32 "$sm" 13.4 \
      --shape A=100,68 --shape B=68,52 --shape C=100,52 --grid 8,1,1
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "persistent matmul f16 and f32 match numpy in tile-emu at the corpus shape (sm_80, sm_90)" {
  for dtype in f16 f32; do
    for sm in sm_80 sm_90; do
      run check samples-MatMul-persistent_matmul_kernel.$dtype "$sm" 13.4
      [ "$status" -eq 0 ] || { echo "$dtype $sm: $output"; false; }
    done
  done
}

@test "BatchMatMul f16 matches numpy in tile-emu (2 x 144x208 by 208x272; sm_80, sm_90)" {
  for sm in sm_80 sm_90; do
    run check samples-BatchMatMul-batch_matmul_kernel.f16 "$sm" 13.4 \
      --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

# sm_90a: the multiplies take the wgmma path (A and B by TMA into swizzled
# staging, FMHA's K and V by TMA with Q and P from registers,
# wgmma.mma_async; tests/lower-mma pins the PTX).
# BatchMatMul runs at the ragged reduced shape above.
@test "sm_90a (wgmma): MatMul f16/bf16, persistent matmul f16, BatchMatMul f16 and AttentionFMHA match numpy in tile-emu" {
  local case
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
    AttentionFMHA-fmha_kernel-noncausal.f16 AttentionFMHA-fmha_kernel-causal.bf16; do
    run check samples-$case sm_90a 13.4
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
  run check samples-BatchMatMul-batch_matmul_kernel.f16 sm_90a 13.4 \
    --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
  [ "$status" -eq 0 ] || { echo "BatchMatMul: $output"; false; }
}

# The K loop's TMA ring (3 stages of 16-deep chunks, 4 per 64-deep K tile)
# at K that is no multiple of the chunk or the tile (200: 12.5 chunks, the
# last half zero-filled by TMA), shorter than the prologue (8, 40: the ring
# starts chunks past the loop's end, which load nothing) and long (1000),
# with ragged M and N; persistent matmul runs its four tiles on 1, 2 and 3
# CTAs through one ring carried across its tile loop.
@test "sm_90a: MatMul f16/bf16 and persistent matmul through the TMA ring at ragged K match numpy in tile-emu" {
  local case k
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16; do
    run check samples-$case sm_90a 13.4 --shape A=144,200 --shape B=200,272 --shape C=144,272 --grid 4,1,1
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
  for k in 8 40 1000; do
    run check samples-MatMul-matmul_kernel.f16 sm_90a 13.4 --shape A=128,$k --shape B=$k,256 --shape C=128,256 --grid 1,1,1
    [ "$status" -eq 0 ] || { echo "K=$k: $output"; false; }
  done
  # Four tiles: all four in one CTA, two per CTA, and 2 + 1 + 1 (a CTA whose
  # tile loop runs once beside one that runs it twice).
  local grid
  for grid in 1 2 3; do
    run check samples-MatMul-persistent_matmul_kernel.f16 sm_90a 13.4 --shape A=144,200 --shape B=200,272 \
      --shape C=144,272 --grid $grid,1,1
    [ "$status" -eq 0 ] || { echo "persistent, grid $grid: $output"; false; }
  done
}

# The persistent matmul's TMA ring is set up once per CTA and carried across
# its tile loop (tilepipe-pipeline-mma-loops): begin before the loop, which
# counts the chunks of the tiles before (an i32 iter_arg from 0), a resume
# per tile (the epilogue is done with the scratch), a carried end (the
# wgmmas drained) and close after the loop. By default the ring stays
# single-role (tilepipe-warp-specialize-rings: a ring in a tile loop ran
# 1.9x slower warp-specialized on an H200); with specialize-tile-loops the
# two roles meet at barrier 1 three times (begin/enter, resume,
# close/leave), and the mbarriers are initialized before the tile loop's
# first box and invalidated after its last.
@test "sm_90a: the persistent matmul sets its TMA ring up once per CTA and carries it across its tiles, single-role unless specialize-tile-loops" {
  local bc="$BYTECODE/samples-MatMul-persistent_matmul_kernel.f16.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$bc' --gpu-name sm_90a --emit=scheduled -o '$TMP/p.mlir' -v"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"remark: TMA ring not warp-specialized: its ring runs inside a loop around the K loop (persistent tiles)"* ]] ||
    { echo "$output"; false; }
  cat > "$TMP/p.check" <<'CHECK'
CHECK-NOT: tile_as.producer_warpgroup
CHECK: tile_as.tma_ring_begin
CHECK: scf.for {{.*}} iter_args(%[[BASE:[a-z0-9_]+]] = %c0_i32{{.*}}) -> (i32)
CHECK: tile_as.tma_ring_resume
CHECK: tile_as.tma_stage_load
CHECK: tile_as.wgmma_stage
CHECK: tile_as.tma_ring_end {{.*}}carried
CHECK: tile_as.store_tma
CHECK: scf.yield
CHECK: tile_as.tma_ring_close
CHECK-NOT: tile_as.tma_ring_begin
CHECK-NOT: warp_specialized
CHECK
  run FileCheck --input-file "$TMP/p.mlir" "$TMP/p.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  ! grep -q 'warp_specialized\|producer_warpgroup' "$TMP/p.mlir"
  tileiras "$bc" --gpu-name sm_90a --emit=ptx -o "$TMP/s.ptx"
  grep -q '.reqntid 256, 1, 1' "$TMP/s.ptx" && ! grep -q 'setmaxnreg' "$TMP/s.ptx" || false
  [ "$(grep -c 'mbarrier.init.shared.b64' "$TMP/s.ptx")" -eq 6 ] || false
  run ptxas -arch sm_90a -v -o "$TMP/s.cubin" "$TMP/s.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }

  # Warp-specialized on request, from the same scheduled IR.
  run tile-opt "$TMP/p.mlir" --tilepipe-warp-specialize-rings=specialize-tile-loops=1 -o "$TMP/w.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  cat > "$TMP/w.check" <<'CHECK'
CHECK: tile_as.producer_warpgroup
CHECK: tile_as.tma_ring_begin {{.*}}warp_specialized
CHECK: scf.for {{.*}} iter_args(%[[BASE:[a-z0-9_]+]] = %c0_i32{{.*}}) -> (i32)
CHECK: tile_as.tma_ring_resume {{.*}}warp_specialized
CHECK: tile_as.tma_stage_load
CHECK: scf.yield
CHECK: tile_as.tma_ring_leave
CHECK: } else {
CHECK: tile_as.tma_ring_enter
CHECK: scf.for {{.*}} iter_args({{.*}}%c0_i32
CHECK: tile_as.tma_ring_resume {{.*}}warp_specialized
CHECK: tile_as.wgmma_stage
CHECK: tile_as.tma_ring_end {{.*}}carried{{.*}}warp_specialized
CHECK: tile_as.store_tma
CHECK: scf.yield
CHECK: tile_as.tma_ring_close {{.*}}warp_specialized
CHECK-NOT: tile_as.tma_ring_begin
CHECK
  run FileCheck --input-file "$TMP/w.mlir" "$TMP/w.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'tile_as.tma_ring_begin' "$TMP/w.mlir")" -eq 1 ] || false
  tile-llvm --gpu-name sm_90a "$TMP/w.mlir" -o "$TMP/w.ll"
  tile-ptx --gpu-name sm_90a "$TMP/w.ll" -o "$TMP/p.ptx"
  [ "$(grep -c 'bar.sync 	1, 384;' "$TMP/p.ptx")" -eq 6 ] || { grep -n 'bar.sync' "$TMP/p.ptx"; false; }
  # The producer: mbarriers initialized, begin's barrier, then in the tile
  # loop resume's barrier before the boxes, no init; the consumers: enter,
  # resume, the wgmmas; at the end leave's barrier and the invalidation.
  cat > "$TMP/p.check" <<'CHECK'
CHECK: setmaxnreg.dec.sync.aligned.u32 56;
CHECK-COUNT-6: mbarrier.init.shared.b64
CHECK: bar.sync 1, 384;
CHECK: bar.sync 1, 384;
CHECK: cp.async.bulk.tensor.2d.shared::cluster.global
CHECK-NOT: mbarrier.init
CHECK: setmaxnreg.inc.sync.aligned.u32 224;
CHECK-NEXT: bar.sync 1, 384;
CHECK: bar.sync 1, 384;
CHECK: wgmma.mma_async
CHECK: bar.sync 1, 384;
CHECK-COUNT-6: mbarrier.inval.shared.b64
CHECK-NOT: mbarrier
CHECK
  run FileCheck --input-file "$TMP/p.ptx" "$TMP/p.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run ptxas -arch sm_90a -v -o "$TMP/p.cubin" "$TMP/p.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# The persistent matmul's epilogue store is followed by the next tile's loads
# (await_writes): thread 0 waits for the bulk stores' reads of the scratch
# after the first chunk and for the writes of both chunks once, after the
# last, not for a global write round trip per chunk. The plain MatMul, after
# whose store nothing reads, waits for the reads only.
@test "sm_90a: the persistent matmul's TMA-store epilogue waits for its writes once, after the last chunk" {
  local v=13.4
  tileiras "$BYTECODE/samples-MatMul-persistent_matmul_kernel.f16.sm_90.$v.tileirbc" --gpu-name sm_90a \
    --emit=ptx -o "$TMP/p.ptx"
  cat > "$TMP/p.check" <<'CHECK'
CHECK: cp.async.bulk.commit_group;
CHECK-NEXT: cp.async.bulk.wait_group.read 0;
CHECK: bar.sync 0{{(, 256)?}};
CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
CHECK: cp.async.bulk.commit_group;
CHECK-NEXT: cp.async.bulk.wait_group 0;
CHECK-NOT: cp.async.bulk.wait_group
CHECK: ret;
CHECK
  run FileCheck --input-file "$TMP/p.ptx" "$TMP/p.check"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'cp.async.bulk.wait_group' "$TMP/p.ptx")" -eq 2 ] || { grep wait_group "$TMP/p.ptx"; false; }
  tileiras "$BYTECODE/samples-MatMul-matmul_kernel.f16.sm_90.$v.tileirbc" --gpu-name sm_90a --emit=ptx -o "$TMP/m.ptx"
  [ "$(grep -cE 'cp.async.bulk.wait_group.read\s+0;' "$TMP/m.ptx")" -eq 2 ] &&
    ! grep -qE 'cp.async.bulk.wait_group\s+0;' "$TMP/m.ptx" || { grep wait_group "$TMP/m.ptx"; false; }
}

# The corpus FMHA has 128 keys: one K-loop iteration. With 384 the K and V
# multiplies run three times, each re-arming its mbarrier and loading the
# next 128 keys by TMA.
@test "sm_90a: FMHA (causal and not) with K and V by TMA over three K-loop iterations matches numpy in tile-emu" {
  local case
  for case in AttentionFMHA-fmha_kernel-noncausal.f16 AttentionFMHA-fmha_kernel-causal.bf16; do
    run check samples-$case sm_90a 13.4 --shape Q=1,2,384,64 --shape K=1,2,384,64 \
      --shape V=1,2,384,64 --shape Out=1,2,384,64 --grid 3,2,1
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
}

# FMHA's Q and P come to their multiplies in the accumulator layout, so on
# sm_90a they are wgmma's A fragments as they are: A from registers (four
# .b32 of element pairs), only K and V staged for descriptors, both by TMA
# from their 4-D views: V N-major (imm-trans-b 1), K^T (a dim_map'd view)
# K-major, as K's rows (imm-trans-b 0; noncausal: 4 k steps of Q @ K^T, 8
# of P @ V).
@test "sm_90a: FMHA's wgmmas take A from registers, K and V by TMA; the corpus matmuls load by TMA; all store by stmatrix and TMA and assemble without spills" {
  local fmha="$BYTECODE/samples-AttentionFMHA-fmha_kernel-noncausal.f16.sm_90.13.4.tileirbc"
  tileiras "$fmha" --gpu-name sm_90a --emit=ptx -o "$TMP/f.ptx"
  local regA='wgmma.mma_async.sync.aligned.m64n[0-9]+k16.f32.f16.f16 \{[^}]*\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}, %rd[0-9]+, 1, 1, 1'
  [ "$(grep -cE "$regA, 0;" "$TMP/f.ptx")" -eq 4 ] && [ "$(grep -cE "$regA, 1;" "$TMP/f.ptx")" -eq 8 ] ||
    { grep wgmma.mma_async "$TMP/f.ptx" | head; false; }
  local case
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
    BatchMatMul-batch_matmul_kernel.f16 AttentionFMHA-fmha_kernel-causal.f16 \
    AttentionFMHA-fmha_kernel-noncausal.bf16; do
    tileiras "$BYTECODE/samples-$case.sm_90.13.4.tileirbc" --gpu-name sm_90a --emit=ptx -o "$TMP/k.ptx"
    # Tensor maps built once, before the K loop; TMA boxes (FMHA: rank-4
    # maps of K and V), mbarrier waits, no cp.async.
    grep -qE 'cp.async.bulk.tensor.[234]d.shared::cluster.global' "$TMP/k.ptx" &&
      grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" && grep -q 'wgmma.mma_async' "$TMP/k.ptx" &&
      ! grep -q 'cp.async.cg' "$TMP/k.ptx" || { echo "$case: no TMA-fed wgmma"; false; }
    if [[ "$case" == AttentionFMHA-* ]]; then
      [ "$(grep -c 'cp.async.bulk.tensor.4d.shared::cluster.global' "$TMP/k.ptx")" -ge 2 ] ||
        { echo "$case: K and V not both by TMA"; false; }
    fi
    # The epilogue: D (FMHA: Out, a rank-4 view) through swizzled shared
    # memory by TMA stores (tilepipe-store-tiles-by-tma), no st.global left.
    grep -qE 'cp.async.bulk.tensor.[234]d.global.shared::cta.tile.bulk_group' "$TMP/k.ptx" &&
      grep -q 'cp.async.bulk.wait_group' "$TMP/k.ptx" && ! grep -q 'st.global' "$TMP/k.ptx" ||
      { echo "$case: D not stored by TMA"; false; }
    # D reaches shared memory by stmatrix.x4 from the accumulator layout
    # (FMHA's Out too: its truncf to f16 applies before the reshape to the
    # rank-4 view, so the f32 tile keeps its layout instead of moving
    # through shared memory); the matmuls have no st.shared left.
    grep -q 'stmatrix.sync.aligned.m8n8.x4.shared.b16' "$TMP/k.ptx" || { echo "$case: no stmatrix"; false; }
    if [[ "$case" == *MatMul-* ]]; then
      ! grep -q 'st.shared' "$TMP/k.ptx" || { echo "$case: st.shared left"; false; }
    fi
    run ptxas -arch sm_90a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$case: $output"; false; }
  done
}

# sm_120a/121a/120f (consumer Blackwell, arch- or family-specific: the kernel
# can build tensor maps with tensormap.replace, which plain sm_120 PTX cannot): the f16/bf16
# K loops stream through the TMA ring of sm_90a (3 stages of 16-deep
# chunks, full and empty mbarriers), read by ldmatrix from the swizzled
# slots and multiplied by mma.sync. No cp.async is left in the K loop.
@test "sm_120a/121a/120f: the corpus f16/bf16 matmuls (BatchMatMul too) load by TMA into a ring read by ldmatrix + mma.sync and assemble without spills" {
  local case sm
  for sm in sm_120a sm_121a sm_120f; do
    for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
      BatchMatMul-batch_matmul_kernel.f16; do
      run tileiras "$BYTECODE/samples-$case.sm_120.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx" -v
      [ "$status" -eq 0 ] && [[ "$output" == *"a TMA ring of 3 stages of 16-deep K chunks, full and empty mbarriers per stage, ldmatrix + mma.sync from the swizzled slots"* ]] ||
        { echo "$case $sm: $output"; false; }
      grep -q "^.target $sm" "$TMP/k.ptx" && grep -q 'tensormap.replace' "$TMP/k.ptx" &&
        grep -qE 'cp.async.bulk.tensor.[23]d.shared::cta.global' "$TMP/k.ptx" &&
        grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" && grep -q 'mma.sync.aligned.m16n8k16' "$TMP/k.ptx" &&
        grep -q '^\s*ldmatrix.sync.aligned.m8n8.x4.shared.b16' "$TMP/k.ptx" &&
        grep -q '^\s*ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16' "$TMP/k.ptx" &&
        ! grep -q 'cp.async.cg' "$TMP/k.ptx" || { echo "$case $sm: no TMA ring feeding mma.sync"; false; }
      run ptxas -arch $sm -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $sm: $output"; false; }
    done
  done
  # Plain sm_120 keeps the cp.async ring (its PTX cannot build tensor maps).
  tileiras "$BYTECODE/samples-MatMul-matmul_kernel.f16.sm_120.13.4.tileirbc" --gpu-name sm_120 --emit=ptx -o "$TMP/k.ptx"
  grep -q 'cp.async.cg' "$TMP/k.ptx" && ! grep -q 'cp.async.bulk.tensor' "$TMP/k.ptx"
}

# The same ring in tile-emu: TMA's 32-byte (A: 16 K of f16) and 128-byte (B)
# swizzles undone by the ldmatrix addresses, at ragged M, N and K (200: the
# last chunk half zero-filled), K shorter than the prologue (8, 40) and
# long (1000); persistent matmul carries one ring across its four tiles on
# 1, 2 and 3 CTAs; BatchMatMul (a
# batch of one per CTA, its 128-deep K tile 8 chunks) is ragged too.
@test "sm_120a: MatMul f16/bf16, persistent and batched matmul through the TMA ring and mma.sync match numpy in tile-emu" {
  local case k
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16; do
    run check samples-$case sm_120a 13.4 --shape A=144,200 --shape B=200,272 --shape C=144,272 --grid 4,1,1
    [ "$status" -eq 0 ] || { echo "$case: $output"; false; }
  done
  for k in 8 40 1000; do
    run check samples-MatMul-matmul_kernel.f16 sm_120a 13.4 --shape A=128,$k --shape B=$k,256 --shape C=128,256 --grid 1,1,1
    [ "$status" -eq 0 ] || { echo "K=$k: $output"; false; }
  done
  local grid
  for grid in 1 2 3; do
    run check samples-MatMul-persistent_matmul_kernel.f16 sm_120a 13.4 --shape A=144,200 --shape B=200,272 \
      --shape C=144,272 --grid $grid,1,1
    [ "$status" -eq 0 ] || { echo "persistent, grid $grid: $output"; false; }
  done
  run check samples-BatchMatMul-batch_matmul_kernel.f16 sm_120a 13.4 \
    --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
  [ "$status" -eq 0 ] || { echo "BatchMatMul: $output"; false; }
}

# The same ring for the tf32 and fp8 K loops on sm_120a/121a/120f: f32
# tiles by 4-byte TMA maps (rounded to tf32 in the fragments, B read by
# ld.shared.b32), fp8 by 1-byte maps (B fragments by ldmatrix.x4.trans and
# prmt); the chunks are 32 bytes of K or more (BatchMatMul fp8: 32-deep;
# MatMul f32: the whole 32-deep K tile; AllGatherMatmul: 8-deep, its
# 128x128 tiles leaving room for no more).
@test "sm_120a/121a/120f: the tf32 matmuls (non-multiple, persistent, all-gather too) and fp8 BatchMatMul load by TMA into the ring and assemble without spills" {
  local entry case chunk kind sm
  for sm in sm_120a sm_121a sm_120f; do
    for entry in MatMul-matmul_kernel.f32:32:tf32 MatMul-matmul_kernel-nonmult.f32:32:tf32 \
      MatMul-persistent_matmul_kernel.f32:32:tf32 AllGatherMatmul-gather_matmul_kernel.f32:8:tf32 \
      BatchMatMul-batch_matmul_kernel.fp8e4m3:32:e4m3; do
      IFS=: read -r case chunk kind <<< "$entry"
      run tileiras "$BYTECODE/samples-$case.sm_120.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx" -v
      [ "$status" -eq 0 ] && [[ "$output" == *"a TMA ring of 3 stages of $chunk-deep K chunks, full and empty mbarriers per stage, ldmatrix + mma.sync from the swizzled slots"* ]] ||
        { echo "$case $sm: $output"; false; }
      grep -q "^.target $sm" "$TMP/k.ptx" && grep -q 'tensormap.replace' "$TMP/k.ptx" &&
        grep -qE 'cp.async.bulk.tensor.[23]d.shared::cta.global' "$TMP/k.ptx" &&
        grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" &&
        grep -q "mma.sync.aligned.m16n8k[0-9]*.row.col.f32.$kind.$kind.f32" "$TMP/k.ptx" &&
        grep -q '^\s*ldmatrix.sync.aligned.m8n8.x4.shared.b16' "$TMP/k.ptx" &&
        ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" || { echo "$case $sm: no TMA ring feeding $kind mma.sync"; false; }
      if [ $kind = tf32 ]; then
        grep -q '^\s*ld.shared.b32' "$TMP/k.ptx" || { echo "$case $sm: no word reads of B"; false; }
      else
        grep -q '^\s*ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16' "$TMP/k.ptx" && grep -q '^\s*prmt.b32' "$TMP/k.ptx" ||
          { echo "$case $sm: no ldmatrix.trans + prmt B"; false; }
      fi
      run ptxas -arch $sm -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $sm: $output"; false; }
    done
  done
  # Plain sm_120 keeps cp.async for them.
  tileiras "$BYTECODE/samples-MatMul-matmul_kernel.f32.sm_120.13.4.tileirbc" --gpu-name sm_120 --emit=ptx -o "$TMP/k.ptx"
  grep -q 'cp.async.c[ag]' "$TMP/k.ptx" && ! grep -q 'cp.async.bulk.tensor' "$TMP/k.ptx"
}

# In tile-emu: the f32 MatMul at ragged N and K (the kernel assumes M and K
# multiples of 16: K half a 32-deep K tile and chunk, one and a half, and
# over several phases of the 3 slots), the
# non-multiple one (its 4-byte runs read by TMA, zero-filled past the
# extents), persistent, BatchMatMul fp8 ragged, the all-gather matmul's two
# list items.
@test "sm_120a: MatMul f32 (ragged, non-multiple, persistent), BatchMatMul fp8 and the all-gather matmul through the TMA ring match numpy in tile-emu" {
  local k
  for k in 16 48 208; do
    run check samples-MatMul-matmul_kernel.f32 sm_120a 13.4 --shape A=64,$k --shape B=$k,96 --shape C=64,96 --grid 6,1,1
    [ "$status" -eq 0 ] || { echo "K=$k: $output"; false; }
  done
  run check samples-MatMul-matmul_kernel-nonmult.f32 sm_120a 13.4 \
    --shape A=100,68 --shape B=68,52 --shape C=100,52 --grid 8,1,1
  [ "$status" -eq 0 ] || { echo "non-multiple: $output"; false; }
  run check samples-MatMul-persistent_matmul_kernel.f32 sm_120a 13.4 --shape A=80,112 --shape B=112,48 \
    --shape C=80,48 --grid 3,1,1
  [ "$status" -eq 0 ] || { echo "persistent: $output"; false; }
  run check samples-BatchMatMul-batch_matmul_kernel.fp8e4m3 sm_120a 13.4 \
    --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
  [ "$status" -eq 0 ] || { echo "BatchMatMul fp8: $output"; false; }
  run check samples-AllGatherMatmul-gather_matmul_kernel.f32 sm_120a 13.4 \
    --shape 'inp_list[0]=128,128' --shape 'inp_list[1]=128,128' --shape w=128,128 \
    --shape out=256,128 --grid 2,1,1
  [ "$status" -eq 0 ] || { echo "all-gather: $output"; false; }
}

@test "mma.sync path (sm_80, sm_89, sm_120): the f16 matmuls and FMHA have mma.sync, ldmatrix and cp.async and assemble without spills" {
  local case sm family
  for sm in sm_80 sm_89 sm_120; do
    family=$sm
    [ "$sm" = sm_89 ] && family=sm_80
    for case in MatMul-matmul_kernel.f16 MatMul-persistent_matmul_kernel.f16 \
      BatchMatMul-batch_matmul_kernel.f16 AttentionFMHA-fmha_kernel-noncausal.f16 \
      AttentionFMHA-fmha_kernel-causal.f16; do
      tileiras "$BYTECODE/samples-$case.$family.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx"
      grep -q 'mma.sync.aligned.m16n8k16' "$TMP/k.ptx" && grep -q '^\s*ldmatrix' "$TMP/k.ptx" &&
        grep -q '^\s*cp.async.cg' "$TMP/k.ptx" || { echo "$case $sm: no mma.sync, ldmatrix or cp.async"; false; }
      run ptxas -arch $sm -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $sm: $output"; false; }
    done
  done
}

# FMHA's Out store shares its index arithmetic with Q's load (both 128 x 64
# tiles at one block's coordinates, merged by tile-lower's CSE); tile-sched
# gives the store its own copy, so Out leaves in the accumulator's fragment
# layout: after the last mma.sync the epilogue has 16 st.global.b32 per
# thread and no st.shared of Out (the one left broadcasts the row sums;
# the exchange of the whole tile took 31 more and three barriers). On
# sm_120a (tensor maps) the fragments go by 4 stmatrix.x4 per thread to
# one TMA store of the rank-4 view instead.
@test "mma.sync path (sm_80, sm_89, sm_120, sm_120a): FMHA stores Out from the accumulator fragments without a shared-memory exchange" {
  local c sm family want
  for sm in sm_80 sm_89 sm_120 sm_120a; do
    family=${sm%a}
    [ "$sm" = sm_89 ] && family=sm_80
    want="1 16 0 0 0"
    [ "$sm" = sm_120a ] && want="1 0 0 4 1"
    for c in noncausal.f16 causal.bf16; do
      tileiras "$BYTECODE/samples-AttentionFMHA-fmha_kernel-$c.$family.13.4.tileirbc" --gpu-name $sm \
        --emit=ptx -o "$TMP/k.ptx"
      run awk '/mma.sync/ { shared = 0; b32 = 0; other = 0; matrices = 0; tma = 0 } /st\.shared/ { shared++ }
               /st\.global\.b32/ { b32++ } /st\.global\.v/ { other++ }
               /stmatrix.sync.aligned.m8n8.x4/ { matrices++ } /cp.async.bulk.tensor.4d.global.shared::cta/ { tma++ }
               END { printf "%d %d %d %d %d", shared, b32, other, matrices, tma }' "$TMP/k.ptx"
      [ "$output" = "$want" ] ||
        { echo "$c $sm: after the last mma.sync st.shared, st.global.b32, st.global.v*, stmatrix.x4, TMA stores: $output"; false; }
    done
  done
}

# sm_120a/121a/120f: the 16-bit epilogues of the corpus matmuls in the
# mma.sync fragment layout leave by stmatrix into swizzled shared memory
# and TMA stores (tilepipe-store-tiles-by-tma, -v says so), no st.global;
# plain sm_120, which cannot build tensor maps, keeps st.global. (Their
# numerics: the sm_120a tile-emu test above, ragged M and N included.)
@test "sm_120a/121a/120f: the corpus f16/bf16 matmul epilogues store by stmatrix and TMA; plain sm_120 by st.global" {
  local case sm
  for sm in sm_120a sm_121a sm_120f; do
    for case in MatMul-matmul_kernel.f16 MatMul-persistent_matmul_kernel.f16 BatchMatMul-batch_matmul_kernel.f16; do
      run tileiras "$BYTECODE/samples-$case.sm_120.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx" -v
      [ "$status" -eq 0 ] && [[ "$output" == *"remark: $sm: this store goes through shared memory by TMA"*"stmatrix.x4"* ]] ||
        { echo "$case $sm: $output"; false; }
      grep -qE 'cp.async.bulk.tensor.[23]d.global.shared::cta.tile.bulk_group' "$TMP/k.ptx" &&
        grep -q 'stmatrix.sync.aligned.m8n8.x4.shared.b16' "$TMP/k.ptx" && ! grep -q 'st.global' "$TMP/k.ptx" ||
        { echo "$case $sm: D not stored by stmatrix and TMA"; false; }
    done
  done
  tileiras "$BYTECODE/samples-MatMul-matmul_kernel.f16.sm_120.13.4.tileirbc" --gpu-name sm_120 --emit=ptx -o "$TMP/k.ptx"
  grep -q 'st.global' "$TMP/k.ptx" && ! grep -q 'stmatrix' "$TMP/k.ptx"
}

# cuTile's tf32 matmuls load f32 and round it with ftof: the f32 tiles reach
# the staging by cp.async (.ca where 8-byte runs are proven, .cg for 16) and
# the fragments are rounded after ldmatrix, so neither operand occupies
# registers next to the accumulator (AllGatherMatmul's 128x128 tiles spilled
# 932 bytes when both did). The non-multiple MatMul proves no runs (its
# extents have no divisor): it copies single 4-byte elements.
@test "mma.sync path (sm_80, sm_89, sm_120): the f32 (tf32) matmuls and AllGatherMatmul have mma.sync, ldmatrix and cp.async and assemble without spills" {
  local case sm family
  for sm in sm_80 sm_89 sm_120; do
    family=$sm
    [ "$sm" = sm_89 ] && family=sm_80
    for case in MatMul-matmul_kernel.f32 MatMul-matmul_kernel-nonmult.f32 \
      MatMul-persistent_matmul_kernel.f32 AllGatherMatmul-gather_matmul_kernel.f32; do
      tileiras "$BYTECODE/samples-$case.$family.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx"
      grep -q 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32' "$TMP/k.ptx" && grep -q '^\s*ldmatrix' "$TMP/k.ptx" &&
        grep -qE '^\s*cp.async.c[ag]' "$TMP/k.ptx" ||
        { echo "$case $sm: no mma.sync, ldmatrix or cp.async"; false; }
      run ptxas -arch $sm -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $sm: $output"; false; }
    done
  done
}

# fp8 BatchMatMul (128x128 by 128x256 e4m3 into f32, 8 warps) on the fp8
# mma.sync path: A and B reach shared memory by cp.async.cg (B as global
# memory holds it, [K][N]), the paired-column accumulator's B fragments come
# from ldmatrix.x4.trans and prmt, and the 128 accumulator registers per
# thread fit beside them without spills (sm_89 from the sm_90 bytecode).
# (sm_90 takes the e4m3 wgmma, as sm_90a: see its own test.)
@test "mma.sync path (sm_89, sm_120): fp8 BatchMatMul copies A and B by cp.async, builds B fragments by ldmatrix.trans + prmt, and assembles without spills" {
  local case=samples-BatchMatMul-batch_matmul_kernel.fp8e4m3 sm bytecode
  for sm in sm_89 sm_120; do
    bytecode=sm_90
    [ "$sm" = sm_120 ] && bytecode=sm_120
    tileiras "$BYTECODE/$case.$bytecode.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx"
    grep -q 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32' "$TMP/k.ptx" &&
      grep -q '^\s*cp.async.cg.shared.global' "$TMP/k.ptx" &&
      grep -q '^\s*ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16' "$TMP/k.ptx" &&
      grep -q '^\s*prmt.b32' "$TMP/k.ptx" && ! grep -q '^\s*st.shared.b8' "$TMP/k.ptx" ||
      { echo "$sm: no fp8 mma.sync, cp.async, ldmatrix.trans or prmt, or B stored byte by byte"; false; }
    run ptxas -arch $sm -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
      { echo "$sm: $output"; false; }
  done
}

# cuTile's f32 MatMuls: 32x32x32 tf32 tiles of one warpgroup. On sm_90
# they take sm_90a and m64n32k8 (A's 32 rows spread over the four 16-row
# warp slices, padding between), their f32 loads fused into TMA boxes
# waited for on an mbarrier and rounded to tf32 once landed (the
# non-multiple one too: its extents have no divisor, but its assumes prove
# the base and row strides 16-byte aligned, the loads' view_alignment, and
# TMA zero-fills the ragged edge);
# on sm_100 sm_100a and one M = 64 tcgen05.mma kind::tf32 per k step fed
# by the K loop's TMA ring (A in boxes of 8 rows into the 16-row slices,
# each landed chunk rounded to tf32 in place by every thread), D read back
# with tcgen05.ld.16x256b. numpy in tile-emu (whose tensor cores truncate
# to tf32, as the hardware does: without the rounding MatMul f32 differs
# at 70515 places), no spills.
@test "sm_90 and sm_100: the f32 (tf32) MatMuls take wgmma m64n32k8 and tcgen05.mma kind::tf32 at M = 64, match numpy in tile-emu, no spills" {
  local case sm arch args
  for case in matmul_kernel.f32 persistent_matmul_kernel.f32 matmul_kernel-nonmult.f32; do
    args=()
    [ $case != matmul_kernel-nonmult.f32 ] ||
      args=(--shape A=100,68 --shape B=68,52 --shape C=100,52 --grid 8,1,1)
    for sm in sm_90 sm_100; do
      run check samples-MatMul-$case $sm 13.4 "${args[@]}"
      [ "$status" -eq 0 ] || { echo "$case $sm: $output"; false; }
      tileiras "$BYTECODE/samples-MatMul-$case.$sm.13.4.tileirbc" --gpu-name $sm --emit=ptx -o "$TMP/k.ptx"
      arch=${sm}a
      grep -q "^\.target $arch\$" "$TMP/k.ptx" && ! grep -q 'mma.sync' "$TMP/k.ptx" ||
        { echo "$case $sm: not $arch, or mma.sync"; false; }
      if [ $sm = sm_90 ]; then
        # TMA boxes of 8 A rows into their 16-row slices (and B), no
        # cp.async left.
        grep -q 'wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32' "$TMP/k.ptx" &&
          grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global' "$TMP/k.ptx" &&
          grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" &&
          ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" ||
          { echo "$case: no m64n32k8 tf32 wgmma fed by TMA alone"; false; }
      else
        grep -q 'tcgen05.mma.cta_group::1.kind::tf32' "$TMP/k.ptx" &&
          grep -q 'tcgen05.ld.sync.aligned.16x256b' "$TMP/k.ptx" &&
          grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global' "$TMP/k.ptx" &&
          grep -q 'tcgen05.commit' "$TMP/k.ptx" && ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" ||
          { echo "$case: no TMA-fed kind::tf32 tcgen05.mma with a 16x256b read-back"; false; }
      fi
      run ptxas -arch $arch -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$case $sm: $output"; false; }
    done
  done
}

# Plain sm_90 takes sm_90a where a multiply gains from wgmma
# (tilepipe-select-wgmma-target): every f16/bf16 matmul-family kernel, the
# gather-fed MoE included (its A rows by cp.async, B by TMA), the fp8
# BatchMatMul and the tf32 all-gather matmul (B staged K-major), and the f32
# (tf32) MatMuls, whose 32x32 accumulators (8 rows per warp) take m64n32k8
# with padding rows.
@test "sm_90 picks per kernel: f16, fp8 and tf32 matmuls, FMHA and fused MoE compile as sm_90a (wgmma) (-v says why)" {
  local case
  for case in MatMul-matmul_kernel.f16 MatMul-persistent_matmul_kernel.f16 \
    BatchMatMul-batch_matmul_kernel.f16 AttentionFMHA-fmha_kernel-causal.f16 \
    BatchMatMul-batch_matmul_kernel.fp8e4m3 AllGatherMatmul-gather_matmul_kernel.f32; do
    tileiras "$BYTECODE/samples-$case.sm_90.13.4.tileirbc" --gpu-name sm_90 --emit=ptx -o "$TMP/k.ptx"
    grep -q '^\.target sm_90a$' "$TMP/k.ptx" && grep -q 'wgmma.mma_async' "$TMP/k.ptx" ||
      { echo "$case: not sm_90a with wgmma"; false; }
  done
  grep -q 'wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32' "$TMP/k.ptx" ||
    { echo "all-gather matmul: no tf32 wgmma"; false; }
  for case in MatMul-matmul_kernel.f32 MatMul-persistent_matmul_kernel.f32; do
    run tileiras "$BYTECODE/samples-$case.sm_90.13.4.tileirbc" --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx"
    [[ "$output" == *"remark: sm_90 -> sm_90a: wgmma for this mmaf"* ]] || { echo "$case: $output"; false; }
    grep -q '^\.target sm_90a$' "$TMP/k.ptx" && grep -q 'wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32' "$TMP/k.ptx" ||
      { echo "$case: not sm_90a with the tf32 wgmma"; false; }
  done
  for sm in sm_90:"sm_90 -> sm_90a" sm_90a:sm_90a; do
    run tileiras "$BYTECODE/samples-MoE-fused_moe_kernel-w1.bf16.sm_90.13.4.tileirbc" --gpu-name ${sm%%:*} -v \
      --emit=ptx -o "$TMP/moe.ptx"
    [[ "$output" == *"MoE.py:76:22: remark: ${sm#*:}: wgmma for this mmaf (A: a gather (addresses from loaded indices) copied into the swizzled staging by cp.async, row runs, B: a strided load)"* ]] ||
      { echo "$sm: $output"; false; }
    grep -q '^\.target sm_90a$' "$TMP/moe.ptx" && grep -q 'wgmma.mma_async' "$TMP/moe.ptx" &&
      ! grep -q 'mma.sync' "$TMP/moe.ptx" || { echo "MoE $sm: not wgmma"; false; }
  done
}

# The fused MoE kernel on sm_90 (issue #9): wgmma with A, the token rows
# picked by sorted ids, copied by 16-byte cp.async into the swizzled staging
# and B, the expert's K-major weight tile (a transposed 3-D view indexed by
# the loaded expert id), by TMA completing on an mbarrier; no spills. The
# other targets keep mma.sync without spills.
@test "sm_90: fused MoE w1/w2 take sm_90a: cp.async A, TMA B, mbarrier wait, wgmma, no spills; sm_80/89/120 mma.sync, no spills" {
  local w sm
  for w in w1 w2; do
    tileiras "$BYTECODE/samples-MoE-fused_moe_kernel-$w.bf16.sm_90.13.4.tileirbc" --gpu-name sm_90 \
      --emit=ptx -o "$TMP/k.ptx"
    grep -q '^\.target sm_90a$' "$TMP/k.ptx" && grep -q 'cp.async.cg.shared.global' "$TMP/k.ptx" &&
      grep -q 'cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' "$TMP/k.ptx" &&
      grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" &&
      grep -q 'wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16' "$TMP/k.ptx" ||
      { echo "$w: not cp.async A, TMA B and wgmma"; false; }
    run ptxas -arch sm_90a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$w: $output"; false; }
    for sm in sm_80:sm_80 sm_89:sm_80 sm_120:sm_120; do
      tileiras "$BYTECODE/samples-MoE-fused_moe_kernel-$w.bf16.${sm#*:}.13.4.tileirbc" --gpu-name ${sm%%:*} \
        --emit=ptx -o "$TMP/k.ptx"
      grep -q 'mma.sync.aligned.m16n8k16' "$TMP/k.ptx" && ! grep -q 'wgmma' "$TMP/k.ptx" ||
        { echo "$w ${sm%%:*}: not mma.sync"; false; }
      run ptxas -arch ${sm%%:*} -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] ||
        { echo "$w ${sm%%:*}: $output"; false; }
    done
  done
}

# fp8 on sm_90a: A and B by TMA (rank-3 maps of 1-byte elements, u8), B
# landing N-major and transposed to K-major in shared memory (byte
# permutes), e4m3 wgmma with its sums promoted into the f32 accumulator
# every 4 k steps (tilepipe-promote-fp8-accumulation: an H200 missed numpy
# at 10 outputs with the wgmmas accumulating in place): per N piece of 64
# columns, temporaries started with scale-d 0, added after wait_group 1.
# The pieces take two temporaries in turn, each piece's first wgmma reusing
# its slot's PTX registers (two D register lists in the whole kernel): with
# fresh registers per piece ptxas (13.0) took 255 registers and spilled 816
# bytes, with the slots 240 and none (167 unpromoted).
# fast-accumulation=true gives back the m64n256k32 form, without spills.
@test "sm_90: fp8 BatchMatMul takes sm_90a, TMA operands, B transposed in shared memory, e4m3 wgmma promoted into f32 (-v says so) in two reused temporaries, without spills; fast accumulation too" {
  local bc="$BYTECODE/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_90.13.4.tileirbc"
  run tileiras "$bc" --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *"BatchMatMul.py:"*": remark: fp8 wgmma accumulation promoted to f32: every 4 k steps (K 128) of wgmmas into a temporary (scale-d 0 first)"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.target sm_90a$' "$TMP/k.ptx" &&
    grep -q 'cp.async.bulk.tensor.3d.shared::cluster.global' "$TMP/k.ptx" &&
    grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" && grep -q 'prmt.b32' "$TMP/k.ptx" &&
    grep -q 'wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3' "$TMP/k.ptx" &&
    ! grep -q 'm64n256k32' "$TMP/k.ptx" && grep -q 'setp.ne.b32 p, 0, 0;' "$TMP/k.ptx" &&
    grep -q 'wgmma.wait_group.sync.aligned 1;' "$TMP/k.ptx" &&
    ! grep -q 'cp.async.cg' "$TMP/k.ptx" || { echo "not the TMA-fed, promoted e4m3 wgmma"; false; }
  run bash -c "grep -oE 'm64n64k32.f32.e4m3.e4m3 \{[^}]*\}' '$TMP/k.ptx' | sort -u | wc -l"
  [ "$output" -eq 2 ] || { echo "$output D register lists, not two reused temporaries"; false; }
  run ptxas -arch sm_90a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
  # Fast accumulation: the unpromoted m64n256k32 in place, no spills.
  tileiras "$bc" --gpu-name sm_90 --emit=scheduled -o "$TMP/s.mlir"
  run bash -c "tile-opt --tilepipe-promote-fp8-accumulation=fast-accumulation=1 '$TMP/s.mlir' 2>&1 >'$TMP/f.mlir'"
  [[ "$status" -eq 0 && "$output" == *"remark: fp8 wgmma fast accumulation"* ]] || { echo "$output"; false; }
  tile-llvm "$TMP/f.mlir" -o "$TMP/f.ll"
  grep -q 'wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3' "$TMP/f.ll" &&
    ! grep -q 'wgmma.wait_group.sync.aligned 1;' "$TMP/f.ll" || { echo "fast accumulation is not the old form"; false; }
  tile-ptx "$TMP/f.ll" --gpu-name sm_90a -o "$TMP/f.ptx"
  run ptxas -arch sm_90a -v -o "$TMP/f.cubin" "$TMP/f.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# On sm_100 the operands reach the tcgen05 staging by TMA (their views are
# known; -v says so), the accumulator waits in tensor memory during the
# MMAs and the f16/bf16 D goes out by TMA stores: no spills, and the staging leaves room for the tensor-memory
# address and mbarriers within the 48 KiB of static shared memory.
@test "sm_100: the corpus f16 and fp8 matmuls load by TMA and assemble for sm_100a without spills in at most 48 KiB of shared memory" {
  local case smem chunks
  for case in MatMul-matmul_kernel.f16 MatMul-matmul_kernel.bf16 MatMul-persistent_matmul_kernel.f16 \
    BatchMatMul-batch_matmul_kernel.f16 BatchMatMul-batch_matmul_kernel.fp8e4m3; do
    run tileiras -v "$BYTECODE/samples-$case.sm_100.13.4.tileirbc" --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *"remark: sm_100: tcgen05.mma operands by TMA (cp.async.bulk.tensor into the swizzled staging, mbarrier expect_tx): A and B"* ]] ||
      { echo "$case: $output"; false; }
    grep -q "cp.async.bulk.tensor.[23]d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" "$TMP/k.ptx" &&
      grep -q "mbarrier.try_wait.parity" "$TMP/k.ptx" && grep -q "tcgen05.mma.cta_group::1" "$TMP/k.ptx" &&
      ! grep -q "cp.async.cg" "$TMP/k.ptx" && grep -q "tcgen05.st.sync.aligned" "$TMP/k.ptx" ||
      { echo "$case: no TMA operands or tcgen05.st accumulator"; false; }
    # The f16/bf16 D (the tcgen05.ld registers, converted) is stored by TMA:
    # 256 columns, or 128 per CTA of MatMul's pairs (num_cta_in_cga = 2).
    if [[ "$case" != *fp8* ]]; then
      chunks=2
      [[ "$case" != MatMul-matmul_kernel.* ]] || chunks=1
      [[ "$output" == *"remark: sm_100: this store goes through shared memory by TMA (cp.async.bulk.tensor; $chunks chunk(s) of 128 columns, 128-byte swizzle"* ]] &&
        grep -q "cp.async.bulk.tensor.[23]d.global.shared::cta.tile.bulk_group" "$TMP/k.ptx" &&
        ! grep -q "st.global" "$TMP/k.ptx" || { echo "$case: D not stored by TMA alone"; false; }
    fi
    run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$case: $output"; false; }
    smem=$(echo "$output" | sed -n 's/.* \([0-9]*\) bytes smem.*/\1/p')
    [ -n "$smem" ] && [ "$smem" -le 49152 ] || { echo "$case: $smem bytes of shared memory: $output"; false; }
  done
}

# FMHA's second multiply takes its A, the probabilities P (in registers in
# the accumulator layout of the first multiply's S), from tensor memory:
# each thread stores its run of a row with tcgen05.st, and only V is staged
# in shared memory, by TMA (its view is known). Staging P in shared memory
# kept it live across three K chunks (255 registers, 248-524 bytes of
# spills).
@test "sm_100: FMHA's P x V reads P from tensor memory and V by TMA; the four FMHA cases assemble for sm_100a without spills" {
  local case
  for case in causal.f16 noncausal.f16 causal.bf16 noncausal.bf16; do
    tileiras "$BYTECODE/samples-AttentionFMHA-fmha_kernel-$case.sm_100.13.4.tileirbc" --gpu-name sm_100 \
      --emit=ptx -o "$TMP/k.ptx"
    grep -qE 'tcgen05.mma.cta_group::1.kind::f16.* \[%r[0-9]+\], \[%r[0-9]+\], %rd[0-9]+, %r[0-9]+, %p[0-9]+;' "$TMP/k.ptx" &&
      grep -qE 'tcgen05.mma.cta_group::1.kind::f16.* \[%r[0-9]+\], %rd[0-9]+, %rd[0-9]+, %r[0-9]+, %p[0-9]+;' "$TMP/k.ptx" &&
      grep -q 'cp.async.bulk.tensor' "$TMP/k.ptx" ||
      { echo "$case: not one multiply from shared memory (Q x K^T) and one with A in tensor memory (P x V, V by TMA)"; false; }
    run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$case: $output"; false; }
  done
}

# The fused MoE kernel's B (its 64x128 tile read along K from a transposed
# view) reaches the swizzled staging one register at a time: the slots of a
# thread's registers along the rows share the swizzled part of their row
# modulo 8 and differ by constants, so its 32 st.shared.b16 take 4 address
# registers (with the whole offset swizzled they took 32, 64-bit each).
@test "sm_100: the fused MoE kernel's element-wise B staging shares 4 address registers among 32 stores" {
  tileiras "$BYTECODE/samples-MoE-fused_moe_kernel-w1.bf16.sm_100.13.4.tileirbc" --gpu-name sm_100 \
    --emit=ptx -o "$TMP/k.ptx"
  run bash -c "grep -cE 'st.shared.b16' '$TMP/k.ptx'"
  [ "$output" -eq 32 ] || { echo "st.shared.b16: $output"; false; }
  run bash -c "grep -oE 'st.shared.b16[[:space:]]+\[%rd[0-9]+' '$TMP/k.ptx' | sort -u | wc -l"
  [ "$output" -le 4 ] || { echo "address registers: $output"; false; }
}

@test "BatchMatMul fp8 e4m3 matches numpy in tile-emu (1 x 144x208 by 208x272; sm_90 (wgmma), and sm_89 (mma.sync) from the sm_90 bytecode)" {
  local case=samples-BatchMatMul-batch_matmul_kernel.fp8e4m3 sm
  for sm in sm_90 sm_89; do
    # Ragged along M, N and K; on sm_90 (as sm_90a) the e4m3 wgmma with B
    # staged K-major, its sums promoted into f32 in N pieces of 64 (K 208:
    # two K iterations of 128, the last ragged), on sm_89 the fp8 mma.sync
    # path.
    run "$RUN" --manifest "$MANIFEST" --case $case --bytecode "$BYTECODE/$case.sm_90.13.4.tileirbc" \
      --gpu-name $sm --bin "$TILEPIPE_BIN" --work "$TMP/$sm" \
      --shape A=1,144,208 --shape B=1,208,272 --shape C=1,144,272 --grid 1,2,2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
  grep -q 'wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3' "$TMP/sm_90/kernel.ll" &&
    grep -q 'wgmma.wait_group.sync.aligned 1;' "$TMP/sm_90/kernel.ll" ||
    { echo "sm_90: no promoted e4m3 wgmma in the kernel"; false; }
  grep -q 'llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32' "$TMP/sm_89/kernel.ll" ||
    { echo "sm_89: no fp8 mma.sync in the kernel"; false; }
}

@test "AttentionFMHA (causal and not, f16 and bf16) matches numpy in tile-emu at the corpus shape (sm_80, sm_90)" {
  for case in causal.f16 noncausal.f16 causal.bf16 noncausal.bf16; do
    for sm in sm_80 sm_90; do
      run check samples-AttentionFMHA-fmha_kernel-$case "$sm" 13.4
      [ "$status" -eq 0 ] || { echo "$case $sm: $output"; false; }
    done
  done
}

@test "fused MoE w1 and w2 match numpy in tile-emu (N and K cut to 256/128 and 128/128; sm_80, sm_90 (wgmma))" {
  for sm in sm_80 sm_90; do
    run check samples-MoE-fused_moe_kernel-w1.bf16 "$sm" 13.4 \
      --shape A=48,128 --shape B=64,256,128 --shape C=384,256 --grid 128,1,1
    [ "$status" -eq 0 ] || { echo "w1 $sm: $output"; false; }
    run check samples-MoE-fused_moe_kernel-w2.bf16 "$sm" 13.4 \
      --shape A=384,128 --shape B=64,128,128 --shape C=384,128 --grid 64,1,1
    [ "$status" -eq 0 ] || { echo "w2 $sm: $output"; false; }
  done
  grep -q 'wgmma.mma_async' "$TMP/samples-MoE-fused_moe_kernel-w1.bf16.sm_90.13.4/kernel.ll" ||
    { echo "sm_90: no wgmma in the w1 kernel"; false; }
}

# Ragged on sm_90a: N (240) and K (112) not multiples of the 128x64 tiles,
# so TMA zero-fills B's boxes past the view and cp.async A's masked runs.
@test "fused MoE w1 on sm_90 (wgmma, cp.async A, TMA B) matches numpy with N and K ragged (240/112)" {
  run check samples-MoE-fused_moe_kernel-w1.bf16 sm_90 13.4 \
    --shape A=48,112 --shape B=64,240,112 --shape C=384,240 --grid 128,1,1
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -q 'cp.async.bulk.tensor' "$TMP/samples-MoE-fused_moe_kernel-w1.bf16.sm_90.13.4/kernel.ll" ||
    { echo "no TMA in the kernel"; false; }
}

# A bin folder for run-case.py whose tileiras runs the stages one by one with
# tilepipe-pipeline-mma-loops forced past its cost rule (max-ring-registers,
# which keeps BatchMatMul's loop by default, see PipelineMmaLoops.cpp), so
# that every corpus matmul runs through the cp.async ring in tile-emu.
forced_ring_bin() {
  mkdir -p "$TMP/bin"
  ln -sf "$TILEPIPE_BIN/tile-emu" "$TMP/bin/tile-emu"
  cat > "$TMP/bin/tileiras" <<SCRIPT
#!/bin/bash
# run-case.py calls: tileiras BYTECODE --emit=llvm -o OUT --gpu-name SM
set -eo pipefail
"$TILEPIPE_BIN/tile-read" "\$1" | "$TILEPIPE_BIN/tile-lower" --gpu-name "\$6" |
  "$TILEPIPE_BIN/tile-opt" --tilepipe-assign-layouts --tilepipe-async-copy-mma-operands \
    --tilepipe-pipeline-mma-loops=max-ring-registers=1024 | tee "\$4.sched.mlir" |
  "$TILEPIPE_BIN/tile-llvm" -o "\$4"
SCRIPT
  chmod +x "$TMP/bin/tileiras"
}

# check_ring CASE SM [run-case args]: check through the forced ring, and the
# scheduled IR did have a ring.
check_ring() {
  local case=$1 sm=$2 work="$TMP/ring.$1.$2.$RANDOM"
  shift 2
  "$RUN" --manifest "$MANIFEST" --case "$case" --bytecode "$BYTECODE/$case.$sm.13.4.tileirbc" \
    --gpu-name "$sm" --bin "$TMP/bin" --work "$work" "$@" || return 1
  grep -q 'tile_as.mmaf_stage' "$work/kernel.ll.sched.mlir" || { echo "$case: no ring"; return 1; }
}

@test "through the cp.async ring: MatMul f16/bf16, persistent and batched matmul, ragged M/N/K and a one-iteration K loop match numpy" {
  forced_ring_bin
  run check_ring samples-MatMul-matmul_kernel.f16 sm_80
  [ "$status" -eq 0 ] || { echo "f16: $output"; false; }
  run check_ring samples-MatMul-matmul_kernel.bf16 sm_80
  [ "$status" -eq 0 ] || { echo "bf16: $output"; false; }
  # K = 200: four iterations of 64, the last with 8 valid; M and N ragged too.
  run check_ring samples-MatMul-matmul_kernel.f16 sm_80 \
    --shape A=100,200 --shape B=200,120 --shape C=100,120 --grid 1,1,1
  [ "$status" -eq 0 ] || { echo "ragged: $output"; false; }
  # K = 40: one iteration, fewer than the prologue's copies reach.
  run check_ring samples-MatMul-matmul_kernel.f16 sm_80 \
    --shape A=100,40 --shape B=40,120 --shape C=100,120 --grid 1,1,1
  [ "$status" -eq 0 ] || { echo "one iteration: $output"; false; }
  run check_ring samples-MatMul-persistent_matmul_kernel.f16 sm_80
  [ "$status" -eq 0 ] || { echo "persistent: $output"; false; }
  run check_ring samples-BatchMatMul-batch_matmul_kernel.f16 sm_80 \
    --shape A=2,144,208 --shape B=2,208,272 --shape C=2,144,272 --grid 2,2,2
  [ "$status" -eq 0 ] || { echo "batched: $output"; false; }
}
