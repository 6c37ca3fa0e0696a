#!/usr/bin/env bats
# The back-end stages: tile-ptx (LLVM IR -> PTX) and tile-pack (PTX -> cubin).

setup() {
  INPUTS="$TILEPIPE_SOURCE_DIR/tests/backend/inputs"
  cd "$BATS_TEST_TMPDIR"
}

# is_cubin FILE: the file starts with the ELF magic 7f 45 4c 46.
is_cubin() {
  [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "7f454c46" ]
}

# refute_grep PATTERN FILE: FILE has no line matching PATTERN. (A bare
# `! grep` would not fail a bats test.)
refute_grep() {
  if grep -q -- "$1" "$2"; then
    echo "unexpected match for '$1' in $2" >&2
    return 1
  fi
}

# A copy of tile-pack in its own directory, so that the toolkit search does
# not start next to the build tree, plus an environment without any toolkit.
isolated_pack() {
  mkdir -p isolated
  cp "$TILEPIPE_BIN/tile-pack" isolated/
}
run_without_toolkit() {
  env -u CUDA_HOME -u CUDA_ROOT -u CUDA_PATH PATH=/usr/bin:/bin \
    TILEPIPE_DEFAULT_CUDA_ROOT= "$@"
}

#===--- tile-ptx ---------------------------------------------------------===#

@test "tile-ptx: vector add becomes a kernel entry for sm_80" {
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 -o k.ptx
  FileCheck --input-file=k.ptx /dev/stdin <<'EOF'
CHECK: .version 9.0
CHECK: .target sm_80{{$}}
CHECK: .address_size 64
CHECK: .visible .entry vector_add(
CHECK-DAG: %tid.x
CHECK-DAG: %ctaid.x
CHECK-DAG: %ntid.x
CHECK: ld.global
CHECK: add{{(.rn)?}}.f32
CHECK: st.global
EOF
}

@test "tile-ptx: --gpu-name=X spelling, -O0, stdin and bitcode input" {
  tile-ptx --gpu-name=sm_120 -O0 < "$INPUTS/vecadd.ll" > a.ptx
  grep -q '^\.target sm_120$' a.ptx
  llvm-as "$INPUTS/vecadd.ll" -o k.bc
  tile-ptx k.bc --gpu-name sm_100 > b.ptx
  grep -q '^\.target sm_100$' b.ptx
  grep -q '\.entry vector_add(' b.ptx
}

@test "tile-ptx: zstd-compressed LLVM IR is read transparently" {
  zstd -q -c "$INPUTS/vecadd.ll" > k.ll.zst
  tile-ptx k.ll.zst --gpu-name sm_80 | grep -q '\.entry vector_add('
}

@test "tile-ptx: the a suffix gives an arch-specific .target" {
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_90a | grep -q '^\.target sm_90a$'
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_100f | grep -q '^\.target sm_100f$'
}

@test "tile-ptx: a module using setmaxnreg is promoted from sm_90 to sm_90a" {
  tile-ptx "$INPUTS/setmaxnreg.ll" --gpu-name sm_90 | grep -q '^\.target sm_90a$'
  # ...but a plain kernel stays on the portable target.
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_90 | grep -q '^\.target sm_90$'
}

@test "tile-ptx: libdevice is linked, inlined and dropped" {
  for level in 0 3; do
    tile-ptx "$INPUTS/expf.ll" --gpu-name sm_90 -O$level -o e$level.ptx
    FileCheck --input-file=e$level.ptx /dev/stdin <<'EOF'
CHECK-NOT: __nv_expf
CHECK-NOT: __nvvm_reflect
CHECK-NOT: .func
CHECK: .visible .entry exp_kernel(
CHECK-NOT: call
CHECK: ex2.approx
CHECK-NOT: .func
EOF
  done
}

@test "tile-ptx: --ftz reaches NVVMReflect and the f32 instructions" {
  tile-ptx "$INPUTS/expf.ll" --gpu-name sm_90 > plain.ptx
  tile-ptx "$INPUTS/expf.ll" --gpu-name sm_90 --ftz > ftz.ptx
  refute_grep 'mul\.ftz\.f32' plain.ptx
  grep -q 'mul\.ftz\.f32' ftz.ptx
}

@test "tile-ptx: --fmad and --prec-sqrt, defaults as nvcc's" {
  tile-ptx "$INPUTS/fpmath.ll" --gpu-name sm_80 > default.ptx
  grep -q 'fma\.rn\.f32' default.ptx
  grep -q 'sqrt\.rn\.f32' default.ptx
  tile-ptx "$INPUTS/fpmath.ll" --gpu-name sm_80 --fmad=false --prec-sqrt=false > fast.ptx
  refute_grep 'fma\.' fast.ptx
  grep -q 'mul\.rn\.f32' fast.ptx
  grep -q 'sqrt\.approx\.f32' fast.ptx
  run tile-ptx "$INPUTS/fpmath.ll" --gpu-name sm_80 --fmad=maybe
  [ "$status" -eq 1 ]
}

@test "tile-ptx: NVVMReflect module flags decide unless an option overrides" {
  { cat "$INPUTS/fpmath.ll"
    echo '!llvm.module.flags = !{!0, !1}'
    echo '!0 = !{i32 4, !"nvvm-reflect-ftz", i32 1}'
    echo '!1 = !{i32 4, !"nvvm-reflect-prec-sqrt", i32 0}'; } > flags.ll
  tile-ptx flags.ll --gpu-name sm_80 > module.ptx
  grep -q 'fma\.rn\.ftz\.f32' module.ptx
  grep -q 'sqrt\.approx\.ftz\.f32' module.ptx
  tile-ptx flags.ll --gpu-name sm_80 --ftz=false --prec-sqrt=true > options.ptx
  grep -q 'fma\.rn\.f32' options.ptx
  grep -q 'sqrt\.rn\.f32' options.ptx
  # --ftz=false also overrides a flushing denormal mode set by the front end.
  { sed 's/^\(define ptx_kernel void @muladd(.*)\) {$/\1 #0 {/' "$INPUTS/fpmath.ll"
    echo 'attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }'; } > attr.ll
  tile-ptx attr.ll --gpu-name sm_80 | grep -q 'fma\.rn\.ftz\.f32'
  tile-ptx attr.ll --gpu-name sm_80 --ftz=false > ieee.ptx
  grep -q 'fma\.rn\.f32' ieee.ptx
}

@test "tile-ptx: --lineinfo keeps .loc, the default strips it" {
  tile-ptx "$INPUTS/lineinfo.ll" --gpu-name sm_80 --lineinfo -o li.ptx
  FileCheck --input-file=li.ptx /dev/stdin <<'EOF'
CHECK: .target sm_80{{$}}
CHECK: .entry scale(
CHECK: .loc {{[0-9]+}} 3 5
CHECK: .loc {{[0-9]+}} 4 7
CHECK: .file {{[0-9]+}} "/tmp/kernel.py"
CHECK-NOT: .debug_info
EOF
  tile-ptx "$INPUTS/lineinfo.ll" --gpu-name sm_80 -o plain.ptx
  grep -q '\.entry scale(' plain.ptx
  refute_grep '\.loc' plain.ptx
  refute_grep '\.file' plain.ptx
}

@test "tile-ptx: -g -O0 keeps full debug info" {
  tile-ptx "$INPUTS/lineinfo.ll" --gpu-name sm_80 -g -O0 -o g.ptx
  grep -q '^\.target sm_80, debug$' g.ptx
  grep -q '\.section.*\.debug_info' g.ptx
  grep -q '\.loc' g.ptx
}

@test "tile-ptx: LLVM flags are forwarded (--nvptx-short-ptr)" {
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 --nvptx-short-ptr > k.ptx
  grep -q '\.entry vector_add(' k.ptx
  run tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 --no-such-llvm-flag
  [ "$status" -eq 1 ]
  # Pass-manager instrumentation works on our pipeline; NVVMReflect is in it.
  run tile-ptx "$INPUTS/expf.ll" --gpu-name sm_80 --print-after=nvvm-reflect -o k.ptx
  [ "$status" -eq 0 ]
  [[ "$output" == *"IR Dump After NVVMReflectPass"* ]]
}

@test "tile-ptx: malformed LLVM IR reports file:line:col, exit 5" {
  run tile-ptx "$INPUTS/malformed.ll" --gpu-name sm_80 -o out.ptx
  [ "$status" -eq 5 ]
  [[ "$output" == *"malformed.ll:4:3: error:"* ]]
  [ ! -e out.ptx ]
}

@test "tile-ptx: IR the verifier rejects exits 5" {
  run tile-ptx "$INPUTS/invalid.ll" --gpu-name sm_80 -o out.ptx
  [ "$status" -eq 5 ]
  [[ "$output" == *"tile-ptx: error: invalid LLVM IR"* ]]
  [[ "$output" == *"does not dominate"* ]]
  [ ! -e out.ptx ]
}

@test "tile-ptx: an intrinsic the GPU lacks is a code generator error, exit 5" {
  run tile-ptx "$INPUTS/setmaxnreg-intrinsic.ll" --gpu-name sm_80 -o out.ptx
  [ "$status" -eq 5 ]
  [[ "$output" == *"tile-ptx: error: LLVM: Cannot select"*"setmaxnreg"* ]]
  [ ! -e out.ptx ]
  # On Hopper it selects sm_90a and assembles.
  tile-ptx "$INPUTS/setmaxnreg-intrinsic.ll" --gpu-name sm_90 -o k.ptx
  grep -q '^\.target sm_90a$' k.ptx
  grep -q 'setmaxnreg\.inc\.sync\.aligned\.u32' k.ptx
}

@test "tile-ptx: garbage input exits 5, a missing file 4" {
  printf 'this is not LLVM IR \001\002\n' > junk.bin
  run tile-ptx junk.bin --gpu-name sm_80
  [ "$status" -eq 5 ]
  run tile-ptx does-not-exist.ll --gpu-name sm_80
  [ "$status" -eq 4 ]
}

@test "tile-ptx: a missing libdevice is a clear error" {
  mkdir -p isolated
  cp "$TILEPIPE_BIN/tile-ptx" isolated/
  run run_without_toolkit isolated/tile-ptx "$INPUTS/expf.ll" --gpu-name sm_80
  [ "$status" -eq 5 ]
  [[ "$output" == *"could not find libdevice.10.bc"* ]]
  # A kernel without libdevice calls does not need it.
  run_without_toolkit isolated/tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 > k.ptx
  grep -q '\.entry vector_add(' k.ptx
}

#===--- tile-pack --------------------------------------------------------===#

# Every other --gpu-name is covered by TargetTest's EverySupportedTarget.
@test "tile-pack: cubins for sm_80, sm_90, sm_90a, sm_100a and sm_120" {
  for gpu in sm_80 sm_90 sm_90a sm_100a sm_120; do
    tile-ptx "$INPUTS/vecadd.ll" --gpu-name $gpu -o $gpu.ptx
    tile-pack $gpu.ptx --gpu-name $gpu -o $gpu.cubin
    is_cubin $gpu.cubin
  done
}

@test "tile-pack: the tile-ptx | tile-pack pipe works" {
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 | tile-pack -o k.cubin --gpu-name sm_80
  is_cubin k.cubin
  # The kernel symbol survives verbatim.
  grep -q vector_add k.cubin
}

@test "tile-pack: line info and device debug reach ptxas" {
  tile-ptx "$INPUTS/lineinfo.ll" --gpu-name sm_90 --lineinfo |
    tile-pack --gpu-name sm_90 --lineinfo -o li.cubin
  is_cubin li.cubin
  grep -q '\.nv_debug_line_sass' li.cubin
  tile-ptx "$INPUTS/lineinfo.ll" --gpu-name sm_90 -g -O0 |
    tile-pack --gpu-name sm_90 -g -O0 -o g.cubin
  is_cubin g.cubin
  grep -q '\.debug_info' g.cubin
}

@test "tile-pack: -v prints the ptxas command line; PTX for sm_90a gets -arch sm_90a" {
  tile-ptx "$INPUTS/setmaxnreg.ll" --gpu-name sm_90 -o s.ptx
  run tile-pack s.ptx --gpu-name sm_90 -O2 -v -o s.cubin
  [ "$status" -eq 0 ]
  [[ "$output" == *"ptxas -arch sm_90a --opt-level 2 "*".ptx -o "*".cubin"* ]]
  is_cubin s.cubin
}

@test "tile-pack: --ptxas-options are passed on, ptxas output comes through" {
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 -o k.ptx
  run tile-pack k.ptx --gpu-name sm_80 --ptxas-options="-v --maxrregcount=32" -o k.cubin
  [ "$status" -eq 0 ]
  [[ "$output" == *"ptxas info"*"Used "*" registers"* ]]
  is_cubin k.cubin
  # Repeatable, and the input operand after it stays the input.
  rm k.cubin
  run tile-pack --ptxas-options=-v k.ptx --ptxas-options="--maxrregcount 32" \
    --gpu-name sm_80 -o k.cubin -v
  [ "$status" -eq 0 ]
  [[ "$output" == *"--opt-level 3 -v --maxrregcount 32 "* ]]
  [[ "$output" == *"ptxas info"*"Used "*" registers"* ]]
  is_cubin k.cubin
}

@test "tile-pack: empty or binary input is refused before ptxas, exit 5" {
  : > empty.ptx
  run tile-pack empty.ptx --gpu-name sm_80 -o out.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"the PTX input is empty"* ]]
  llvm-as "$INPUTS/vecadd.ll" -o k.bc
  run tile-pack k.bc --gpu-name sm_80 -o out.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"not PTX text"* ]]
  [ ! -e out.cubin ]
}

@test "tile-pack: ptxas errors pass through verbatim, exit 5, no output" {
  run tile-pack "$INPUTS/broken.ptx" --gpu-name sm_80 -o out.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"error   : Unknown symbol '%r_undeclared'"* ]]
  [[ "$output" == *"ptxas fatal"* ]]
  [[ "$output" == *"tile-pack: error: ptxas failed with exit status"* ]]
  [ ! -e out.cubin ]
}

@test "tile-pack: shared-memory exhaustion keeps the phrase autotuners parse, exit 5" {
  # Triton's Tile IR backend matches 'uses too much shared data' and
  # '0x<used> bytes, 0x<max> max' to prune a config (OutOfResources).
  for sm in sm_80 sm_90 sm_120; do
    run tile-pack "$INPUTS/too_much_shared.ptx" --gpu-name $sm -o out.cubin
    [ "$status" -eq 5 ]
    [[ "$output" =~ "Entry function 'k' uses too much shared data (0x40000 bytes, 0x"[0-9a-f]+" max)" ]]
    [ ! -e out.cubin ]
  done
}

@test "tile-pack: a missing ptxas is a clear error, exit 5" {
  isolated_pack
  tile-ptx "$INPUTS/vecadd.ll" --gpu-name sm_80 -o k.ptx
  run run_without_toolkit isolated/tile-pack k.ptx --gpu-name sm_80 -o k.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"tile-pack: error: cannot find 'ptxas'"* ]]
  [[ "$output" == *"isolated/ptxas"* ]]
  [ ! -e k.cubin ]
}

@test "tile-pack: a ptxas killed by a signal is reported, exit 5" {
  isolated_pack
  printf '#!/bin/sh\nkill -SEGV $$\n' > isolated/ptxas
  chmod +x isolated/ptxas
  run isolated/tile-pack "$INPUTS/broken.ptx" --gpu-name sm_80 -o k.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"ptxas was killed by a signal: Segmentation fault"* ]]
  [ ! -e k.cubin ]
}

@test "tile-pack: a ptxas that writes no ELF is refused" {
  isolated_pack
  printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\necho junk > "$2"\n' > isolated/ptxas
  chmod +x isolated/ptxas
  run isolated/tile-pack "$INPUTS/broken.ptx" --gpu-name sm_80 -o k.cubin
  [ "$status" -eq 5 ]
  [[ "$output" == *"not an ELF cubin"* ]]
  [ ! -e k.cubin ]
}

#===--- shared command line ----------------------------------------------===#

@test "both: a bad --gpu-name exits 2" {
  for tool in tile-ptx tile-pack; do
    run $tool "$INPUTS/vecadd.ll" --gpu-name sm_75 -o out
    [ "$status" -eq 2 ]
    [[ "$output" == *"unsupported GPU target 'sm_75'"* ]]
    run $tool "$INPUTS/vecadd.ll" --gpu-name=sm_80a -o out
    [ "$status" -eq 2 ]
    [ ! -e out ]
  done
}

@test "both: a bad -O exits 2, -g with -O3 exits 2" {
  for tool in tile-ptx tile-pack; do
    run $tool "$INPUTS/vecadd.ll" --gpu-name sm_80 -O7 -o out
    [ "$status" -eq 2 ]
    run $tool "$INPUTS/vecadd.ll" --gpu-name sm_80 --opt-level 4 -o out
    [ "$status" -eq 2 ]
    run $tool "$INPUTS/vecadd.ll" --gpu-name sm_80 --device-debug -O3 -o out
    [ "$status" -eq 2 ]
    [[ "$output" == *"optimized debugging is not supported, change optimization level to 0 or disable full debug info"* ]]
    [ ! -e out ]
  done
}

@test "both: --help and --version exit 0" {
  for tool in tile-ptx tile-pack; do
    run $tool --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--gpu-name"* ]]
    run $tool --version
    [ "$status" -eq 0 ]
    [[ "$output" == *"$tool"* ]]
  done
  tile-pack --help | grep -q -- '--ptxas-options'
  tile-ptx --help | grep -q -- '--ftz'
}
