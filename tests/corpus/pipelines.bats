#!/usr/bin/env bats
# The vertical slice's contract, over the corpus: for every elementwise kernel
# (vector add 1-D/2-D/gather, transpose, silu_and_mul), every bytecode version
# and sm_80/90/100/120, tileiras writes a cubin ptxas accepted, and the shell
# driver (stages through pipes) and Makefile.example (one file per stage)
# write the byte-identical cubin.

setup() {
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

KERNELS="samples-VectorAddition-vec_add_kernel_1d samples-VectorAddition-vec_add_kernel_1d_gather
samples-VectorAddition-vec_add_kernel_2d samples-VectorAddition-vec_add_kernel_2d_gather
samples-Transpose-transpose_kernel samples-MoE-silu_and_mul_kernel"

# Every corpus file of those kernels (all dtypes), for one target.
files_for() {
  local k
  for k in $KERNELS; do ls "$BYTECODE"/"$k".*."$1".13.?.tileirbc; done
}

same_cubin_three_ways() { # file gpu
  local name; name="$(basename "$1" .tileirbc)"
  # The two compiles are independent: run them side by side.
  tileiras "$1" -o "$TMP/$name.cubin" --gpu-name "$2" -O3 --lineinfo &
  local wrapper=$!
  TILEPIPE_BIN="$TILEPIPE_BIN" "$TILEPIPE_SOURCE_DIR/scripts/tilepipe-compile" \
    "$1" "$TMP/$name.driver.cubin" --gpu-name "$2" -O3 --lineinfo &
  local driver=$!
  wait "$wrapper" || return 1
  wait "$driver" || return 1
  [ "$(head -c 4 "$TMP/$name.cubin" | od -An -tx1 | tr -d ' ')" = "7f454c46" ] || return 1
  cmp "$TMP/$name.cubin" "$TMP/$name.driver.cubin" || return 1
  case "$name" in
    *.13.4) # Makefile.example once per kernel, dtype and target
      cp "$1" "$TMP/m.tileirbc"
      rm -f "$TMP"/m.*.mlir "$TMP/m.ll" "$TMP/m.ptx" "$TMP/m.cubin"
      make -s -C "$TILEPIPE_SOURCE_DIR" -f Makefile.example KERNEL="$TMP/m" GPU="$2" \
        TILEPIPE_BIN="$TILEPIPE_BIN" >/dev/null || return 1
      cmp "$TMP/$name.cubin" "$TMP/m.cubin" || return 1 ;;
  esac
  rm -f "$TMP/$name.cubin" "$TMP/$name.driver.cubin"
}

walk_target() {
  local f n=0
  for f in $(files_for "$1"); do
    run same_cubin_three_ways "$f" "$1"
    [ "$status" -eq 0 ] || { echo "$(basename "$f") $1: $output"; return 1; }
    n=$((n + 1))
  done
  # 6 kernels, 11 kernel/dtype pairs, 4 versions each.
  [ "$n" -eq 44 ] || { echo "expected 44 files for $1, found $n"; return 1; }
}

@test "sm_80: every elementwise corpus file, same cubin from tileiras, driver and Makefile" {
  walk_target sm_80
}

@test "sm_90: every elementwise corpus file, same cubin from tileiras, driver and Makefile" {
  walk_target sm_90
}

@test "sm_100: every elementwise corpus file, same cubin from tileiras, driver and Makefile" {
  walk_target sm_100
}

@test "sm_120: every elementwise corpus file, same cubin from tileiras, driver and Makefile" {
  walk_target sm_120
}
