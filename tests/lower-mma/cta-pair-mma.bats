#!/usr/bin/env bats
# tilepipe-pair-tcgen05-mmas (inputs/cta_pair_mma.mlir): a kernel split
# across a CTA pair by M (256-row tiles on sm_100) issues the pair's
# tcgen05.mma.cta_group::2 of M = 256 from the even CTA, each CTA loading
# half of B's columns, where all its multiplies are TMA rings of a plain
# kind (f16, bf16, tf32, fp8) with N a multiple of 64; otherwise (N = 32 here) each CTA keeps its cta_group::1
# MMAs, and -v says which. Checked in tile-emu (its --grid counts clusters,
# and it runs cta_group::2 as the PTX ISA's data path Layout A places it).

setup() {
  IN="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/cta_pair_mma.mlir"
  CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
}

@test "tile-sched: the M-split rings with N = 64, 128 are paired (f16, bf16, tf32, e4m3); N = 32 keeps cta_group::1; -v says so" {
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched -v 2>&1 >/dev/null | FileCheck --check-prefix=REMARK '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tile-lower --gpu-name sm_100 '$IN' | tile-sched 2>/dev/null | FileCheck --check-prefix=SCHED '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "PTX: every tcgen05 instruction of a paired kernel is cta_group::2, the even CTA issues, commits multicast, B halved; ptxas sm_100a without spills" {
  tileiras "$IN" --gpu-name sm_100 --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  run FileCheck --check-prefix=PTX "$IN" --input-file "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run ptxas -arch sm_100a -v -o "$BATS_TEST_TMPDIR/k.cubin" "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(grep -c ' 0 bytes spill stores, 0 bytes spill loads' <<< "$output")" -eq 5 ] || { echo "$output"; false; }
}

@test "tile-llvm: the instruction descriptors say M = 256 by the whole N for the pairs, M = 128 for N = 32" {
  tileiras "$IN" --gpu-name sm_100 --emit=llvm -o "$BATS_TEST_TMPDIR/k.ll"
  run /usr/bin/python3 - "$BATS_TEST_TMPDIR/k.ll" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
want = {"pair_f16": {(256, 64)}, "pair_bf16": {(256, 128)}, "pair_n32": {(128, 32)},
        "pair_tf32": {(256, 64)}, "pair_e4m3": {(256, 128)}}
starts = sorted((text.index("@%s(" % name), name) for name in want)
bad = False
for (at, name), (end, _) in zip(starts, starts[1:] + [(len(text), None)]):
    body = text[at:end]
    shapes = {(((d >> 24) & 31) << 4, ((d >> 17) & 63) << 3)
              for d in map(int, re.findall(r"tcgen05\.mma\.shared\(.*?, i32 (\d+), i1 ", body))}
    print(name, shapes)
    bad |= shapes != want[name]
sys.exit(1 if bad else 0)
PY
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# mm ENTRY TYPE M N K GRID [EXTRA]: C = A x B (TYPE f16, bf16, f32 rounded
# to tf32 by the kernel, or e4m3 bit patterns) through ENTRY in tile-emu on
# sm_100; GRID counts clusters (tile blocks).
mm() {
  local entry=$1 type=$2 m=$3 n=$4 k=$5 grid=$6 extra=${7:-0} tol="--rtol 2e-3 --atol 2e-3"
  # tf32: tight enough that the unrounded products (truncation) fail.
  [ "$type" != f32 ] || tol="--rtol 1e-5 --atol 1e-4"
  /usr/bin/python3 "$CHECK" "$IN" --entry "$entry" --gpu-name sm_100 --bin "$TILEPIPE_BIN" --grid "$grid" \
    --array "a=$(gen "$type" 3 "($m, $k)")" --array "b=$(gen "$type" 4 "($k, $n)")" \
    --array "c=np.full(($m, $n), 5, np.float32)" \
    --scalar "i32:$m" --scalar "i32:$n" --scalar "i32:$k" \
    --expect "c = $(ref "$type" a) @ $(ref "$type" b) + $extra" $tol
}

# An input array of TYPE from seed SEED of SHAPE.
gen() {
  local normal="np.random.default_rng($2).standard_normal($3)"
  case $1 in
    f16) echo "$normal.astype(np.float16)" ;;
    bf16) echo "bf16($normal)" ;;
    f32) echo "$normal.astype(np.float32)" ;;
    # e4m3 bit patterns of magnitude below 4, either sign.
    e4m3) echo "(np.random.default_rng($2).integers(0, 0x48, $3) | (np.random.default_rng($2 + 10).integers(0, 2, $3) << 7)).astype(np.uint8)" ;;
  esac
}

# The values of array NAME of TYPE as the tensor cores multiply them (f32:
# rounded to tf32, nearest even, as the kernel's ftof does), in float64.
ref() {
  case $1 in
    f16) echo "$2.astype(np.float64)" ;;
    bf16) echo "($2.astype(np.uint32) << 16).view(np.float32).astype(np.float64)" ;;
    f32) echo "((($2.view(np.uint32).astype(np.uint64) + 0xfff + (($2.view(np.uint32) >> 13) & 1)) & 0xffffe000).astype(np.uint32).view(np.float32).astype(np.float64))" ;;
    e4m3) echo "(np.where($2 & 0x80, -1, 1) * np.where(($2 >> 3) & 15, (8 + ($2 & 7)) * 2.0 ** ((($2 >> 3) & 15).astype(np.int32) - 10), ($2 & 7) * 2.0 ** -9))" ;;
  esac
}

@test "tile-emu: the pair's MMAs compute A x B, ragged, K over several ring wraps (f16, bf16, tf32, e4m3)" {
  run mm pair_f16 f16 300 104 296 2,2
  [ "$status" -eq 0 ] || { echo "f16: $output"; false; }
  run mm pair_bf16 bf16 400 200 328 2,2
  [ "$status" -eq 0 ] || { echo "bf16: $output"; false; }
  run mm pair_tf32 f32 300 100 292 2,2
  [ "$status" -eq 0 ] || { echo "tf32: $output"; false; }
  run mm pair_e4m3 e4m3 400 176 400 2,2
  [ "$status" -eq 0 ] || { echo "e4m3: $output"; false; }
}

@test "tile-emu: the unpaired N = 32 kernel still computes A x B; a wrong result is caught" {
  run mm pair_n32 f16 300 56 104 2,2
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run mm pair_f16 f16 300 104 104 2,2 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"c differs"* ]]
}

@test "cuTile's BlockScaledMatMul (split by M, block-scaled) keeps cta_group::1 in each CTA; -v says why" {
  local f="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-BlockScaledMatMul-block_scaled_matmul_kernel-plain.fp8e4m3.sm_100.13.4.tileirbc"
  run tileiras "$f" --gpu-name sm_100 -v --emit=ptx -o "$BATS_TEST_TMPDIR/k.ptx"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"remark: the CTA pair keeps one tcgen05.mma.cta_group::1 per CTA (each CTA loads all of B): its block-scaled multiply has no cta_group::2 form here"* ]] ||
    { echo "$output" | grep remark; false; }
  grep -q 'tcgen05.mma.cta_group::1' "$BATS_TEST_TMPDIR/k.ptx" && ! grep -q 'cta_group::2' "$BATS_TEST_TMPDIR/k.ptx" ||
    { grep -n 'cta_group' "$BATS_TEST_TMPDIR/k.ptx" | head; false; }
}

@test "tile-llvm: a paired kernel's tcgen05_stage with no pair form is a located error (exit 5)" {
  local in="$TILEPIPE_SOURCE_DIR/tests/lower-mma/inputs/tcgen05_pair_invalid.mlir"
  run tile-llvm --gpu-name sm_100a "$in" -o "$BATS_TEST_TMPDIR/k.ll"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  run FileCheck --input-file <(echo "$output") "$in"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
