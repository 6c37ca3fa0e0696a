#!/usr/bin/env bats
# reduce and scan computed in tile-emu against numpy: each axis of 1-D and
# 2-D tiles (and a 3-D one), f32/f16/i32, layouts that split the axis over registers, lanes
# and warps, layouts wider than the tile (replicated elements), a
# two-operand argmax, inclusive and reverse scans. Kernels come from
# kernel.py; emu-check.py compiles and runs them.

setup() {
  KERNEL="$BATS_TEST_DIRNAME/kernel.py"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
  RNG="np.random.default_rng(7)"
  declare -gA NP=([f32]=float32 [f16]=float16 [i32]=int32)
}

teardown() {
  rm -rf "$TMP"
}

# emu KERNEL.PY-ARGS... -- EMU-CHECK-ARGS...
emu() {
  local gen=()
  while [ "$1" != "--" ]; do gen+=("$1"); shift; done
  shift
  "$KERNEL" "${gen[@]}" > "$TMP/k.mlir" || return 3
  /usr/bin/python3 "$CHECK" "$TMP/k.mlir" --entry k --bin "$TILEPIPE_BIN" "$@"
}

# reduce_case DTYPE SHAPE DIM OP NUMPY-INPUT NUMPY-REDUCTION [emu-check args]
reduce_case() {
  local dtype=$1 shape=$2 dim=$3 op=$4 input=$5 fn=$6
  shift 6
  local np_shape="(${shape//x/,},)"
  run emu reduce --dtype "$dtype" --shape "$shape" --dim "$dim" --op "$op" -- \
    --array "x=($input).reshape($np_shape).astype(np.${NP[$dtype]})" \
    --array "y=np.zeros(np.$fn(np.zeros($np_shape), axis=$dim).shape or (1,), np.${NP[$dtype]})" \
    --expect "y = np.asarray(np.$fn(x, axis=$dim)).reshape(y.shape)" "$@"
  [ "$status" -eq 0 ] || { echo "reduce $dtype $shape dim=$dim $op: $output"; false; }
}


@test "reduce sum/max of 1-D f32 tiles to a scalar (registers+lanes+warps, and replicated)" {
  reduce_case f32 1024 0 add "$RNG.standard_normal(1024)" sum --rtol 1e-4 --atol 1e-4
  reduce_case f32 16 0 max "$RNG.standard_normal(16)" max
}

@test "reduce sum/max over each axis of 2-D f32 tiles" {
  reduce_case f32 64x64 0 add "$RNG.standard_normal(4096)" sum --rtol 1e-4 --atol 1e-4
  reduce_case f32 64x64 1 max "$RNG.standard_normal(4096)" max
  reduce_case f32 8x16 0 max "$RNG.standard_normal(128)" max
  reduce_case f32 8x16 1 add "$RNG.standard_normal(128)" sum --rtol 1e-4 --atol 1e-4
}

@test "reduce sum/max over each axis of 2-D i32 and f16 tiles" {
  reduce_case i32 32x32 0 add "$RNG.integers(-1000, 1000, 1024)" sum
  reduce_case i32 32x32 1 max "$RNG.integers(-1000, 1000, 1024)" max
  reduce_case f16 16x64 0 max "$RNG.standard_normal(1024)" max
  reduce_case f16 16x64 1 add "$RNG.integers(-4, 5, 1024)" sum
}

@test "reduce with 8 warps (num_worker_warps hint)" {
  run emu reduce --shape 2048 --dim 0 --warps 8 -- \
    --array "x=$RNG.standard_normal(2048).astype(np.float32)" --array "y=np.zeros(1, np.float32)" \
    --expect "y = np.array([x.sum()], np.float32)" --rtol 1e-4 --atol 1e-4
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# argmax_case SHAPE DIM
argmax_case() {
  local shape=$1 dim=$2 np_shape="(${1//x/,},)"
  # Few distinct values, so ties are common: the smallest index must win.
  run emu argmax --shape "$shape" --dim "$dim" -- \
    --array "x=$RNG.integers(0, 5, $np_shape).astype(np.float32)" \
    --array "idx=np.arange(np.prod($np_shape)).reshape($np_shape).astype(np.int32)" \
    --array "v=np.zeros(np.max(np.zeros($np_shape), axis=$dim).shape or (1,), np.float32)" \
    --array "i=np.zeros(np.max(np.zeros($np_shape), axis=$dim).shape or (1,), np.int32)" \
    --expect "v = np.asarray(x.max(axis=$dim)).reshape(v.shape)" \
    --expect "i = np.asarray(np.take_along_axis(idx, np.expand_dims(x.argmax(axis=$dim), $dim), $dim)).reshape(i.shape)"
  [ "$status" -eq 0 ] || { echo "argmax $shape dim=$dim: $output"; false; }
}

@test "two-operand reduce: argmax (value, index) with ties" {
  argmax_case 1024 0
  argmax_case 16x32 0
  argmax_case 16x32 1
}

# scan_case DTYPE SHAPE DIM OP [--reverse]
scan_case() {
  local dtype=$1 shape=$2 dim=$3 op=$4 reverse=$5 np_shape="(${2//x/,},)"
  local fn="np.cumsum" x="x"
  [ "$op" = max ] && fn="np.maximum.accumulate"
  [ -n "$reverse" ] && x="np.flip(x, $dim)"
  local expect="$fn($x, axis=$dim).astype(x.dtype)"
  [ -n "$reverse" ] && expect="np.flip($expect, $dim)"
  local input="$RNG.integers(-8, 9, $np_shape)"
  [ "$dtype" = f32 ] && input="$RNG.standard_normal($np_shape)"
  run emu scan --dtype "$dtype" --shape "$shape" --dim "$dim" --op "$op" $reverse -- \
    --array "x=($input).astype(np.${NP[$dtype]})" --array "y=np.zeros($np_shape, np.${NP[$dtype]})" \
    --expect "y = $expect" --rtol 1e-4 --atol 1e-4
  [ "$status" -eq 0 ] || { echo "scan $dtype $shape dim=$dim $op $reverse: $output"; false; }
}

@test "inclusive scan (cumsum) of 1-D tiles" {
  scan_case f32 1024 0 add
  scan_case i32 16 0 add
}

@test "inclusive scan along each axis of 2-D tiles" {
  scan_case i32 64x64 0 add
  scan_case f32 64x64 1 max
  scan_case f32 8x16 0 max
  scan_case f16 8x16 1 add
}

@test "reverse scan" {
  scan_case i32 1024 0 add --reverse
  scan_case i32 16 0 max --reverse
  scan_case i32 64x64 0 add --reverse
}

@test "3-D tiles: reduce and reverse scan along the middle axis" {
  reduce_case i32 4x8x16 1 add "$RNG.integers(-1000, 1000, 512)" sum
  scan_case i32 4x8x16 1 add --reverse
}
