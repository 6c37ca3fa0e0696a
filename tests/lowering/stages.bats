#!/usr/bin/env bats
# The middle stages one at a time (tile-lower, tile-sched, tile-llvm) on
# small kernels, their output pinned with FileCheck, and their diagnostics.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lowering/inputs"
  CORPUS="$TILEPIPE_SHARED_DIR/corpus/cutile/mlir"
}

@test "tile-lower: cuda_tile views become tile_as pointer tensors" {
  run bash -c "tile-lower --gpu-name sm_80 '$IN/vec_add_1d.mlir' | FileCheck --check-prefix=LOWER '$IN/vec_add_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-lower: num_warps comes from the entry's hints for the target" {
  run tile-lower --gpu-name sm_90 "$IN/vec_add_1d.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"tile_as.num_warps = 8 : i32"* ]]
  [[ "$output" == *'tile_as.target = "sm_90"'* ]]
}

@test "tile-lower --print-pipeline carries --gpu-name into the stamp pass" {
  run tile-lower --gpu-name sm_120 -O2 --print-pipeline
  [ "$status" -eq 0 ]
  [[ "$output" == *"tilepipe-stamp-target{gpu-name=sm_120 opt-level=2}"* ]]
}

@test "tile-sched: blocked layout with 16-byte vectors per thread" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN/vec_add_1d.mlir' | tile-sched | FileCheck --check-prefix=SCHED '$IN/vec_add_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: kernel ABI, nvvm.kernel/reqntid, predicated v4 accesses" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN/vec_add_1d.mlir' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN/vec_add_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: LLVM IR marks the kernel ptx_kernel with its symbol verbatim" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN/vec_add_1d.mlir' | tile-sched | tile-llvm"
  [ "$status" -eq 0 ]
  [[ "$output" == *"define ptx_kernel void @vadd(ptr addrspace(1)"* ]]
}

@test "unproven alignment: scalar masked accesses" {
  run bash -c "tile-lower '$IN/unaligned_1d.mlir' | FileCheck --check-prefix=LOWER '$IN/unaligned_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower '$IN/unaligned_1d.mlir' | tile-sched | tile-llvm --emit=mlir | FileCheck --check-prefix=LLVM '$IN/unaligned_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: 2-D blocked layout coordinates and vector stores" {
  run bash -c "tile-llvm --emit=mlir '$IN/laid_out_2d.mlir' | FileCheck --check-prefix=LLVM '$IN/laid_out_2d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm before tile-sched is a compile error (exit 5)" {
  run tile-llvm "$IN/no_layout.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"without a blocked layout (run tile-sched)"* ]]
}

@test "an invalid blocked layout is rejected by the verifier (exit 5)" {
  run tile-sched "$IN/bad_layout.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"blocked layout order must be a permutation"* ]]
}

@test "an unsupported form fails cleanly in tile-lower (exit 5, diagnostic)" {
  run tile-lower --gpu-name sm_80 "$IN/unsupported_form.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"padding_value pos_inf has no 'f8E4M3FN' encoding"* ]]
  [[ "$output" == *"failed to legalize operation 'cuda_tile.load_view_tko'"* ]]
}

@test "PTX of the 1-D vector add: two v4 loads per input, v4 stores" {
  command -v tile-ptx >/dev/null || skip "tile-ptx not built"
  run bash -c "tile-lower --gpu-name sm_90 '$IN/vec_add_1d.mlir' | tile-sched | tile-llvm | tile-ptx --gpu-name sm_90 | FileCheck --check-prefix=PTX '$IN/vec_add_1d.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
