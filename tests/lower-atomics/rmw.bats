#!/usr/bin/env bats
# Every atomic_rmw_tko mode (rmw.mlir, one entry each) in tile-emu on sm_80
# and sm_90: memory holds the combined value, the result the old one. Signed
# and unsigned min/max see negative inputs, so a swapped pair would differ.

setup() {
  IN="$BATS_TEST_DIRNAME/rmw.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  P='(np.arange(128) * 7919 % 1000 - 500)'
  V='(np.arange(128) * 104729 % 997 - 498)'
}

# check ENTRY DTYPE 'NEW VALUE OF p (numpy, over p and v)' [tolerances]
check() {
  local entry=$1 dtype=$2 want=$3
  shift 3
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$CHECK" "$IN" --entry "$entry" --gpu-name $sm \
      --array "p=$P.astype(np.$dtype)" --array "v=$V.astype(np.$dtype)" \
      --array "o=np.zeros(128, dtype=np.$dtype)" \
      --expect "o = p" --expect "p = $want" "$@"
    [ "$status" -eq 0 ] || { echo "$entry $sm: $output"; false; }
  done
}

@test "and, or, xor on i32" {
  check rmw_and_i32 int32 'p & v'
  check rmw_or_i32 int32 'p | v'
  check rmw_xor_i32 int32 'p ^ v'
}

@test "add on i32 and i64" {
  check rmw_add_i32 int32 'p + v'
  check rmw_add_i64 int64 'p + v'
}

@test "signed max and min on i32" {
  check rmw_max_i32 int32 'np.maximum(p, v)'
  check rmw_min_i32 int32 'np.minimum(p, v)'
}

@test "unsigned umax and umin on i32" {
  check rmw_umax_i32 int32 'np.maximum(p.view(np.uint32), v.view(np.uint32)).view(np.int32)'
  check rmw_umin_i32 int32 'np.minimum(p.view(np.uint32), v.view(np.uint32)).view(np.int32)'
}

@test "xchg on i32 and f32" {
  check rmw_xchg_i32 int32 'v'
  check rmw_xchg_f32 float32 'v'
}

@test "addf on f32, f16 and f64" {
  check rmw_addf_f32 float32 'p + v'
  check rmw_addf_f16 float16 'p + v' --rtol 1e-3
  check rmw_addf_f64 float64 'p + v'
}
