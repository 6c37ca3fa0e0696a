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
