#!/usr/bin/env bats
# The elementwise cuTile corpus kernels (every bytecode version's text and
# every target) through tile-read | tile-lower | tile-sched | tile-llvm; the
# 13.3 text of each target goes on through tile-ptx | tile-pack to a cubin
# that ptxas accepts (the versions' texts differ only in their hints, and
# codegen + ptxas dominate the run time).

setup() {
  CORPUS="$TILEPIPE_SHARED_DIR/corpus/cutile/mlir"
  command -v tile-ptx >/dev/null && command -v tile-pack >/dev/null || skip "tile-ptx/tile-pack not built"
}

# compile FILE SM READER: READER turns the corpus text into tile-lower's
# input. Prints the file to check: the PTX (13.3) or the LLVM IR.
compile() {
  local file=$1 sm=$2 reader=$3 out="$BATS_TEST_TMPDIR/$(basename "$1" .mlir)"
  set -o pipefail
  $reader "$file" | tile-lower --gpu-name "$sm" | tile-sched | tile-llvm > "$out.ll" || return 1
  if [[ "$file" != *.13.3.mlir ]]; then
    echo "$out.ll"
    return 0
  fi
  tile-ptx --gpu-name "$sm" "$out.ll" > "$out.ptx" || return 1
  tile-pack --gpu-name "$sm" "$out.ptx" -o "$out.cubin" || return 1
  [ -s "$out.cubin" ] || return 1
  echo "$out.ptx"
}

read_with_tile_read() { tile-read "$1"; }

# walk PATTERN READER [PTX-REGEX...]: every matching corpus file compiles;
# each PTX contains each regex, each LLVM IR the accesses' inline PTX.
walk() {
  local pattern=$1 reader=$2 count=0
  shift 2
  for file in "$CORPUS"/$pattern; do
    local sm
    sm=$(basename "$file" | grep -o 'sm_[0-9]*')
    local ptx
    ptx=$(compile "$file" "$sm" "$reader") || { echo "FAILED: $file"; return 1; }
    if [[ "$ptx" == *.ll ]]; then
      grep -q 'ld.global' "$ptx" || { echo "$file: LLVM IR has no load"; return 1; }
      grep -q 'st.global' "$ptx" || { echo "$file: LLVM IR has no store"; return 1; }
    else
      for regex in "$@"; do
        grep -Eq "$regex" "$ptx" || { echo "$file: PTX lacks $regex"; return 1; }
      done
    fi
    count=$((count + 1))
  done
  [ "$count" -ge 12 ] || { echo "only $count files match $pattern"; return 1; }
}

@test "vec_add_kernel_1d f32: 16-byte vector loads/stores, masked tail" {
  walk 'samples-VectorAddition-vec_add_kernel_1d.f32.*.mlir' read_with_tile_read \
    '@%p[0-9]+ ld\.global\.v4\.b32' '@%p[0-9]+ st\.global\.v4\.b32' '\.reqntid 128, 1, 1'
}

@test "vec_add_kernel_1d f16: 16-byte vector accesses of 8 halves" {
  walk 'samples-VectorAddition-vec_add_kernel_1d.f16.*.mlir' read_with_tile_read \
    '@%p[0-9]+ ld\.global\.v4\.b32' '@%p[0-9]+ st\.global\.v4\.b32'
}

@test "vec_add_kernel_1d_gather: masked scalar gathers (no alignment facts)" {
  walk 'samples-VectorAddition-vec_add_kernel_1d_gather.*.mlir' read_with_tile_read \
    '@%p[0-9]+ ld\.global\.b(16|32)' '@%p[0-9]+ st\.global\.b(16|32)'
}

@test "vec_add_kernel_2d: 2-D tiles, 16-byte vector accesses" {
  walk 'samples-VectorAddition-vec_add_kernel_2d.*.mlir' read_with_tile_read \
    '@%p[0-9]+ ld\.global\.v4\.b32' '@%p[0-9]+ st\.global\.v4\.b32'
}

@test "silu_and_mul: bf16 <-> f32, exp through libdevice" {
  walk 'samples-MoE-silu_and_mul_kernel.*.mlir' read_with_tile_read \
    '@%p[0-9]+ ld\.global\.v4\.b32' '@%p[0-9]+ st\.global\.v4\.b32' 'ex2\.approx'
}
