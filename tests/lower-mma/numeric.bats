#!/usr/bin/env bats
# mmaf/mmai computed in tile-emu against numpy: f16/bf16/f32/tf32 inputs with
# f32 (and f16) accumulators, fp8 (e4m3, e5m2) inputs, f64, i8 x i8 -> i32
# (signed and unsigned), square, non-square, batched 3-D, K split into several
# shared-memory chunks, and a MatMul-sized tile whose k loop stays a loop;
# the f16/bf16 shapes again on sm_90a, where they take the wgmma path, and
# on sm_100, where they take the tcgen05 path; the
# mma.sync kinds (sync_case: f16/bf16 m16n8k16, tf32 m16n8k8, fp8 on sm_89
# and later and s8/u8 m16n8k32) on warp grids, K chunks, batched and ragged.
# Every accumulator is random (non-zero). Kernels come from kernel.py;
# emu-check.py compiles and runs them.

# fp8 bit patterns (uint8 arrays) as numpy float64 values.
E4M3="(lambda u: np.where((u & 0x7F) == 0x7F, np.nan, np.where(u & 0x80, -1, 1) * np.where((u >> 3) & 15, (8 + (u & 7)) * 2.0 ** (((u >> 3) & 15).astype(np.int32) - 10), (u & 7) * 2.0 ** -9)))"
E5M2="(lambda u: (u.astype(np.uint16) << 8).view(np.float16).astype(np.float64))"

setup() {
  KERNEL="$BATS_TEST_DIRNAME/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
  RNG="np.random.default_rng(11)"
  # numpy view of an emu-check bf16 array (uint16 bit patterns) as f32.
  BF="(lambda v: (v.astype(np.uint32) << 16).view(np.float32))"
  # f32 values rounded toward zero to tf32.
  TF32="(lambda v: (np.asarray(v, np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32))"
  # f32 values rounded to nearest even to tf32 (cuTile's ftof; finite
  # values of magnitude far below the largest).
  TF32RN="(lambda v: (lambda u: ((u + 0xFFF + ((u >> 13) & 1)) & 0xFFFFE000).astype(np.uint32).view(np.float32))(np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)))"
}

teardown() {
  rm -rf "$TMP"
}

# mma_case M N K A-TYPE ACC-TYPE BATCH(0: 2-D) [-- emu-check args]
# (MMA_FROM_F32=1 with tf32: A and B are f32 arrays the kernel rounds with
# ftof. MMA_WARPS=N: the kernel asks for N warps. MMA_VALID=VM,VN,VK (2-D only):
# the views cover only VM x VK of A, VK x VN of B and VM x VN of C and D, so
# the tiles overhang them into random data that must read as zero padding.
# MMA_B_KMAJOR=1 (2-D only): the array b holds B^T, N x K, which the kernel
# reads through a dim_map'd view as FMHA reads K^T. MMA_COMPILE=FUNCTION:
# FUNCTION KERNEL.mlir KERNEL.ll compiles the kernel instead of emu-check's
# tileiras. MMA_K_TILE=KT (2-D only): the kernel multiplies in a K loop
# over tiles of KT, as cuTile's matmuls.)
# A and B are standard normal (f16/bf16/f32/tf32), small fp8 values of
# either sign, or in [-128, 128) (i8).
mma_case() {
  local m=$1 n=$2 k=$3 ta=$4 tacc=$5 batch=${6:-0}
  shift 6
  [ "${1:-}" != "--" ] || shift
  # MMA_FROM_F32: the kernel loads f32 and converts (kernel.py --ftof-tf32).
  local lead="" ka=$ta
  [ -z "${MMA_FROM_F32:-}" ] || ka=f32
  local gen=(--m "$m" --n "$n" --k "$k" --a "$ka" --acc "$tacc")
  if [ "$batch" != 0 ]; then lead="$batch,"; gen+=(--batch "$batch"); fi
  [ -z "${MMA_WARPS:-}" ] || gen+=(--warps "$MMA_WARPS")
  [ -z "${MMA_VALID:-}" ] || gen+=(--valid "$MMA_VALID")
  [ -z "${MMA_FROM_F32:-}" ] || gen+=(--ftof-tf32)
  [ -z "${MMA_K_TILE:-}" ] || gen+=(--k-tile "$MMA_K_TILE")
  local sb="($lead$k,$n)" bm=b
  if [ -n "${MMA_B_KMAJOR:-}" ]; then gen+=(--b-kmajor); sb="($n,$k)"; bm=b.T; fi
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  local kernel="$TMP/k.mlir"
  if [ -n "${MMA_COMPILE:-}" ]; then
    "$MMA_COMPILE" "$TMP/k.mlir" "$TMP/k.ll" || return 3
    kernel="$TMP/k.ll"
  fi
  local sa="($lead$m,$k)" sc="($lead$m,$n)" a b c d
  case $ta in
    f16) a="a=$RNG.standard_normal($sa).astype(np.float16)"
         b="b=$RNG.standard_normal($sb).astype(np.float16)"
         d="a.astype(np.float32) @ b.astype(np.float32)" ;;
    bf16) a="a=bf16($RNG.standard_normal($sa))"
          b="b=bf16($RNG.standard_normal($sb))"
          d="$BF(a) @ $BF(b)" ;;
    f32) a="a=$RNG.standard_normal($sa).astype(np.float32)"
         b="b=$RNG.standard_normal($sb).astype(np.float32)"
         d="a @ b" ;;
    # tf32 values (f32 with the low 13 mantissa bits clear), so the products
    # are exact and only the f32 sums round.
    tf32) a="a=$TF32($RNG.standard_normal($sa))"
          b="b=$TF32($RNG.standard_normal($sb))"
          d="a.astype(np.float64) @ b.astype(np.float64)"
          if [ -n "${MMA_FROM_F32:-}" ]; then
            a="a=$RNG.standard_normal($sa).astype(np.float32)"
            b="b=$RNG.standard_normal($sb).astype(np.float32)"
            d="$TF32RN(a).astype(np.float64) @ $TF32RN(b).astype(np.float64)"
          fi ;;
    f8E4M3FN|f8E5M2)
        # Bit patterns of magnitude below 4 (e4m3) or 8 (e5m2), either sign.
        local bits="($RNG.integers(0, 0x48, SHAPE) | ($RNG.integers(0, 2, SHAPE) << 7)).astype(np.uint8)"
        local decode=$E4M3
        [ "$ta" = f8E4M3FN ] || decode=$E5M2
        a="a=${bits//SHAPE/$sa}"
        b="b=${bits//SHAPE/$sb}"
        d="$decode(a) @ $decode(b)" ;;
    i8) a="a=$RNG.integers(-128, 128, $sa).astype(np.int8)"
        b="b=$RNG.integers(-128, 128, $sb).astype(np.int8)"
        d="a.astype(np.int32) @ b.astype(np.int32)" ;;
  esac
  case $tacc in
    f32) c="c=$RNG.standard_normal($sc).astype(np.float32)" ;;
    f16) c="c=$RNG.standard_normal($sc).astype(np.float16)"
         d="($d + c.astype(np.float32)).astype(np.float16)" ;;
    i32) c="c=$RNG.integers(-100000, 100000, $sc).astype(np.int32)" ;;
  esac
  [ "$tacc" = f16 ] || d="$d + c"
  if [ -n "${MMA_VALID:-}" ]; then
    local vm vn vk
    IFS=, read -r vm vn vk <<< "$MMA_VALID"
    d="np.pad((lambda a, b, c: $d)(a[:$vm, :$vk], $bm[:$vk, :$vn], c[:$vm, :$vn]), ((0, $((m - vm))), (0, $((n - vn)))))"
  elif [ "$bm" != b ]; then
    d="(lambda b: $d)($bm)"
  fi
  run /usr/bin/python3 "$CHECK" "$kernel" --entry k --bin "$TILEPIPE_BIN" \
    --array "$a" --array "$b" --array "$c" --array "d_out=np.zeros($sc, c.dtype)" \
    --expect "d_out = $d" "$@"
  [ "$status" -eq 0 ] || { echo "mma $m x $n x $k $ta -> $tacc batch=$batch: $output"; false; }
}

@test "mmaf 16x16x16: f16, bf16, f32 and tf32 inputs into f32" {
  mma_case 16 16 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 16 16 16 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 16 16 16 f32 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 16 16 16 tf32 f32 0 -- --rtol 2e-2 --atol 2e-2
}

@test "mmaf 64x64x32: f16, bf16, f32 and tf32 inputs into f32" {
  mma_case 64 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 64 64 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 64 64 32 f32 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 64 64 32 tf32 f32 0 -- --rtol 2e-2 --atol 5e-2
}

@test "mmaf non-square, K in two shared-memory chunks (64x32x128 f32)" {
  mma_case 32 8 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  mma_case 64 32 128 f32 f32 0 -- --rtol 1e-4 --atol 1e-4
}

@test "mmaf into an f16 accumulator" {
  mma_case 32 32 16 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
}

@test "mmaf batched 3-D (2x16x16 by 2x16x32)" {
  mma_case 16 32 16 f32 f32 2 -- --rtol 1e-4 --atol 1e-4
}

@test "mmai i8 x i8 -> i32, signed and unsigned" {
  mma_case 32 32 64 i8 i32 0
  "$KERNEL" --m 16 --n 16 --k 32 --a i8 --acc i32 --unsigned-lhs > "$TMP/u.mlir"
  run /usr/bin/python3 "$CHECK" "$TMP/u.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=$RNG.integers(0, 256, (16, 32)).astype(np.uint8).view(np.int8)" \
    --array "b=$RNG.integers(-128, 128, (32, 16)).astype(np.int8)" \
    --array "c=$RNG.integers(-1000, 1000, (16, 16)).astype(np.int32)" \
    --array "d_out=np.zeros((16, 16), np.int32)" \
    --expect "d_out = a.view(np.uint8).astype(np.int32) @ b.astype(np.int32) + c"
  [ "$status" -eq 0 ] || { echo "unsigned mmai: $output"; false; }
}

@test "mmaf 128x64 by 64x256 (the MatMul tile): k stays a loop, runs in seconds" {
  # 256 accumulators per thread; unrolled over k this was 16K FMAs (minutes
  # in ptxas and the emulator). f32 takes the FMA path, one loop body per K
  # chunk; f16 the mma.sync path, one loop body of 4 x 16 mma.sync per chunk.
  "$KERNEL" --m 128 --n 256 --k 64 --a f32 --acc f32 > "$TMP/big.mlir"
  run bash -c "tileiras --gpu-name sm_80 --emit=llvm -o - '$TMP/big.mlir' | grep -c 'call float @llvm.fma.f32'"
  [ "$status" -eq 0 ] && [ "$output" -le 1024 ] || { echo "FMAs in the IR: $output"; false; }
  "$KERNEL" --m 128 --n 256 --k 64 --a f16 --acc f32 > "$TMP/big16.mlir"
  run bash -c "tileiras --gpu-name sm_80 --emit=llvm -o - '$TMP/big16.mlir' | grep -c 'call { float, float, float, float } @llvm.nvvm.mma.m16n8k16'"
  [ "$status" -eq 0 ] && [ "$output" -le 128 ] || { echo "mma.sync calls in the IR: $output"; false; }
  mma_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3
}

@test "mma.sync path: f16/bf16 tiles on every warp grid (N wrapping, 1, 2, 8 warps)" {
  mma_case 16 16 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4   # 1x4 warps, N wraps
  mma_case 32 8 16 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4   # 2x2 warps, N wraps
  mma_case 16 64 64 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4  # four k steps
  mma_case 64 16 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_WARPS=1 mma_case 16 8 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_WARPS=2 mma_case 32 32 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_WARPS=8 mma_case 64 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
}

@test "mma.sync path: K in several shared-memory chunks, f16 accumulator, batched 3-D" {
  mma_case 128 128 256 f16 f32 0 -- --rtol 1e-4 --atol 2e-3
  mma_case 32 32 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
  mma_case 32 16 32 bf16 f32 2 -- --rtol 1e-4 --atol 1e-4
  mma_case 16 16 16 f16 f16 4 -- --rtol 2e-3 --atol 2e-2
}

# sync_case SM INSTRUCTION M N K A-TYPE ACC-TYPE BATCH [-- emu-check args]:
# mma_case on SM, whose PTX must contain INSTRUCTION (an mma.sync) and no
# FMAs.
sync_case() {
  local sm=$1 instruction=$2
  shift 2
  mma_case "$@" --gpu-name "$sm"
  run bash -c "tileiras --gpu-name $sm --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"$instruction"* && "$output" != *fma.rn.f32* ]] ||
    { echo "$sm $*: no $instruction, or FMAs, in the PTX"; false; }
}

E4M3_MMA=mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
E5M2_MMA=mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32

# (32-row tiles of 4 warps take wgmma at M = 64 on sm_90: sm_120 instead.)
@test "mma.sync path, fp8 (sm_89, sm_120, sm_90): e4m3 and e5m2 on warp grids (1, 4, 8 warps), N wrapping" {
  for sm in sm_89 sm_120; do
    sync_case $sm $E4M3_MMA 32 16 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
    sync_case $sm $E5M2_MMA 16 16 32 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-4
  done
  MMA_WARPS=1 sync_case sm_89 $E4M3_MMA 16 8 32 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_WARPS=8 sync_case sm_90 $E5M2_MMA 64 64 128 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-4
}

# (On sm_90 these accumulators tile by warpgroups and take wgmma: sm_89.)
@test "mma.sync path, fp8: K in several shared-memory chunks, f16 accumulator, batched 3-D, ragged edges" {
  sync_case sm_89 $E4M3_MMA 128 128 512 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-3
  sync_case sm_89 $E5M2_MMA 32 32 64 f8E5M2 f16 0 -- --rtol 2e-3 --atol 2e-2
  sync_case sm_89 $E4M3_MMA 32 16 64 f8E4M3FN f32 2 -- --rtol 1e-5 --atol 1e-4
  MMA_VALID=50,60,40 sync_case sm_89 $E4M3_MMA 64 64 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
}

# fp8 A and B copied by cp.async (B [K][N] as in global memory; .ca where
# the square tiles share their mask with the f32 accumulator's load, whose
# 4-element runs then bound theirs) into the
# paired-column accumulator, whose B fragments ldmatrix.x4.trans and prmt
# build (lowering.bats pins the IR): e4m3 and e5m2, warp grids with 1, 2
# and 4 spans of 16 columns per warp, two K chunks, ragged M, N and K.
@test "mma.sync path, fp8 by cp.async: B fragments from ldmatrix.trans + prmt, e4m3 and e5m2, spans, K chunks, ragged" {
  local cases=("sm_89 $E4M3_MMA 64 64 64 f8E4M3FN" "sm_120 $E5M2_MMA 32 128 64 f8E5M2"
               "sm_120 $E4M3_MMA 128 256 256 f8E4M3FN")
  local c
  for c in "${cases[@]}"; do
    set -- $c
    sync_case "$1" "$2" "$3" "$4" "$5" "$6" f32 0 -- --rtol 1e-5 --atol 1e-3
    run bash -c "tileiras --gpu-name $1 --emit=ptx -o - '$TMP/k.mlir'"
    [[ "$output" == *"cp.async.c"[ag]".shared.global"* && "$output" == *"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"* &&
       "$output" == *"prmt.b32"* ]] || { echo "$c: no cp.async, ldmatrix.trans or prmt"; false; }
  done
  MMA_VALID=50,40,72 sync_case sm_89 $E5M2_MMA 64 64 128 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-3
}

S8_MMA=mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

@test "mma.sync path, mmai s8 (m16n8k32): warp grids, K chunks, batched 3-D, ragged edges" {
  sync_case sm_80 $S8_MMA 32 32 64 i8 i32 0
  MMA_WARPS=1 sync_case sm_86 $S8_MMA 16 8 32 i8 i32 0
  MMA_WARPS=8 sync_case sm_80 $S8_MMA 64 64 128 i8 i32 0
  sync_case sm_89 $S8_MMA 128 128 512 i8 i32 0
  sync_case sm_80 $S8_MMA 32 16 64 i8 i32 2
  MMA_VALID=50,60,40 sync_case sm_90 $S8_MMA 64 64 64 i8 i32 0
}

# mmai_signs UNSIGNED-FLAGS INSTRUCTION A-DTYPE B-DTYPE: a 32x32x64 mmai
# with the operands' signedness (A and B random bytes read as the numpy
# dtypes, int8 or uint8), accumulators near the i32 limits so that the sums
# wrap (as mmai's adds do; mma.sync without .satfinite).
mmai_signs() {
  local flags=$1 instruction=$2 ta=$3 tb=$4
  "$KERNEL" --m 32 --n 32 --k 64 --a i8 --acc i32 $flags > "$TMP/u.mlir"
  run /usr/bin/python3 "$CHECK" "$TMP/u.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=$RNG.integers(0, 256, (32, 64)).astype(np.uint8).view(np.int8)" \
    --array "b=$RNG.integers(0, 256, (64, 32)).astype(np.uint8).view(np.int8)" \
    --array "c=np.where($RNG.integers(0, 2, (32, 32)) == 1, 2**31 - 1000, -2**31 + 1000).astype(np.int32)" \
    --array "d_out=np.zeros((32, 32), np.int32)" \
    --expect "d_out = (a.view(np.$ta).astype(np.int64) @ b.view(np.$tb).astype(np.int64) + c).astype(np.uint32).view(np.int32)"
  [ "$status" -eq 0 ] || { echo "$flags: $output"; return 1; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$TMP/u.mlir'"
  [[ "$output" == *"$instruction"* ]] || { echo "$flags: no $instruction"; return 1; }
}

@test "mma.sync path, mmai: u8 and s8 operands in each combination, sums wrap" {
  mmai_signs "" $S8_MMA int8 int8
  mmai_signs --unsigned-lhs mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 uint8 int8
  mmai_signs --unsigned-rhs mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 int8 uint8
  mmai_signs "--unsigned-lhs --unsigned-rhs" mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 uint8 uint8
}

TF32_MMA=mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

# tf32 operands (exact tf32 values: the products are exact, only the f32
# sums round) take m16n8k8; f32 operands keep the FMA path, exact in f32
# (1e-5 fails if they are read as tf32).
@test "mma.sync path, tf32 (m16n8k8): warp grids, K chunks, batched 3-D, ragged edges; f32 stays exact" {
  sync_case sm_80 $TF32_MMA 32 16 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_WARPS=1 sync_case sm_90 $TF32_MMA 16 8 8 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_WARPS=8 sync_case sm_86 $TF32_MMA 64 64 64 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  sync_case sm_80 $TF32_MMA 128 64 256 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  sync_case sm_89 $TF32_MMA 32 16 32 tf32 f32 2 -- --rtol 1e-5 --atol 1e-5
  MMA_VALID=50,60,20 sync_case sm_80 $TF32_MMA 64 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  mma_case 64 64 64 f32 f32 0 -- --rtol 1e-5 --atol 1e-5 --gpu-name sm_90
  run bash -c "tileiras --gpu-name sm_90 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" != *mma.sync* && "$output" == *fma.rn.f32* ]] || { echo "f32 operands took mma.sync"; false; }
}

# cuTile's tf32 matmuls load f32 and round it with ftof: the raw f32 tiles
# are copied by cp.async and the fragments rounded (to nearest even) after
# ldmatrix. Random f32 inputs: 1e-5 fails if the rounding truncates (as the
# tensor cores would) or is skipped. Ragged edges pad with zeros.
@test "mma.sync path, f32 loads rounded to tf32 by ftof: copied by cp.async, fragments rounded to nearest even" {
  MMA_FROM_F32=1 sync_case sm_80 $TF32_MMA 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_FROM_F32=1 MMA_VALID=30,28,20 sync_case sm_89 $TF32_MMA 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_FROM_F32=1 MMA_WARPS=8 sync_case sm_120 $TF32_MMA 64 128 64 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_FROM_F32=1 sync_case sm_80 $TF32_MMA 32 16 32 tf32 f32 2 -- --rtol 1e-5 --atol 1e-5
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *cp.async.ca.shared.global* && "$output" != *st.shared* ]] ||
    { echo "batched f32 operands not copied by cp.async"; false; }
  # Extents of no proven divisor (K 21, N 27): single 4-byte copies, each
  # with its own mask bit, as in cuTile's non-multiple MatMul.
  MMA_FROM_F32=1 MMA_VALID=30,27,21 sync_case sm_80 $TF32_MMA 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"cp.async.ca.shared.global"*", 4, "* && "$output" != *", 8, "* && "$output" != *st.shared* ]] ||
    { echo "unproven runs not copied a 4-byte element at a time"; false; }
}

# wgmma_case: mma_case on sm_90a, whose PTX must take the wgmma path.
wgmma_case() {
  mma_case "$@" --gpu-name sm_90a
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir' | grep -c wgmma.mma_async"
  [ "$status" -eq 0 ] && [ "$output" -ge 1 ] || { echo "$*: no wgmma.mma_async in the sm_90a PTX"; false; }
}

@test "wgmma path (sm_90a): one warpgroup, f16 and bf16, N from 8 to 256, K in one or more steps" {
  wgmma_case 64 64 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 64 8 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 64 128 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3   # 2 row pairs, 2 K chunks
}

@test "wgmma path (sm_90a): two warpgroups, N above 256, K in several chunks" {
  MMA_WARPS=8 wgmma_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3
  MMA_WARPS=8 wgmma_case 256 64 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_WARPS=4 wgmma_case 64 512 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 128 128 256 f16 f32 0 -- --rtol 1e-4 --atol 2e-3
}

@test "wgmma path (sm_90a): f16 accumulator, batched 3-D" {
  wgmma_case 64 64 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
  wgmma_case 64 32 32 bf16 f32 2 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 128 16 16 f16 f16 4 -- --rtol 2e-3 --atol 2e-2
}

# wgmma_kind_case INSTRUCTION wgmma_case-args: wgmma_case, whose sm_90a PTX
# must have INSTRUCTION and a B descriptor of a K-major layout: wgmma reads
# tf32 and fp8 B only K-major, so the lowering stages it transposed.
wgmma_kind_case() {
  local instruction=$1
  shift
  wgmma_case "$@"
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"$instruction"* ]] || { echo "$*: no $instruction in the PTX"; false; }
}

# fp8_stages KERNEL.mlir KERNEL.ll: the stage tools for sm_90a, tile-sched's
# passes run by tile-opt with tilepipe-promote-fp8-accumulation's interval
# FP8_INTERVAL (k steps per promotion).
fp8_stages() {
  local passes
  passes=$(tile-sched --print-pipeline |
    sed "s/^tilepipe-promote-fp8-accumulation\$/&{interval=$FP8_INTERVAL}/" | paste -sd, -)
  tile-read "$1" -o "$2.read.mlir" && tile-lower --gpu-name sm_90a "$2.read.mlir" -o "$2.lowered.mlir" &&
    tile-opt "--pass-pipeline=builtin.module($passes)" "$2.lowered.mlir" -o "$2.sched.mlir" &&
    tile-llvm "$2.sched.mlir" -o "$2"
}

# fp8_promoted_case INTERVAL INSTRUCTION wgmma_case-args: wgmma_case through
# fp8_stages, whose LLVM IR must have INSTRUCTION and more than one
# promotion per K chunk where INTERVAL is below the chunk's k steps:
# wgmmas with scale-d 0 (temporaries started from zero) and, after
# wgmma.wait_group with them tied through, add.f32 into the accumulator.
fp8_promoted_case() {
  local interval=$1 instruction=$2
  shift 2
  FP8_INTERVAL=$interval MMA_COMPILE=fp8_stages mma_case "$@" --gpu-name sm_90a
  grep -q "wgmma.mma_async.sync.aligned.$instruction" "$TMP/k.ll" &&
    grep -q 'i64 %[0-9]*, i32 0, i32 1, i32 1)' "$TMP/k.ll" &&
    grep -q 'wgmma.wait_group.sync.aligned 1;' "$TMP/k.ll" && grep -q 'fadd float' "$TMP/k.ll" ||
    { echo "$*: no promoted $instruction (scale-d 0, tied wait_group 1, fadd)"; false; }
}

# Promoted fp8 accumulation (tilepipe-promote-fp8-accumulation): intervals
# below K and below a chunk (several promotions per chunk, the last
# interval ragged: 3 + 1 of K 128's 4 k steps), N pieces (a 64 x 256
# warpgroup tile: 4 pieces of 64 columns, double-buffered), padding rows
# (32 rows at M = 64), batched, ragged views, an f16 accumulator. The sums
# are exact in tile-emu, so this checks that every temporary is added once
# into its own registers.
@test "wgmma path (sm_90a): fp8 sums promoted into f32 every 1 to 3 k steps; N pieces, ragged intervals, padding rows, batched, ragged views" {
  fp8_promoted_case 3 m64n128k32.f32.e4m3.e4m3 64 128 128 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_WARPS=8 fp8_promoted_case 1 m64n64k32.f32.e4m3.e4m3 128 256 128 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-3
  fp8_promoted_case 2 m64n64k32.f32.e5m2.e5m2 32 64 128 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-3
  fp8_promoted_case 1 m64n32k32.f32.e4m3.e4m3 64 32 64 f8E4M3FN f32 2 -- --rtol 1e-5 --atol 1e-4
  MMA_VALID=50,60,40 fp8_promoted_case 1 m64n64k32.f32.e4m3.e4m3 64 64 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  fp8_promoted_case 3 m64n32k32.f32.e4m3.e4m3 64 32 128 f8E4M3FN f16 0 -- --rtol 2e-3 --atol 2e-2
}

# tf32 (k8) and fp8 (k32) wgmma: exact operand values, so only the f32 sums
# round (1e-5 fails where B is read in the wrong order or A and B of
# different k meet).
@test "wgmma path (sm_90a): tf32 and e4m3/e5m2 operands with a K-major B; warpgroups, K chunks, batched, ragged" {
  wgmma_kind_case m64n64k8.f32.tf32.tf32 64 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_WARPS=8 wgmma_kind_case m64n128k8.f32.tf32.tf32 128 128 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  wgmma_kind_case m64n32k8.f32.tf32.tf32 64 32 16 tf32 f32 2 -- --rtol 1e-5 --atol 1e-5
  MMA_VALID=50,60,20 wgmma_kind_case m64n64k8.f32.tf32.tf32 64 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  wgmma_kind_case m64n64k32.f32.e4m3.e4m3 64 64 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  # (fp8 sums promoted into f32 in N pieces of 64: tilepipe-promote-fp8-accumulation.)
  MMA_WARPS=8 wgmma_kind_case m64n64k32.f32.e4m3.e4m3 128 256 128 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-3
  wgmma_kind_case m64n64k32.f32.e5m2.e5m2 64 64 512 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-3
  wgmma_kind_case m64n32k32.f32.e4m3.e4m3 64 32 64 f8E4M3FN f16 0 -- --rtol 2e-3 --atol 2e-2
  MMA_VALID=50,60,40 wgmma_kind_case m64n64k32.f32.e4m3.e4m3 64 64 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
}

# Where A, B and the accumulator differ in shape the operands keep their
# loads' vector layouts and fuse into mmaf_global with their views: A and B
# come by TMA (1- and 4-byte boxes), B lands N-major and all threads
# transpose it to K-major (4 x 4 squares; 8 warps: 256 threads share them),
# chunk by chunk.
@test "wgmma path (sm_90a): tf32 and fp8 operands by TMA, B transposed in shared memory; K chunks, 8 warps" {
  wgmma_kind_case m64n32k32.f32.e4m3.e4m3 64 32 128 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_WARPS=8 wgmma_kind_case m64n64k32.f32.e5m2.e5m2 128 64 256 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-3
  wgmma_kind_case m64n32k8.f32.tf32.tf32 64 32 64 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_WARPS=8 wgmma_kind_case m64n256k8.f32.tf32.tf32 128 256 64 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  "$KERNEL" --m 64 --n 32 --k 128 --a f8E4M3FN --acc f32 > "$TMP/k.mlir"
  run bash -c "tileiras --gpu-name sm_90 --emit=scheduled -o - '$TMP/k.mlir' | grep -c 'tile_as.mmaf_global.* view '"
  [ "$output" = 1 ] || { echo "the fp8 operands did not fuse with their views: $output"; false; }
  run bash -c "tileiras --gpu-name sm_90 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *cp.async.bulk.tensor.2d* && "$output" == *prmt.b32* && "$output" != *cp.async.cg* ]] ||
    { echo "no TMA or byte transpose: $output"; false; }
  # A B whose wgmma landing staging would not fit 48 KiB keeps sm_90 and
  # the mma.sync path, whose tf32 staging ([K][N] rows of words, 36 KiB
  # here) fits: fused there, copied by cp.async, and it compiles.
  "$KERNEL" --m 64 --n 1024 --k 128 --a tf32 --acc f32 > "$TMP/w.mlir"
  run tileiras --gpu-name sm_90 --emit=scheduled -o - "$TMP/w.mlir"
  [[ "$status" -eq 0 && "$output" == *'tile_as.target = "sm_90"'* &&
     "$output" == *tile_as.mmaf_global* ]] || { echo "wide B: $output"; false; }
  run tileiras --gpu-name sm_90 -o "$TMP/w.cubin" "$TMP/w.mlir"
  [ "$status" -eq 0 ] || { echo "wide B: $output"; false; }
}

# cuTile's tf32 matmuls load f32 and convert it (ftof, to nearest even). On
# sm_90a the loads fuse all the same (TMA, f32 maps): the f32 lands in shared
# memory and is rounded there (A in place, B as it is transposed to
# K-major), before the tensor cores read it (which would truncate). The
# products of tf32 values are exact, so 1e-5 holds only for the right
# rounding of every element.
@test "wgmma path (sm_90a): f32 loads converted to tf32 fuse into TMA loads and round to nearest even in shared memory" {
  local TF32RN="(lambda v: ((v.astype(np.float32).view(np.uint32).astype(np.uint64) + 0xfff + ((v.astype(np.float32).view(np.uint32) >> 13) & 1)) & 0xffffe000).astype(np.uint32).view(np.float32).astype(np.float64))"
  local shape m n k warps
  for shape in "64 32 64 4" "128 256 64 8"; do
    read -r m n k warps <<< "$shape"
    "$KERNEL" --m $m --n $n --k $k --a f32 --ftof-tf32 --warps $warps > "$TMP/k.mlir"
    run bash -c "tileiras --gpu-name sm_90 --emit=scheduled -o - '$TMP/k.mlir'"
    [[ "$output" == *"tile_as.mmaf_global"*"!tile_as.ptr<f32, 1>"* && "$output" != *"arith.truncf"* ]] ||
      { echo "$shape: the conversions did not fuse: $output"; false; }
    run bash -c "tileiras --gpu-name sm_90 --emit=ptx -o - '$TMP/k.mlir'"
    [[ "$output" == *"wgmma.mma_async.sync.aligned.m64n${n}k8.f32.tf32.tf32"* && "$output" == *cp.async.bulk.tensor.2d* ]] ||
      { echo "$shape: no TMA-fed tf32 wgmma"; false; }
    run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" --gpu-name sm_90 \
      --array "a=$RNG.standard_normal(($m, $k)).astype(np.float32)" \
      --array "b=$RNG.standard_normal(($k, $n)).astype(np.float32)" \
      --array "c=$RNG.standard_normal(($m, $n)).astype(np.float32)" \
      --array "d_out=np.zeros(($m, $n), np.float32)" \
      --expect "d_out = $TF32RN(a) @ $TF32RN(b) + c" --rtol 1e-5 --atol 1e-5
    [ "$status" -eq 0 ] || { echo "$shape: $output"; false; }
  done
}

# A 32-row tile of one warpgroup (8 rows per warp) fills half of
# each warp's 16 rows of a wgmma: the other half multiplies padding rows of
# the staged A, whose D registers are dropped (WgmmaToLLVM.cpp). Any
# padding result that reached a register, or a tile row staged into the
# wrong 16-row slice, fails these; TMA boxes of 8 rows land A's rows in
# their slices.
@test "wgmma path (sm_90a): 32-row tiles at M = 64 with padding rows; tf32, f16, e4m3, TMA, batched, ragged, 4-byte copies" {
  wgmma_kind_case m64n32k8.f32.tf32.tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  wgmma_kind_case m64n64k8.f32.tf32.tf32 32 64 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4  # K chunks
  wgmma_kind_case m64n32k8.f32.tf32.tf32 32 32 16 tf32 f32 2 -- --rtol 1e-5 --atol 1e-5   # batched
  MMA_VALID=20,28,20 wgmma_kind_case m64n32k8.f32.tf32.tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  # Extents of no proven divisor (cuTile's non-multiple MatMul): runs of one
  # element for cp.async, but base and strides are 16-byte aligned (the
  # loads' view_alignment), so TMA reads f32 A and B, zero-filling the
  # ragged edges, rounded to tf32 once landed.
  MMA_FROM_F32=1 MMA_VALID=30,27,21 wgmma_kind_case m64n32k8.f32.tf32.tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"cp.async.bulk.tensor.2d"* && "$output" != *"cp.async.ca"* ]] ||
    { echo "non-multiple extents with aligned strides not read by TMA"; false; }
  wgmma_case 32 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 32 32 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
  MMA_VALID=24,40,24 tma_case 32 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_kind_case m64n16k32.f32.e4m3.e4m3 32 16 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-5
}

# tcgen05_case: mma_case on sm_100 (plain: tcgen05 is the Blackwell path),
# whose PTX must take the tcgen05 path.
tcgen05_case() {
  mma_case "$@" --gpu-name sm_100
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir' | grep -c tcgen05.mma"
  [ "$status" -eq 0 ] && [ "$output" -ge 1 ] || { echo "$*: no tcgen05.mma in the sm_100 PTX"; false; }
}

@test "tcgen05 path (sm_100): f16 and bf16, N from 16 to 512, K in one or more steps and chunks" {
  tcgen05_case 128 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  tcgen05_case 128 16 16 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  tcgen05_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3    # 8 warps: two column halves
  tcgen05_case 128 512 16 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4   # two MMAs of N = 256 per k step
  tcgen05_case 128 128 256 f16 f32 0 -- --rtol 1e-4 --atol 2e-3   # K in several chunks
}

@test "tcgen05 path (sm_100): two row blocks, f16 accumulator, batched 3-D, ragged edges" {
  tcgen05_case 256 64 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4
  tcgen05_case 128 64 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
  tcgen05_case 128 32 32 f16 f32 2 -- --rtol 1e-4 --atol 1e-4
  MMA_VALID=100,40,24 tcgen05_case 128 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
}

# tcgen05_chain_case M N K N2 TYPE BATCH: kernel.py --then N2 on sm_100, P =
# ftof(A x B + C) then D = P x E, whose second tcgen05.mma (at least) reads
# its A, P in the accumulator layout, from tensor memory ("[a]") rather than
# shared memory. Small integers keep every product, sum and P exact, so any
# misplaced element of P shows.
tcgen05_chain_case() {
  local m=$1 n=$2 k=$3 n2=$4 ta=$5 batch=$6 lead="" a b c e d
  local gen=(--m "$m" --n "$n" --k "$k" --a "$ta" --acc f32 --then "$n2")
  if [ "$batch" != 0 ]; then lead="$batch,"; gen+=(--batch "$batch"); fi
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  local kernel="$TMP/k.mlir"
  if [ -n "${MMA_COMPILE:-}" ]; then
    "$MMA_COMPILE" "$TMP/k.mlir" "$TMP/k.ll" || return 3
    kernel="$TMP/k.ll"
  fi
  local ints="$RNG.integers(LO, HI, (SHAPE)).astype(np.float32)"
  a=${ints//SHAPE/$lead$m,$k}; b=${ints//SHAPE/$lead$k,$n}; e=${ints//SHAPE/$lead$n,$n2}
  a=${a//LO/-1}; a=${a//HI/2}; b=${b//LO/-1}; b=${b//HI/2}; e=${e//LO/-2}; e=${e//HI/3}
  c="c=$RNG.integers(-4, 5, ($lead$m,$n)).astype(np.float32)"
  if [ "$ta" = bf16 ]; then
    a="a=bf16($a)"; b="b=bf16($b)"; e="e=bf16($e)"
    d="($BF(a) @ $BF(b) + c) @ $BF(e)"
  else
    a="a=($a).astype(np.float16)"; b="b=($b).astype(np.float16)"; e="e=($e).astype(np.float16)"
    d="(a.astype(np.float32) @ b.astype(np.float32) + c) @ e.astype(np.float32)"
  fi
  run /usr/bin/python3 "$CHECK" "$kernel" --entry k --bin "$TILEPIPE_BIN" --gpu-name sm_100 \
    --array "$a" --array "$b" --array "$c" --array "$e" \
    --array "d_out=np.zeros(($lead$m,$n2), np.float32)" --expect "d_out = $d" --rtol 0 --atol 0
  [ "$status" -eq 0 ] || { echo "chain $m x $n x $k then $n2 $ta batch=$batch: $output"; false; }
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir' | grep -cE 'tcgen05.mma.cta_group::1.kind::f16.* \[%r[0-9]+\], \[%r[0-9]+\], %rd'"
  [ "$status" -eq 0 ] && [ "$output" -ge 1 ] || { echo "chain $m x $n x $k: no tcgen05.mma with A in tensor memory"; false; }
}

@test "tcgen05 path (sm_100): P = A x B + C in registers feeds P x E from tensor memory (f16, bf16; 4 and 8 warps, two row blocks, batched)" {
  tcgen05_chain_case 128 64 32 32 f16 0
  tcgen05_chain_case 128 128 32 64 bf16 0     # 8 warps: each thread holds half a row of P
  tcgen05_chain_case 256 64 16 32 f16 0       # two row blocks, two regions of P
  tcgen05_chain_case 128 32 32 16 bf16 2      # batched 3-D
}

# tcgen05_kind_case KIND tcgen05_case-args: tcgen05_case, whose PTX must
# use tcgen05.mma.kind::KIND.
tcgen05_kind_case() {
  local kind=$1
  shift
  tcgen05_case "$@"
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir' | grep -c 'tcgen05.mma.cta_group::1.kind::$kind'"
  [ "$status" -eq 0 ] && [ "$output" -ge 1 ] || { echo "$*: no kind::$kind tcgen05.mma in the sm_100 PTX"; false; }
}

@test "tcgen05 path (sm_100): kind::tf32 and kind::f8f6f4 (e4m3, e5m2), K in several chunks, batched 3-D, ragged edges" {
  # Exact tf32 and fp8 values: the products are exact, only the f32 sums
  # round (1e-5 fails if an operand is read in another format).
  tcgen05_kind_case tf32 128 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  tcgen05_kind_case tf32 128 128 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4   # K in chunks
  tcgen05_kind_case f8f6f4 128 64 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-5
  tcgen05_kind_case f8f6f4 128 32 128 f8E5M2 f32 2 -- --rtol 1e-5 --atol 1e-5
  tcgen05_kind_case f8f6f4 128 256 256 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4
  tcgen05_kind_case f8f6f4 128 64 64 f8E4M3FN f16 0 -- --rtol 2e-3 --atol 2e-2
  MMA_VALID=100,40,48 tcgen05_kind_case f8f6f4 128 64 64 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_VALID=100,40,24 tcgen05_kind_case tf32 128 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
}

# tcgen05_tma_case: tcgen05_case whose sm_100a PTX loads A and B (or B alone,
# A from tensor memory) by TMA: boxes, the mbarrier wait, no cp.async.
tcgen05_tma_case() {
  tcgen05_case "$@"
  tileiras --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
  grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' "$TMP/k.ptx" &&
    grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx" && grep -q 'tcgen05.mma.cta_group::1' "$TMP/k.ptx" &&
    ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" || { echo "$*: not TMA-fed tcgen05.mma in the sm_100a PTX"; false; }
}

# On sm_100 the operands with views come by TMA (Tcgen05ToLLVM.cpp): one
# thread arrives with expect_tx, issues the boxes, waits for the mbarrier's
# phase and issues the MMAs; a buffer is refilled once the commit mbarrier
# of the MMAs that read it fired. Ragged views read as zero (TMA's fill),
# 32-, 64- and 128-byte swizzles, K in several chunks (both buffers, both
# phases), two row blocks, 8 warps, fp8 (1-byte boxes).
@test "tcgen05 path (sm_100) with TMA: ragged views zero-filled, 32-, 64- and 128-byte swizzles, chunks and phases, fp8" {
  MMA_VALID=100,40,24 tcgen05_tma_case 128 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4        # A 64B, B 128B
  MMA_VALID=120,24,8 tcgen05_tma_case 128 32 16 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4        # A 32B, B 64B
  MMA_VALID=120,72,200 tcgen05_tma_case 128 128 256 bf16 f32 0 -- --rtol 1e-4 --atol 2e-3   # chunks, phases 0 and 1
  MMA_VALID=200,64,24 tcgen05_tma_case 256 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4       # two row blocks
  tcgen05_tma_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3                          # 8 warps, 4 chunks
  MMA_VALID=100,48,32 tcgen05_tma_case 128 64 64 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-5    # fp8, 64B
  tcgen05_tma_case 128 256 256 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4                    # fp8 chunks
}

# tcgen05_tma_store_case: tcgen05_case (f16 accumulator) whose D the sm_100a
# PTX stores by TMA through swizzled shared memory: bulk tensor stores, no
# st.global (D starts as zeros and the view covers only VM x VN of it).
tcgen05_tma_store_case() {
  tcgen05_case "$@"
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"* &&
     "$output" != *"st.global"* ]] || { echo "$*: D not stored by TMA alone"; false; }
}

# The tcgen05.ld layout holds a run of a row per thread: with 8 warps (and
# with 4 at N = 256) a thread's columns span whole 128-column chunks of the
# staging, so a thread stores its part of a chunk where its first chunk
# says (TmaStoreStaging.h, threadChunks).
@test "tcgen05 path (sm_100): an f16 D stored by TMA; ragged edges clipped; 32-, 64- and 128-byte swizzles; chunks per thread" {
  MMA_VALID=100,72,64 tcgen05_tma_store_case 128 128 64 f16 f16 0 -- --rtol 2e-3 --atol 2e-2   # 128B, one chunk
  MMA_VALID=100,24,32 tcgen05_tma_store_case 128 32 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2     # 64B
  MMA_VALID=60,8,16 tcgen05_tma_store_case 128 16 16 f16 f16 0 -- --rtol 2e-3 --atol 2e-2       # 32B
  MMA_VALID=120,200,64 tcgen05_tma_store_case 128 256 64 f16 f16 0 -- --rtol 2e-3 --atol 2e-2   # 8 warps: a chunk per warp column
  MMA_WARPS=4 tcgen05_tma_store_case 128 256 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2            # 4 warps: two chunks per thread
  MMA_VALID=90,496,16 tcgen05_tma_store_case 128 512 16 f16 f16 0 -- --rtol 2e-3 --atol 2e-2    # 4 chunks, two per thread
}

# A 32-row tile of 4 warps takes one M = 64 tcgen05.mma with A's rows
# spread over its 16-row slices and padding rows between them; D comes back
# with tcgen05.ld.16x256b (Tcgen05Lowering.h, Tcgen05RowBlocks).
@test "tcgen05 path (sm_100): 32-row tiles at M = 64 with padding rows; tf32, f16, e4m3, K chunks, batched, ragged, f16 accumulator" {
  tcgen05_kind_case tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  tcgen05_kind_case tf32 32 64 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4   # K in chunks
  tcgen05_kind_case tf32 32 32 16 tf32 f32 2 -- --rtol 1e-5 --atol 1e-5    # batched
  MMA_VALID=20,28,20 tcgen05_kind_case tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_FROM_F32=1 MMA_VALID=30,27,21 tcgen05_kind_case tf32 32 32 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  tcgen05_case 32 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  tcgen05_kind_case f8f6f4 32 16 64 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-5
  tcgen05_case 32 32 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"tcgen05.ld.sync.aligned.16x256b.x4.b32"* && "$output" != *"32x32b"* ]] ||
    { echo "no tcgen05.ld.16x256b: $output" | grep tcgen05.ld; false; }
}

# f32 loads rounded by ftof (cuTile's tf32 matmuls) land raw by TMA (f32
# maps) and every thread rounds them to nearest even in shared memory before
# kind::tf32 reads them (the expectation rounds to nearest, which
# truncation fails): K in one chunk and in several (both buffers, both
# phases: all threads wait on the full mbarriers), ragged views, and a
# 32-row tile whose A lands in boxes of 8 rows between the M = 64 form's
# padding rows.
@test "tcgen05 path (sm_100): ftof'd f32 operands by TMA, rounded to tf32 in shared memory; 32-row tiles by 8-row boxes" {
  MMA_FROM_F32=1 tcgen05_tma_case 128 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_FROM_F32=1 tcgen05_tma_case 128 128 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_FROM_F32=1 MMA_VALID=100,40,24 tcgen05_tma_case 128 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5
  MMA_FROM_F32=1 MMA_VALID=30,28,100 tcgen05_tma_case 32 32 128 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
  MMA_VALID=20,40,24 tcgen05_tma_case 32 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  # A B of 27 valid columns has no runs along N: it is copied along K
  # (rhs_k_runs, single 4-byte elements), which this TMA path does not
  # load: cp.async, rounded in shared memory all the same; with 27 valid K
  # A's runs are single elements too (lhs_run = 1).
  local valid
  for valid in 30,27,100:32:128 100,27,27:128:32; do
    IFS=: read -r v m k <<< "$valid"
    MMA_FROM_F32=1 MMA_VALID=$v tcgen05_case $m 32 $k tf32 f32 0 -- --rtol 1e-5 --atol 1e-4
    tileiras --gpu-name sm_100 --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
    grep -q 'cp.async.ca.shared.global \[%rd[0-9]*\], \[%rd[0-9]*\], 4,' "$TMP/k.ptx" &&
      ! grep -q 'cp.async.bulk.tensor' "$TMP/k.ptx" || { echo "$valid: no 4-byte cp.async"; false; }
  done
}

# ring_case GPU CONSUMER INSTRUCTION SYNC M N K KT A-TYPE ACC-TYPE [-- emu-check
# args]: mma_case with the multiply in a K loop over tiles of KT
# (MMA_K_TILE) on GPU, whose PTX must stream the loop through the TMA ring
# (-v names CONSUMER) into INSTRUCTION, with SYNC in the loop and no cp.async.
ring_case() {
  local gpu=$1 consumer=$2 instruction=$3 sync=$4 m=$5 n=$6 k=$7 kt=$8 ta=$9 tacc=${10}
  shift 10
  MMA_K_TILE=$kt mma_case $m $n $k $ta $tacc 0 "$@" --gpu-name $gpu
  run tileiras --gpu-name $gpu -v --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
  [[ "$output" == *"remark: K loop pipelined: a TMA ring of"*"$consumer from the swizzled slots"* ]] ||
    { echo "$*: the K loop took no TMA ring: $output"; false; }
  grep -q "$instruction" "$TMP/k.ptx" && grep -q 'cp.async.bulk.tensor.2d' "$TMP/k.ptx" &&
    grep -q "$sync" "$TMP/k.ptx" && ! grep -q 'cp.async.c[ag]' "$TMP/k.ptx" ||
    { echo "$*: no $instruction fed by the TMA ring alone"; false; }
}

# ring100_case KIND M N K KT A-TYPE ACC-TYPE [-- emu-check args]: ring_case on
# sm_100 into tcgen05.mma of KIND, slots released by tcgen05.commit.
ring100_case() {
  local kind=$1
  shift
  ring_case sm_100 tcgen05.mma "tcgen05.mma.cta_group::1.kind::$kind" tcgen05.commit "$@"
}

# The tcgen05 TMA ring with tf32 (f32 maps; every thread rounds a landed
# slot in place before thread 0's kind::tf32: the expectation rounds ftof'd
# f32 to nearest even, which the tensor cores' truncation fails) and with
# 32-row tiles of 4 warps (M = 64: A in boxes of 8 rows into the 16-row
# slices, padding rows between): K tiles the 3 slots cycle through several
# times (both phases), several chunks per K tile (8-deep tf32 chunks of a
# 128x128 tile), ragged views read as zeros, 32-, 64- and 128-byte rows.
@test "sm_100 tcgen05 TMA ring: tf32 (ftof'd f32 too) and 32-row tiles (f16, e4m3, tf32) in K loops; ragged; phases; chunks" {
  ring100_case tf32 128 64 128 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4                       # 4 K tiles
  MMA_FROM_F32=1 MMA_VALID=100,52,40 ring100_case tf32 128 64 64 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4
  MMA_FROM_F32=1 ring100_case tf32 128 128 256 128 tf32 f32 -- --rtol 1e-5 --atol 1e-4     # 8-deep chunks
  MMA_FROM_F32=1 MMA_VALID=120,200,64 ring100_case tf32 128 256 64 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4  # 8 warps
  MMA_FROM_F32=1 ring100_case tf32 256 64 64 16 tf32 f32 -- --rtol 1e-5 --atol 1e-4         # two row blocks
  MMA_FROM_F32=1 ring100_case tf32 32 32 256 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4        # MatMul f32's tile
  MMA_FROM_F32=1 MMA_VALID=30,20,100 ring100_case tf32 32 32 128 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4
  ring100_case tf32 32 16 64 16 tf32 f32 -- --rtol 1e-5 --atol 1e-5                        # 64B A, B
  MMA_VALID=20,60,72 ring100_case f16 32 64 128 32 f16 f32 -- --rtol 1e-4 --atol 1e-3
  ring100_case f8f6f4 32 32 256 64 f8E4M3FN f32 -- --rtol 1e-5 --atol 1e-4
}

@test "sm_100 keeps the mma.sync path where tcgen05 does not tile the accumulator (64 rows; N = 8)" {
  local shape
  for shape in "64 64 32" "128 8 16"; do
    mma_case $shape f16 f32 0 -- --rtol 1e-4 --atol 1e-4 --gpu-name sm_100
    run tileiras --gpu-name sm_100 --emit=ptx -o - "$TMP/k.mlir"
    [[ "$output" == *"mma.sync.aligned"* && "$output" != *"tcgen05"* ]] || { echo "$shape: $output" | grep -n "mma\|tcgen05" | head; false; }
  done
}

# The swizzled staging in its three widths (rows of 32, 64 and 128 bytes
# and more), ragged views whose overhang must read as zero, and
# double-buffered chunks with a wgmma group in flight. Where the views keep
# 16-byte runs whole (VN, VK multiples of 8) A and B reach the staging by
# cp.async with zero-filled edges, in one chunk and in several; elsewhere
# (VK = 27) the loads stay register loads stored with st.shared.
@test "wgmma path (sm_90a): ragged M, N and K read as zero padding; 32-, 64- and 128-byte swizzles" {
  MMA_VALID=50,120,24 wgmma_case 64 128 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_VALID=100,72,200 wgmma_case 128 128 256 bf16 f32 0 -- --rtol 1e-4 --atol 2e-3
  MMA_VALID=50,60,27 wgmma_case 64 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_VALID=100,64,100 wgmma_case 128 64 128 f16 f32 0 -- --rtol 1e-4 --atol 1e-3
  wgmma_case 64 16 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  wgmma_case 64 32 64 bf16 f32 2 -- --rtol 1e-4 --atol 1e-4
}

# tma_case: wgmma_case whose PTX must load A and B with TMA.
tma_case() {
  wgmma_case "$@"
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir' | grep -c 'cp.async.bulk.tensor.2d'"
  [ "$status" -eq 0 ] && [ "$output" -ge 2 ] || { echo "$*: no TMA loads in the sm_90a PTX"; false; }
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir' | grep -c 'cp.async.cg'"
  [ "$output" -eq 0 ] || { echo "$*: cp.async next to TMA"; false; }
}

@test "wgmma path (sm_90a) with TMA: ragged views zero-filled, 32-, 64- and 128-byte swizzles, phases over several chunks" {
  MMA_VALID=104,96,40 tma_case 128 128 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3   # 128B, one chunk
  MMA_VALID=56,40,24 tma_case 64 64 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4     # A 64B
  MMA_VALID=104,24,56 tma_case 128 32 64 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4    # B 64B
  MMA_VALID=40,24,8 tma_case 64 32 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4       # A 32B
  MMA_VALID=120,72,200 tma_case 128 128 256 bf16 f32 0 -- --rtol 1e-4 --atol 2e-3 # chunks, phases 0 and 1
  MMA_WARPS=8 MMA_VALID=200,64,24 tma_case 256 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4  # two warpgroups
  MMA_WARPS=8 tma_case 128 256 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3          # 4 chunks of 16
}

# kmajor_case: tma_case of a K-major B (MMA_B_KMAJOR: b holds B^T, read
# through dim_map=[1, 0] as FMHA reads K^T). TMA loads it as [N][K] boxes
# and every wgmma reads it without imm-trans-b (its last immediate 0).
kmajor_case() {
  MMA_B_KMAJOR=1 tma_case "$@"
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir' | grep 'wgmma.mma_async' | grep -vcE ', +0;\$'"
  [ "$output" -eq 0 ] || { echo "$*: a wgmma with imm-trans-b 1"; false; }
}

@test "wgmma path (sm_90a) with TMA: a K-major B from a transposed view; ragged, 32-, 64- and 128-byte swizzles, chunks, blocks, N over 256" {
  MMA_VALID=104,96,40 kmajor_case 128 128 64 f16 f32 0 -- --rtol 1e-4 --atol 1e-3   # 128B, one chunk
  MMA_VALID=56,40,24 kmajor_case 64 64 32 bf16 f32 0 -- --rtol 1e-4 --atol 1e-4     # 64B
  kmajor_case 64 64 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4                         # 32B
  MMA_VALID=120,72,200 kmajor_case 128 128 256 bf16 f32 0 -- --rtol 1e-4 --atol 2e-3 # chunks, phases 0 and 1
  kmajor_case 64 64 128 f16 f32 0 -- --rtol 1e-4 --atol 1e-3                        # two blocks along K
  MMA_WARPS=4 kmajor_case 64 512 16 f16 f32 0 -- --rtol 1e-4 --atol 1e-4           # two boxes of 256 N rows
}

# tma_kind_case INSTRUCTION tma_case-args: tma_case of tf32 or fp8, whose
# PTX must have INSTRUCTION and transpose B (landed N-major by TMA) in
# shared memory; 1-byte and 4-byte boxes of W bytes (W / 4 tf32 or W fp8
# elements wide), zero-filled outside the views.
tma_kind_case() {
  local instruction=$1
  shift
  tma_case "$@"
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"$instruction"* && "$output" != *cp.async.ca* && "$output" == *mbarrier.try_wait.parity* ]] ||
    { echo "$*: no $instruction, or cp.async next to TMA"; false; }
}

# Exact tf32 and fp8 values: only the f32 sums round, so 1e-5 fails where a
# box lands anywhere but where the descriptors read it or an edge is not 0.
@test "wgmma path (sm_90a) with TMA: tf32 and fp8 (4- and 1-byte boxes); ragged views zero-filled, 32-, 64- and 128-byte swizzles, chunks and phases, two warpgroups" {
  MMA_VALID=100,40,24 tma_kind_case m64n64k8.f32.tf32.tf32 128 64 32 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5     # 128B
  MMA_VALID=50,24,12 tma_kind_case m64n32k8.f32.tf32.tf32 64 32 16 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5        # A 64B
  tma_kind_case m64n16k8.f32.tf32.tf32 64 16 8 tf32 f32 0 -- --rtol 1e-5 --atol 1e-5                           # 32B
  MMA_WARPS=8 MMA_VALID=120,200,56 tma_kind_case m64n256k8.f32.tf32.tf32 128 256 64 tf32 f32 0 -- --rtol 1e-5 --atol 1e-4  # chunks
  MMA_VALID=50,48,48 tma_kind_case m64n64k32.f32.e4m3.e4m3 64 64 128 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4  # 128B
  MMA_WARPS=8 MMA_VALID=120,48,208 tma_kind_case m64n64k32.f32.e5m2.e5m2 128 64 256 f8E5M2 f32 0 -- --rtol 1e-5 --atol 1e-3  # chunks, phases
  MMA_VALID=40,48,112 tma_kind_case m64n64k32.f32.e4m3.e4m3 64 64 128 f8E4M3FN f16 0 -- --rtol 2e-3 --atol 2e-2  # f16 acc
  tma_kind_case m64n16k32.f32.e4m3.e4m3 64 16 32 f8E4M3FN f32 0 -- --rtol 1e-5 --atol 1e-4                     # 32B
}

# tma_store_case: wgmma_case (f16 accumulator) whose D the PTX stores by TMA
# through swizzled shared memory: stmatrix.x4 (the accumulator layout holds
# its fragments; no st.shared), bulk tensor stores, no st.global. D's array
# starts as zeros and the view covers only VM x VN of it, so a box that
# wrote past the view's edges would show there.
tma_store_case() {
  wgmma_case "$@"
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$TMP/k.mlir'"
  [[ "$output" == *"cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"* &&
     "$output" != *"st.global"* ]] || { echo "$*: D not stored by TMA alone"; false; }
  [[ "$output" == *"stmatrix.sync.aligned.m8n8.x4.shared.b16"* && "$output" != *"st.shared"* ]] ||
    { echo "$*: D not staged by stmatrix alone"; false; }
}

@test "wgmma path (sm_90a): an f16 D stored by TMA; ragged edges clipped; 32-, 64- and 128-byte swizzles; column chunks" {
  MMA_VALID=100,72,64 tma_store_case 128 128 64 f16 f16 0 -- --rtol 2e-3 --atol 2e-2  # 128B, one chunk of 2 blocks
  MMA_VALID=56,24,32 tma_store_case 64 32 32 f16 f16 0 -- --rtol 2e-3 --atol 2e-2     # 64B
  MMA_VALID=60,8,16 tma_store_case 64 16 16 f16 f16 0 -- --rtol 2e-3 --atol 2e-2      # 32B
  MMA_WARPS=8 MMA_VALID=120,200,64 tma_store_case 128 256 64 f16 f16 0 -- --rtol 2e-3 --atol 2e-2  # 2 chunks
  MMA_WARPS=8 tma_store_case 256 128 16 f16 f16 0 -- --rtol 2e-3 --atol 2e-2         # 256-row boxes, 2 chunks
}

# Ragged edges: the tiles overhang the views along M, N and K. Where the
# views keep 16-byte runs whole (VN, VK multiples of 8) A and B reach shared
# memory by cp.async with zero-filled edges (lowering.bats pins that), in one
# K chunk and in several; elsewhere the loads stay register loads.
@test "mma.sync path: ragged M, N and K read as zero padding (cp.async and register loads)" {
  MMA_VALID=50,120,24 mma_case 64 128 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
  MMA_VALID=100,72,200 mma_case 128 128 256 bf16 f32 0 -- --rtol 1e-4 --atol 2e-3
  MMA_VALID=50,60,27 mma_case 64 64 32 f16 f32 0 -- --rtol 1e-4 --atol 1e-4
}

@test "mmaf fp8 e4m3 operands decode exactly (every bit pattern, NaN, subnormals)" {
  "$KERNEL" --m 32 --n 32 --k 64 --a f8E4M3FN --acc f32 > "$TMP/k.mlir"
  # Every pattern in A (rows 0-3; the NaNs 0x7F and 0xFF in rows 1 and 3),
  # every finite one in B.
  local finite="np.setdiff1d(np.arange(256), [0x7F, 0xFF])"
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=np.concatenate([np.arange(256), $finite[$RNG.integers(0, 254, 32 * 64 - 256)]]).astype(np.uint8).reshape(32, 64)" \
    --array "b=$finite[$RNG.permutation(np.arange(64 * 32) % 254)].astype(np.uint8).reshape(64, 32)" \
    --array "c=$RNG.standard_normal((32, 32)).astype(np.float32)" \
    --array "d_out=np.zeros((32, 32), np.float32)" \
    --expect "d_out = $E4M3(a) @ $E4M3(b) + c" --rtol 1e-4 --atol 1e-3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "mmaf fp8 e5m2 operands into an f16 accumulator (subnormals, inf, NaN)" {
  "$KERNEL" --m 32 --n 32 --k 64 --a f8E5M2 --acc f16 > "$TMP/k.mlir"
  # Small finite values (|x| < 2^-3, subnormals included) so f16 sums stay
  # exact enough; A[0, 0] is +inf and A[1, 0] NaN.
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=(np.array([0x7C] + [0x7E] + [0] * (32 * 64 - 2)) + np.concatenate([[0, 0], $RNG.integers(0, 0x30, 32 * 64 - 2) | ($RNG.integers(0, 2, 32 * 64 - 2) << 7)])).astype(np.uint8).reshape(32, 64)" \
    --array "b=($RNG.integers(0x01, 0x30, (64, 32)) | ($RNG.integers(0, 2, (64, 32)) << 7)).astype(np.uint8)" \
    --array "c=$RNG.standard_normal((32, 32)).astype(np.float16)" \
    --array "d_out=np.zeros((32, 32), np.float16)" \
    --expect "d_out = ($E5M2(a) @ $E5M2(b) + c.astype(np.float64)).astype(np.float16)" --rtol 2e-3 --atol 2e-3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "mmaf f64 accumulates in f64" {
  "$KERNEL" --m 32 --n 16 --k 64 --a f64 --acc f64 > "$TMP/k.mlir"
  # 1e-12 fails if any step rounds to f32.
  run /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" \
    --array "a=$RNG.standard_normal((32, 64))" --array "b=$RNG.standard_normal((64, 16))" \
    --array "c=$RNG.standard_normal((32, 16))" --array "d_out=np.zeros((32, 16))" \
    --expect "d_out = a @ b + c" --rtol 1e-12 --atol 1e-12
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# A gathered by row index (inputs/mmaf_gather.mlir, the fused MoE kernel's
# shape of access): rows idx[i] of a 40-row array, idx >= 40 masked to zero
# rows, K cut at kvalid. With the row stride and kvalid proven multiples of
# 8 A is copied by 16-byte cp.async.cg, of 4 or 2 by 8- or 4-byte
# cp.async.ca (lowering.bats pins that); without kvalid's assume (kvalid 20)
# it stays a register load. sm_90a takes the wgmma path, fed the same way.
@test "mma.sync and wgmma paths: a row-gathered A (masked rows, ragged K) by cp.async of 16, 8, 4 bytes and by register loads" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_gather.mlir"
  sed 's/assume div_by<8>, %kvalid/assume bounded<0, ?>, %kvalid/' "$in" > "$TMP/unaligned.mlir"
  sed 's/assume div_by<8>/assume div_by<4>/' "$in" > "$TMP/div4.mlir"
  sed 's/assume div_by<8>/assume div_by<2>/' "$in" > "$TMP/div2.mlir"
  local idx="idx=np.concatenate([$RNG.integers(0, 48, 56), [0, 0, 39, 39, 40, 47, 5, 5]]).astype(np.int32)"
  local b="b=bf16($RNG.standard_normal((32, 64)))"
  for run in "$in sm_80 40 24" "$in sm_90a 40 32" "$TMP/unaligned.mlir sm_80 40 20" \
             "$TMP/div4.mlir sm_80 36 28" "$TMP/div2.mlir sm_80 34 26" "$TMP/div4.mlir sm_90a 36 28" \
             "$TMP/div2.mlir sm_90a 34 26"; do
    local kernel sm stride kvalid
    read -r kernel sm stride kvalid <<< "$run"
    local a="a=bf16($RNG.standard_normal((40, $stride)))"
    local rows="np.where((idx < 40)[:, None], $BF(a)[np.minimum(idx, 39), :$kvalid], 0)"
    run /usr/bin/python3 "$CHECK" "$kernel" --entry gather --gpu-name "$sm" --bin "$TILEPIPE_BIN" \
      --array "$a" --scalar i32:40 --scalar "i32:$stride" --scalar "i32:$kvalid" --array "$idx" \
      --array "$b" --array "d_out=np.zeros((64, 64), np.float32)" \
      --expect "d_out = $rows @ $BF(b)[:$kvalid]" --rtol 1e-4 --atol 1e-4
    [ "$status" -eq 0 ] || { echo "$run: $output"; false; }
  done
}

# The same gather with K = 256 (kvalid 200): the wgmma staging takes K in 4
# chunks of 64 over two buffers, so A's cp.async copies and B's TMA boxes
# alternate buffers and the mbarriers go through both phases.
@test "wgmma path (sm_90a): a row-gathered A by cp.async beside B by TMA over several K chunks (both buffers, both phases)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_gather.mlir"
  sed -e 's/64x32/64x256/g; s/tile<32xi32>/tile<256xi32>/g; s/1x32x/1x256x/g; s/32x64/256x64/g' \
    -e 's/<i32: 32>/<i32: 256>/' "$in" > "$TMP/k256.mlir"
  tileiras --gpu-name sm_90a --emit=ptx -o "$TMP/k.ptx" "$TMP/k256.mlir"
  [ "$(grep -c 'mbarrier.try_wait.parity.shared.b64 .*, 1, ' "$TMP/k.ptx")" -eq 2 ] &&
    grep -q 'cp.async.bulk.tensor.2d' "$TMP/k.ptx" && grep -q 'cp.async.cg.shared.global' "$TMP/k.ptx" ||
    { echo "not 4 chunks of cp.async A and TMA B over two buffers"; false; }
  local idx="idx=np.concatenate([$RNG.integers(0, 48, 56), [0, 0, 39, 39, 40, 47, 5, 5]]).astype(np.int32)"
  local rows="np.where((idx < 40)[:, None], $BF(a)[np.minimum(idx, 39), :200], 0)"
  run /usr/bin/python3 "$CHECK" "$TMP/k256.mlir" --entry gather --gpu-name sm_90a --bin "$TILEPIPE_BIN" \
    --array "a=bf16($RNG.standard_normal((40, 264)))" --scalar i32:40 --scalar i32:264 --scalar i32:200 \
    --array "$idx" --array "b=bf16($RNG.standard_normal((256, 64)))" \
    --array "d_out=np.zeros((64, 64), np.float32)" \
    --expect "d_out = $rows @ $BF(b)[:200]" --rtol 1e-4 --atol 1e-4
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# ring120_case INSTRUCTION M N K KT A-TYPE ACC-TYPE [-- emu-check args]:
# ring_case on sm_120a into mma.sync of INSTRUCTION, read by ldmatrix.
ring120_case() {
  local instruction=$1
  shift
  ring_case sm_120a "ldmatrix + mma.sync" "mma.sync.aligned.$instruction" mbarrier.try_wait.parity "$@"
}

# sm_120a's TMA ring for tf32 and fp8 (docs/sm120-tma.md): the slots hold the
# swizzled layouts of their element width (A's K chunk and B's N in 32-,
# 64- and 128-byte blocks, by the chunk and N below), read by ldmatrix
# (A, fp8 B .trans with prmt) and ld.shared.b32 (tf32 B, each lane's
# second word 4 rows down under its own pattern). Exact tf32 and fp8
# values leave only the f32 sums to round, so 1e-5 fails where a fragment
# reads a wrong element; f32 loads through ftof must be rounded to nearest
# even after the reads. Ragged views read as zeros (TMA's fill), K tiles
# that the ring's 3 slots cycle through several times (phases), K of one
# chunk per tile and of several. The f16 tiles of 4 warps along M ([4, 1],
# which is also wgmma's layout at 64 rows) stage A's rows in order too.
@test "sm_120a TMA ring: tf32 (ftof'd f32 too) and e4m3/e5m2 K loops; 32-, 64- and 128-byte swizzles; ragged; phases; f16 on [4, 1] warps" {
  local T=m16n8k8.row.col.f32.tf32.tf32.f32
  ring120_case $T 32 32 128 32 tf32 f32 -- --rtol 1e-5 --atol 1e-5                       # A, B 128B; 4 phases
  MMA_VALID=50,24,100 ring120_case $T 64 32 128 16 tf32 f32 -- --rtol 1e-5 --atol 1e-5    # A 64B, ragged
  ring120_case $T 64 16 64 8 tf32 f32 -- --rtol 1e-5 --atol 1e-5                          # A 32B, B 64B
  ring120_case $T 32 8 64 32 tf32 f32 -- --rtol 1e-5 --atol 1e-5                          # B 32B
  MMA_FROM_F32=1 MMA_VALID=100,52,40 ring120_case $T 128 64 64 32 tf32 f32 -- --rtol 1e-5 --atol 1e-4
  MMA_FROM_F32=1 ring120_case $T 128 128 256 128 tf32 f32 -- --rtol 1e-5 --atol 1e-4       # 8-deep chunks
  local E4=m16n8k32.row.col.f32.e4m3.e4m3.f32 E5=m16n8k32.row.col.f32.e5m2.e5m2.f32
  ring120_case $E4 64 128 256 32 f8E4M3FN f32 -- --rtol 1e-5 --atol 1e-4                 # A 32B, B 128B; phases
  MMA_VALID=50,48,144 ring120_case $E5 64 64 256 64 f8E5M2 f32 -- --rtol 1e-5 --atol 1e-3 # A, B 64B; ragged
  ring120_case $E4 32 32 256 128 f8E4M3FN f32 -- --rtol 1e-5 --atol 1e-4                 # A 128B, B 32B
  MMA_VALID=120,200,208 ring120_case $E4 128 256 256 128 f8E4M3FN f32 -- --rtol 1e-5 --atol 1e-4  # BatchMatMul's tile
  local H=m16n8k16.row.col.f32.f16.f16.f32
  ring120_case $H 64 16 64 16 f16 f32 -- --rtol 1e-3 --atol 1e-3
  MMA_VALID=100,8,60 ring120_case $H 128 8 64 32 f16 f32 -- --rtol 1e-3 --atol 1e-3
}
