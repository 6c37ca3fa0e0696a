#!/usr/bin/env bats
# Promoted fp8 wgmma accumulation on sm_90a (tilepipe-promote-fp8-accumulation;
# inputs/wgmma_fp8_promotion.mlir): tile-sched marks the fp8 multiply and
# says so (-v), the lowering sums each interval in a temporary and adds it
# into the f32 accumulator, fast-accumulation=1 keeps the old form. The
# numbers: numeric.bats (intervals below K, pieces, padding rows) and
# tests/corpus/matmul.bats (BatchMatMul fp8).

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/wgmma_fp8_promotion.mlir"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "tile-sched: an fp8 wgmma multiply is marked with the promotion interval, and -v says so" {
  run tileiras "$IN" --gpu-name sm_90 -v --emit=scheduled -o "$TMP/s.mlir"
  [[ "$status" -eq 0 && "$output" == *"wgmma_fp8_promotion.mlir:30:10: remark: fp8 wgmma accumulation promoted to f32: every 4 k steps (K 128) of wgmmas into a temporary (scale-d 0 first), added into the f32 accumulator by add.f32 after wgmma.wait_group"* ]] ||
    { echo "$output"; false; }
  FileCheck --check-prefix=SCHED "$IN" < "$TMP/s.mlir"
}

@test "tile-llvm: interval 2 sums two temporaries (scale-d 0 first) and adds each after its wait_group; fast-accumulation=1 is the old form" {
  tileiras "$IN" --gpu-name sm_90a --emit=scheduled -o "$TMP/s.mlir"
  tile-opt --tilepipe-promote-fp8-accumulation=interval=2 "$TMP/s.mlir" -o "$TMP/p.mlir"
  tile-llvm "$TMP/p.mlir" -o "$TMP/p.ll"
  tile-ptx "$TMP/p.ll" --gpu-name sm_90a -o "$TMP/p.ptx"
  FileCheck --check-prefix=PROMOTED "$IN" < "$TMP/p.ptx"
  [ "$(grep -c 'wgmma.mma_async' "$TMP/p.ptx")" -eq 4 ] && [ "$(grep -c 'add.f32' "$TMP/p.ptx")" -eq 128 ] ||
    { echo "not 4 wgmmas and 2 x 64 adds"; false; }
  run tile-opt --tilepipe-promote-fp8-accumulation=fast-accumulation=1 "$TMP/s.mlir" -o "$TMP/f.mlir"
  [[ "$status" -eq 0 && "$output" == *"remark: fp8 wgmma fast accumulation: the wgmmas sum K into the accumulator itself"*"(fast-accumulation=true)"* ]] ||
    { echo "$output"; false; }
  ! grep -q fp8_promotion_interval "$TMP/f.mlir"
  tile-llvm "$TMP/f.mlir" -o "$TMP/f.ll"
  tile-ptx "$TMP/f.ll" --gpu-name sm_90a -o "$TMP/f.ptx"
  FileCheck --check-prefix=FAST "$IN" < "$TMP/f.ptx"
}

@test "tile-llvm: the pieces take two temporaries in turn, a piece's wgmmas writing the registers its slot's last piece was added from" {
  tileiras "$IN" --gpu-name sm_90a --emit=scheduled -o "$TMP/s.mlir"
  tile-opt --tilepipe-promote-fp8-accumulation=interval=1 "$TMP/s.mlir" -o "$TMP/p.mlir"
  tile-llvm "$TMP/p.mlir" -o "$TMP/p.ll"
  tile-ptx "$TMP/p.ll" --gpu-name sm_90a -o "$TMP/p.ptx"
  FileCheck --check-prefix=REUSED "$IN" < "$TMP/p.ptx"
  [ "$(grep -c 'wgmma.mma_async' "$TMP/p.ptx")" -eq 4 ] &&
    [ "$(grep -oE 'm64n128k32.f32.e4m3.e4m3 \{[^}]*\}' "$TMP/p.ptx" | sort -u | wc -l)" -eq 2 ] ||
    { echo "not 4 wgmmas in 2 register lists"; false; }
}

@test "bad intervals: a negative pass option and a non-positive mark fail with a diagnostic" {
  tileiras "$IN" --gpu-name sm_90a --emit=scheduled -o "$TMP/s.mlir"
  run tile-opt --tilepipe-promote-fp8-accumulation=interval=-1 "$TMP/s.mlir" -o /dev/null
  [[ "$status" -ne 0 && "$output" == *"error: tilepipe-promote-fp8-accumulation: interval -1 is negative"* ]] ||
    { echo "$output"; false; }
  sed 's/tile_as.fp8_promotion_interval = 4/tile_as.fp8_promotion_interval = 0/' "$TMP/s.mlir" > "$TMP/z.mlir"
  run tile-llvm "$TMP/z.mlir" -o /dev/null
  [[ "$status" -ne 0 && "$output" == *"wgmma_fp8_promotion.mlir:30:10: error:"*"has tile_as.fp8_promotion_interval = 0, which only a positive number of k steps of a multiply with fp8 operands can have"* ]] ||
    { echo "$output"; false; }
}
