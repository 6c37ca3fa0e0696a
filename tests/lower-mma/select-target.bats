#!/usr/bin/env bats
# --gpu-name sm_90 takes sm_90a where a multiply gains from wgmma
# (tilepipe-select-wgmma-target, WgmmaChoice.h): a matmul of contiguous
# loads does, and one whose A is a gather copied by cp.async; a gather
# cp.async cannot copy keeps mma.sync and plain sm_90; -v says which
# and why at the mmaf. The corpus kernels' choices: tests/corpus/matmul.bats.

setup() {
  WGMMA="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_wgmma.mlir"
  GATHER="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/mmaf_gather_select.mlir"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "tileiras sm_90: a matmul of contiguous loads compiles as sm_90a (the same PTX), wgmma; -v says why at the mmaf" {
  run tileiras --gpu-name sm_90 -v --emit=ptx -o "$TMP/k90.ptx" "$WGMMA"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"mmaf_wgmma.mlir:30:10: remark: sm_90 -> sm_90a: wgmma for this mmaf (A: a contiguous load, B: a contiguous load)"* ]] ||
    { echo "$output"; false; }
  [[ "$output" == *"tile-ptx: .target sm_90a: the module uses wgmma"* ]] || { echo "$output"; false; }
  grep -q '^\.target sm_90a$' "$TMP/k90.ptx"
  grep -q 'wgmma.mma_async' "$TMP/k90.ptx"
  tileiras --gpu-name sm_90a --emit=ptx -o "$TMP/k90a.ptx" "$WGMMA"
  cmp "$TMP/k90.ptx" "$TMP/k90a.ptx"
  # And the cubin assembles (ptxas follows the PTX to sm_90a).
  run tileiras --gpu-name sm_90 -o "$TMP/k.cubin" "$WGMMA"
  [ "$status" -eq 0 ] && [ -s "$TMP/k.cubin" ] || { echo "$output"; false; }
}

# A gathered A loaded as it is, in 16-byte runs, goes to the swizzled wgmma
# staging by cp.async while TMA fills B (the fused MoE kernel's shape).
@test "tileiras sm_90: a gather-fed mmaf takes sm_90a and wgmma, A by cp.async, B by TMA; -v says so" {
  run tileiras --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx" "$GATHER"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"mmaf_gather_select.mlir:39:10: remark: sm_90 -> sm_90a: wgmma for this mmaf (A: a gather (addresses from loaded indices) copied into the swizzled staging by cp.async, row runs, B: a contiguous load)"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.target sm_90a$' "$TMP/k.ptx"
  grep -q 'wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16' "$TMP/k.ptx"
  grep -q 'cp.async.cg.shared.global' "$TMP/k.ptx"
  grep -q 'cp.async.bulk.tensor.2d' "$TMP/k.ptx"
  grep -q 'mbarrier.try_wait.parity' "$TMP/k.ptx"
  ! grep -q 'mma.sync' "$TMP/k.ptx"
  run ptxas -arch sm_90a -v -o "$TMP/k.cubin" "$TMP/k.ptx"
  [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$output"; false; }
}

# gather_variant odd|computed|acquire: the gather-fed kernel with A rows 33
# elements apart (no run of 4 bytes proven), A computed in registers from
# the gather (x + x) or A's gather an acquire load: none is a load cp.async
# copies.
gather_variant() {
  case $1 in
    odd) sed 's/<i32: 32> : tile<64xi32>/<i32: 33> : tile<64xi32>/' "$GATHER" ;;
    acquire) sed 's/load_ptr_tko weak %ap/load_ptr_tko acquire device %ap/' "$GATHER" ;;
    computed) sed 's/    %d = mmaf %x, /    %x2 = addf %x, %x : tile<64x32xf16>\n    %d = mmaf %x2, /' "$GATHER" ;;
  esac > "$TMP/$1.mlir"
}

@test "tileiras sm_90 and sm_90a: a gather cp.async cannot copy keeps mma.sync (and sm_90); -v says A is a gather" {
  local variant sm line
  for variant in odd:39 computed:40 acquire:39; do
    line=${variant#*:} variant=${variant%:*}
    gather_variant $variant
    for sm in sm_90 sm_90a; do
      run tileiras --gpu-name $sm -v --emit=ptx -o "$TMP/k.ptx" "$TMP/$variant.mlir"
      [ "$status" -eq 0 ] || { echo "$variant $sm: $output"; false; }
      [[ "$output" == *"$variant.mlir:$line:10: remark: $sm: mma.sync for this mmaf, not wgmma: A is a gather (addresses from loaded indices) that cp.async cannot copy (no weak, zero-padded load as it is with runs of 4 bytes or more)"* ]] ||
        { echo "$variant $sm: $output"; false; }
      [[ "$output" != *"tile-ptx: .target"* ]] || { echo "$variant $sm: $output"; false; }
      grep -q "^\.target $sm\$" "$TMP/k.ptx" && grep -q 'mma.sync.aligned.m16n8k16' "$TMP/k.ptx" &&
        ! grep -q 'wgmma' "$TMP/k.ptx" || { echo "$variant $sm: not mma.sync"; false; }
      run ptxas -arch $sm -o "$TMP/k.cubin" "$TMP/k.ptx"
      [ "$status" -eq 0 ] || { echo "$variant $sm: $output"; false; }
    done
  done
  run tileiras --gpu-name sm_90a -v --emit=ptx -o "$TMP/w.ptx" "$WGMMA"
  [[ "$output" == *"remark: sm_90a: wgmma for this mmaf (A: a contiguous load, B: a contiguous load)"* ]] || { echo "$output"; false; }
}

@test "tile-sched: sm_90 is restamped sm_90a only for the wgmma-worthy module; remarks only under -v; other targets untouched" {
  gather_variant odd
  tile-lower --gpu-name sm_90 "$WGMMA" -o "$TMP/w.mlir"
  tile-lower --gpu-name sm_90 "$TMP/odd.mlir" -o "$TMP/g.mlir"
  run tile-sched "$TMP/w.mlir" -o "$TMP/w.sched.mlir"
  [ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
  grep -q 'tile_as.target = "sm_90a"' "$TMP/w.sched.mlir"
  run tile-sched -v "$TMP/g.mlir" -o "$TMP/g.sched.mlir"
  [[ "$output" == *"remark: sm_90: mma.sync for this mmaf, not wgmma: A is a gather"* ]] || { echo "$output"; false; }
  grep -q 'tile_as.target = "sm_90"' "$TMP/g.sched.mlir"
  # The gather's accumulator takes the mma.sync grid (warps over M and N).
  grep -q 'tensor<64x64xf32, #tile_as.blocked<sizePerThread = \[1, 2\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[2, 2\]' "$TMP/g.sched.mlir"
  tile-lower --gpu-name sm_80 "$WGMMA" -o "$TMP/w80.mlir"
  run tile-sched -v "$TMP/w80.mlir" -o "$TMP/w80.sched.mlir"
  [ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
  grep -q 'tile_as.target = "sm_80"' "$TMP/w80.sched.mlir"
}

@test "tile-sched: a matmul whose accumulator no warpgroup tiles stays sm_90 and says why" {
  # 16 rows: not even 8 per warp (32 rows take wgmma with padding rows).
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 16 --n 64 --k 32 --a f16 --acc f32 > "$TMP/k.mlir"
  run bash -c "tile-lower --gpu-name sm_90 '$TMP/k.mlir' | tile-sched -v -o '$TMP/k.sched.mlir'"
  [[ "$output" == *"remark: sm_90: mma.sync for this mmaf, not wgmma: its accumulator does not tile by warpgroups with all 4 warps along M"* ]] ||
    { echo "$output"; false; }
  grep -q 'tile_as.target = "sm_90"' "$TMP/k.sched.mlir"
}

@test "tileiras sm_90: tf32 and fp8 matmuls whose accumulator tiles by warpgroups compile as sm_90a with wgmma; -v says why" {
  local a instruction
  for a in tf32:m64n64k8.f32.tf32.tf32 f8E4M3FN:m64n64k32.f32.e4m3.e4m3 f8E5M2:m64n64k32.f32.e5m2.e5m2; do
    instruction=${a#*:} a=${a%%:*}
    "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 64 --n 64 --k 64 --a $a --acc f32 > "$TMP/k.mlir"
    run tileiras --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
    [ "$status" -eq 0 ] || { echo "$a: $output"; false; }
    [[ "$output" == *"remark: sm_90 -> sm_90a: wgmma for this mmaf (A: a contiguous load, B: a contiguous load)"* ]] ||
      { echo "$a: $output"; false; }
    grep -q '^\.target sm_90a$' "$TMP/k.ptx" && grep -q "wgmma.mma_async.sync.aligned.$instruction" "$TMP/k.ptx" ||
      { echo "$a: no $instruction"; false; }
    run ptxas -arch sm_90a -o "$TMP/k.cubin" "$TMP/k.ptx"
    [ "$status" -eq 0 ] || { echo "$a: $output"; false; }
  done
  # A tf32 accumulator of 32 rows (8 per warp) takes m64n32k8 with padding
  # rows; one of 16 rows stays sm_90 (mma.sync m16n8k8) and says why.
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 32 --n 32 --k 32 --a tf32 --acc f32 > "$TMP/k.mlir"
  run tileiras --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
  [[ "$output" == *"remark: sm_90 -> sm_90a: wgmma for this mmaf (A: a contiguous load, B: a contiguous load; 32 rows at M = 64, the rest padding)"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.target sm_90a$' "$TMP/k.ptx" && grep -q 'wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32' "$TMP/k.ptx"
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 16 --n 32 --k 32 --a tf32 --acc f32 > "$TMP/k.mlir"
  run tileiras --gpu-name sm_90 -v --emit=ptx -o "$TMP/k.ptx" "$TMP/k.mlir"
  [[ "$output" == *"remark: sm_90: mma.sync for this mmaf, not wgmma: its accumulator does not tile by warpgroups"* ]] ||
    { echo "$output"; false; }
  grep -q '^\.target sm_90$' "$TMP/k.ptx" && grep -q 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32' "$TMP/k.ptx"
}
