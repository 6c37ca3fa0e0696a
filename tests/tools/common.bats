#!/usr/bin/env bats
# Behaviour every tilepipe tool shares: --help/--version, the exit-code table,
# stdin/stdout/-o, no partial output on failure, zstd, forwarded MLIR flags.

STAGE_TOOLS="tile-read tile-lower tile-sched tile-llvm"
ALL_TOOLS="$STAGE_TOOLS tileiras tile-opt"

setup() {
  TMP="$(mktemp -d)"
  printf 'module {\n}\n' > "$TMP/empty.mlir"
}

teardown() {
  rm -rf "$TMP"
}

@test "every tool answers --help and --version with exit 0" {
  for tool in $ALL_TOOLS; do
    run "$tool" --help
    [ "$status" -eq 0 ] || { echo "$tool --help: $status"; false; }
    [ -n "$output" ]
    run "$tool" --version
    [ "$status" -eq 0 ] || { echo "$tool --version: $status"; false; }
  done
}

@test "--version prints a stable banner with a V<major>.<minor>.<patch> token" {
  for tool in $STAGE_TOOLS tileiras; do
    run "$tool" --version
    [[ "$output" =~ V[0-9]+\.[0-9]+\.[0-9]+ ]]
    [[ "$output" == *tilepipe* ]]
    first="$output"
    run "$tool" --version
    [ "$output" = "$first" ]
  done
}

@test "--help documents the exit codes" {
  for tool in $STAGE_TOOLS tileiras; do
    run "$tool" --help
    [[ "$output" == *"Exit codes:"* ]]
    [[ "$output" == *"5  compilation failure"* ]]
  done
}

@test "unknown options are usage errors (exit 1)" {
  for tool in $STAGE_TOOLS tileiras; do
    run "$tool" --no-such-option "$TMP/empty.mlir"
    [ "$status" -eq 1 ] || { echo "$tool: $status"; false; }
  done
}

@test "MLIR debugging flags are forwarded to LLVM's option parser" {
  run tile-llvm -O3 --mlir-print-ir-after-all --emit=mlir "$TMP/empty.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"IR Dump After Canonicalizer"* ]]
  run tile-lower --mlir-timing "$TMP/empty.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Execution time report"* ]]
  run tile-read --mlir-print-op-generic "$TMP/empty.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"builtin.module"'* ]]
}

@test "input from a file, from stdin, and from -" {
  for tool in $STAGE_TOOLS; do
    a="$("$tool" "$TMP/empty.mlir")"
    b="$("$tool" < "$TMP/empty.mlir")"
    c="$("$tool" - < "$TMP/empty.mlir")"
    [ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ]
  done
}

@test "-o writes the file and nothing on stdout" {
  run tile-read "$TMP/empty.mlir" -o "$TMP/out.mlir"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  grep -q module "$TMP/out.mlir"
}

@test "a missing input is an I/O error (exit 4)" {
  run tile-read "$TMP/does-not-exist.mlir" -o "$TMP/out.mlir"
  [ "$status" -eq 4 ]
  [[ "$output" == *"cannot read"* ]]
  [ ! -e "$TMP/out.mlir" ]
}

@test "invalid IR fails with a located diagnostic, exit 5, and no output file" {
  printf 'module {\n  func.func @f() {\n    %%0 = arith.constant 1 : i32\n  }\n}\n' > "$TMP/bad.mlir"
  for tool in $STAGE_TOOLS; do
    run "$tool" "$TMP/bad.mlir" -o "$TMP/out.mlir"
    [ "$status" -eq 5 ] || { echo "$tool: $status $output"; false; }
    [[ "$output" == *'bad.mlir:3:'*': error:'* ]]
    [ ! -e "$TMP/out.mlir" ]
  done
  [ -z "$(ls "$TMP" | grep -v -e bad.mlir -e empty.mlir)" ]
}

@test "an existing output file survives a failed run untouched" {
  echo "precious" > "$TMP/out.mlir"
  printf 'garbage (' > "$TMP/bad.mlir"
  run tile-read "$TMP/bad.mlir" -o "$TMP/out.mlir"
  [ "$status" -ne 0 ]
  [ "$(cat "$TMP/out.mlir")" = "precious" ]
}

@test "an unwritable output is an I/O error (exit 4)" {
  run tile-read "$TMP/empty.mlir" -o "$TMP/no-such-dir/out.mlir"
  [ "$status" -eq 4 ]
  [[ "$output" == *"cannot write"* ]]
}

@test "-o naming a FIFO or a device writes into it instead of replacing it; a failing write (/dev/full) is an I/O error (exit 4)" {
  # The FIFO first: a tool that renamed a temporary over its output would
  # fail here before it could replace /dev/full below.
  mkfifo "$TMP/pipe"
  local tool emit reader
  for tool in tile-read tileiras; do
    emit=""
    [ "$tool" = tile-read ] || emit=--emit=cuda_tile
    cat "$TMP/pipe" > "$TMP/got" &
    reader=$!
    run "$tool" "$TMP/empty.mlir" $emit -o "$TMP/pipe"
    # Nothing opened the FIFO where the tool failed or replaced it: the
    # reader would wait forever.
    [ "$status" -eq 0 ] && [ -p "$TMP/pipe" ] || { kill "$reader"; echo "$tool: $status $output"; false; }
    wait "$reader"
    grep -q module "$TMP/got"
  done
  [ -c /dev/full ] || skip "no /dev/full"
  for tool in tile-read tileiras; do
    emit=""
    [ "$tool" = tile-read ] || emit=--emit=cuda_tile
    run "$tool" "$TMP/empty.mlir" $emit -o /dev/full
    [ "$status" -eq 4 ] && [[ "$output" == *"$tool: error: cannot write '/dev/full': No space left on device"* ]] ||
      { echo "$tool: $status $output"; false; }
    [ -c /dev/full ]
  done
}

@test "input that is neither TileIR nor MLIR is refused with exit 3" {
  echo "hello, world" > "$TMP/fake.bc"
  run tile-read "$TMP/fake.bc"
  [ "$status" -eq 3 ]
  [[ "$output" == *"input does not correspond to Tile IR bytecode"* ]]
  run tileiras "$TMP/fake.bc" -o "$TMP/out.cubin" --gpu-name sm_100
  [ "$status" -eq 3 ]
  [[ "$output" == *"input does not correspond to Tile IR bytecode"* ]]
  [ ! -e "$TMP/out.cubin" ]
}

@test "configuration errors exit 2: --gpu-name, -O, --device-debug" {
  run tile-lower --gpu-name sm_75 "$TMP/empty.mlir"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unsupported GPU target"* ]]
  run tile-lower -O4 "$TMP/empty.mlir"
  [ "$status" -eq 2 ]
  [[ "$output" == *"invalid optimization level"* ]]
  run tileiras "$TMP/empty.mlir" -o "$TMP/k.cubin" --gpu-name sm_100 -O3 --device-debug
  [ "$status" -eq 2 ]
  [[ "$output" == *"optimized debugging is not supported"* ]]
  run tileiras "$TMP/empty.mlir" -o "$TMP/k.cubin" --gpu-name=sm_90x
  [ "$status" -eq 2 ]
  [ ! -e "$TMP/k.cubin" ]
}

@test "every accepted --gpu-name spelling" {
  for gpu in sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_103 sm_110 sm_120 sm_120a sm_121; do
    run tile-lower --gpu-name "$gpu" "$TMP/empty.mlir"
    [ "$status" -eq 0 ] || { echo "$gpu: $output"; false; }
    run tile-lower "--gpu-name=$gpu" --opt-level=2 "$TMP/empty.mlir"
    [ "$status" -eq 0 ]
  done
}

@test "tileiras without an input is a usage error" {
  run tileiras -o "$TMP/k.cubin"
  [ "$status" -eq 1 ]
  [[ "$output" == *"no input file provided"* ]]
}

@test "zstd: compressed output round-trips, compressed input is read transparently" {
  tile-read "$TMP/empty.mlir" -o "$TMP/out.mlir.zst"
  [ "$(head -c 4 "$TMP/out.mlir.zst" | od -An -tx1 | tr -d ' ')" = "28b52ffd" ]
  run tile-read "$TMP/out.mlir.zst"
  [ "$status" -eq 0 ]
  [[ "$output" == *"module"* ]]
  tile-read --zstd -f "$TMP/empty.mlir" > "$TMP/piped.zst"
  tile-lower < "$TMP/piped.zst" > "$TMP/plain.mlir"
  grep -q module "$TMP/plain.mlir"
  head -c 10 "$TMP/out.mlir.zst" > "$TMP/truncated.zst"
  run tile-read "$TMP/truncated.zst"
  [ "$status" -eq 4 ]
  [[ "$output" == *"zstd"* ]]
}

@test "MLIR bytecode between stages is auto-detected" {
  tile-read --emit-bytecode -f "$TMP/empty.mlir" > "$TMP/x.mlirbc"
  [ "$(head -c 4 "$TMP/x.mlirbc")" = "$(printf 'ML\xefR')" ]
  run tile-lower "$TMP/x.mlirbc"
  [ "$status" -eq 0 ]
  [[ "$output" == *"module"* ]]
}

@test "tile-llvm writes LLVM IR text, or bitcode for -o *.bc" {
  run tile-llvm "$TMP/empty.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"ModuleID"* ]]
  tile-llvm "$TMP/empty.mlir" -o "$TMP/k.bc"
  [ "$(head -c 2 "$TMP/k.bc")" = "BC" ]
}

@test "stages print their pass list per -O level" {
  run tile-lower --print-pipeline -O3
  [ "$status" -eq 0 ]
  run tile-sched --print-pipeline -O0
  [ "$status" -eq 0 ]
  run tile-sched --print-pipeline -O9
  [ "$status" -eq 2 ]
}

@test "tileiras -v prints each stage's command line; --save-temps keeps them" {
  mkdir "$TMP/temps"
  run tileiras "$TMP/empty.mlir" --emit=scheduled -o "$TMP/k.sched.mlir" -v --save-temps="$TMP/temps" --gpu-name sm_90
  [ "$status" -eq 0 ]
  [[ "$output" == *"tile-read"*"tile-lower"*"--gpu-name sm_90"*"tile-sched"* ]]
  [ -f "$TMP/temps/empty.cuda_tile.mlir" ]
  [ -f "$TMP/temps/empty.lowered.mlir" ]
  [ -f "$TMP/temps/empty.sched.mlir" ]
  grep -q module "$TMP/k.sched.mlir"
}

@test "tileiras stops at the first failing stage and writes nothing" {
  printf 'module {\n  func.func @f() {\n    %%0 = arith.constant 1 : i32\n  }\n}\n' > "$TMP/bad.mlir"
  run tileiras "$TMP/bad.mlir" -o "$TMP/k.cubin" --gpu-name sm_100
  [ "$status" -eq 5 ]
  [[ "$output" == *"error:"* ]]
  [ ! -e "$TMP/k.cubin" ]
}

@test "binary output is refused on a terminal unless -f" {
  command -v script >/dev/null || skip "script(1) is not installed"
  run script -qec "tile-read --emit-bytecode $TMP/empty.mlir" /dev/null
  [ "$status" -eq 1 ]
  [[ "$output" == *"refusing to write binary output to a terminal"* ]]
  run script -qec "tile-read --emit-bytecode -f $TMP/empty.mlir" /dev/null
  [ "$status" -eq 0 ]
}
