#!/usr/bin/env bats
# Every corpus kernel forced onto CTA pairs (tilepipe-split-tile-blocks-
# across-cta-pair=force-ctas=2, as if cuTile had asked for num_cta_in_cga = 2)
# on sm_100 and sm_90, checked against numpy in tile-emu (pair-sweep.py): a
# split that is wrong gives wrong results silently, and unseen kernels may ask
# for pairs. Only the kernels with a multiply of 128x256 or 256 rows split; the
# others must stay on one CTA, unchanged. The corpus texts of FMHA
# (fmha-tile-m256.py), BatchMatMul and the fused MoE w1 rewritten for
# TILE_M = 256 split by M: a row softmax between two multiplies, rank-3
# views, gathered rows.

load corpus-common

setup() {
  corpus_setup
  MLIR="$TILEPIPE_SHARED_DIR/corpus/cutile/mlir"
}

# compile_forced_rows IN.mlir SM RESULT OUT.ll: IN lowered for SM, forced onto
# CTA pairs (the remark must say each CTA takes 128 rows of the RESULT-shaped
# product), scheduled and translated to OUT.
compile_forced_rows() {
  local in=$1 sm=$2 result=$3 out=$4
  tileiras "$in" --gpu-name $sm --emit=lowered -o "$TMP/l.mlir"
  run bash -c "tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=2 '$TMP/l.mlir' -o '$TMP/p.mlir' 2>&1"
  [[ "$status" -eq 0 && "$output" == *"CTA rank r computes rows [r*128, r*128+128) of the ${result} result"* ]] ||
    { echo "$sm: $output"; false; }
  tile-sched "$TMP/p.mlir" -o "$TMP/s.mlir" 2>/dev/null
  tile-llvm "$TMP/s.mlir" -o "$out"
}

@test "pair-sweep: the corpus matmuls split across a CTA pair and match numpy; every other case stays on one CTA, unchanged (sm_100, sm_90)" {
  run "$BATS_TEST_DIRNAME/pair-sweep.py" --bin "$TILEPIPE_BIN" --work "$TMP/sweep"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  ! grep -q FAIL <<< "$output"
  # 9 split cases on sm_100, 7 on sm_90 (block-scaled is sm_100 only).
  local split
  split=$(grep -cE $'\t(columns|rows) \\[r\\*' <<< "$output")
  [ "$split" -eq 16 ] || { echo "$split split: $output"; false; }
  grep -qE $'^samples-BlockScaledMatMul-block_scaled_matmul_kernel-plain.fp8e4m3\tsm_100\trows \\[r\\*128, r\\*128\\+128\\) of the 256x256 result\tPASS' <<< "$output" &&
    grep -qE $'^samples-MoE-fused_moe_kernel-w2.bf16\tsm_90\tcolumns \\[r\\*64, r\\*64\\+64\\) of the 128x128 result\tPASS' <<< "$output" &&
    grep -qE $'^samples-LayerNorm-layer_norm_fwd.f16\tsm_100\tnot split: .*it has no matrix multiply to share\tPASS \\(IR = unforced\\)' <<< "$output" &&
    grep -qE $'^samples-AttentionFMHA-fmha_kernel-causal.f16\tsm_90\tnot split: .*N = 64 is under 128\tPASS \\(IR = unforced\\)' <<< "$output" ||
    { echo "$output"; false; }
}

@test "pair-sweep --numerics all: the cases left on one CTA match numpy too (elementwise silu and mul, layer norm, transpose, FFT, FMHA)" {
  run "$BATS_TEST_DIRNAME/pair-sweep.py" --bin "$TILEPIPE_BIN" --work "$TMP/sweep" --numerics all \
    --targets sm_100 --cases 'LayerNorm-layer_norm_fwd.f16|Transpose-transpose_kernel.f16|FFT-fft_kernel.f32|fmha_kernel-causal.bf16|silu_and_mul'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -cE $'\tnot split: .*\tPASS \\([0-9]+ s\\)$' <<< "$output")" -eq 5 ] || { echo "$output"; false; }
}

# fmha_pair KIND SM [FORCE]: FMHA (KIND causal.f16, noncausal.bf16...) at
# TILE_M = 256, forced onto CTA pairs (FORCE=2) or not (0), on 2 x 8 heads
# of 384 queries and keys (the second tile block's rows 384..511 fall
# outside: its second CTA loads only padding and stores nothing).
fmha_pair() {
  local kind=$1 sm=$2 force=${3:-2} w="$TMP/$1.$2.$3"
  mkdir -p "$w"
  "$BATS_TEST_DIRNAME/fmha-tile-m256.py" "$MLIR/samples-AttentionFMHA-fmha_kernel-$kind.sm_100.13.3.mlir" > "$w/k.mlir"
  tileiras "$w/k.mlir" --gpu-name "$sm" --emit=lowered -o "$w/l.mlir" || return 1
  tile-opt --tilepipe-split-tile-blocks-across-cta-pair=force-ctas=$force "$w/l.mlir" -o "$w/p.mlir" 2>"$w/remarks" || return 1
  if [ "$force" = 2 ]; then
    grep -q "remark: force-ctas=2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes rows \[r\*128, r\*128+128) of the 256x128 result" "$w/remarks" ||
      { cat "$w/remarks"; return 1; }
  fi
  tile-sched "$w/p.mlir" -o "$w/s.mlir" 2>/dev/null && tile-llvm "$w/s.mlir" -o "$w/k.ll" || return 1
  [ "$force" != 2 ] || grep -q '"nvvm.cluster_dim"="2,1,1"' "$w/k.ll" || { echo "no cluster of two"; return 1; }
  "$RUN" --manifest "$MANIFEST" --case "samples-AttentionFMHA-fmha_kernel-$kind" --gpu-name "$sm" \
    --bin "$TILEPIPE_BIN" --work "$w/run" --llvm "$w/k.ll" --shape Q=2,8,384,64 --shape K=2,8,384,64 \
    --shape V=2,8,384,64 --shape Out=2,8,384,64 --grid 2,16,1
}

@test "FMHA at TILE_M = 256 on CTA pairs (128 query rows each, the causal mask's row iota offset by the rank) matches numpy in tile-emu (sm_100, sm_90)" {
  local kind sm
  for kind in causal.f16 noncausal.bf16; do
    for sm in sm_100 sm_90; do
      run fmha_pair $kind $sm
      [ "$status" -eq 0 ] || { echo "$kind $sm: $output"; false; }
    done
  done
  # The rewritten kernel itself, on one CTA, is right too.
  run fmha_pair causal.f16 sm_100 0
  [ "$status" -eq 0 ] || { echo "one CTA: $output"; false; }
}

@test "FMHA at TILE_M = 256 asking for num_cta_in_cga = 2 (sm_100): tileiras splits it by M; the PTX runs on clusters of two without spills" {
  "$BATS_TEST_DIRNAME/fmha-tile-m256.py" "$MLIR/samples-AttentionFMHA-fmha_kernel-causal.f16.sm_100.13.3.mlir" |
    sed 's/optimization_hints=<default = {occupancy = 2}>/optimization_hints=<sm_100 = {num_cta_in_cga = 2, occupancy = 2}, default = {occupancy = 2}>/' > "$TMP/k.mlir"
  run tileiras -v "$TMP/k.mlir" --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *"remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes rows [r*128, r*128+128) of the 256x128 result"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.reqnctapercluster 2, 1, 1' "$TMP/k.ptx" && grep -q '%cluster_ctarank' "$TMP/k.ptx" || { echo "no cluster of two"; false; }
  run ptxas -arch sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# BatchMatMul's 128x256 tile made 256x256 (TILE_M = 256: A's 1x128x128
# view tile and C's 1x128x256 grow to 256 rows; B's 1x128x256 stays): the
# batch tile splits by M through the rank-3 views and the reshapes around
# the multiply. 300 rows: the second tile block's rank 1 (rows 384..511)
# lies wholly outside C.
@test "BatchMatMul at TILE_M = 256 on CTA pairs (rows split through its rank-3 views) matches numpy on ragged 2 x 300x208 by 208x272 (sm_100, sm_90)" {
  sed -E -e '/^ *(%pview =|%tile, |%reshape_52 =)/s/128x128/256x128/g' \
    -e '/^ *(%pview_51 =|%3 = store|%reshape =|%2 = ftof)/s/128x256/256x256/g' \
    -e 's/128x256xf32/256x256xf32/g' -e '/^ *%4 = mmaf/s/tile<128x128xf16>/tile<256x128xf16>/' \
    "$MLIR/samples-BatchMatMul-batch_matmul_kernel.f16.sm_100.13.3.mlir" > "$TMP/k.mlir"
  local sm
  for sm in sm_100 sm_90; do
    compile_forced_rows "$TMP/k.mlir" $sm 256x256 "$TMP/k.ll"
    run "$RUN" --manifest "$MANIFEST" --case samples-BatchMatMul-batch_matmul_kernel.f16 --gpu-name $sm \
      --bin "$TILEPIPE_BIN" --work "$TMP/run.$sm" --llvm "$TMP/k.ll" \
      --shape A=2,300,208 --shape B=2,208,272 --shape C=2,300,272 --grid 2,2,2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

# The fused MoE w1 kernel made TILE_M = 256 (the TILE_M constant, the row
# iota and every tensor shaped by the gathered rows: A's 128x64 tiles, the
# 128x128 product, the token ids and their masks; the column iota stays):
# the M split halves the gathered rows, each CTA loading its 128 token ids.
# The manifest's routing is rebuilt for 256-row blocks with 160 tokens on 2
# experts (top 2), so that each block's rows 128..159 (rank 1's) hold tokens.
@test "fused MoE w1 at TILE_M = 256 on CTA pairs (gathered rows split by M) matches numpy with 160 tokens per expert block (sm_100, sm_90)" {
  sed -E -e 's/^( *%cst_128_i32 = constant <i32: )128>/\1256>/' \
    -e 's/128x64x/256x64x/g; s/128x128x/256x128x/g; s/128x1x/256x1x/g' \
    -e '/^ *(%44|%bcast_65|%45|%reshape_67) = /!s/tile<128x(i32|i64|i1|ptr<i32>)>/tile<256x\1>/g' \
    "$MLIR/samples-MoE-fused_moe_kernel-w1.bf16.sm_100.13.3.mlir" > "$TMP/k.mlir"
  /usr/bin/python3 - "$MANIFEST" "$TMP/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
c = m["cases"]["samples-MoE-fused_moe_kernel-w1.bf16"]
prep = c["numpy_prep"].replace("TILE_M = 48, 8, 64, 128", "TILE_M = 160, 2, 2, 256")
ref = c["numpy_ref"].replace("TILE_M = 128; R = 8", "TILE_M = 256; R = 2")
assert prep != c["numpy_prep"] and ref != c["numpy_ref"]
c["numpy_prep"], c["numpy_ref"] = prep, ref
next(a for a in c["args"] if a["name"] == "num_token_replicas")["value"] = 2
json.dump(m, open(sys.argv[2], "w"))
PY
  local sm
  for sm in sm_100 sm_90; do
    compile_forced_rows "$TMP/k.mlir" $sm 256x128 "$TMP/k.ll"
    run "$RUN" --manifest "$TMP/manifest.json" --case samples-MoE-fused_moe_kernel-w1.bf16 --gpu-name $sm \
      --bin "$TILEPIPE_BIN" --work "$TMP/run.$sm" --llvm "$TMP/k.ll" --shape A=160,128 --shape B=2,256,128 \
      --shape C=320,256 --shape topk_weights=320 --shape sorted_token_ids=512 --shape sorted_expert_ids=2 --grid 4,1,1
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}
