#!/usr/bin/env bats
# tile-lower, tile-sched and tile-llvm on small shape kernels, their output
# pinned with FileCheck (the CHECK lines live in the inputs), and the
# diagnostics of malformed shape ops.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
}

# stages FILE PREFIX STAGES...: pipes FILE through the stages, FileCheck with PREFIX.
stages() {
  local file=$1 prefix=$2
  shift 2
  bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/$file' | $* | FileCheck --check-prefix=$prefix '$IN/$file'"
}

@test "tile-llvm: iota is a splat of the thread's base plus a constant vector" {
  run stages iota.mlir LLVM "tile-sched | tile-llvm --emit=mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: permute becomes tile_as.permute" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/stage_permute.mlir' | FileCheck --check-prefix=LOWER '$IN/stage_permute.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: permute source and result get blocked layouts" {
  run stages stage_permute.mlir SCHED tile-sched
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: permute goes through shared memory between CTA barriers" {
  run stages stage_permute.mlir LLVM "tile-sched | tile-llvm --emit=mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: reshape becomes tile_as.reshape" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/stage_reshape.mlir' | FileCheck --check-prefix=LOWER '$IN/stage_reshape.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: reshape between layouts goes through shared memory" {
  run stages stage_reshape.mlir LLVM "tile-sched | tile-llvm --emit=mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: convert_layout between blocked layouts" {
  run bash -c "tile-llvm --emit=mlir '$IN/convert_layout.mlir' | FileCheck --check-prefix=LLVM '$IN/convert_layout.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "convert_layout moves every element to its place (tile-emu)" {
  run tile-llvm "$IN/convert_layout.mlir" -o "$BATS_TEST_TMPDIR/convert.ll"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  /usr/bin/python3 -c "import numpy as np; np.save('$BATS_TEST_TMPDIR/out.npy', np.full(512, -1, np.int32))"
  run tile-emu "$BATS_TEST_TMPDIR/convert.ll" --kernel convert --grid 1 --gpu-name sm_80 \
    --param "ptr:$BATS_TEST_TMPDIR/out.npy" --out-dir "$BATS_TEST_TMPDIR/out"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run /usr/bin/python3 -c "import numpy as np, sys; got = np.load('$BATS_TEST_TMPDIR/out/out.npy'); sys.exit(0 if np.array_equal(got, np.arange(512)) else print(got[:32]) or 1)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "malformed shape ops: each verifier diagnostic" {
  run tile-opt --verify-diagnostics --split-input-file "$IN/invalid_shape.mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "malformed shape ops: tile-sched stops with exit 5 and the diagnostic" {
  run tile-sched "$IN/invalid_shape.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"permutation is not a permutation of [0, 2)"* ]]
}

@test "tile-sched: a reshape that only drops unit dimensions keeps the layout and moves no data" {
  run stages stage_reshape_unit.mlir SCHED "tile-sched"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run stages stage_reshape_unit.mlir LLVM "tile-sched | tile-llvm --emit=mlir"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: an i8 iota counts in i32 and truncates" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/iota_narrow.mlir' | FileCheck --check-prefix=LOWER '$IN/iota_narrow.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
