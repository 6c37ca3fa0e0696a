#!/usr/bin/env bats
# libtileiras: the tileirasProgram* C API, driven by a C program.

setup() {
  DRIVER="$TILEPIPE_BUILD_DIR/tests/capi/capi-driver"
  EXAMPLE="$TILEPIPE_SOURCE_DIR/examples/vector_add.tileirbc"
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "the C API compiles a corpus kernel to the same cubin as tileiras" {
  for sm in 80 90 120; do
    for v in 13.1 13.4; do
      in="$BYTECODE/samples-VectorAddition-vec_add_kernel_1d.f16.sm_$sm.$v.tileirbc"
      [ -f "$in" ] || in="$BYTECODE/samples-VectorAddition-vec_add_kernel_1d.f16.sm_100.$v.tileirbc"
      run "$DRIVER" compile "$in" "$TMP/capi.cubin" "$sm"
      [ "$status" -eq 0 ] || { echo "$output"; false; }
      tileiras "$in" -o "$TMP/tool.cubin" --gpu-name "sm_$sm"
      cmp "$TMP/capi.cubin" "$TMP/tool.cubin"
    done
  done
}

@test "the C API can stop at PTX, which matches tileiras --emit=ptx" {
  run "$DRIVER" compile "$EXAMPLE" "$TMP/capi.ptx" 90 2 ptx
  [ "$status" -eq 0 ]
  tileiras "$EXAMPLE" -o "$TMP/tool.ptx" --gpu-name sm_90 -O2 --emit=ptx
  cmp "$TMP/capi.ptx" "$TMP/tool.ptx"
}

@test "the C API returns the documented error codes" {
  run "$DRIVER" errors "$EXAMPLE"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"error: unsupported GPU target"* ]]
  [[ "$output" == *"error: input does not correspond to Tile IR bytecode"* ]]
  [[ "$output" == *"error: program has not been compiled"* ]]
}

@test "a kernel that does not compile gives code 5 and the diagnostics" {
  printf 'cuda_tile.module @kernels {\n  entry @k() {\n    %%0 = constant <i32: 1> : tile<i32>\n    %%1 = addi %%0, %%0 : tile<i64>\n    return\n  }\n}\n' > "$TMP/bad.mlir"
  run "$DRIVER" compile "$TMP/bad.mlir" "$TMP/out" 80
  [ "$status" -eq 5 ]
  [[ "$output" == *"failed to compile Tile IR program"* ]]
  [ ! -e "$TMP/out" ]
}
