#!/usr/bin/env bats
# make_strided_view (inputs/strided.mlir): tiles start at index * traversal
# stride, overlapping or leaving gaps; loads read the padding value past the
# tensor's edge and stores write nothing there or in the gaps. Ragged shapes
# run in tile-emu against numpy (tests/lib/emu-check.py); the lowered IR is
# pinned with FileCheck.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

# strided M N GX GY LDO [EXTRA]: an MxN tensor on a GXxGY grid. `full` holds
# tile (bx, by) = rows 5*bx.., columns 20*by.. of the tensor padded with nan;
# `out` (filled with 7, row stride LDO) gets it at rows 10*bx.., columns
# 20*by.., clipped to MxN. EXTRA is added to `full`'s expectation, to show
# a wrong one is caught.
strided() {
  local m=$1 n=$2 gx=$3 gy=$4 ldo=$5 extra=${6:-0}
  local pad="np.pad(a.reshape($m, $n), ((0, 128), (0, 128)), constant_values=np.nan)"
  local r="(5 * np.arange($gx)[:, None] + np.arange(8)).ravel()"
  local ro="(10 * np.arange($gx)[:, None] + np.arange(8)).ravel()"
  local c="(20 * np.arange($gy)[:, None] + np.arange(16)).ravel()"
  /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/strided.mlir" --entry strided --grid "$gx,$gy" \
    --array "a=np.arange($m * $n).astype(np.float32) - 100" --scalar "i32:$m" --scalar "i32:$n" \
    --array "full=np.full($gx * 8 * $gy * 16, 3, np.float32)" \
    --array "out=np.full($m * $ldo, 7, np.float32)" --scalar "i32:$ldo" \
    --expect "full = $pad[np.ix_($r, $c)].ravel() + $extra" \
    --expect "out = out.reshape($m, $ldo); r, ro, c = $r, $ro, $c; keep, keepc = ro < $m, c < $n; out[np.ix_(ro[keep], c[keepc])] = $pad[np.ix_(r[keep], c[keepc])]; out = out.ravel()"
}

@test "tile-lower: strided views step by their traversal strides; nan padding" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_80 '$IN/strided.mlir' | FileCheck --check-prefix=LOWER '$IN/strided.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: strided views on a ragged 37x45 tensor (overlapping rows, gapped columns)" {
  run strided 37 45 8 3 48
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: strided views on a 24x100 tensor whose tiles end inside it" {
  run strided 24 100 2 5 100
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: a wrong strided load is caught" {
  run strided 37 45 8 3 48 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"full differs"* ]]
}

@test "tile-emu: get_index_space_shape of a strided view counts tile origins inside the tensor" {
  for mn in "37 45 8 3" "40 40 8 2" "1 1 1 1"; do
    set -- $mn
    run /usr/bin/python3 "$EMU_CHECK" --bin "$TILEPIPE_BIN" "$IN/strided.mlir" --entry count \
      --array 'a=np.zeros(1, np.float32)' --scalar "i32:$1" --scalar "i32:$2" \
      --array 'counts=np.full(2, -1, np.int32)' --expect "counts = np.array([$3, $4], np.int32)"
    [ "$status" -eq 0 ] || { echo "$mn: $output"; false; }
  done
}

# inputs/view_alignment.mlir: a view whose extents have no divisor keeps
# runs of one element but records its 16-byte aligned base and row stride
# (view_alignment, what TMA needs); an unproven stride records nothing.
@test "tile-lower: view_alignment states the base and stride alignment that contiguity leaves out" {
  run bash -c "set -o pipefail; tile-lower --gpu-name sm_90 '$IN/view_alignment.mlir' | FileCheck --check-prefix=LOWER '$IN/view_alignment.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
