#!/usr/bin/env bats
# alloca (inputs/alloca.mlir): a tile block's private buffer in shared
# memory. Each block round-trips its tile through two buffers, one through a
# view, one through pointer tiles with the rows reversed (so threads read
# what other threads wrote: the barriers after each access must be there).
# Run in tile-emu against numpy; the lowering and the PTX are pinned with
# FileCheck. global-alloca.mlir is the same kernel with `global` buffers
# (device heap, one per tile block).

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# run_scratch GRID REV_EXPECT: the scratch kernel on GRID blocks of 16 rows.
run_scratch() {
  local rows=$(($1 * 16))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/alloca.mlir" --entry scratch --grid "$1" \
    --array "a=np.random.default_rng(5).standard_normal($rows * 32).astype(np.float32)" \
    --array "out=np.zeros($rows * 32, np.float32)" --array "rev=np.zeros($rows * 32, np.float32)" \
    --expect "out = a + 1" --expect "rev = $2"
}

@test "tile-emu: each tile block's buffers hold its own tile (3 blocks, rows reversed through pointers)" {
  run run_scratch 3 "a.reshape(3, 16, 32)[:, ::-1, :].ravel()"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong expectation (rows not reversed) is caught" {
  run run_scratch 2 "a"
  [ "$status" -eq 1 ]
  [[ "$output" == *"rev differs"* ]]
}

@test "tile-lower: generic accesses, each followed by a CTA barrier, one shared buffer per alloca" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/alloca.mlir' | FileCheck --check-prefix=LOWER '$IN/alloca.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: PTX declares the buffers in .shared and ptxas accepts it (sm_80, sm_90)" {
  run bash -c "set -o pipefail; tileiras '$IN/alloca.mlir' --emit=ptx -o - --gpu-name sm_80 | FileCheck --check-prefix=PTX '$IN/alloca.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for sm in sm_80 sm_90; do
    run tileiras "$IN/alloca.mlir" -o "$TMP/alloca-$sm.cubin" --gpu-name "$sm"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    [ -s "$TMP/alloca-$sm.cubin" ]
  done
}

# run_global GRID: global-alloca.mlir on GRID blocks of 16 rows.
run_global() {
  local rows=$(($1 * 16))
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/global-alloca.mlir" --entry scratch \
    --grid "$1" --gpu-name "${2:-sm_80}" \
    --array "a=np.random.default_rng(7).standard_normal($rows * 32).astype(np.float32)" \
    --array "out=np.zeros($rows * 32, np.float32)" --array "rev=np.zeros($rows * 32, np.float32)" \
    --expect "out = a + 1" --expect "rev = a.reshape($1, 16, 32)[:, ::-1, :].ravel()"
}

@test "tile-emu: global allocas give each tile block its own heap buffers (4 blocks, sm_80 and sm_90)" {
  for sm in sm_80 sm_90; do
    run run_global 4 $sm
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-llvm: global allocas are malloc'ed by thread 0 at entry and freed before the return" {
  run bash -c "set -o pipefail; tileiras '$IN/global-alloca.mlir' --gpu-name sm_80 --emit=llvm -o - | FileCheck --check-prefix=LOWER '$IN/global-alloca.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tileiras: the PTX calls malloc and free (system calls ptxas resolves) for sm_80, sm_90 and sm_100" {
  run bash -c "set -o pipefail; tileiras '$IN/global-alloca.mlir' --emit=ptx -o - --gpu-name sm_80 | FileCheck --check-prefix=PTX '$IN/global-alloca.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for sm in sm_80 sm_90 sm_100; do
    run tileiras "$IN/global-alloca.mlir" -o "$TMP/global-$sm.cubin" --gpu-name "$sm"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    [ -s "$TMP/global-$sm.cubin" ]
  done
}

@test "tile-emu: a global alloca the device heap cannot hold traps instead of writing through null" {
  cat > "$TMP/huge.mlir" <<'MLIR'
cuda_tile.module @kernels {
  entry @k(%out: tile<ptr<f32>>) {
    %buf = alloca num_elem = 2147483648, alignment = 16 global : tile<ptr<f32>>
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %v = make_tensor_view %buf, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %p = make_partition_view %v : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>
    %one = constant <f32: 1.0> : tile<16xf32>
    %t = store_view_tko weak %one, %p[%c0] token = %tok : tile<16xf32>, partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
MLIR
  run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$TMP/huge.mlir" --entry k \
    --array "out=np.zeros(16, np.float32)" --expect "out = np.zeros(16, np.float32)"
  [ "$status" -eq 2 ]
  [[ "$output" == *"trap instruction executed"* ]] || { echo "$output"; false; }
}

@test "a buffer larger than static shared memory is rejected with a diagnostic" {
  sed 's/num_elem = 512, alignment = 16/num_elem = 20000, alignment = 16/' "$IN/alloca.mlir" > "$TMP/big.mlir"
  run tileiras "$TMP/big.mlir" -o "$TMP/big.cubin" --gpu-name sm_80
  [ "$status" -ne 0 ]
  [[ "$output" == *"needs 80000 bytes of shared memory; at most 49152"* ]]
}
