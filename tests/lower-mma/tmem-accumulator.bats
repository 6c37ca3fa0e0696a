#!/usr/bin/env bats
# tilepipe-keep-accumulators-in-tmem (inputs/tmem_accumulator.mlir): on
# sm_100 a K loop whose accumulator only feeds its one tcgen05 multiply
# keeps it in tensor memory for the whole loop (one tcgen05.st before, one
# tcgen05.ld after, none in the loop); a loop that also computes with the
# accumulator keeps the per-multiply round trip. The sums are checked in
# tile-emu on ragged shapes with several K tiles, and cuTile's block-scaled
# and tf32 kernels by tests/corpus (blockscaled.bats, allgather.bats).

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/tmem_accumulator.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

@test "tile-sched: the K loop's accumulator goes to tensor memory before the loop and comes back after it" {
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched | FileCheck --check-prefix=SCHED '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-llvm: no tcgen05.ld or tcgen05.st in the loop; one store before it, loads after it" {
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched | tile-llvm | FileCheck --check-prefix=LLVM '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-sched: on sm_90a, or at -O0, the pass leaves the loop alone" {
  run bash -c "tile-lower --gpu-name sm_90a '$IN' | tile-sched"
  [ "$status" -eq 0 ] && [[ "$output" != *tmem* ]] || { echo "$output" | grep -n tmem; false; }
  run bash -c "tile-lower --gpu-name sm_100 -O0 '$IN' | tile-sched -O0"
  [ "$status" -eq 0 ] && [[ "$output" != *tmem* ]] || { echo "$output" | grep -n tmem; false; }
}

# kloop ENTRY M N K EXPECT: C = A x B (f16) through the loop in tile-emu
# on sm_100.
kloop() {
  local entry=$1 m=$2 n=$3 k=$4 expect=$5
  /usr/bin/python3 "$CHECK" "$IN" --entry "$entry" --gpu-name sm_100 --bin "$TILEPIPE_BIN" \
    --grid "$(( (m + 127) / 128 )),$(( (n + 127) / 128 ))" \
    --array "a=np.random.default_rng(3).standard_normal(($m, $k)).astype(np.float16)" \
    --array "b=np.random.default_rng(4).standard_normal(($k, $n)).astype(np.float16)" \
    --array "c=np.full(($m, $n), 5, np.float32)" \
    --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:$k" \
    --expect "$expect" --rtol 1e-3 --atol 1e-3
}

@test "tile-emu: the tensor-memory accumulator sums A x B over three K tiles on a ragged 150x140x80 (sm_100)" {
  run kloop kloop 150 140 80 "c = a.astype(np.float32) @ b.astype(np.float32)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong sum is caught" {
  run kloop kloop 150 140 80 "c = a.astype(np.float32) @ b.astype(np.float32) + 1"
  [ "$status" -eq 1 ] || { echo "$output"; false; }
}
