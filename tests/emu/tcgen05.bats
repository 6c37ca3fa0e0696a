#!/usr/bin/env bats
# tile-emu runs the Blackwell tcgen05 family (kernels/tcgen05.ll, hand-written
# nvptx64 IR with LLVM 22's llvm.nvvm.tcgen05.* intrinsics): tensor memory
# allocation, tcgen05.mma from shared-memory descriptors committed to an
# mbarrier, tcgen05.ld/st fragments; numpy checks the numbers, and wrong use
# of tensor memory ends with a clear error and exit 5.

PY=/usr/bin/python3

setup() {
  K="$TILEPIPE_SOURCE_DIR/tests/emu/kernels"
  CHECK="$BATS_TEST_DIRNAME/tcgen05-check.py"
  cd "$BATS_TEST_TMPDIR"
}

@test "tcgen05.mma of every kind from shared memory into tensor memory, read back with tcgen05.ld" {
  # M = 128, N = 64, two mmas of 32 bytes of K (the second accumulating).
  for kind in f16 bf16 f16acc tf32 e4m3 s8; do
    set -- $("$PY" "$CHECK" inputs $kind)
    run tile-emu "$K/tcgen05.ll" --kernel mma --grid 1 --param ptr:a.npy --param ptr:b.npy \
      --param ptr:d.npy --param i32:$1 --param i32:$2 --out-dir out
    [ "$status" -eq 0 ] || { echo "$kind: $output"; false; }
    "$PY" "$CHECK" mma $kind out/d.npy || { echo "$kind: wrong D"; false; }
  done
}

@test "tcgen05.mma.cta_group::2 (M = 256) on a CTA pair: each CTA's A rows times both CTAs' B halves" {
  set -- $("$PY" "$CHECK" inputs f16pair)
  run tile-emu "$K/tcgen05.ll" --kernel mma_pair --grid 1 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:d.npy --param i32:$2 --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  "$PY" "$CHECK" mma f16pair out/d.npy || { echo "wrong D"; false; }
  # M = 128 (64 rows per CTA) is not emulated: refused, not computed wrongly.
  run tile-emu "$K/tcgen05.ll" --kernel mma_pair --grid 1 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:d.npy --param i32:135266320 --out-dir out # f16 with M = 128
  [ "$status" -eq 5 ]
  [[ "$output" == *"tcgen05.mma.cta_group::2 with M = 128 (the emulator runs M = 256: 128 rows in each CTA of the pair)"* ]]
  run tile-emu "$K/tcgen05.ll" --kernel pair_alone --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"llvm.nvvm.tcgen05.alloc.shared.cg2 (cta_group::2) needs the peer CTA of cluster rank 0, but the cluster has 1 CTA(s)"* ]]
}

@test "tcgen05.cp of A's K steps into tensor memory, then tcgen05.mma.tensor from there" {
  for kind in f16 bf16 tf32 e4m3 s8; do
    set -- $("$PY" "$CHECK" inputs $kind)
    run tile-emu "$K/tcgen05.ll" --kernel mma_tmem_a --grid 1 --param ptr:a.npy --param ptr:b.npy \
      --param ptr:d.npy --param i32:$1 --param i32:$2 --out-dir out
    [ "$status" -eq 0 ] || { echo "$kind: $output"; false; }
    "$PY" "$CHECK" mma $kind out/d.npy || { echo "$kind: wrong D"; false; }
  done
}

@test "the f16 mma written in inline PTX (alloc, mma with a setp predicate, commit, ld, wait, dealloc)" {
  set -- $("$PY" "$CHECK" inputs f16)
  run tile-emu "$K/tcgen05.ll" --kernel mma_asm --grid 1 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:d.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  "$PY" "$CHECK" mma f16 out/d.npy
  # A CTA pair (cta_group::2) is refused with the statement named.
  cat > pair.ll <<'IR'
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @pair(i32 %dst) "nvvm.reqntid"="32" {
  call void asm sideeffect "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [$0], 32;", "r"(i32 %dst)
  ret void
}
IR
  run tile-emu pair.ll --kernel pair --grid 1 --param i32:0
  [ "$status" -eq 5 ]
  [[ "$output" == *"in 'pair': unsupported tcgen05 inline PTX: cta_group::2 in inline PTX (the emulator runs a CTA pair's tcgen05 from the intrinsics) in 'tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32'"* ]]
}

@test "tcgen05.st 16x256b and 16x32bx2 fragments read back by 32x32b loads" {
  "$PY" -c "import numpy as np; np.save('o.npy', np.full((128, 16), -1, np.int32))"
  run tile-emu "$K/tcgen05.ll" --kernel fragments --grid 1 --param ptr:o.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Register r of warp lane t is t + 1000 r. 16x256b: r0, r1 at lane t/4,
  # columns 2(t%4) and +1; r2, r3 at lane t/4 + 8. 16x32bx2 (lanes 16-31,
  # base column 8, half split 4): lane 16 + t%16, column r (+4 for t >= 16).
  "$PY" -c "import numpy as np, sys
want = np.zeros((128, 16), np.int32)
for w in range(4):
    for t in range(32):
        for r in range(4):
            want[32 * w + t // 4 + 8 * (r // 2), 2 * (t % 4) + r % 2] = t + 1000 * r
        for r in range(2):
            want[32 * w + 16 + t % 16, 8 + r + 4 * (t // 16)] = t + 1000 * r
sys.exit(0 if np.array_equal(np.load('out/o.npy'), want) else 1)"
}

@test "wrong use of tensor memory: exhausted columns, a missing dealloc, another warp's lanes, a peer CTA" {
  run timeout 30 tile-emu "$K/tcgen05.ll" --kernel exhausted --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"thread (32,0,0): deadlock: threads keep waiting (tcgen05.alloc of more tensor memory columns than are free)"* ]]
  run tile-emu "$K/tcgen05.ll" --kernel leak --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"CTA (0,0,0): the CTA exited with 128 tensor memory column(s) still allocated (tcgen05.dealloc missing)"* ]]
  run tile-emu "$K/tcgen05.ll" --kernel wrong_quarter --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"tcgen05.ld of lanes 0..31 by warp 1, which may only access lanes 32..63"* ]]
  run tile-emu "$K/tcgen05.ll" --kernel commit_to_peer --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"tcgen05.commit .multicast::cluster to CTA mask 0x3, but the cluster has 1 CTA(s)"* ]]
}

@test "MLIR's NVVM dialect tcgen05 ops (alloc, mma_smem_desc, mma, commit, ld, dealloc) through mlir-translate" {
  mlir-opt --convert-nvvm-to-llvm "$K/tcgen05-nvvm.mlir" | mlir-translate --mlir-to-llvmir > nvvm.ll
  grep -q 'call void @llvm.nvvm.tcgen05.mma.shared(' nvvm.ll
  grep -q 'call <64 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x64(' nvvm.ll
  "$PY" "$CHECK" inputs f16 > /dev/null
  run tile-emu nvvm.ll --kernel mma --grid 1 --param ptr:a.npy --param ptr:b.npy --param ptr:d.npy \
    --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  "$PY" "$CHECK" mma f16 out/d.npy
}
