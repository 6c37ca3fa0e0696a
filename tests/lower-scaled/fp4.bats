#!/usr/bin/env bats
# Block-scaled multiplies of f4E2M1FN operands: MX-FP4 (f8E8M0FNU scales per
# 32 k) and NVFP4 (f8E4M3FN scales per 16 k). On sm_120/121 CudaTileToTileAA
# keeps them as mmaf_scaled, lowered to m16n8k64 block-scaled mma.sync
# (kind::mxf4 scale_vec::2X, kind::mxf4nvf4 scale_vec::4X ue4m3); every other
# target decomposes them into f32 operands and mmaf. The operands are loaded
# from memory packed two to a byte.

setup() {
  MXF4="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_mxf4.mlir"
  NVF4="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_nvf4.mlir"
  KERNEL="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  HELPERS="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/fp4_reference.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "sm_120 and sm_121 (plain or a) keep mxf4 and nvf4 multiplies block-scaled" {
  for f in "$MXF4" "$NVF4"; do
    for gpu in sm_120 sm_121 sm_120a sm_121a; do
      run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$f' | FileCheck --check-prefix=KEEP '$f'"
      [ "$status" -eq 0 ] || { echo "$f $gpu: $output"; false; }
    done
  done
}

@test "other targets decompose f4 multiplies into scaled f32 operands and mmaf" {
  for f in "$MXF4" "$NVF4"; do
    for gpu in sm_80 sm_90 sm_90a sm_100a sm_120f ""; do
      run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$f' | FileCheck --check-prefix=SPLIT '$f'"
      [ "$status" -eq 0 ] || { echo "$f '$gpu': $output"; false; }
    done
  done
}

@test "sm_120 PTX: kind::mxf4 and kind::mxf4nvf4 mma.sync, ptxas takes them without spills or stack" {
  for f in "$MXF4" "$NVF4"; do
    run bash -c "tileiras --gpu-name sm_120 --emit=ptx -o - '$f' | FileCheck --check-prefix=PTX '$f'"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    tileiras --gpu-name sm_120a --emit=ptx -o "$TMP/k.ptx" "$f"
    run "${TILEPIPE_PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_120a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    [[ "$output" == *" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$f: $output"; false; }
  done
}

# fp4_case KIND M N K BATCH(0: 2-D) GPU [ATOL]: the kernel of KIND (mxf4:
# e8m0 scales per 32 k; nvf4: e4m3 per 16; nvf4-signed: e4m3 bytes with the
# sign bit set) compiled for GPU and run in
# tile-emu against numpy, which decodes the packed e2m1 operands and the
# scales itself (fp4_reference.py). The emulated tensor cores round the sum
# once; ATOL (default 1e-3) allows for an f32 FMA chain's roundings.
fp4_case() {
  local kind=$1 m=$2 n=$3 k=$4 batch=$5 gpu=$6 atol=${7:-1e-3} lead="" block=32 scale=f8E8M0FNU decode=e8m0
  local sbits="integers(120, 135"
  if [ "$kind" = nvf4 ]; then
    block=16 scale=f8E4M3FN decode=e4m3 sbits="integers(0x28, 0x48"
  elif [ "$kind" = nvf4-signed ]; then
    # Scale bytes with bit 7 set: read unsigned (ue4m3) on every path.
    block=16 scale=f8E4M3FN decode=ue4m3 sbits="integers(0xA8, 0xC8"
  fi
  local ks=$((k / block))
  local gen=(--m "$m" --n "$n" --k "$k" --ks "$ks" --a f4E2M1FN --scale "$scale")
  if [ "$batch" != 0 ]; then lead="$batch,"; gen+=(--batch "$batch"); fi
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  local rng="np.random.default_rng(7)" kdim=$([ "$batch" != 0 ] && echo 2 || echo 1)
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --gpu-name "$gpu" --bin "$TILEPIPE_BIN" \
    --helpers "$HELPERS" \
    --array "a=$rng.integers(0, 256, ($lead$m,$((k / 2)))).astype(np.uint8)" \
    --array "b=$rng.integers(0, 256, ($lead$k,$((n / 2)))).astype(np.uint8)" \
    --array "sa=$rng.$sbits, ($lead$m,$ks)).astype(np.int32)" \
    --array "sb=$rng.$sbits, ($lead$ks,$n)).astype(np.int32)" \
    --array "c=$rng.standard_normal(($lead$m,$n)).astype(np.float32)" \
    --array "d_out=np.zeros(($lead$m,$n), np.float32)" \
    --expect "d_out = scaled(e2m1(a, $k), $decode(sa), $block, $kdim) @ scaled(e2m1(b, $n), $decode(sb), $block, $((kdim - 1))) + c" \
    --rtol 1e-5 --atol "$atol"
  [ "$status" -eq 0 ] || { echo "$kind $m x $n x $k batch=$batch on $gpu: $output"; false; }
}

@test "mxf4 mma.sync matches numpy in tile-emu (sm_120): scale words, N wrapping, batched" {
  fp4_case mxf4 32 16 128 0 sm_120
  # 8 k blocks: two scale words per row and column.
  fp4_case mxf4 64 32 256 0 sm_120
  # N = 8 on 4 warps: the warps wrap around the one column block.
  fp4_case mxf4 16 8 64 0 sm_120
  fp4_case mxf4 16 16 64 2 sm_120
  # K staged in two chunks (24 rows of 2048 bytes pass the scratch limit);
  # the tensor cores' f32 sums between k steps need the looser atol.
  fp4_case mxf4 16 8 2048 0 sm_120 1
}

@test "nvf4 mma.sync matches numpy in tile-emu (sm_120): ue4m3 scales per 16 k" {
  fp4_case nvf4 32 16 128 0 sm_120
  # 16 k blocks: four scale words.
  fp4_case nvf4 32 32 256 0 sm_120
  fp4_case nvf4 16 16 64 2 sm_120
}

@test "the decomposition of f4 multiplies matches the same reference (sm_80, sm_90)" {
  # Sums near 1e5 from products up to 2^18: an f32 chain is off by ~0.1.
  fp4_case mxf4 32 16 128 0 sm_80 0.5
  fp4_case nvf4 32 16 128 0 sm_90 0.5
}

@test "NVFP4 scales with the sign bit set read as ue4m3 on the tensor cores and in the decomposition alike (sm_120, sm_90)" {
  fp4_case nvf4-signed 32 16 128 0 sm_120
  fp4_case nvf4-signed 32 16 128 0 sm_90 0.5
}

@test "on sm_120 f4 forms block-scaled mma.sync does not tile are decomposed" {
  # M = 8; N = 4; e2m1 with f16 scales; e2m1 times e4m3.
  "$KERNEL" --m 8 --n 16 --k 64 --ks 2 --a f4E2M1FN --scale f8E8M0FNU > "$TMP/m8.mlir"
  "$KERNEL" --m 32 --n 4 --k 64 --ks 4 --a f4E2M1FN --scale f8E4M3FN > "$TMP/n4.mlir"
  "$KERNEL" --m 16 --n 16 --k 64 --ks 2 --a f4E2M1FN --scale f16 > "$TMP/f16scale.mlir"
  "$KERNEL" --m 16 --n 16 --k 64 --ks 2 --a f4E2M1FN --b f8E4M3FN --scale f8E8M0FNU > "$TMP/mixed.mlir"
  for f in "$TMP/m8.mlir" "$TMP/n4.mlir" "$TMP/f16scale.mlir" "$TMP/mixed.mlir"; do
    run tile-opt --tilepipe-convert-cuda-tile-to-tile-aa="gpu-name=sm_120" "$f"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    [[ "$output" == *"tile_aa.mmaf "* && "$output" != *"mmaf_scaled"* ]] || { echo "$f: $output"; false; }
  done
}

@test "without the mma.sync accumulator layout an f4 mmaf_scaled fails cleanly in tile-llvm (exit 5, located)" {
  tile-lower --gpu-name sm_120 "$NVF4" -o "$TMP/k.lower.mlir"
  tile-opt --tilepipe-assign-layouts='tensor-cores=false' "$TMP/k.lower.mlir" -o "$TMP/k.sched.mlir"
  run tile-llvm "$TMP/k.sched.mlir" -o "$TMP/k.ll"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"k.sched.mlir:"*"error: 'tile_as.mmaf_scaled' op needs the mma.sync accumulator layout"* ]] ||
    { echo "$output"; false; }
}
