#!/usr/bin/env bats
# Block-scaled multiplies of f4E2M1FN operands: MX-FP4 (f8E8M0FNU scales per
# 32 k) and NVFP4 (f8E4M3FN scales per 16 k). On sm_120/121 CudaTileToTileAA
# keeps them as mmaf_scaled, lowered to m16n8k64 block-scaled mma.sync
# (kind::mxf4 scale_vec::2X, kind::mxf4nvf4 scale_vec::4X ue4m3); on
# sm_100/103/110 where tcgen05 tiles them (M a multiple of 128) to
# tcgen05.mma kind::mxf4 / kind::mxf4nvf4.block16 with the operands packed in
# shared memory and the scales in tensor memory; every other target (and
# shape) decomposes them into f32 operands and mmaf. The operands are loaded
# from memory packed two to a byte.

setup() {
  MXF4="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_mxf4.mlir"
  NVF4="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_nvf4.mlir"
  KERNEL="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  HELPERS="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/fp4_reference.py"
  TCGEN05_CHECKS="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/tcgen05_fp4.check"
  TMP="$(mktemp -d)"
}

# kernel KIND M N K [BATCH]: kernel.py's f4 mmaf_scaled of KIND (mxf4: e8m0
# scales per 32 k; nvf4: e4m3 per 16 k).
kernel() {
  local block=32 scale=f8E8M0FNU
  [ "$1" = mxf4 ] || { block=16; scale=f8E4M3FN; }
  local gen=(--m "$2" --n "$3" --k "$4" --ks $(($4 / block)) --a f4E2M1FN --scale "$scale")
  [ "${5:-0}" = 0 ] || gen+=(--batch "$5")
  "$KERNEL" "${gen[@]}"
}

teardown() {
  rm -rf "$TMP"
}

@test "sm_120 and sm_121 (plain, a or f) keep mxf4 and nvf4 multiplies block-scaled" {
  for f in "$MXF4" "$NVF4"; do
    for gpu in sm_120 sm_121 sm_120a sm_121a sm_120f sm_121f; do
      run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$f' | FileCheck --check-prefix=KEEP '$f'"
      [ "$status" -eq 0 ] || { echo "$f $gpu: $output"; false; }
    done
  done
}

@test "other targets decompose f4 multiplies into scaled f32 operands and mmaf" {
  for f in "$MXF4" "$NVF4"; do
    for gpu in sm_80 sm_90 sm_90a sm_100a ""; do
      run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$f' | FileCheck --check-prefix=SPLIT '$f'"
      [ "$status" -eq 0 ] || { echo "$f '$gpu': $output"; false; }
    done
  done
}

@test "sm_120 PTX: kind::mxf4 and kind::mxf4nvf4 mma.sync, ptxas takes them (sm_120a, sm_120f) without spills or stack" {
  for f in "$MXF4" "$NVF4"; do
    run bash -c "tileiras --gpu-name sm_120 --emit=ptx -o - '$f' | FileCheck --check-prefix=PTX '$f'"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
    # The family target sm_120f has them too (its PTX keeps .target sm_120f).
    for gpu in sm_120a sm_120f; do
      tileiras --gpu-name $gpu --emit=ptx -o "$TMP/k.ptx" "$f"
      grep -q "^.target $gpu" "$TMP/k.ptx" && grep -q 'mma.sync.aligned.m16n8k64.row.col.kind::mxf4' "$TMP/k.ptx" ||
        { echo "$f $gpu: no block-scaled mma.sync"; false; }
      run "${TILEPIPE_PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=$gpu -v -o "$TMP/k.cubin" "$TMP/k.ptx"
      [ "$status" -eq 0 ] || { echo "$f $gpu: $output"; false; }
      [[ "$output" == *" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$f $gpu: $output"; false; }
    done
  done
}

# fp4_case KIND M N K BATCH(0: 2-D) GPU [ATOL]: the kernel of KIND (mxf4:
# e8m0 scales per 32 k; nvf4: e4m3 per 16; nvf4-signed: e4m3 bytes with the
# sign bit set) compiled for GPU and run in
# tile-emu against numpy, which decodes the packed e2m1 operands and the
# scales itself (fp4_reference.py). The emulated tensor cores round the sum
# once; ATOL (default 1e-3) allows for an f32 FMA chain's roundings.
fp4_case() {
  local kind=$1 m=$2 n=$3 k=$4 batch=$5 gpu=$6 atol=${7:-1e-3} lead="" block=32 decode=e8m0
  local sbits="integers(120, 135"
  if [ "$kind" = nvf4 ]; then
    block=16 decode=e4m3 sbits="integers(0x28, 0x48"
  elif [ "$kind" = nvf4-signed ]; then
    # Scale bytes with bit 7 set: read unsigned (ue4m3) on every path.
    block=16 decode=ue4m3 sbits="integers(0xA8, 0xC8"
  fi
  local ks=$((k / block))
  [ "$batch" = 0 ] || lead="$batch,"
  kernel "${kind%-signed}" "$m" "$n" "$k" "$batch" > "$TMP/k.mlir" || return 3
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

@test "sm_100, 103 and 110 (plain, a or f) keep 128-row mxf4 and nvf4 multiplies block-scaled; 32 rows decompose" {
  for kind in mxf4 nvf4; do
    kernel "$kind" 128 32 128 > "$TMP/$kind.mlir"
    for gpu in sm_100 sm_100a sm_103a sm_110 sm_100f sm_103f sm_110f; do
      run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$TMP/$kind.mlir' | grep -c 'tile_aa.mmaf_scaled'"
      [ "$output" = 1 ] || { echo "$kind $gpu: $output"; false; }
    done
  done
  for f in "$MXF4" "$NVF4"; do
    run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=sm_100a' '$f' | FileCheck --check-prefix=SPLIT '$f'"
    [ "$status" -eq 0 ] || { echo "$f: $output"; false; }
  done
}

@test "sm_100 PTX: kind::mxf4 and kind::mxf4nvf4.block16 tcgen05.mma on packed operands; ptxas (sm_100a) takes them without spills or stack; -v names the kind" {
  for kind in mxf4 nvf4; do
    kernel "$kind" 128 32 128 > "$TMP/k.mlir"
    local prefix=MXF4
    [ "$kind" = mxf4 ] || prefix=NVF4
    run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir' | FileCheck --check-prefix=$prefix '$TCGEN05_CHECKS'"
    [ "$status" -eq 0 ] || { echo "$kind: $output"; false; }
    tileiras --gpu-name sm_100a --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
    run "${TILEPIPE_PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_100a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
    [ "$status" -eq 0 ] || { echo "$kind: $output"; false; }
    [[ "$output" == *" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$kind: $output"; false; }
  done
  run tileiras -v --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"k.mlir:"*"remark: tcgen05.mma kind::mxf4nvf4.block_scale.block16 (scale_vec::4X: four ue4m3 scales per row and k step of 64, e2m1 packed in shared memory) for this mmaf_scaled"* ]] ||
    { echo "$output"; false; }
}

@test "mxf4 tcgen05.mma matches numpy in tile-emu (sm_100): scale words, row blocks, batched, K chunks" {
  fp4_case mxf4 128 16 128 0 sm_100
  # 8 k blocks: two scale words per row and column; SFA_ID 0 and 2.
  fp4_case mxf4 128 32 256 0 sm_100
  # Two 128-row blocks of D.
  fp4_case mxf4 256 64 64 0 sm_100
  fp4_case mxf4 128 16 64 2 sm_100
  # K staged (and packed) in several chunks.
  fp4_case mxf4 128 16 512 0 sm_100 1
}

@test "nvf4 tcgen05.mma matches numpy in tile-emu (sm_100): four ue4m3 scales per k step, sign bits read unsigned" {
  fp4_case nvf4 128 16 128 0 sm_100
  fp4_case nvf4 128 32 256 0 sm_100
  fp4_case nvf4 128 16 64 2 sm_100
  fp4_case nvf4-signed 128 16 128 0 sm_100
}
