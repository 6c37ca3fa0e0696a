#!/usr/bin/env bats
# One small mmaf through the middle stages, the lowered shape pinned with
# FileCheck (tile_as.mmaf, A and B staged through the shared scratch between
# CTA barriers, f16 widened to f32 and FMAs in a loop over k), and a malformed case.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_small.mlir"
}

@test "tile-lower: cuda_tile.mmaf becomes tile_as.mmaf" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: A/B staged in shared memory between barriers, f32 FMAs" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: PTX barriers, shared loads and fma.rn.f32" {
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$IN' | FileCheck --check-prefix=PTX '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# The mma.sync path (f16/bf16 operands, tests/lower-mma/inputs/mmaf_sync.mlir).
@test "tile-sched: an mma.sync accumulator takes the m16n8 fragment layout" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # tensor-cores=false (tile-opt) keeps every layout a vector-width one.
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-opt --tilepipe-assign-layouts='tensor-cores=false' | FileCheck --check-prefix=NOFRAG '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: ldmatrix.x4 (A), ldmatrix.x2.trans (B) and mma.sync m16n8k16 in a loop over k" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: PTX ldmatrix and mma.sync.aligned.m16n8k16 bf16, no FMAs" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync.mlir"
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# The fp8 mma.sync path (tests/lower-mma/inputs/mmaf_sync_fp8.mlir): sm_89
# and later only.
@test "tile-sched: an fp8 mma.sync accumulator takes the paired-column m16n8 fragment layout on sm_89 (A and B fuse into mmaf_global), not on sm_80" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync_fp8.mlir"
  run bash -c "tile-lower --gpu-name sm_89 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SM80 '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: fp8 A and B by cp.async, B as global memory holds it, ldmatrix.x4.trans + prmt fragments and the m16n8k32 e4m3 intrinsic in a loop over k" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync_fp8.mlir"
  run bash -c "tile-lower --gpu-name sm_89 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# (Its 32-row tile of 4 warps takes the tensor cores' M = 64 forms with
# padding rows on sm_90 and sm_100: wgmma by TMA, tcgen05.)
@test "tileiras: fp8 mma.sync.aligned.m16n8k32 on sm_89 and sm_120, e4m3 wgmma on sm_90 (sm_90a) and tcgen05 on sm_100; FMAs on sm_80 and sm_86" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync_fp8.mlir" sm
  for sm in sm_89 sm_120; do
    run bash -c "tileiras --gpu-name $sm --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
  run tileiras --gpu-name sm_90 --emit=ptx -o - "$in"
  [[ "$output" == *".target sm_90a"* && "$output" == *"wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3"* &&
     "$output" == *"cp.async.bulk.tensor.2d"* && "$output" != *"mma.sync"* ]] || { echo "sm_90: no e4m3 wgmma by TMA"; false; }
  run tileiras --gpu-name sm_100 --emit=ptx -o - "$in"
  [[ "$output" == *"tcgen05.mma.cta_group::1.kind::f8f6f4"* && "$output" != *"mma.sync"* ]] ||
    { echo "sm_100: no kind::f8f6f4 tcgen05.mma"; false; }
  for sm in sm_80 sm_86; do
    run bash -c "tileiras --gpu-name $sm --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX80 '$in'"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

# BatchMatMul's B (128x256, reshaped from its 1x128x256 load) has the
# accumulator's shape but keeps the load's vector-width layout: the
# fragment layout cost a layout exchange through shared memory and 4 KB of
# spills more (fp8 mma.sync: sm_89, as sm_90 takes wgmma). That width is the fp8 load's 16 bytes, not the
# 4 f32 of the result tile of the same shape (no data flows between them),
# so B keeps 16-byte runs and fuses into the mmaf_global (cp.async), next to
# the paired-column fp8 accumulator.
@test "tile-sched: an mma operand of the accumulator's shape made by a reshape keeps the vector-width layout" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BatchMatMul-batch_matmul_kernel.fp8e4m3.sm_90.13.4.tileirbc"
  run bash -c "tileiras '$bc' --gpu-name sm_89 --emit=scheduled -o '$BATS_TEST_TMPDIR/s.mlir' && grep 'tile_as.mmaf_global' '$BATS_TEST_TMPDIR/s.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"tensor<128x256x!tile_as.ptr<f8E4M3FN, 1>, #tile_as.blocked<sizePerThread = [1, 16], threadsPerWarp = [2, 16]"* ]] ||
    { echo "B took another layout: $output"; false; }
  [[ "$output" == *"tensor<128x256xf32, #tile_as.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4]"* ]] ||
    { echo "the accumulator lost the fragment layout: $output"; false; }
}

# mmai on the mma.sync path (tests/lower-mma/inputs/mmai_sync.mlir).
@test "mmai u8 x s8: m16n8 accumulator layout, transposed B, wrapping mma.sync m16n8k32 in a loop over k" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmai_sync.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# The mma.sync path fed by cp.async (tests/lower-mma/inputs/mmaf_cp_async.mlir,
# the MatMul tile with ragged views).
@test "tile-sched: zero-padded global loads of A and B fuse into tile_as.mmaf_global" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_cp_async.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Other padding, another user, short runs or a store in between keep that
  # operand in registers; one qualifying operand (FMHA's V, a [1, 1, S, D]
  # block of a 4-D view included) still fuses alone.
  local fusion="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_async_copy_fusion.mlir"
  run bash -c "tile-opt --tilepipe-async-copy-mma-operands '$fusion' | FileCheck '$fusion'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# A gathered by row index through a pointer tile (inputs/mmaf_gather.mlir,
# as the fused MoE kernel loads its tokens): the index arithmetic proves
# 16-byte runs, so the gather fuses into the mmaf_global like a view load.
@test "tile-lower proves a row gather's 16-, 8- or 4-byte runs; tile-sched fuses it into tile_as.mmaf_global (cp.async.cg or .ca); not without the K bound's divisor" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_gather.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | FileCheck --check-prefix=LOWER '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "sed 's/assume div_by<8>, %kvalid/assume bounded<0, ?>, %kvalid/' '$in' | tile-lower --gpu-name sm_80 | tile-sched | FileCheck --check-prefix=NOKDIV '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Two cp.async.cg per thread for A (64x32 bf16 over 128 threads), two for B.
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | grep -c 'cp.async.cg.shared.global'"
  [ "$output" = 4 ] || { echo "cp.async count: $output"; false; }
  # A row stride and K bound proven multiples of 4 (2) elements only: A's
  # runs are 8 (4) bytes, copied by 4 (8) cp.async.ca per thread.
  local div copies bytes
  for div in "4 4 8" "2 8 4"; do
    read -r div copies bytes <<< "$div"
    sed "s/assume div_by<8>/assume div_by<$div>/" "$in" > "$BATS_TEST_TMPDIR/div$div.mlir"
    run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$BATS_TEST_TMPDIR/div$div.mlir' | grep -c 'cp.async.ca.shared.global .*, $bytes, '"
    [ "$output" = "$copies" ] || { echo "div_by<$div>: $output cp.async.ca of $bytes bytes"; false; }
  done
}

# On sm_90a the same gather takes wgmma (WgmmaChoice.h): A's rows by
# cp.async into the swizzled staging while TMA loads B, completing on an
# mbarrier (the fused MoE kernel's form, tests/corpus/matmul.bats).
@test "sm_90a: a row-gathered A fuses without a view and B with one; per chunk B's TMA box is issued, A copied by cp.async, fenced, then the mbarrier wait and wgmma; no spills" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_gather.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$in' | tile-sched | FileCheck --check-prefix=WGSCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$BATS_TEST_TMPDIR/k.ptx' '$in' && FileCheck --check-prefix=WGPTX --input-file '$BATS_TEST_TMPDIR/k.ptx' '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run ptxas -arch sm_90a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# cuTile's tf32 matmuls (inputs/mmaf_tf32_cp_async.mlir): f32 loads rounded
# by ftof fuse with their rounding; the fragments are rounded after ldmatrix.
@test "tile-sched fuses f32 loads and their ftof to tf32 into tile_as.mmaf_global {lhs_tf32, rhs_tf32}; the PTX copies f32 by cp.async and rounds fragments to nearest even" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_tf32_cp_async.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # On sm_100 this 32-row multiply of 4 warps takes tcgen05 at M = 64
  # with padding rows, so its ftof'd loads fuse marked as on the tcgen05
  # path (see the next test), rounded in shared memory.
  run bash -c "tile-lower --gpu-name sm_100 '$in' | tile-sched"
  [[ "$status" -eq 0 && "$output" == *"tile_as.mmaf_global"*"{lhs_tf32, rhs_tf32}"* && "$output" != *"arith.truncf"* ]] ||
    { echo "$output" | grep -n 'mmaf\|truncf'; false; }
}

# On the tcgen05 path (sm_100) ftof'd f32 loads fuse marked, to be rounded in
# shared memory (lhs_tf32, rhs_tf32).
@test "tile-sched on sm_100: ftof'd f32 operands fuse into tile_as.mmaf_global {lhs_tf32, rhs_tf32}" {
  "$BATS_TEST_DIRNAME/kernel.py" --m 128 --n 64 --k 32 --a f32 --ftof-tf32 > "$BATS_TEST_TMPDIR/tf32.mlir"
  tile-lower --gpu-name sm_100 "$BATS_TEST_TMPDIR/tf32.mlir" | tile-sched > "$BATS_TEST_TMPDIR/tf32.sched"
  grep -qE 'tile_as.mmaf_global .*\{lhs_tf32, rhs_tf32\} : tensor<128x32x!tile_as.ptr<f32, 1>' "$BATS_TEST_TMPDIR/tf32.sched" &&
    ! grep -q 'arith.truncf' "$BATS_TEST_TMPDIR/tf32.sched" ||
    { grep -n 'mmaf\|truncf' "$BATS_TEST_TMPDIR/tf32.sched"; false; }
}

# A B whose pointers run along K (rhs_k_runs: a transposed view's B laid out
# K first, inputs/tcgen05_k_runs.mlir) is copied K-major by cp.async.cg and
# read with the instruction descriptor's B K-major: 0x08100490 = 135267472
# (f32 D, bf16 A and B, N = 64, M = 128, bit 16 clear); ptxas takes it.
@test "tile-llvm: an mmaf_global with rhs_k_runs copies B K-major by cp.async for tcgen05.mma with B K-major" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/tcgen05_k_runs.mlir"
  tile-llvm "$in" -o "$BATS_TEST_TMPDIR/k.ll"
  tile-ptx --gpu-name sm_100 -o "$BATS_TEST_TMPDIR/k.ptx" "$BATS_TEST_TMPDIR/k.ll"
  grep -q 'cp.async.cg.shared.global' "$BATS_TEST_TMPDIR/k.ptx" &&
    grep -qE 'mov.b32[[:space:]]+%r[0-9]+, 135267472;' "$BATS_TEST_TMPDIR/k.ptx" &&
    ! grep -q 'st.shared.b16' "$BATS_TEST_TMPDIR/k.ptx" || { grep -n 'cp.async\|tcgen05.mma' "$BATS_TEST_TMPDIR/k.ptx"; false; }
  run ptxas -arch sm_100a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

@test "verifier: an mmaf_global without pointers, with a mask or a view on a register operand, a view of the wrong length, or rhs_view_transposed without a view; tf32 rounding of anything but f32 pointers, shortened runs or K runs of registers" {
  run tile-opt --verify-diagnostics --split-input-file "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_global_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm and PTX: cp.async.cg per chunk, commit, wait_group 0 and a barrier before ldmatrix and mma.sync" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_cp_async.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm and PTX: beside an accumulator of more than 64 registers per thread the k steps stay rolled, fragments at constant offsets; smaller ones unroll" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_cp_async.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=ROLLED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTXADDR '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # 32x16 f32 on 4 warps: 4 registers per thread, LLVM may unroll.
  local small="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_sync.mlir"
  run bash -c "tile-lower --gpu-name sm_80 '$small' | tile-sched | tile-llvm --emit=mlir"
  [ "$status" -eq 0 ] && [[ "$output" == *"nvvm.mma.sync"* && "$output" != *"loop_unroll"* ]] ||
    { echo "$output" | grep -n "loop_unroll" | head -3; false; }
}

@test "tile-lower: 8 warps where the accumulators need more than 64 registers per thread on 4; a hint wins" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  "$kernel" --m 128 --n 128 --k 16 --a f16 --acc f32 > "$tmp/big.mlir"
  "$kernel" --m 128 --n 128 --k 16 --a f16 --acc f32 --warps 4 > "$tmp/hinted.mlir"
  "$kernel" --m 64 --n 64 --k 16 --a f16 --acc f32 > "$tmp/small.mlir"
  run tile-lower --gpu-name sm_80 "$tmp/big.mlir"
  [[ "$output" == *"tile_as.num_warps = 8 : i32"* ]] || { echo "$output" | head -3; false; }
  run tile-lower --gpu-name sm_80 "$tmp/hinted.mlir"
  [[ "$output" == *"tile_as.num_warps = 4 : i32"* ]] || { echo "$output" | head -3; false; }
  run tile-lower --gpu-name sm_80 "$tmp/small.mlir"
  [[ "$output" == *"tile_as.num_warps = 4 : i32"* ]] || { echo "$output" | head -3; false; }
  # The PTX asks for 256 threads and lets ptxas use the whole register file.
  run tileiras --gpu-name sm_80 --emit=ptx -o - "$tmp/big.mlir"
  rm -rf "$tmp"
  [[ "$output" == *".reqntid 256, 1, 1"* && "$output" == *".minnctapersm 1"* ]] || { echo "$output" | grep -n "reqntid\|minnctapersm"; false; }
}

# The wgmma path on Hopper (tests/lower-mma/inputs/mmaf_wgmma.mlir).
@test "tile-sched: on sm_90a an mmaf accumulator takes the wgmma layout (warps along M); so does sm_90 for this matmul" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_wgmma.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Plain sm_90 becomes sm_90a for it (select-target.bats has the rule).
  run bash -c "tile-lower --gpu-name sm_90 '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: sm_90a loads A and B by TMA for wgmma descriptors (maps, mbarrier), wgmma.mma_async in a loop over k" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_wgmma.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: sm_90a PTX has wgmma.mma_async (tile-ptx -v says why) and ptxas assembles it; sm_80 keeps mma.sync" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_wgmma.mlir" tmp
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX90 '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras --gpu-name sm_80 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX80 '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # ptxas rejects wgmma for sm_90: the cubin exists only if -arch followed
  # the PTX to sm_90a.
  tmp="$(mktemp -d)"
  run tileiras --gpu-name sm_90a -o "$tmp/k.cubin" "$in"
  [ "$status" -eq 0 ] && [ -s "$tmp/k.cubin" ] || { rm -rf "$tmp"; echo "$output"; false; }
  run tile-pack -v --gpu-name sm_90 -o "$tmp/k.cubin" <(tileiras --gpu-name sm_90a --emit=ptx -o - "$in")
  [[ "$output" == *"ptxas -arch sm_90a "* ]] || { rm -rf "$tmp"; echo "$output"; false; }
  # tile-ptx -v says why it chose sm_90a (and says nothing on sm_80).
  tileiras --gpu-name sm_90a --emit=llvm -o "$tmp/k90.ll" "$in"
  tileiras --gpu-name sm_80 --emit=llvm -o "$tmp/k80.ll" "$in"
  run tile-ptx -v --gpu-name sm_90 -o "$tmp/k.ptx" "$tmp/k90.ll"
  [[ "$output" == "tile-ptx: .target sm_90a: the module uses wgmma, which only the arch-specific target has" ]] ||
    { rm -rf "$tmp"; echo "$output"; false; }
  run tile-ptx -v --gpu-name sm_80 -o "$tmp/k.ptx" "$tmp/k80.ll"
  rm -rf "$tmp"
  [ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
}

@test "tileiras: sm_90a takes mma.sync where no warpgroup tiles the accumulator (8 warps over 64 rows; 2 warps)" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp args
  tmp="$(mktemp -d)"
  for args in "--m 64 --n 64 --k 16 --warps 8" "--m 64 --n 64 --k 16 --warps 2" \
              "--m 64 --n 64 --k 16 --warps 4" "--m 32 --n 64 --k 32 --warps 4"; do
    "$kernel" $args --a f16 --acc f32 > "$tmp/k.mlir"
    run tileiras --gpu-name sm_90a --emit=ptx -o - "$tmp/k.mlir"
    [ "$status" -eq 0 ] || { rm -rf "$tmp"; echo "$args: $output"; false; }
    if [[ "$args" == *"--warps 4" ]]; then
      # The controls: one warpgroup over 64 rows does take wgmma, and so
      # do 32 rows (at M = 64 with padding rows, WgmmaToLLVM.cpp).
      [[ "$output" == *"wgmma.mma_async"* ]] || { rm -rf "$tmp"; echo "$args: no wgmma"; false; }
    else
      [[ "$output" == *"mma.sync.aligned.m16n8k16"* && "$output" != *"wgmma"* ]] ||
        { rm -rf "$tmp"; echo "$args: not mma.sync"; false; }
    fi
  done
  rm -rf "$tmp"
}

@test "tileiras: N above 256 takes one m64n256k16 per 256 columns; 8 warps are two warpgroups" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  "$kernel" --m 64 --n 512 --k 16 --a bf16 --acc f32 --warps 4 > "$tmp/wide.mlir"
  "$kernel" --m 128 --n 128 --k 16 --a f16 --acc f32 --warps 8 > "$tmp/two.mlir"
  run tileiras --gpu-name sm_90a --emit=ptx -o - "$tmp/wide.mlir"
  [ "$(grep -c 'wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16' <<< "$output")" -eq 2 ] ||
    { rm -rf "$tmp"; echo "$output" | grep wgmma; false; }
  run tileiras --gpu-name sm_90a --emit=ptx -o - "$tmp/two.mlir"
  rm -rf "$tmp"
  [[ "$output" == *".reqntid 256, 1, 1"* ]] || { echo "$output" | grep reqntid; false; }
  [ "$(grep -c 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' <<< "$output")" -eq 1 ] ||
    { echo "$output" | grep wgmma; false; }
}

@test "tile-sched: on sm_90a the wgmma path fuses global operands into mmaf_global with their views; PTX loads them by TMA into the swizzled staging; no spills" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  # Ragged views (104 x 40 of A, 40 x 96 of B, strides 64 and 128): the
  # view operands are the sizes, the outer stride and the tile's starts.
  "$kernel" --m 128 --n 128 --k 64 --a f16 --acc f32 --valid 104,96,40 > "$tmp/r.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$tmp/r.mlir' | tile-sched"
  [[ "$output" =~ "tile_as.mmaf_global %"[0-9]+" mask %"[0-9]+" view %arg0[%c104_i32, %c40_i32, %c64_i32, %c0_i32, %c0_i32], %"[0-9]+" mask %"[0-9]+" view %arg1[%c40_i32, %c96_i32, %c128_i32, %c0_i32, %c0_i32]" ]] ||
    { echo "$output" | grep -n "mmaf"; rm -rf "$tmp"; false; }
  # The mma.sync path (sm_80) keeps the plain mmaf_global.
  run bash -c "tile-lower --gpu-name sm_80 '$tmp/r.mlir' | tile-sched"
  [[ "$output" == *"tile_as.mmaf_global"* && "$output" != *" view %"* ]] || { echo "$output" | grep -n "mmaf"; rm -rf "$tmp"; false; }
  # 128x256x64: the staging and its two mbarriers leave room for K chunks
  # of 16 in two buffers. Thread 0 builds both tensor maps in this CTA's
  # slot, then per chunk arrives with the chunk's bytes (A 4 KiB + B 8 KiB)
  # and issues 16 boxes of 8 A rows and 4 B blocks; every thread waits on
  # the buffer's phase, which flips when the buffer comes round again.
  "$kernel" --m 128 --n 256 --k 64 --a f16 --acc f32 > "$tmp/k.mlir"
  cat > "$tmp/one.check" <<'CHECK'
CHECK: .global .align 128 .b8 __tile_tma_maps0[262144];
CHECK: .shared .align 1024 .b8 __tile_scratch[24592];
CHECK: tensormap.replace.tile.global_address.global.b1024.b64
CHECK: tensormap.replace.tile.swizzle_mode.global.b1024.b32 {{.*}}, 1;
CHECK: tensormap.replace.tile.global_address.global.b1024.b64
CHECK: tensormap.replace.tile.swizzle_mode.global.b1024.b32 {{.*}}, 3;
CHECK: fence.proxy.tensormap::generic.release.gpu;
CHECK-NEXT: fence.proxy.tensormap::generic.acquire.gpu [{{.*}}], 128;
CHECK-NEXT: fence.proxy.tensormap::generic.acquire.gpu [{{.*}}], 128;
CHECK: mbarrier.init.shared.b64 [__tile_scratch+24576], {{.*}};
CHECK-NEXT: mbarrier.init.shared.b64 [__tile_scratch+24584], {{.*}};
CHECK: bar.sync 0;
CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+24576], {{.*}};
CHECK-COUNT-20: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__tile_scratch+24576];
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
CHECK: wgmma.wait_group.sync.aligned 1;
CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+24584], {{.*}};
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+24576], {{.*}};
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 1,
CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+24584], {{.*}};
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 1,
CHECK: wgmma.wait_group.sync.aligned 0;
CHECK: bar.sync 0;
CHECK: mbarrier.inval.shared.b64 [__tile_scratch+24576];
CHECK-NEXT: mbarrier.inval.shared.b64 [__tile_scratch+24584];
CHECK-NOT: cp.async.cg
CHECK-NOT: st.shared.v4
CHECK-NOT: mma.sync
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/k.ptx' '$tmp/k.mlir' && FileCheck --input-file '$tmp/k.ptx' '$tmp/one.check'"
  [ "$status" -eq 0 ] || { echo "$output"; rm -rf "$tmp"; false; }
  run ptxas -arch sm_90a -v -o "$tmp/k.cubin" "$tmp/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; rm -rf "$tmp"; false; }
  # Without views (here: A computed in registers, only B global) the
  # global operand is copied with cp.async.cg, fenced for the async proxy.
  sed 's/^    %d = mmaf \(%x[0-9]*\),/    %an = negf \1 : tile<128x64xf16>\n    %d = mmaf %an,/' "$tmp/k.mlir" > "$tmp/neg.mlir"
  grep -q 'negf' "$tmp/neg.mlir" || { echo "no negf in the kernel"; rm -rf "$tmp"; false; }
  cat > "$tmp/neg.check" <<'CHECK'
CHECK: cp.async.cg.shared.global
CHECK: cp.async.commit_group;
CHECK-NEXT: cp.async.wait_group 0;
CHECK-NEXT: fence.proxy.async.shared::cta;
CHECK-NEXT: bar.sync 0;
CHECK-NEXT: wgmma.fence.sync.aligned;
CHECK-NOT: cp.async.bulk.tensor
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/neg.ptx' '$tmp/neg.mlir' && FileCheck --input-file '$tmp/neg.ptx' '$tmp/neg.check'"
  rm -rf "$tmp"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# The epilogue by TMA (tilepipe-store-tiles-by-tma): on sm_90a the store of
# an f16 D through a partition view becomes tile_as.store_tma. A 128x256
# tile is four 16 KiB blocks of 128-byte swizzled columns: two chunks of two
# blocks through the 32 KiB of scratch. Per chunk the registers go to
# shared memory by stmatrix.x4 (the wgmma accumulator layout holds its
# fragments: two adjacent columns per lane, four lanes to a row of 8 columns;
# 8 per thread and chunk instead of 32 st.shared.b32), a proxy fence and a
# barrier, then thread 0 stores two boxes, commits and waits for their reads
# before the next barrier.
@test "tile-sched: on sm_90a an f16 partition-view store becomes tile_as.store_tma (-v says so, or why not); PTX stores through swizzled shared memory by TMA in two chunks; no spills" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  "$kernel" --m 128 --n 256 --k 64 --a f16 --acc f16 --warps 8 > "$tmp/k.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$tmp/k.mlir' | tile-sched -v -o '$tmp/k.sched.mlir'"
  [[ "$output" == *"remark: sm_90a: this store goes through shared memory by TMA (cp.async.bulk.tensor; 2 chunk(s) of 128 columns, 128-byte swizzle; stmatrix.x4, 16 per thread)"* ]] ||
    { echo "$output"; rm -rf "$tmp"; false; }
  grep -qE 'tile_as.store_tma %[0-9]+, %arg3\[%c128_i32, %c256_i32, %c256_i32, %c0_i32, %c0_i32\] : tensor<128x256xf16' "$tmp/k.sched.mlir" &&
    ! grep -q 'tile_as.store ' "$tmp/k.sched.mlir" || { grep -n store "$tmp/k.sched.mlir"; rm -rf "$tmp"; false; }
  cat > "$tmp/k.check" <<'CHECK'
CHECK: .global .align 128 .b8 __tile_tma_maps{{[0-9]}}[131072];
CHECK: .shared .align 1024 .b8 __tile_scratch[32768];
CHECK: wgmma.wait_group.sync.aligned 0;
CHECK: bar.sync 0;
CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
CHECK: fence.proxy.async.shared::cta;
CHECK-NEXT: bar.sync 0;
CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{.*}}], [__tile_scratch];
CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{.*}}], [__tile_scratch+16384];
CHECK-NEXT: cp.async.bulk.commit_group;
CHECK-NEXT: cp.async.bulk.wait_group.read 0;
CHECK: bar.sync 0;
CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
CHECK: fence.proxy.async.shared::cta;
CHECK-NEXT: bar.sync 0;
CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{.*}}], [__tile_scratch];
CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{.*}}], [__tile_scratch+16384];
CHECK-NEXT: cp.async.bulk.commit_group;
CHECK-NEXT: cp.async.bulk.wait_group.read 0;
CHECK: bar.sync 0;
CHECK-NOT: st.global
CHECK: ret;
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/k.ptx' '$tmp/k.mlir' && FileCheck --input-file '$tmp/k.ptx' '$tmp/k.check'"
  [ "$status" -eq 0 ] || { echo "$output"; rm -rf "$tmp"; false; }
  # Four boxes in all; 64 register pairs per thread, four to a stmatrix,
  # and no st.shared.
  [ "$(grep -c 'cp.async.bulk.tensor.2d.global.shared::cta' "$tmp/k.ptx")" -eq 4 ] &&
    [ "$(grep -c 'stmatrix.sync.aligned.m8n8.x4.shared.b16' "$tmp/k.ptx")" -eq 16 ] &&
    ! grep -q 'st.shared' "$tmp/k.ptx" || { rm -rf "$tmp"; false; }
  run ptxas -arch sm_90a -v -o "$tmp/k.cubin" "$tmp/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; rm -rf "$tmp"; false; }
  # A view whose rows are not 16-byte multiples (60 columns) proves no
  # 16-byte runs: st.global, and -v says why. sm_80 has no TMA: no remark.
  "$kernel" --m 64 --n 64 --k 16 --a f16 --acc f16 --valid 64,60,16 > "$tmp/r.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$tmp/r.mlir' | tile-sched -v -o '$tmp/r.sched.mlir'"
  [[ "$output" == *"remark: sm_90a: st.global for this store, not TMA: its pointers prove no 16-byte aligned runs"* ]] &&
    grep -q 'tile_as.store ' "$tmp/r.sched.mlir" || { echo "$output"; rm -rf "$tmp"; false; }
  run bash -c "tile-lower --gpu-name sm_80 '$tmp/k.mlir' | tile-sched -v -o '$tmp/k80.mlir'"
  [[ "$output" != *"TMA"* ]] && ! grep -q store_tma "$tmp/k80.mlir" || { echo "$output"; rm -rf "$tmp"; false; }
  rm -rf "$tmp"
}

# FMHA's epilogue shape (inputs/store_tma_reshape.mlir): ftof after a reshape
# to the batched view. The truncf moves before the reshape, which goes: the
# 64 x 64 f16 tile in the wgmma layout takes stmatrix (4 x4 per thread), no
# st.shared or ld.shared (the f32 tile no longer moves through shared
# memory), and D matches numpy in tile-emu.
@test "tile-sched: a truncf of a leading-unit reshape stored by TMA applies to the accumulator in its layout; stmatrix, no shared-memory exchange; numerics in tile-emu" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/store_tma_reshape.mlir" tmp="$BATS_TEST_TMPDIR"
  run bash -c "tile-lower --gpu-name sm_90a '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  tileiras --gpu-name sm_90a --emit=ptx -o "$tmp/k.ptx" "$in"
  [ "$(grep -c 'stmatrix.sync.aligned.m8n8.x4.shared.b16' "$tmp/k.ptx")" -eq 4 ] &&
    ! grep -qE 'st\.shared|ld\.shared' "$tmp/k.ptx" || { grep -E 'stmatrix|shared' "$tmp/k.ptx"; false; }
  local rng="np.random.default_rng(11)"
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$in" --entry k --bin "$TILEPIPE_BIN" \
    --gpu-name sm_90a --array "a=$rng.standard_normal((64, 32)).astype(np.float16)" \
    --array "b=$rng.standard_normal((32, 64)).astype(np.float16)" \
    --array "c=$rng.standard_normal((64, 64)).astype(np.float32)" --array "d_out=np.zeros((64, 64), np.float16)" \
    --expect "d_out = (a.astype(np.float32) @ b.astype(np.float32) + c).astype(np.float16)" --rtol 2e-3 --atol 2e-2
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# stmatrix follows the register layout, not the multiply
# (inputs/store_tma_layouts.mlir): the same tile in stmatrix's fragment
# layout takes two stmatrix.x4 per thread, in 8-column runs two
# st.shared.v4; both store exactly the 30 x 56 view in tile-emu.
@test "tile-llvm: store_tma takes stmatrix.x4 where the layout holds its fragments, st.shared.v4 otherwise; both store the ragged view (tile-emu)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/store_tma_layouts.mlir" tmp="$BATS_TEST_TMPDIR" k
  tile-llvm --gpu-name sm_90a "$in" -o "$tmp/k.ll"
  tile-ptx --gpu-name sm_90a "$tmp/k.ll" -o "$tmp/k.ptx"
  # Per kernel: its stmatrix and st.shared count.
  run awk '/\.entry/ { k = $NF } /stmatrix.sync.aligned.m8n8.x4.shared.b16/ { m[k]++ }
           /st\.shared/ { s[k]++ } END { printf "%d %d %d %d", m["fragment("], s["fragment("], m["blocked("], s["blocked("] }' "$tmp/k.ptx"
  [ "$output" = "2 0 0 2" ] || { echo "stmatrix/st.shared per kernel: $output"; false; }
  grep -q 'st.shared.v4.b32' "$tmp/k.ptx"
  for k in fragment blocked; do
    /usr/bin/python3 -c "import numpy as np; np.save('$tmp/out.npy', np.full((32, 64), -1, np.float16))"
    run tile-emu "$tmp/k.ll" --kernel $k --grid 1 --gpu-name sm_90a --param "ptr:$tmp/out.npy" --out-dir "$tmp/$k"
    [ "$status" -eq 0 ] || { echo "$k: $output"; false; }
    run /usr/bin/python3 -c "
import numpy as np, sys
got = np.load('$tmp/$k/out.npy')
want = np.full((32, 64), -1, np.float16)
want[:30, :56] = np.arange(2048).reshape(32, 64)[:30, :56]
sys.exit(0 if np.array_equal(got, want) else print(got) or 1)"
    [ "$status" -eq 0 ] || { echo "$k: $output"; false; }
  done
}

@test "verifier: tile_as.store_tma of f32, of a base of another type, with a view of the wrong length or leading dimensions above 1" {
  run tile-opt --verify-diagnostics --split-input-file "$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/store_tma_invalid.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# A K-major B, read through a dim_map'd view (b holds B^T as FMHA's K
# holds K^T's rows): tile-lower proves its next-innermost dimension's runs
# (transposed_contiguity), tile-sched fuses it with its view in memory order
# (N x K sizes, K's stride, rhs_view_transposed), and TMA loads it as one
# box of all 128 N rows per 128-byte block next to A's 16 boxes of 8 rows.
@test "tile-lower proves a transposed view's runs; tile-sched fuses a K-major B with its view in memory order; TMA loads it as N-row boxes; no spills" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  "$kernel" --m 128 --n 128 --k 64 --a f16 --acc f32 --valid 104,96,40 --b-kmajor > "$tmp/k.mlir"
  run bash -c "tile-lower --gpu-name sm_90a '$tmp/k.mlir'"
  [[ "$output" =~ "load %"[0-9]+", %"[0-9]+", %cst"[_0-9]*" {transposed_contiguity = 8 : i64}" ]] ||
    { echo "$output" | grep -n "load"; rm -rf "$tmp"; false; }
  run bash -c "tile-lower --gpu-name sm_90a '$tmp/k.mlir' | tile-sched"
  [[ "$output" =~ "view %arg1[%c96_i32, %c40_i32, %c64_i32, %c0_i32, %c0_i32], %"[0-9]+" {rhs_view_transposed}" ]] ||
    { echo "$output" | grep -n "mmaf"; rm -rf "$tmp"; false; }
  cat > "$tmp/k.check" <<'CHECK'
CHECK: .shared .align 1024 .b8 __tile_scratch[32784];
CHECK: mov.b32 [[W:%r[0-9]+]], 64;
CHECK: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[A:%rd[0-9]+]]{{\]}}, 0, [[W]];
CHECK: mov.b32 [[R8:%r[0-9]+]], 8;
CHECK: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[A]]{{\]}}, 1, [[R8]];
CHECK: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[B:%rd[0-9]+]]{{\]}}, 0, [[W]];
CHECK: mov.b32 [[R128:%r[0-9]+]], 128;
CHECK: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[B]]{{\]}}, 1, [[R128]];
CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+32768], {{.*}};
CHECK-COUNT-17: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__tile_scratch+32768];
CHECK-NOT: cp.async.bulk.tensor
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
CHECK-NOT: cp.async.cg
CHECK-NOT: st.shared.v4
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/k.ptx' '$tmp/k.mlir' && FileCheck --input-file '$tmp/k.ptx' '$tmp/k.check'"
  [ "$status" -eq 0 ] || { echo "$output"; rm -rf "$tmp"; false; }
  run ptxas -arch sm_90a -v -o "$tmp/k.cubin" "$tmp/k.ptx"
  rm -rf "$tmp"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# TMA of 1- and 4-byte elements (issue #9): fp8 maps are u8 (elemtype 0),
# tf32 ones f32 (7); a box is W bytes wide (128 fp8 or 32 tf32 elements for
# the 128-byte swizzle, 32 fp8 for the 32-byte one), strides are bytes.
# A lands in its K-major staging (8-row boxes), B N-major in the landing
# array (one box of the chunk's rows); after the mbarrier wait the threads
# transpose B (fp8: byte permutes; tf32: rounding to nearest even, A in
# place too), fence for the async proxy and meet at a barrier before the
# wgmmas.
@test "TMA for fp8 and tf32 wgmma operands: u8 and f32 maps, W-byte boxes, byte strides, B landed and transposed, fenced; no spills" {
  local kernel="$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" tmp
  tmp="$(mktemp -d)"
  # fp8 e4m3, 64x32x128, views 40 x 112 of A (stride 128) and 112 x 32 of
  # B (stride 32); one chunk of 128: expect_tx 8 KiB of A + 4 KiB of B.
  "$kernel" --m 64 --n 32 --k 128 --a f8E4M3FN --acc f32 --valid 40,32,112 > "$tmp/f8.mlir"
  cat > "$tmp/f8.check" <<'CHECK'
CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 {{\[}}[[A:%rd[0-9]+]]{{\]}}, 0;
CHECK-NEXT: tensormap.replace.tile.swizzle_mode.global.b1024.b32 {{\[}}[[A]]{{\]}}, 3;
CHECK: mov.b64 [[SA:%rd[0-9]+]], 128;
CHECK-NEXT: tensormap.replace.tile.global_stride.global.b1024.b64 {{\[}}[[A]]{{\]}}, 0, [[SA]];
CHECK-NEXT: mov.b32 [[W:%r[0-9]+]], 128;
CHECK-NEXT: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[A]]{{\]}}, 0, [[W]];
CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 {{\[}}[[B:%rd[0-9]+]]{{\]}}, 0;
CHECK-NEXT: tensormap.replace.tile.swizzle_mode.global.b1024.b32 {{\[}}[[B]]{{\]}}, 1;
CHECK: mov.b64 [[SB:%rd[0-9]+]], 32;
CHECK-NEXT: tensormap.replace.tile.global_stride.global.b1024.b64 {{\[}}[[B]]{{\]}}, 0, [[SB]];
CHECK-NEXT: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[B]]{{\]}}, 0, {{%r[0-9]+}};
CHECK: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[B]]{{\]}}, 1, [[W]];
CHECK: mov.b32 [[TX:%r[0-9]+]], 12288;
CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+16384], [[TX]];
CHECK-COUNT-9: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__tile_scratch+16384];
CHECK-NOT: cp.async.bulk.tensor
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
CHECK: prmt.b32
CHECK: fence.proxy.async.shared::cta;
CHECK-NEXT: bar.sync 0;
CHECK: wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3
CHECK-NOT: cp.async.c
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/f8.ptx' '$tmp/f8.mlir' && FileCheck --input-file '$tmp/f8.ptx' '$tmp/f8.check'"
  [ "$status" -eq 0 ] || { echo "fp8: $output"; rm -rf "$tmp"; false; }
  # tf32 from f32 (ftof), 64x32x64: A 64 x 64 (stride 256 bytes) in two
  # 128-byte blocks of 32-element boxes, B 64 x 32 (stride 128 bytes) in
  # one; expect_tx 16 KiB of A + 8 KiB of B.
  "$kernel" --m 64 --n 32 --k 64 --a f32 --ftof-tf32 > "$tmp/t.mlir"
  cat > "$tmp/t.check" <<'CHECK'
CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 {{\[}}[[A:%rd[0-9]+]]{{\]}}, 7;
CHECK: mov.b64 [[SA:%rd[0-9]+]], 256;
CHECK-NEXT: tensormap.replace.tile.global_stride.global.b1024.b64 {{\[}}[[A]]{{\]}}, 0, [[SA]];
CHECK-NEXT: mov.b32 [[W:%r[0-9]+]], 32;
CHECK-NEXT: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[A]]{{\]}}, 0, [[W]];
CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 {{\[}}[[B:%rd[0-9]+]]{{\]}}, 7;
CHECK: mov.b64 [[SB:%rd[0-9]+]], 128;
CHECK-NEXT: tensormap.replace.tile.global_stride.global.b1024.b64 {{\[}}[[B]]{{\]}}, 0, [[SB]];
CHECK-NEXT: tensormap.replace.tile.box_dim.global.b1024.b32 {{\[}}[[B]]{{\]}}, 0, [[W]];
CHECK: mov.b32 [[TX:%r[0-9]+]], 24576;
CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__tile_scratch+32768], [[TX]];
CHECK-COUNT-17: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__tile_scratch+32768];
CHECK-NOT: cp.async.bulk.tensor
CHECK: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
CHECK: and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, -8192;
CHECK: fence.proxy.async.shared::cta;
CHECK-NEXT: bar.sync 0;
CHECK: wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32
CHECK-NOT: cp.async.c
CHECK
  run bash -c "tileiras --gpu-name sm_90a --emit=ptx -o '$tmp/t.ptx' '$tmp/t.mlir' && FileCheck --input-file '$tmp/t.ptx' '$tmp/t.check'"
  [ "$status" -eq 0 ] || { echo "tf32: $output"; rm -rf "$tmp"; false; }
  local ptx
  for ptx in f8 t; do
    run ptxas -arch sm_90a -v -o "$tmp/$ptx.cubin" "$tmp/$ptx.ptx"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$ptx: $output"; rm -rf "$tmp"; false; }
  done
  rm -rf "$tmp"
}

# The tcgen05 path on Blackwell (tests/lower-mma/inputs/mmaf_tcgen05.mlir).
@test "tile-sched: on sm_100, 103, 110 (plain, a or f) an mmaf accumulator takes the tcgen05.ld layout; sm_100f PTX keeps its target" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_tcgen05.mlir" gpu
  for gpu in sm_100 sm_100a sm_103 sm_103a sm_110 sm_110a sm_100f sm_103f sm_110f; do
    run bash -c "tile-lower --gpu-name $gpu '$in' | tile-sched | FileCheck --check-prefix=SCHED '$in'"
    [ "$status" -eq 0 ] || { echo "$gpu: $output"; false; }
  done
  # -v says which operands TMA loads.
  run bash -c "tileiras -v --gpu-name sm_100 --emit=scheduled -o /dev/null '$in' 2>&1 | FileCheck --check-prefix=REMARK '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # tcgen05 (kind::f16 here) is a family feature: sm_100f needs no `a`.
  run bash -c "tileiras --gpu-name sm_100f --emit=ptx -o - '$in'"
  [[ "$output" == *".target sm_100f"* && "$output" == *"tcgen05.mma"* && "$output" != *"mma.sync"* ]] ||
    { echo "$output" | grep -n "target\|mma" | head; false; }
}

@test "tile-llvm: sm_100 allocates tensor memory in warp 0, one thread loads A and B by TMA, waits, issues tcgen05.mma from descriptors, commit, mbarrier wait, tcgen05.ld, dealloc" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_tcgen05.mlir"
  run bash -c "tile-lower --gpu-name sm_100 '$in' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: sm_100 PTX targets sm_100a (tile-ptx -v says why) and ptxas assembles it for sm_100, 103 and 110" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_tcgen05.mlir" tmp gpu
  run bash -c "tileiras --gpu-name sm_100 --emit=ptx -o - '$in' | FileCheck --check-prefix=PTX '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  tmp="$(mktemp -d)"
  # ptxas rejects tcgen05 for plain sm_100: the cubin exists only if -arch
  # followed the PTX to the arch-specific target.
  for gpu in sm_100 sm_100a sm_103 sm_110; do
    run tileiras --gpu-name $gpu -o "$tmp/k.cubin" "$in"
    [ "$status" -eq 0 ] && [ -s "$tmp/k.cubin" ] || { rm -rf "$tmp"; echo "$gpu: $output"; false; }
    rm -f "$tmp/k.cubin"
  done
  tileiras --gpu-name sm_100 --emit=llvm -o "$tmp/k.ll" "$in"
  run tile-ptx -v --gpu-name sm_100 -o "$tmp/k.ptx" "$tmp/k.ll"
  [[ "$output" == "tile-ptx: .target sm_100a: the module uses tcgen05, which only the arch-specific target has" ]] ||
    { rm -rf "$tmp"; echo "$output"; false; }
  # The drop-in says it too: tileiras -v passes -v on to tile-ptx.
  run tileiras -v --gpu-name sm_100 -o "$tmp/k.cubin" "$in"
  rm -rf "$tmp"
  [ "$status" -eq 0 ] && [[ "$output" == *$'\ntile-ptx: .target sm_100a: the module uses tcgen05, which only the arch-specific target has'* ]] ||
    { echo "$output"; false; }
}

@test "tileiras: an accumulator beyond the 512 tensor-memory columns is 'allocated tmem out of resource: U vs M', located, exit 5" {
  # Triton's Tile IR backend matches this phrase to prune a config
  # (OutOfResources). 256x512 f32 is two row blocks of 512 columns.
  local tmp
  tmp="$(mktemp -d)"
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 256 --n 512 --k 16 --a f16 --acc f32 > "$tmp/k.mlir"
  run tileiras --gpu-name sm_100 -o "$tmp/k.cubin" "$tmp/k.mlir"
  [ "$status" -eq 5 ] && [ ! -e "$tmp/k.cubin" ] || { rm -rf "$tmp"; echo "$output"; false; }
  [[ "$output" =~ k.mlir:[0-9]+:[0-9]+:\ error:\ allocated\ tmem\ out\ of\ resource:\ 1024\ vs\ 512 ]] ||
    { rm -rf "$tmp"; echo "$output"; false; }
  # 256x256 fits (512 columns) and compiles.
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 256 --n 256 --k 16 --a f16 --acc f32 > "$tmp/k.mlir"
  run tileiras --gpu-name sm_100 -o "$tmp/k.cubin" "$tmp/k.mlir"
  rm -rf "$tmp"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# tilepipe-hoist-elementwise-over-unit-reshapes on its own
# (inputs/hoist_unit_reshape.mlir): narrowing and same-width elementwise ops
# (splat operands rebuilt) move before reshapes that only add or drop unit
# dimensions; widening ones, shared reshapes and regrouping reshapes stay.
@test "tile-opt: elementwise ops move before unit reshapes where the reshape then moves no wider elements" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/hoist_unit_reshape.mlir"
  run bash -c "tile-opt --tilepipe-hoist-elementwise-over-unit-reshapes '$in' | FileCheck '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# FMHA's epilogue shape (inputs/store_tma_reshape.mlir) off sm_90a: the
# truncf applies to the accumulator in its fragment layout, and the reshape
# to the 1 x 64 x 64 view keeps that layout (no exchange through shared
# memory: no st.shared or ld.shared in the PTX on mma.sync; not on tcgen05
# targets, see AssignLayouts.cpp); D matches numpy in tile-emu on each target.
@test "tile-sched: a truncf of a leading-unit reshape applies to the accumulator, and the reshape keeps its layout on sm_80 and sm_120 (tile-emu)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/store_tma_reshape.mlir" tmp="$BATS_TEST_TMPDIR" sm
  local rng="np.random.default_rng(12)"
  for sm in sm_80 sm_120; do
    run bash -c "tile-lower --gpu-name $sm '$in' | tile-sched | FileCheck --check-prefix=KEEP '$in'"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    tileiras --gpu-name $sm --emit=ptx -o "$tmp/k.ptx" "$in"
    ! grep -E 'st\.shared|ld\.shared' "$tmp/k.ptx" || { echo "$sm: shared-memory exchange"; false; }
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$in" --entry k --bin "$TILEPIPE_BIN" \
      --gpu-name $sm --array "a=$rng.standard_normal((64, 32)).astype(np.float16)" \
      --array "b=$rng.standard_normal((32, 64)).astype(np.float16)" \
      --array "c=$rng.standard_normal((64, 64)).astype(np.float32)" --array "d_out=np.zeros((64, 64), np.float16)" \
      --expect "d_out = (a.astype(np.float32) @ b.astype(np.float32) + c).astype(np.float16)" --rtol 2e-3 --atol 2e-2
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

# FMHA's Out in small (inputs/store_shared_addresses.mlir): a batched
# store whose index arithmetic tile-lower's CSE shares with a load at the
# same coordinates gets its own copy in tile-assign-layouts, so the
# accumulator reshaped to its view keeps the fragment layout: in PTX no
# st.shared or ld.shared exchange (A and B come by cp.async and ldmatrix),
# 16 st.global.b32 per thread, on sm_80 and sm_120 (on sm_120a stmatrix
# and a TMA store). A store of the sum with the loaded tile (@added) keeps
# the load's layout and its exchange. Both match numpy in tile-emu over a
# ragged second block, leaving the rows past the view alone.
@test "tile-sched: a batched accumulator store sharing its address arithmetic with a load keeps the fragment layout; no shared-memory exchange (sm_80, sm_120, sm_120a; tile-emu)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/store_shared_addresses.mlir" tmp="$BATS_TEST_TMPDIR" sm k
  run bash -c "tile-lower --gpu-name sm_80 '$in' | tile-opt --tilepipe-hoist-elementwise-over-unit-reshapes --tilepipe-assign-layouts | FileCheck '$in'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  local rng="np.random.default_rng(13)" d="(a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)"
  for sm in sm_80 sm_120 sm_120a; do
    tileiras --gpu-name $sm --emit=ptx -o "$tmp/k.ptx" "$in"
    run awk '/\.entry/ { k = $NF } /st\.shared|ld\.shared/ { s[k]++ } /st\.global\.b32/ { g[k]++ }
             /stmatrix/ { m[k]++ } END { printf "%d %d %d %d", s["k("], g["k("], m["k("], (s["added("] > 0) }' "$tmp/k.ptx"
    local want="0 16 0 1"
    [ $sm = sm_120a ] && want="0 0 4 1"
    [ "$output" = "$want" ] || { echo "$sm: k shared, k st.global.b32, k stmatrix, added shared: $output"; false; }
    for k in k added; do
      local want="$d"
      [ $k = added ] && want="$d + a"
      run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$in" --entry $k --grid 2 --bin "$TILEPIPE_BIN" \
        --gpu-name $sm --array "a=$rng.standard_normal((120, 64)).astype(np.float16)" \
        --array "b=$rng.standard_normal((64, 64)).astype(np.float16)" \
        --array "d_out=np.full((128, 64), -1, np.float16)" \
        --expect "d_out = np.concatenate([$want, np.full((8, 64), -1, np.float16)])" --rtol 2e-3 --atol 2e-2
      [ "$status" -eq 0 ] || { echo "$sm $k: $output"; false; }
    done
  done
}
