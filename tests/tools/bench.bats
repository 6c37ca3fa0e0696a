#!/usr/bin/env bats
# The benchmark scripts under bench/ run and report what they promise (their
# numbers are not checked: benchmarks are not timed tests).

setup() {
  BENCH="$TILEPIPE_SOURCE_DIR/bench"
}

@test "kernel-report: timing ratio, ptxas usage and instruction mix per kernel" {
  run /usr/bin/python3 "$BENCH/kernel-report.py" --cases 'vec_add_kernel_1d\.f32' --gpu-name sm_80
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output" | grep -q $'^case\tsm\tours_s\tptxas_s\tratio\tregs\tspill\tsmem\ttotal\tmma'
  # One row for sm_80: registers used, no spills, vectorized global loads counted.
  row=$(echo "$output" | grep $'^samples-VectorAddition-vec_add_kernel_1d.f32\tsm_80\t')
  regs=$(echo "$row" | cut -f6); spill=$(echo "$row" | cut -f7); ldg=$(echo "$row" | cut -f13)
  [ "$regs" -gt 0 ] && [ "$spill" -eq 0 ] && [ "$ldg" -gt 0 ] || { echo "$row"; false; }
  echo "$output" | grep -qE '^all 1 compiles: ours [0-9.]+ s, ptxas [0-9.]+ s, ratio [0-9.]+$'
}

@test "kernel-report: --gpu-name sm_90a compiles the sm_90 bytecode for the wgmma path" {
  run /usr/bin/python3 "$BENCH/kernel-report.py" --cases 'MatMul-matmul_kernel\.f16' --gpu-name sm_90a
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  row=$(echo "$output" | grep $'^samples-MatMul-matmul_kernel.f16\tsm_90a\t')
  # Its wgmma.mma_async instructions counted as MMAs, and no spills.
  spill=$(echo "$row" | cut -f7); mma=$(echo "$row" | cut -f10)
  [ "$spill" -eq 0 ] && [ "$mma" -gt 0 ] || { echo "$output"; false; }
}

@test "kernel-report: cases that do not compile are named with their diagnostic" {
  shared="$BATS_TEST_TMPDIR/shared"
  mkdir -p "$shared/corpus/cutile/bytecode"
  echo '{"cases": {"broken": {}}}' > "$shared/corpus/cutile/manifest.json"
  printf '\x7fTileIR\0\x0d' > "$shared/corpus/cutile/bytecode/broken.sm_80.13.4.tileirbc"
  run /usr/bin/python3 "$BENCH/kernel-report.py" --shared "$shared" --gpu-name sm_80
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output" | grep -q '^not compiled: broken sm_80: .*error' || { echo "$output"; false; }
}

@test "kernel-report: markdown table for the README" {
  run /usr/bin/python3 "$BENCH/kernel-report.py" --cases 'vec_add_kernel_1d\.f16' --gpu-name sm_90 --markdown
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output" | grep -q '^| case | sm | ours_s |'
  echo "$output" | grep -q '^| samples-VectorAddition-vec_add_kernel_1d.f16 | sm_90 |'
}

@test "gpu-matmul: the GPU benchmark parses its plan and matmul shapes" {
  run /usr/bin/python3 -c "
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('g', '$BENCH/gpu-matmul.py')
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
m = json.load(open('$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json'))
print(g.matmul_shape(m['cases']['samples-MatMul-matmul_kernel.f16']))
print(g.matmul_shape(m['cases']['samples-BatchMatMul-batch_matmul_kernel.f16']))
print(g.matmul_shape(m['cases']['samples-MoE-fused_moe_kernel-w1.bf16']))
print(g.matmul_shape(m['cases']['samples-MoE-silu_and_mul_kernel.bf16']))"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[0]}" = "(1, 512, 512, 768, 'float16')" ] || { echo "$output"; false; }
  [[ "${lines[1]}" == "("[1-9]*", "*", 'float16')" ]] || { echo "$output"; false; }
  # Fused MoE: the routed rows of C times one expert's N x K weights.
  [ "${lines[2]}" = "(1, 384, 2048, 512, 'bfloat16')" ] || { echo "$output"; false; }
  [ "${lines[3]}" = "None" ] || { echo "$output"; false; }
}

@test "gpu-matmul: rows compare each image with the sm_80 image of the same case" {
  printf 'mm sm_90a mm.sm_90a.cubin 1,1,1\nmm sm_80 mm.sm_80.ptx 128,1,1\nother sm_90 o.cubin 1,1,1\n' > "$BATS_TEST_TMPDIR/plan.txt"
  run /usr/bin/python3 -c "
import importlib.util
spec = importlib.util.spec_from_file_location('g', '$BENCH/gpu-matmul.py')
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
rows = g.read_plan('$BATS_TEST_TMPDIR/plan.txt', 'mm')
print(len(rows), rows[1][1])
t = {('mm', 'sm_90a'): 0.5, ('mm', 'sm_80'): 2.0, ('other', 'sm_90'): 1.0}
print(g.speedup_over_baseline(t, 'mm', 'sm_90a', 'sm_80'))
print(g.speedup_over_baseline(t, 'mm', 'sm_80', 'sm_80'))
print(g.speedup_over_baseline(t, 'other', 'sm_90', 'sm_80'))"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[0]}" = "2 sm_80" ] || { echo "$output"; false; }
  [ "${lines[1]}" = "4.00" ] || { echo "$output"; false; }
  [ "${lines[2]}" = "-" ] || { echo "$output"; false; }
  [ "${lines[3]}" = "-" ] || { echo "$output"; false; }
}

@test "gpu-check prepare: one image per GPU_TARGETS entry, cubins for sm_90*, PTX with .reqntid blocks otherwise" {
  GPU_TARGETS="sm_90a sm_90 sm_89" run "$TILEPIPE_SOURCE_DIR/scripts/gpu-check" prepare "$BATS_TEST_TMPDIR/g" 'vec_add_kernel_1d\.f32'
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  plan="$BATS_TEST_TMPDIR/g/plan.txt"
  grep -qx 'samples-VectorAddition-vec_add_kernel_1d.f32 sm_90a samples-VectorAddition-vec_add_kernel_1d.f32.sm_90a.cubin 1,1,1' "$plan"
  grep -qx 'samples-VectorAddition-vec_add_kernel_1d.f32 sm_90 samples-VectorAddition-vec_add_kernel_1d.f32.sm_90.cubin 1,1,1' "$plan"
  grep -qE '^samples-VectorAddition-vec_add_kernel_1d.f32 sm_89 samples-VectorAddition-vec_add_kernel_1d.f32.sm_89.ptx [0-9]+,1,1$' "$plan"
  [ "$(wc -l < "$plan")" -eq 3 ]
  grep -q '^\.target sm_89' "$BATS_TEST_TMPDIR/g/samples-VectorAddition-vec_add_kernel_1d.f32.sm_89.ptx"
}

@test "kernel-report: sm_89 compiles the sm_80 corpus bytecode" {
  run /usr/bin/python3 "$BENCH/kernel-report.py" --cases 'vec_add_kernel_1d\.f32' --gpu-name sm_89
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output" | grep -q $'^samples-VectorAddition-vec_add_kernel_1d.f32\tsm_89\t' || { echo "$output"; false; }
}

@test "compile-time: both tileiras flows timed per kernel, with ptxas, and their bytes compared" {
  run /usr/bin/python3 "$BENCH/compile-time.py" --cases 'vec_add_kernel_1d\.f32' --gpu-name sm_80,sm_90
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[0]}" = $'case\tsm\tinprocess_s\tstaged_s\tspeedup\tptxas_s\tinprocess/ptxas\tstaged/ptxas\tsame' ] ||
    { echo "$output"; false; }
  echo "$output" | grep -qE $'^samples-VectorAddition-vec_add_kernel_1d.f32\tsm_90\t[0-9.]+\t[0-9.]+\t[0-9.]+\t[0-9.]+\t[0-9.]+\t[0-9.]+\tyes$' ||
    { echo "$output"; false; }
  echo "$output" | grep -qE '^all 2 compiles: in-process [0-9.]+ s, staged [0-9.]+ s, speedup [0-9.]+, ptxas [0-9.]+ s' ||
    { echo "$output"; false; }
  echo "$output" | grep -qx 'identical output: 2 of 2'
}

@test "compile-time: a kernel that fails in both flows alike is listed, not a disagreement" {
  shared="$BATS_TEST_TMPDIR/shared"
  mkdir -p "$shared/corpus/cutile/bytecode"
  echo '{"cases": {"broken": {}}}' > "$shared/corpus/cutile/manifest.json"
  printf '\x7fTileIR\0\x0d' > "$shared/corpus/cutile/bytecode/broken.sm_80.13.4.tileirbc"
  run /usr/bin/python3 "$BENCH/compile-time.py" --shared "$shared" --gpu-name sm_80 --emit=ptx
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output" | grep -q '^not compiled (same in both flows): broken sm_80: exit 5 both: ' || { echo "$output"; false; }
}

# persistent-ab prepare: each variant changes what its name says and nothing
# else that the counts see (tilepipe's own PTX, edited or with one pass option
# changed), and all of them assemble for sm_90a without spills.
@test "persistent-ab prepare: sm_90a variants of MatMul and persistent MatMul differ in one thing each" {
  dir="$BATS_TEST_TMPDIR/ab"
  run /usr/bin/python3 "$BENCH/persistent-ab.py" prepare "$dir" --bin "$TILEPIPE_BIN"
  [ "$status" -eq 0 ] && [[ "$output" == "11 variants in $dir: "* ]] || { echo "$output"; false; }
  count() { grep -cE "$1" "$dir/$2.ptx" || true; }
  for k in plain persistent; do
    [ -s "$dir/$k.cubin" ] && [ "$(count setmaxnreg $k)" -eq 2 ] && [ "$(count setmaxnreg $k-single-role)" -eq 0 ] &&
      [ "$(count 'st\.global' $k)" -eq 0 ] && [ "$(count 'st\.global' $k-st-global)" -gt 0 ] &&
      [ "$(count 'try_wait\.parity.*, [0-9]+;' $k)" -gt 0 ] &&
      [ "$(count 'try_wait\.parity.*, [0-9]+;' $k-no-suspend-hint)" -eq 0 ] &&
      [ "$(count 'try_wait\.parity' $k-no-suspend-hint)" -eq "$(count 'try_wait\.parity' $k)" ] ||
      { echo "$k"; false; }
  done
  # The persistent ring: carried (mbarriers initialized once, barrier 1 met
  # three times in each role's code) or set up per tile (initialized in the
  # tile loop, met twice).
  [ "$(count 'mbarrier\.init' persistent)" -eq 6 ] && [ "$(count 'bar\.sync\s+1, 384;' persistent)" -eq 6 ] &&
    [ "$(count 'bar\.sync\s+1, 384;' persistent-ring-per-tile)" -eq 4 ] || false
  # The epilogue's two chunks: the reads then, once, the writes; reads only;
  # the writes after each chunk.
  [ "$(count 'bulk\.wait_group\.read\s+0;' persistent)" -eq 1 ] && [ "$(count 'bulk\.wait_group\s+0;' persistent)" -eq 1 ] &&
    [ "$(count 'bulk\.wait_group\.read\s+0;' persistent-no-write-wait)" -eq 2 ] &&
    [ "$(count 'bulk\.wait_group\s+0;' persistent-write-wait-per-chunk)" -eq 2 ] || false
  for f in "$dir"/*.ptx; do
    run ptxas -arch sm_90a -v -o /dev/null "$f"
    [[ "$status" -eq 0 && "$output" == *" 0 bytes spill stores, 0 bytes spill loads"* ]] || { echo "$f: $output"; false; }
  done
}
