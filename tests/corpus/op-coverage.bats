#!/usr/bin/env bats
# The cuda_tile op roster against the lowering and its tests
# (op-coverage.py prints the whole table: run it by hand to see it).
# Every op that has a lowering must be used by some lowering test (a
# tests/lower-*, tests/lowering or tests/corpus input, or a corpus case a
# corpus suite runs); every op outside UNLOWERED must have a lowering, so
# one cannot disappear unnoticed. Shrink UNLOWERED as ops get lowered.

UNLOWERED=

setup() {
  COVERAGE="$BATS_TEST_DIRNAME/op-coverage.py"
  CORPUS="$TILEPIPE_SHARED_DIR/corpus/cutile"
}

@test "the roster has every op of bytecode 13.1-13.4 (105)" {
  run /usr/bin/python3 "$COVERAGE" --source "$TILEPIPE_SOURCE_DIR" --corpus "$CORPUS"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"105 ops;"* ]] || { echo "$output" | tail -4; false; }
}

@test "every lowered op is used by a lowering test" {
  run /usr/bin/python3 "$COVERAGE" --source "$TILEPIPE_SOURCE_DIR" --corpus "$CORPUS" --check-tested
  [ "$status" -eq 0 ] || { echo "$output" | tail -4; false; }
}

@test "no op outside the known list is left unlowered" {
  run /usr/bin/python3 "$COVERAGE" --source "$TILEPIPE_SOURCE_DIR" --corpus "$CORPUS" \
    --unlowered-within "$UNLOWERED"
  [ "$status" -eq 0 ] || { echo "$output" | tail -5; false; }
}

@test "powi and get_num_tile_blocks (used by no other suite) match numpy in tile-emu" {
  run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" \
    "$BATS_TEST_DIRNAME/inputs/coverage_gaps.mlir" --entry k --grid 3,2,1 --bin "$TILEPIPE_BIN" \
    --array "x=np.random.default_rng(3).uniform(0.5, 2, 128).astype(np.float32)" \
    --array "e=np.random.default_rng(4).integers(-6, 7, 128).astype(np.int32)" \
    --array "out=np.zeros(128, np.float32)" --array "grid=np.zeros(3, np.int32)" \
    --expect "out = x.astype(np.float64) ** e" --expect "grid = np.array([3, 2, 1], np.int32)" \
    --rtol 1e-5
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
