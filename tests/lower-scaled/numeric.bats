#!/usr/bin/env bats
# mmaf_scaled computed in tile-emu against numpy: D = (A * SA) x (B * SB) + C
# with each scale repeated over its block of K/Ks consecutive k. f16, bf16 and
# f32 operands; f32 scales and f8E8M0FNU scales (powers of two, passed as bit
# patterns in i32 words); 2-D and batched 3-D; blocks of 1, 16 and 32; the
# corpus kernel's 32x4x4-swizzled scale tiles. Kernels
# come from kernel.py; emu-check.py compiles and runs them.

setup() {
  KERNEL="$BATS_TEST_DIRNAME/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
  RNG="np.random.default_rng(7)"
  BF="(lambda v: (v.astype(np.uint32) << 16).view(np.float32))"
  E8M0="(lambda bits: np.exp2(bits.astype(np.float64) - 127).astype(np.float32))"
}

teardown() {
  rm -rf "$TMP"
}

# scaled_case M N K KS A-TYPE SCALE-TYPE BATCH(0: 2-D)
scaled_case() {
  local m=$1 n=$2 k=$3 ks=$4 ta=$5 ts=$6 batch=$7 lead=""
  local gen=(--m "$m" --n "$n" --k "$k" --ks "$ks" --a "$ta" --scale "$ts")
  if [ "$batch" != 0 ]; then lead="$batch,"; gen+=(--batch "$batch"); fi
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  local sa="($lead$m,$k)" sb="($lead$k,$n)" sc="($lead$m,$n)" ssa="($lead$m,$ks)" ssb="($lead$ks,$n)"
  local a b fa fb xa xb fxa fxb
  case $ta in
    f16) a="a=$RNG.standard_normal($sa).astype(np.float16)"
         b="b=$RNG.standard_normal($sb).astype(np.float16)"
         fa="a.astype(np.float32)" fb="b.astype(np.float32)" ;;
    bf16) a="a=bf16($RNG.standard_normal($sa))"
          b="b=bf16($RNG.standard_normal($sb))"
          fa="$BF(a)" fb="$BF(b)" ;;
    f32) a="a=$RNG.standard_normal($sa).astype(np.float32)"
         b="b=$RNG.standard_normal($sb).astype(np.float32)"
         fa="a" fb="b" ;;
  esac
  case $ts in
    f32) xa="sa=$RNG.uniform(-2, 2, $ssa).astype(np.float32)"
         xb="sb=$RNG.uniform(-2, 2, $ssb).astype(np.float32)"
         fxa="sa" fxb="sb" ;;
    f8E8M0FNU) xa="sa=$RNG.integers(120, 135, $ssa).astype(np.int32)"
               xb="sb=$RNG.integers(120, 135, $ssb).astype(np.int32)"
               fxa="$E8M0(sa)" fxb="$E8M0(sb)" ;;
  esac
  local block=$((k / ks)) kdim=$([ "$batch" != 0 ] && echo 2 || echo 1)
  local ra="np.repeat($fxa, $block, axis=$kdim)" rb="np.repeat($fxb, $block, axis=$((kdim - 1)))"
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "$a" --array "$b" --array "$xa" --array "$xb" \
    --array "c=$RNG.standard_normal($sc).astype(np.float32)" \
    --array "d_out=np.zeros($sc, np.float32)" \
    --expect "d_out = ($fa * $ra) @ ($fb * $rb) + c" --rtol 1e-4 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "mmaf_scaled $m x $n x $k / $ks $ta $ts batch=$batch: $output"; false; }
}

@test "mmaf_scaled with f32 scales: f16, bf16 and f32 operands (blocks of 32 and 16)" {
  scaled_case 16 16 64 2 f16 f32 0
  scaled_case 16 32 64 4 bf16 f32 0
  scaled_case 32 16 32 2 f32 f32 0
}

@test "mmaf_scaled with f8E8M0FNU (power-of-two) scales, corpus blocks of 32" {
  scaled_case 32 16 128 4 f16 f8E8M0FNU 0
  scaled_case 16 16 64 2 f32 f8E8M0FNU 0
}

@test "mmaf_scaled batched 3-D, one scale per k (block 1) and one per row (block K)" {
  scaled_case 16 16 16 16 f32 f32 2
  scaled_case 16 16 32 1 f16 f8E8M0FNU 2
}

@test "the corpus kernel's swizzled scale path: 32x4x4 e8m0 scales unswizzled by reshape/permute (128x16x128)" {
  local swz="(lambda s: s.reshape(1, 4, 32, 1, 4).transpose(0, 3, 2, 1, 4).reshape(1, 1, 32, 16))"
  run /usr/bin/python3 "$CHECK" "$BATS_TEST_DIRNAME/inputs/swizzled_scales.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=$RNG.standard_normal((128, 128)).astype(np.float16)" \
    --array "b=$RNG.standard_normal((128, 16)).astype(np.float16)" \
    --array "sa=np.ascontiguousarray($swz(rows := $RNG.integers(120, 135, (128, 4)).astype(np.int32)))" \
    --array "sb=$RNG.integers(120, 135, (4, 16)).astype(np.int32)" \
    --array "c=$RNG.standard_normal((128, 16)).astype(np.float32)" \
    --array "d=np.zeros((128, 16), np.float32)" \
    --expect "d = (a.astype(np.float32) * np.repeat($E8M0(rows), 32, axis=1)) @ (b.astype(np.float32) * np.repeat($E8M0(sb), 32, axis=0)) + c" \
    --rtol 1e-4 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
