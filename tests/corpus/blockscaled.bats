#!/usr/bin/env bats
# cuTile's block-scaled matmul sample: fp8 e4m3 operands with f8E8M0FNU
# scales (one per 32 k), plain 2-D scale tiles and the 32x4x4-swizzled 4-D
# ones (reshape + permute back to 2-D in the kernel), through mmaf_scaled.
# Its bytecode exists for sm_100 and sm_120 (13.3, 13.4); the numeric check
# runs the sm_100 bytecode in tile-emu as sm_90 at the corpus shape (its
# numpy_prep fixes M, N, K, so no reduced shape).
#
# The kernel also needs padded partition views and 1-byte (fp8) loads and
# widening, lowered elsewhere: a case stopping on one of those known
# diagnostics is recorded, the rest still run, and the test is skipped,
# naming the blocker, instead of failing. Any other failure fails.

BLOCKERS=(
  "padded partition views are not lowered yet"
  "memory access of less than 2 bytes is not lowered yet"
  "'llvm.fpext' op operand #0 must be floating point LLVM type"
)

setup() {
  MANIFEST="$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json"
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  RUN="$BATS_TEST_DIRNAME/run-case.py"
  CASES="samples-BlockScaledMatMul-block_scaled_matmul_kernel-plain.fp8e4m3
samples-BlockScaledMatMul-block_scaled_matmul_kernel-swizzled.fp8e4m3"
  BLOCKED=""
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# After `run`: passes on success, records a known blocker, fails otherwise.
passed_or_blocked() { # label
  [ "$status" -eq 0 ] && return 0
  local blocker
  for blocker in "${BLOCKERS[@]}"; do
    if grep -qF -- "$blocker" <<<"$output"; then
      BLOCKED="${BLOCKED:+$BLOCKED; }$1: $blocker"
      return 0
    fi
  done
  echo "$1: $output"
  return 1
}

@test "block-scaled matmul compiles to cubins for sm_100 and sm_120 (13.3, 13.4)" {
  for case in $CASES; do
    for sm in sm_100 sm_120; do
      for v in 13.3 13.4; do
        run tileiras "$BYTECODE/$case.$sm.$v.tileirbc" --gpu-name "$sm" -o "$TMP/k.cubin"
        passed_or_blocked "$case $sm $v"
        rm -f "$TMP/k.cubin"
      done
    done
  done
  [ -z "$BLOCKED" ] || skip "blocked: $BLOCKED"
}

@test "block-scaled matmul matches numpy in tile-emu (plain and swizzled scales)" {
  for case in $CASES; do
    run "$RUN" --manifest "$MANIFEST" --case "$case" --bytecode "$BYTECODE/$case.sm_100.13.4.tileirbc" \
      --gpu-name sm_90 --bin "$TILEPIPE_BIN" --work "$TMP/$case"
    passed_or_blocked "$case"
  done
  [ -z "$BLOCKED" ] || skip "blocked: $BLOCKED"
}
