#!/usr/bin/env bats
# tile_aa/tile_as.mmaf_scaled on Blackwell (sm_100/103/110, plain or a):
# CudaTileToTileAA keeps the fp8 block-scaled multiply when tcgen05 tiles it
# (M a multiple of 128, N of 16, staging and scales fitting), AssignLayouts
# gives its accumulator the tcgen05.ld layout, and tile-llvm lowers it to
# tcgen05.mma kind::mxf8f6f4.block_scale with the e8m0 scales copied into
# tensor memory (BlockScaledTcgen05ToLLVM.cpp); tile-emu runs it against
# numpy.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/scaled_fp8.mlir"
  CHECKS="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/inputs/tcgen05.check"
  KERNEL="$TILEPIPE_SOURCE_DIR/tests/lower-scaled/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# kernel M N K A-TYPE B-TYPE [BATCH]: kernel.py's mmaf_scaled, e8m0 scales per 32 k.
kernel() {
  local gen=(--m "$1" --n "$2" --k "$3" --ks $(($3 / 32)) --a "$4" --b "$5" --scale f8E8M0FNU)
  [ "${6:-0}" = 0 ] || gen+=(--batch "$6")
  "$KERNEL" "${gen[@]}"
}

@test "sm_100, 103 and 110 (plain, a or f) keep a 128-row fp8 multiply block-scaled; 32 rows and N = 512 decompose" {
  kernel 128 32 128 f8E4M3FN f8E4M3FN > "$TMP/k.mlir"
  for gpu in sm_100 sm_100a sm_103 sm_103a sm_110 sm_110a sm_100f sm_103f sm_110f; do
    run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=$gpu' '$TMP/k.mlir' | grep -c 'tile_aa.mmaf_scaled'"
    [ "$output" = 1 ] || { echo "$gpu: $output"; false; }
  done
  run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=sm_100' '$IN' | grep -c 'tile_aa.mmaf_scaled'"
  [ "$output" = 0 ] || { echo "32 rows: $output"; false; }
  # N = 512: one 128-row block of D and the scales exceed 512 tensor-memory columns.
  kernel 128 512 64 f8E4M3FN f8E4M3FN > "$TMP/wide.mlir"
  run bash -c "tile-opt --tilepipe-convert-cuda-tile-to-tile-aa='gpu-name=sm_100' '$TMP/wide.mlir' | grep -c 'tile_aa.mmaf_scaled'"
  [ "$output" = 0 ] || { echo "N = 512: $output"; false; }
}

@test "sm_100 PTX: scales into tensor memory, tcgen05.mma kind::mxf8f6f4.block_scale on sm_100a; ptxas takes the cubins" {
  kernel 128 32 128 f8E4M3FN f8E4M3FN > "$TMP/k.mlir"
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir' | FileCheck --check-prefix=PTX '$CHECKS'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for gpu in sm_100 sm_100a sm_103 sm_110; do
    run tileiras --gpu-name "$gpu" -o "$TMP/k.$gpu.cubin" "$TMP/k.mlir"
    [ "$status" -eq 0 ] && [ -s "$TMP/k.$gpu.cubin" ] || { echo "$gpu: $output"; false; }
  done
  tileiras --gpu-name sm_100 --emit=llvm -o "$TMP/k.ll" "$TMP/k.mlir"
  run tile-ptx -v --gpu-name sm_100 -o "$TMP/k.ptx" "$TMP/k.ll"
  [[ "$output" == "tile-ptx: .target sm_100a: the module uses tcgen05, which only the arch-specific target has" ]] ||
    { echo "$output"; false; }
}

# E4M3/E5M2 bit patterns (int32 words) as float64, and e8m0 scale bits as
# powers of two.
E4M3="(lambda u: np.where((u & 0x7F) == 0x7F, np.nan, np.where(u & 0x80, -1, 1) * np.where((u >> 3) & 15, (8 + (u & 7)) * 2.0 ** (((u >> 3) & 15).astype(np.int32) - 10), (u & 7) * 2.0 ** -9)))"
E5M2="(lambda u: (u.astype(np.uint16) << 8).view(np.float16).astype(np.float64))"
E8M0="(lambda bits: np.exp2(bits.astype(np.float64) - 127))"

# tcgen05_case M N K A-TYPE B-TYPE BATCH(0: 2-D): the kernel compiled for
# sm_100 and run in tile-emu against numpy.
tcgen05_case() {
  local m=$1 n=$2 k=$3 ta=$4 tb=$5 batch=$6 lead="" ks=$(($3 / 32))
  kernel "$@" > "$TMP/k.mlir" || return 3
  [ "$batch" = 0 ] || lead="$batch,"
  local rng="np.random.default_rng(5)" kdim=$([ "$batch" != 0 ] && echo 2 || echo 1)
  local bits="($rng.integers(0, 0x48, SHAPE) | ($rng.integers(0, 2, SHAPE) << 7)).astype(np.int32)"
  local da=$E4M3 db=$E4M3
  [ "$ta" = f8E4M3FN ] || da=$E5M2
  [ "$tb" = f8E4M3FN ] || db=$E5M2
  local ra="np.repeat($E8M0(sa), 32, axis=$kdim)" rb="np.repeat($E8M0(sb), 32, axis=$((kdim - 1)))"
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --gpu-name sm_100 --bin "$TILEPIPE_BIN" \
    --array "a=${bits//SHAPE/($lead$m,$k)}" --array "b=${bits//SHAPE/($lead$k,$n)}" \
    --array "sa=$rng.integers(120, 135, ($lead$m,$ks)).astype(np.int32)" \
    --array "sb=$rng.integers(120, 135, ($lead$ks,$n)).astype(np.int32)" \
    --array "c=$rng.standard_normal(($lead$m,$n)).astype(np.float32)" \
    --array "d_out=np.zeros(($lead$m,$n), np.float32)" \
    --expect "d_out = ($da(a) * $ra) @ ($db(b) * $rb) + c" --rtol 1e-5 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "tcgen05 block-scaled $m x $n x $k $ta x $tb batch=$batch: $output"; false; }
}

@test "tcgen05 block-scaled mma matches numpy in tile-emu (sm_100): fp8 kinds, scale words, row-block groups, batched" {
  tcgen05_case 128 16 64 f8E4M3FN f8E4M3FN 0
  # 8 k blocks: two scale words per row and column (SFA_ID / SFB_ID 0-3).
  tcgen05_case 128 32 256 f8E4M3FN f8E5M2 0
  # 256 x 256: D of both row blocks and the scales exceed 512 columns, so
  # the row blocks take turns.
  tcgen05_case 256 256 64 f8E5M2 f8E4M3FN 0
  tcgen05_case 128 16 64 f8E5M2 f8E5M2 2
}

@test "on sm_100 without the tcgen05 accumulator layout mmaf_scaled fails cleanly in tile-llvm (exit 5, located)" {
  kernel 128 32 128 f8E4M3FN f8E4M3FN > "$TMP/k.mlir"
  tile-lower --gpu-name sm_100 "$TMP/k.mlir" -o "$TMP/k.lower.mlir"
  tile-opt --tilepipe-assign-layouts='tensor-cores=false' "$TMP/k.lower.mlir" -o "$TMP/k.sched.mlir"
  run tile-llvm "$TMP/k.sched.mlir" -o "$TMP/k.ll"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"k.sched.mlir:"*"error: 'tile_as.mmaf_scaled' op on a tcgen05 target needs the tcgen05 accumulator layout"* ]] ||
    { echo "$output"; false; }
}
