#!/usr/bin/env bats
# tilepipe-split-tile-blocks-across-cta-pair on the epilogues a hidden
# kernel may carry after its multiply (inputs/cta_pair_epilogues.mlir): row
# statistics of an M split and column sums of an N split (reductions along
# the dimension each CTA holds whole, stored beside the product), two
# multiplies sharing A (a gated product) and the product stored transposed.
# Each splits and matches numpy in tile-emu on ragged shapes (sm_100 and
# sm_90); the bail-outs are cta-pair.bats'.

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/cta_pair_epilogues.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# emu ENTRY SM GRID M N [ARGS...]: runs ENTRY on ragged M x 72 by 72 x N
# f16 operands; ARGS are emu-check's (the kernel's parameters after k, and
# the expectations, where P is the product in f32).
emu() {
  local entry=$1 sm=$2 grid=$3 m=$4 n=$5
  shift 5
  local p="(a.astype(np.float32) @ b.astype(np.float32))"
  local args=()
  for arg in "$@"; do args+=("${arg//P/$p}"); done
  /usr/bin/python3 "$CHECK" "$IN" --entry "$entry" --gpu-name "$sm" --bin "$TILEPIPE_BIN" --grid "$grid" \
    --array "a=np.random.default_rng(3).standard_normal(($m, 72)).astype(np.float16)" \
    --array "b=np.random.default_rng(4).standard_normal((72, $n)).astype(np.float16)" \
    --array "c=np.full(($m, $n), 5, np.float32)" \
    --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:72" "${args[@]}" --rtol 1e-3 --atol 1e-3
}

@test "every epilogue kernel splits (-v: rows for the M split, columns for the N splits)" {
  run tileiras -v "$IN" --gpu-name sm_100 --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c 'CTA rank r computes rows \[r\*128, r\*128+128) of the 256x64 result' <<< "$output")" -eq 1 ] &&
    [ "$(grep -c 'CTA rank r computes columns \[r\*128, r\*128+128) of the 128x256 result' <<< "$output")" -eq 3 ] ||
    { echo "$output"; false; }
  [ "$(grep -c '^\.reqnctapercluster 2, 1, 1' "$BATS_TEST_TMPDIR/k.ptx")" -eq 4 ]
}

@test "tile-emu: the M split's row maxima (its 128 rows each) and the product less them on a ragged 300x64x72 (sm_100, sm_90)" {
  for sm in sm_100 sm_90; do
    run emu m_rowmax $sm 2,1 300 64 --array "r=np.zeros(300, np.float32)" \
      --expect "c = P - P.max(1, keepdims=True)" --expect "r = P.max(1)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: the N split's column sums per tile block (its 128 columns each) on a ragged 200x300x72 (sm_100, sm_90)" {
  for sm in sm_100 sm_90; do
    run emu n_colsum $sm 2,2 200 300 --array "s=np.zeros((2, 300), np.float32)" --scalar "i32:2" \
      --expect "c = P" --expect "s = np.stack([P[:128].sum(0), P[128:].sum(0)])"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: two N-split multiplies sharing A, gated, on a ragged 200x300x72 (sm_100, sm_90)" {
  local p2="(a.astype(np.float32) @ b2.astype(np.float32))"
  for sm in sm_100 sm_90; do
    run emu n_gated $sm 2,2 200 300 --array "b2=np.random.default_rng(5).standard_normal((72, 300)).astype(np.float16)" \
      --expect "c = P * $p2"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: the N split stored transposed (its 128 rows of C^T each) on a ragged 200x300x72 (sm_100, sm_90)" {
  for sm in sm_100 sm_90; do
    /usr/bin/python3 "$CHECK" "$IN" --entry n_transposed --gpu-name $sm --bin "$TILEPIPE_BIN" --grid 2,2 \
      --array "a=np.random.default_rng(3).standard_normal((200, 72)).astype(np.float16)" \
      --array "b=np.random.default_rng(4).standard_normal((72, 300)).astype(np.float16)" \
      --array "c=np.full((300, 200), 5, np.float32)" \
      --scalar "i32:200" --scalar "i32:300" --scalar "i32:72" \
      --expect "c = (a.astype(np.float32) @ b.astype(np.float32)).T" --rtol 1e-3 --atol 1e-3 ||
      { echo "$sm"; false; }
  done
}
