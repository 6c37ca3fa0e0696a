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

@test "the 32-, 64- and 128-byte swizzles place 16-byte chunks as on an H100" {
  "$PY" -c "import numpy as np
np.save('m.npy', np.arange(8 * 32, dtype=np.float32).reshape(8, 32))
np.save('sw.npy', np.full(768, -1, np.float32)); np.save('maps3.npy', np.zeros(384, np.uint8))"
  run tile-emu "$K/tma.ll" --kernel swizzle_modes --grid 1 --param ptr:maps3.npy --param ptr:m.npy \
    --param ptr:sw.npy --out-dir out
  [ "$status" -eq 0 ]
  "$PY" "$BATS_TEST_DIRNAME/tma-check.py" swizzle m.npy out/sw.npy
}

@test "out-of-bounds NaN fill and traversal strides of a tensor load" {
  # Box coordinates as checked on an H100 (TensorMap.h): NaN fill at the
  # ragged corner and inside; every second row with zero fill.
  for case in "nan 28 60" "nan 0 0" "nan -4 -5" "strided 28 50" "strided 4 0"; do
    set -- $case
    "$PY" -c "import numpy as np; np.save('box.npy', np.zeros(1024, np.float32)); np.save('map.npy', np.zeros(128, np.uint8))"
    if [ $1 = nan ]; then
      run tile-emu "$K/tma.ll" --kernel nan_fill --grid 1 --param ptr:map.npy --param ptr:a.npy \
        --param ptr:box.npy --param i32:$2 --param i32:$3 --out-dir out
    else
      run tile-emu "$K/tma.ll" --kernel strided --grid 1 --param ptr:map.npy --param ptr:a.npy \
        --param ptr:box.npy --param i32:$2 --param i32:$3 --param i32:1 --param i32:2 \
        --param i32:2048 --param i32:2048 --out-dir out
    fi
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    "$PY" "$BATS_TEST_DIRNAME/tma-check.py" box a.npy out/box.npy $1 $2 $3
  done
}

@test "wrong use of TMA: rank mismatch, misaligned destination or box, bytes never delivered" {
  run tile-emu "$K/tma.ll" --kernel rank_mismatch --grid 1 --param ptr:maps.npy --param ptr:a.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'rank_mismatch', CTA (0,0,0), thread (0,0,0): cp.async.bulk.tensor.2d with the rank-3 tensor map"* ]]
  run tile-emu "$K/tma.ll" --kernel misaligned_destination --grid 1 --param ptr:maps.npy \
    --param ptr:a.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"cp.async.bulk.tensor: shared memory destination 0x"*" is not 128-byte aligned"* ]]
  # An H100 raises an illegal-instruction error for a box 120 bytes into a row.
  run tile-emu "$K/tma.ll" --kernel nan_fill --grid 1 --param ptr:maps.npy --param ptr:a.npy \
    --param ptr:b.npy --param i32:30 --param i32:0
  [ "$status" -eq 5 ]
  [[ "$output" == *"coordinate 30 of dimension 0 starts the box 120 bytes into a row, not at a multiple of 16 bytes"* ]]
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
