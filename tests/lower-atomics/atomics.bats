#!/usr/bin/env bats
# atomics.mlir: scalar atomics (once per CTA, old value broadcast), a CAS spin
# lock, masked atomics on a tile smaller than the CTA, compare-and-swap on
# i32 and f32, reduction into a ragged view; orderings and scopes in PTX.

setup() {
  IN="$BATS_TEST_DIRNAME/atomics.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# emu ARGS...: emu-check.py on sm_80 and sm_90
emu() {
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$CHECK" "$IN" --gpu-name $sm "$@"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-lower keeps mode, ordering and scope on tile_as atomics" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "PTX: cmpxchg carries ordering and scope, atomicrmw gets fences of its scope" {
  tileiras "$IN" --gpu-name sm_90 --emit=ptx -o "$TMP/k.ptx"
  # counter: acq_rel device add
  run bash -c "sed -n '/entry counter/,/^}/p' '$TMP/k.ptx'"
  [[ "$output" == *"fence.release.gpu;"*"atom.global.add.u32"*"fence.acquire.gpu;"* ]] || { echo "$output"; false; }
  # locked: acquire device CAS; release sys exchange as a system-scope CAS loop
  run bash -c "sed -n '/entry locked/,/^}/p' '$TMP/k.ptx'"
  [[ "$output" == *"atom.acquire.gpu.global.cas.b32"*"fence.release.sys;"*"atom.relaxed.sys.global.cas.b32"* ]] || { echo "$output"; false; }
  [[ "$output" != *"atom.global.exch"* ]] || { echo "$output"; false; }
  # small_masked: relaxed tl_blk addf, no fences
  run bash -c "sed -n '/entry small_masked/,/^}/p' '$TMP/k.ptx'"
  [[ "$output" == *"atom.global.add.f32"* && "$output" != *"fence"* ]] || { echo "$output"; false; }
  run bash -c "sed -n '/entry cas(/,/^}/p' '$TMP/k.ptx'"
  [[ "$output" == *"atom.acq_rel.cta.global.cas.b32"* ]] || { echo "$output"; false; }
  run bash -c "sed -n '/entry cas_f32/,/^}/p' '$TMP/k.ptx'"
  [[ "$output" == *"atom.relaxed.sys.global.cas.b32"* ]] || { echo "$output"; false; }
}

@test "every kernel compiles to cubins for sm_80, sm_90, sm_100 and sm_120" {
  for sm in sm_80 sm_90 sm_100 sm_120; do
    run tileiras "$IN" --gpu-name $sm -o "$TMP/k.$sm.cubin"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "a scalar atomic runs once per CTA and each CTA sees its own old value" {
  emu --entry counter --grid 8 --array "c=np.zeros(1, dtype=np.int32)" \
    --array "o=np.zeros(8, dtype=np.int32)" --expect "c = c + 8" --expect "o = o + 1"
}

@test "a CAS spin lock guards a read-modify-write of a one-element tile" {
  emu --entry locked --grid 6 --array "lock=np.zeros(1, dtype=np.int32)" \
    --array "n=np.full(1, 5, dtype=np.int32)" --expect "n = n + 6" --expect "lock = lock"
}

@test "a masked atomic on a tile smaller than the CTA runs once per element" {
  emu --entry small_masked --array "p=np.arange(4, dtype=np.float32)" \
    --array "v=np.full(4, 10, dtype=np.float32)" --array "o=np.full(4, -1, dtype=np.float32)" \
    --expect "p = p + np.where(np.arange(4) < 3, v, 0)" \
    --expect "o = np.where(np.arange(4) < 3, p, o)"
}

@test "compare-and-swap on i32 (old values returned) and on f32 bits" {
  emu --entry cas --array "p=np.arange(128, dtype=np.int32) % 5" \
    --array "c=np.arange(128, dtype=np.int32) % 3" --array "v=np.arange(128, dtype=np.int32) + 100" \
    --array "o=np.zeros(128, dtype=np.int32)" --expect "p = np.where(p == c, v, p)" --expect "o = p"
  emu --entry cas_f32 --array "p=(np.arange(128) % 5).astype(np.float32)" \
    --array "c=(np.arange(128) % 3).astype(np.float32)" \
    --array "v=np.arange(128, dtype=np.float32) + 0.5" --expect "p = np.where(p == c, v, p)"
}

@test "atomic_red_view_tko adds a tile into a ragged view, nothing past its end" {
  emu --entry red --grid 2 --array "p=np.ones(256, dtype=np.float32)" --scalar i32:200 \
    --array "v=np.arange(256, dtype=np.float32)" \
    --expect "p = p + np.where(np.arange(256) < 200, v, 0)"
}
