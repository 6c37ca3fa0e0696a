#!/usr/bin/env bats
# tile-emu runs the TMA family (kernels/tma.ll, hand-written nvptx64 IR):
# tensor maps built on the device with tensormap.replace, tiles loaded and
# stored with cp.async.bulk.tensor, mbarrier transaction counts; numpy checks
# the numbers, and wrong use ends with a clear error and exit 5.

PY=/usr/bin/python3

setup() {
  K="$TILEPIPE_SOURCE_DIR/tests/emu/kernels"
  cd "$BATS_TEST_TMPDIR"
  "$PY" -c "import numpy as np; np.random.seed(5)
np.save('a.npy', np.random.rand(72, 44).astype(np.float32))
np.save('b.npy', np.full((44, 72), -1, np.float32))
np.save('maps.npy', np.zeros(2 * 3 * 256, np.uint8))"
}

@test "a ragged 72 x 44 matrix transposed and scaled tile by tile through TMA" {
  # 2 x 3 CTAs of 32 x 32 tiles: the last tile column has 12 columns, the
  # last tile row 8 rows; the loads zero-fill, the stores are clipped.
  run tile-emu "$K/tma.ll" --kernel transpose_scale --grid 2,3 --param ptr:maps.npy \
    --param ptr:a.npy --param ptr:b.npy --param i32:72 --param i32:44 --param f32:2.5 \
    --out-dir out
  [ "$status" -eq 0 ]
  "$PY" -c "import numpy as np, sys
a = np.load('a.npy'); b = np.load('out/b.npy')
sys.exit(0 if np.array_equal(b, np.float32(2.5) * a.T) else 1)"
}

@test "wrong use of TMA: rank mismatch, misaligned shared destination, bytes never delivered" {
  run tile-emu "$K/tma.ll" --kernel rank_mismatch --grid 1 --param ptr:maps.npy --param ptr:a.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'rank_mismatch', CTA (0,0,0), thread (0,0,0): cp.async.bulk.tensor.2d with the rank-3 tensor map"* ]]
  run tile-emu "$K/tma.ll" --kernel misaligned_destination --grid 1 --param ptr:maps.npy \
    --param ptr:a.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"cp.async.bulk.tensor: shared memory destination 0x"*" is not 128-byte aligned"* ]]
  run timeout 20 tile-emu "$K/tma.ll" --kernel missing_bytes --grid 1 --param ptr:maps.npy \
    --param ptr:a.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'missing_bytes', CTA (0,0,0), thread (0,0,0): deadlock: threads keep waiting (mbarrier.try_wait"* ]]
}

@test "MLIR's NVVM dialect forms (inline PTX mbarrier waits, predicated TMA, tensormap.replace)" {
  mlir-opt --convert-nvvm-to-llvm "$K/tma-nvvm.mlir" | mlir-translate --mlir-to-llvmir > tma-nvvm.ll
  grep -q 'asm sideeffect "{.*mbarrier.try_wait.parity' tma-nvvm.ll
  grep -q 'asm sideeffect "@$5 cp.async.bulk.tensor.2d.shared::cluster.global' tma-nvvm.ll
  "$PY" -c "import numpy as np; np.save('c.npy', np.full((72, 44), -1, np.float32))"
  run tile-emu tma-nvvm.ll --kernel scale_tiles --grid 2,3 --param ptr:maps.npy --param ptr:a.npy \
    --param ptr:c.npy --param i32:72 --param i32:44 --param f32:3 --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  "$PY" -c "import numpy as np, sys
sys.exit(0 if np.array_equal(np.load('out/c.npy'), np.float32(3) * np.load('a.npy')) else 1)"
}
