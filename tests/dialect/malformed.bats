#!/usr/bin/env bats
# Malformed cuda_tile text must give a diagnostic and a failure exit code,
# never a crash (signal), hang or success.

setup() {
  CORPUS="$TILEPIPE_SHARED_DIR/corpus/oracle/mlir"
}

# expect_clean_failure FILE: tile-opt rejects FILE with exit code 1 and an
# `error:` diagnostic, within 20 seconds.
expect_clean_failure() {
  run timeout 20 tile-opt --no-implicit-module "$1"
  if [ "$status" -ne 1 ] || [[ "$output" != *"error"* ]]; then
    echo "unexpected status $status for $1:"
    echo "$output" | head -5
    return 1
  fi
}

@test "truncated corpus modules are rejected cleanly" {
  local n=0
  for f in "$CORPUS"/spec_*.mlir; do
    local size
    size=$(wc -c < "$f")
    for frac in 3 2; do
      head -c $((size / frac)) "$f" > "$BATS_TEST_TMPDIR/cut.mlir"
      expect_clean_failure "$BATS_TEST_TMPDIR/cut.mlir"
    done
    n=$((n + 1))
    [ "$n" -lt 12 ] || break
  done
  [ "$n" -gt 0 ]
}

@test "broken type and attribute syntax is rejected cleanly" {
  local cases=(
    'cuda_tile.module @m { entry @k(%a: tile<0xf32>) { return } }'
    'cuda_tile.module @m { entry @k(%a: tile<-4xf32>) { return } }'
    'cuda_tile.module @m { entry @k(%a: tile<99999999999999999999xf32>) { return } }'
    'cuda_tile.module @m { entry @k(%a: tile<ptr<ptr<f32>>>) { return } }'
    'cuda_tile.module @m { entry @k(%a: tile<4xstring>) { return } }'
    'cuda_tile.module @m { entry @k() { %0 = constant <i32: [1, [2]]> : tile<2xi32> return } }'
    'cuda_tile.module @m { entry @k() { %0 = constant <i32: 1 : tile<i32> return } }'
    'cuda_tile.module @m { entry @k() { %0 = constant <f32: 1.0> : tile<1048576x1048576xf32> return } }'
    'cuda_tile.module @m { entry @k() { %0 = make_token : tile<i32> return } }'
    'cuda_tile.module @m { entry @k() { %t = "x"() : () -> !cuda_tile.partition_view<tile=(4), tensor_view<16xf32, strides=[1]>, dim_map=[7]> return } }'
    'cuda_tile.module @m { entry @k() { %t = "x"() : () -> !cuda_tile.tensor_view<?xf32, strides=[0]> return } }'
    'cuda_tile.module @m { entry @k() { %0 = assume div_by<0>, %0 : tile<i32> return } }'
    'cuda_tile.module @m { entry @k() { for %i in ( to , step ) : tile<i32> { } return } }'
    'cuda_tile.module @m { entry @k() { %r = reduce dim=0 identities=[] : -> return } }'
    'cuda_tile.module @m { global @g <i32: [1, 2]> : tile<3xi32> }'
    'cuda_tile.module @m { entry @k() { %c = constant <i32: 0> : tile<i32> loop iter_values(%a = %c) : tile<i32> { } return } }'
  )
  local i=0
  for text in "${cases[@]}"; do
    printf '%s\n' "$text" > "$BATS_TEST_TMPDIR/case$i.mlir"
    expect_clean_failure "$BATS_TEST_TMPDIR/case$i.mlir"
    i=$((i + 1))
  done
}
