#!/usr/bin/env bats
# alloca (inputs/alloca.mlir): a tile block's private buffer in shared
# memory. Each block round-trips its tile through two buffers, one through a
# view, one through pointer tiles with the rows reversed (so threads read
# what other threads wrote: the barriers after each access must be there).
# Run in tile-emu against numpy; the lowering and the PTX are pinned with
# FileCheck; a global alloca is rejected with a diagnostic.

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

@test "a global alloca (memory shared across tile blocks) is rejected with a diagnostic" {
  cat > "$TMP/global.mlir" <<'MLIR'
cuda_tile.module @kernels {
  entry @k() {
    %0 = alloca num_elem = 64, alignment = 16 global : tile<ptr<f32>>
    return
  }
}
MLIR
  run tile-lower --gpu-name sm_80 "$TMP/global.mlir"
  [ "$status" -eq 5 ]
  [[ "$output" == *"global allocations (shared across tile blocks) are not lowered"* ]]
}

@test "a buffer larger than static shared memory is rejected with a diagnostic" {
  sed 's/num_elem = 512, alignment = 16/num_elem = 20000, alignment = 16/' "$IN/alloca.mlir" > "$TMP/big.mlir"
  run tileiras "$TMP/big.mlir" -o "$TMP/big.cubin" --gpu-name sm_80
  [ "$status" -ne 0 ]
  [[ "$output" == *"needs 80000 bytes of shared memory; at most 49152"* ]]
}
