#!/usr/bin/env bats
# tileiras' two flows: in one process (the default) and the stage tools as
# processes (--staged, TILEPIPE_STAGED=1, --save-temps, -v). Both must give
# the same bytes, exit codes and diagnostics, and neither an output file on
# failure.

setup() {
  TMP="$(mktemp -d)"
  BC="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  VECADD="$BC/samples-VectorAddition-vec_add_kernel_1d.f32.sm_80.13.4.tileirbc"
}

teardown() {
  rm -rf "$TMP"
}

# Diagnostics' operation dumps without their trailing locations: the staged
# flow's tile-llvm prints none (tileiras passes --mlir-print-debuginfo to the
# MLIR stages before it only), the in-process flow prints them throughout.
without_dump_locations() {
  sed -E '/note: see current operation: /s/ loc\(.*\)$//' <<< "$1"
}

# both ARGS...: runs `tileiras ARGS -o FILE` in-process and --staged; fails
# unless both exit alike, print the same and write identical files (or
# neither one). Leaves the in-process run's status and output for the caller.
both() {
  rm -f "$TMP/here.out" "$TMP/staged.out"
  run "$TILEPIPE_BIN/tileiras" "$@" --staged -o "$TMP/staged.out"
  local staged_status=$status staged_output=$output
  run "$TILEPIPE_BIN/tileiras" "$@" -o "$TMP/here.out"
  [ "$status" -eq "$staged_status" ] ||
    { echo "$*: exit $status in-process, $staged_status staged: $output / $staged_output"; return 1; }
  [ "$(without_dump_locations "$output")" = "$(without_dump_locations "$staged_output")" ] ||
    { echo "$*: in-process said:"; echo "$output"; echo "staged said:"; echo "$staged_output"; return 1; }
  if [ "$status" -eq 0 ]; then
    cmp "$TMP/here.out" "$TMP/staged.out" || { echo "$*: outputs differ"; return 1; }
  else
    [ ! -e "$TMP/here.out" ] && [ ! -e "$TMP/staged.out" ] ||
      { echo "$*: a failed compile left an output file"; return 1; }
  fi
}

@test "the default flow starts no stage tool: tileiras alone compiles; --staged and TILEPIPE_STAGED=1 need the tools" {
  mkdir "$TMP/alone"
  cp "$TILEPIPE_BIN/tileiras" "$TMP/alone/"
  run "$TMP/alone/tileiras" "$VECADD" --gpu-name sm_80 -o "$TMP/alone.cubin"
  [ "$status" -eq 0 ] && [ -s "$TMP/alone.cubin" ] || { echo "$output"; false; }
  tileiras "$VECADD" --gpu-name sm_80 --staged -o "$TMP/staged.cubin"
  cmp "$TMP/alone.cubin" "$TMP/staged.cubin"
  for staged in --staged -v --save-temps="$TMP/temps"; do
    run "$TMP/alone/tileiras" "$VECADD" --gpu-name sm_80 "$staged" -o "$TMP/k.cubin"
    [ "$status" -eq 5 ] && [[ "$output" == *"cannot find the stage tool 'tile-read' next to tileiras"* ]] ||
      { echo "$staged: $output"; false; }
  done
  TILEPIPE_STAGED=1 run "$TMP/alone/tileiras" "$VECADD" --gpu-name sm_80 -o "$TMP/k.cubin"
  [ "$status" -eq 5 ] && [[ "$output" == *"cannot find the stage tool"* ]] || { echo "$output"; false; }
  [ ! -e "$TMP/k.cubin" ]
}

@test "both flows give identical cubins for corpus kernels on sm_80, sm_90 and sm_100" {
  for kernel in samples-VectorAddition-vec_add_kernel_1d.f32 samples-MatMul-matmul_kernel.f16 \
                samples-LayerNorm-layer_norm_fwd.f16; do
    for sm in sm_80 sm_90 sm_100; do
      in="$BC/$kernel.$sm.13.4.tileirbc"
      [ -e "$in" ] || continue
      both "$in" --gpu-name "$sm"
      [ "$status" -eq 0 ] || { echo "$output"; false; }
    done
  done
}

@test "both flows agree on every --emit, --lineinfo, -O level, --device-debug and host arch" {
  for emit in cuda_tile ptx fatbin obj; do
    both "$VECADD" --gpu-name sm_80 --emit=$emit --lineinfo
    [ "$status" -eq 0 ] || { echo "$emit: $output"; false; }
  done
  both "$VECADD" --gpu-name sm_90 --emit=obj --host-arch aarch64
  for o in 0 1 2; do
    both "$VECADD" --gpu-name sm_100 -O$o
  done
  both "$VECADD" --gpu-name sm_80 -O0 --device-debug
  # The MLIR and LLVM IR stops agree except for locations that cuda_tile's
  # printer leaves out (block arguments'): the staged flow's re-parse gives
  # them its temporary file, the in-process flow keeps the source's.
  for emit in lowered scheduled llvm; do
    run tileiras "$VECADD" --gpu-name sm_80 --emit=$emit -o "$TMP/$emit"
    [ "$status" -eq 0 ] && [ -s "$TMP/$emit" ] || { echo "$emit: $output"; false; }
    ! grep -q '/tileiras-[0-9]*/' "$TMP/$emit" || { echo "$emit names a temporary file"; false; }
  done
  grep -q 'tile_as' "$TMP/scheduled"
  grep -q 'define .*ptx_kernel' "$TMP/llvm"
}

@test "both flows fail alike: exit code, diagnostics, no output file" {
  # Malformed and unsupported TileIR bytecode (exit 3 and 5).
  printf '\x7fTileIR\x00\x0d\x09\x00\x00' > "$TMP/v.tileirbc"
  both "$TMP/v.tileirbc" --gpu-name sm_80
  [ "$status" -eq 3 ] && [[ "$output" == *"unsupported Tile version 13.9"* ]]
  head -c 200 "$VECADD" > "$TMP/cut.tileirbc"
  both "$TMP/cut.tileirbc" --gpu-name sm_80
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  # Invalid IR: located, exit 5.
  printf 'module {\n  func.func @f() {\n    %%0 = arith.constant 1 : i32\n  }\n}\n' > "$TMP/bad.mlir"
  both "$TMP/bad.mlir" --gpu-name sm_80
  [ "$status" -eq 5 ] && [[ "$output" == *'bad.mlir:3:'*': error:'* ]] || { echo "$output"; false; }
  # Not Tile IR at all (3), an unsupported target (2).
  printf 'garbage' > "$TMP/g.bin"
  both "$TMP/g.bin" --gpu-name sm_80
  [ "$status" -eq 3 ]
  both "$VECADD" --gpu-name sm_10
  [ "$status" -eq 2 ]
  # A pass that fails in the middle of the pipeline: tensor memory exhausted.
  "$TILEPIPE_SOURCE_DIR/tests/lower-mma/kernel.py" --m 256 --n 512 --k 16 --a f16 --acc f32 > "$TMP/tmem.mlir"
  both "$TMP/tmem.mlir" --gpu-name sm_100
  [ "$status" -eq 5 ] && [[ "$output" == *"tmem.mlir:"*"error: allocated tmem out of resource: 1024 vs 512"* ]] ||
    { echo "$output"; false; }
}

@test "both flows fail alike without ptxas and when ptxas fails" {
  mkdir -p "$TMP/toolkit/bin"
  CUDA_ROOT="$TMP/toolkit" TILEPIPE_DEFAULT_CUDA_ROOT= PATH=/usr/bin:/bin both "$VECADD" --gpu-name sm_80
  [ "$status" -eq 5 ] && [[ "$output" == "tile-pack: error: "*ptxas* ]] || { echo "$output"; false; }
  printf '#!/bin/sh\necho "ptxas fatal   : out of luck" >&2\nexit 1\n' > "$TMP/toolkit/bin/ptxas"
  chmod +x "$TMP/toolkit/bin/ptxas"
  CUDA_ROOT="$TMP/toolkit" TILEPIPE_DEFAULT_CUDA_ROOT= PATH=/usr/bin:/bin both "$VECADD" --gpu-name sm_80
  [ "$status" -eq 5 ] && [[ "$output" == *"ptxas fatal   : out of luck"*"tile-pack: error: "* ]] ||
    { echo "$output"; false; }
}

@test "remarks: both flows write the same YAML and hide the ptxas statistics they asked for" {
  both "$VECADD" --gpu-name sm_80 --remarks-output-file="$TMP/r.yaml"
  [ "$status" -eq 0 ] && [[ "$output" != *"ptxas info"* ]] || { echo "$output"; false; }
  mv "$TMP/r.yaml" "$TMP/here.yaml"
  tileiras "$VECADD" --gpu-name sm_80 --staged --remarks-output-file="$TMP/r.yaml" -o "$TMP/k.cubin"
  cmp "$TMP/here.yaml" "$TMP/r.yaml"
  grep -Eq "Registers: *'[1-9][0-9]*'" "$TMP/r.yaml" || { cat "$TMP/r.yaml"; false; }
}

@test "compile cache: the flows share entries (an in-process store is a staged hit)" {
  tileiras "$VECADD" --gpu-name sm_80 --cache-dir "$TMP/cache" -o "$TMP/a.cubin"
  [ "$(find "$TMP/cache" -name '*.zst' | wc -l)" -eq 1 ]
  run tileiras "$VECADD" --gpu-name sm_80 --cache-dir "$TMP/cache" -o "$TMP/b.cubin" -v
  [ "$status" -eq 0 ] && [[ "$output" == *"cache hit"* ]] || { echo "$output"; false; }
  cmp "$TMP/a.cubin" "$TMP/b.cubin"
}

@test "a crash inside the in-process compile is exit 5 with a message and no output file, not a signal" {
  # A SIGSEGV sent in the middle of a MatMul compile stands for a crash in a
  # stage; the staged flow would report the failed stage tool and exit 5.
  local in="$BC/samples-MatMul-matmul_kernel.f16.sm_90.13.4.tileirbc" killed=0
  for attempt in 1 2 3; do
    rm -f "$TMP/k.cubin"
    "$TILEPIPE_BIN/tileiras" "$in" --gpu-name sm_90 -o "$TMP/k.cubin" 2> "$TMP/err" &
    local pid=$! status=0
    sleep 0.7
    kill -SEGV $pid 2>/dev/null || { wait $pid; continue; } # done already
    killed=1
    wait $pid || status=$?
    if [ $status -eq 5 ] && grep -q 'tileiras: error: the compiler crashed (Segmentation fault)' "$TMP/err" &&
       [ ! -e "$TMP/k.cubin" ]; then
      return 0
    fi
    # 139: the signal came before main() set up the recovery; try again.
    echo "attempt $attempt: exit $status: $(cat "$TMP/err")"
  done
  [ $killed -eq 1 ] || skip "the compile finished before the signal"
  false
}

@test "MLIR's debugging flags apply to the in-process stages: --mlir-timing, --mlir-print-ir-after-all" {
  run tileiras "$VECADD" --gpu-name sm_80 -o "$TMP/k.cubin" --mlir-timing
  [ "$status" -eq 0 ] && [ -s "$TMP/k.cubin" ] || { echo "$output"; false; }
  # One report per MLIR stage pipeline (lower, sched, llvm).
  [ "$(grep -c 'Execution time report' <<< "$output")" -eq 3 ] || { echo "$output"; false; }
  [[ "$output" == *ConvertCudaTileToTileAA*AssignLayouts*ConvertTileASToLLVM* ]] || { echo "$output"; false; }
  run tileiras "$VECADD" --gpu-name sm_80 --emit=scheduled -o "$TMP/k.mlir" --mlir-print-ir-after-all
  [ "$status" -eq 0 ] && [[ "$output" == *"// -----// IR Dump After "* ]] || { echo "$output"; false; }
}
