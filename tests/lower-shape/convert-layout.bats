#!/usr/bin/env bats
# convert_layout planned on linear layouts (LayoutConversion.h): a register
# permutation, warp shuffles or shared memory, each pinned with FileCheck
# (the CHECK lines live in the inputs) and run in tile-emu.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
}

# runs FILE's kernel `convert` in tile-emu and checks that it stored 0..N-1.
emu_arange() {
  local file=$1 n=$2
  run tile-llvm "$IN/$file" -o "$BATS_TEST_TMPDIR/convert.ll"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  /usr/bin/python3 -c "import numpy as np; np.save('$BATS_TEST_TMPDIR/out.npy', np.full($n, -1, np.int32))"
  run tile-emu "$BATS_TEST_TMPDIR/convert.ll" --kernel convert --grid 1 --gpu-name sm_80 \
    --param "ptr:$BATS_TEST_TMPDIR/out.npy" --out-dir "$BATS_TEST_TMPDIR/out"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  run /usr/bin/python3 -c "import numpy as np, sys; got = np.load('$BATS_TEST_TMPDIR/out/out.npy'); sys.exit(0 if np.array_equal(got, np.arange($n)) else print(got[:64]) or 1)"
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "convert_layout within warps: shfl.sync, no shared memory" {
  run bash -c "tile-llvm --emit=mlir '$IN/convert_shuffle.mlir' | FileCheck --check-prefix=LLVM '$IN/convert_shuffle.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "convert_layout within warps moves every element (tile-emu)" {
  emu_arange convert_shuffle.mlir 512
}

@test "convert_layout of register order only: a shufflevector" {
  run bash -c "tile-llvm --emit=mlir '$IN/convert_registers.mlir' | FileCheck --check-prefix=LLVM '$IN/convert_registers.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "convert_layout of register order moves every element (tile-emu)" {
  emu_arange convert_registers.mlir 512
}

@test "convert_layout across warps still goes through shared memory (tile-emu)" {
  emu_arange convert_layout.mlir 512
}

@test "convert_layout across warps: swizzled slots, vector stores kept" {
  run bash -c "tile-llvm --emit=mlir '$IN/convert_layout.mlir' | FileCheck --check-prefix=SWZ '$IN/convert_layout.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-llvm '$IN/convert_layout.mlir' -o '$BATS_TEST_TMPDIR/c.ll' && tile-ptx --gpu-name sm_80 '$BATS_TEST_TMPDIR/c.ll' -o - | FileCheck --check-prefix=PTX '$IN/convert_layout.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
