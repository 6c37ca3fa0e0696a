#!/usr/bin/env bats
# tileiras: the drop-in wrapper's own behaviour (stdin, compile cache).

setup() {
  TMP="$(mktemp -d)"
  printf 'module {\n}\n' > "$TMP/k.mlir"
}

teardown() {
  rm -rf "$TMP"
}

compile() {
  tileiras "$TMP/k.mlir" --emit=scheduled --gpu-name sm_90 "$@"
}

@test "tileiras reads its input from stdin" {
  run tileiras - --emit=cuda_tile -o "$TMP/out.mlir" < "$TMP/k.mlir"
  [ "$status" -eq 0 ]
  grep -q module "$TMP/out.mlir"
}

@test "compile cache: a miss stores, a hit returns the same bytes" {
  run compile -o "$TMP/a.mlir" --cache-dir "$TMP/cache" -v
  [ "$status" -eq 0 ]
  [[ "$output" == *"tile-lower"* ]]
  [ "$(find "$TMP/cache" -name '*.zst' | wc -l)" -eq 1 ]
  run compile -o "$TMP/b.mlir" --cache-dir "$TMP/cache" -v
  [ "$status" -eq 0 ]
  [[ "$output" == *"cache hit"* ]]
  [[ "$output" != *"tile-lower"* ]]
  cmp "$TMP/a.mlir" "$TMP/b.mlir"
}

@test "compile cache: the key covers options (another target is a miss)" {
  compile -o "$TMP/a.mlir" --cache-dir "$TMP/cache"
  run tileiras "$TMP/k.mlir" --emit=scheduled --gpu-name sm_80 -o "$TMP/b.mlir" --cache-dir "$TMP/cache" -v
  [[ "$output" != *"cache hit"* ]]
  [ "$(find "$TMP/cache" -name '*.zst' | wc -l)" -eq 2 ]
}

@test "compile cache: TILEPIPE_CACHE_DIR selects the directory" {
  TILEPIPE_CACHE_DIR="$TMP/envcache" compile -o "$TMP/a.mlir"
  [ "$(find "$TMP/envcache" -name '*.zst' | wc -l)" -eq 1 ]
}

@test "compile cache: a corrupt entry is a miss and gets replaced" {
  compile -o "$TMP/a.mlir" --cache-dir "$TMP/cache"
  entry="$(find "$TMP/cache" -name '*.zst')"
  printf 'garbage' > "$entry"
  run compile -o "$TMP/b.mlir" --cache-dir "$TMP/cache" -v
  [ "$status" -eq 0 ]
  [[ "$output" != *"cache hit"* ]]
  cmp "$TMP/a.mlir" "$TMP/b.mlir"
  [ "$(head -c 4 "$entry" | od -An -tx1 | tr -d ' ')" = "28b52ffd" ]
}

@test "compile cache: the size limit evicts entries" {
  run compile -o "$TMP/a.mlir" --cache-dir "$TMP/cache" --cache-max-size 0
  [ "$status" -eq 0 ]
  grep -q module "$TMP/a.mlir"
  [ "$(find "$TMP/cache" -name '*.zst' | wc -l)" -eq 0 ]
}

@test "compile cache: concurrent compilers share one directory safely" {
  for i in 1 2 3 4 5 6; do
    compile -o "$TMP/p$i.mlir" --cache-dir "$TMP/cache" &
  done
  wait
  for i in 2 3 4 5 6; do cmp "$TMP/p1.mlir" "$TMP/p$i.mlir"; done
  [ "$(find "$TMP/cache" -type f | wc -l)" -eq 1 ]
}

@test "the argv forms every frontend uses are accepted" {
  ex="$TILEPIPE_SOURCE_DIR/examples/vector_add.tileirbc"
  # cuTile Python
  tileiras "$ex" -o "$TMP/py.cubin" --gpu-name sm_90 -O3 --lineinfo
  tileiras "$ex" -o "$TMP/pydbg.cubin" --gpu-name sm_90 -O0 --device-debug
  tileiras "$ex" -o "$TMP/pyrm.cubin" --gpu-name sm_90 -O3 --lineinfo \
    --remark-format=yaml --remarks=all --remarks-output-file="$TMP/r.yaml"
  [ -s "$TMP/r.yaml" ]
  # cuTile.jl
  tileiras "$ex" -o "$TMP/jl.cubin" --gpu-name sm_100 -O2 --lineinfo
  # cutile-rs: options before the input
  tileiras --gpu-name sm_120 -o "$TMP/rs.cubin" "$ex"
  # = forms and --opt-level
  tileiras "$ex" -o "$TMP/eq.cubin" --gpu-name=sm_80 --opt-level=1
  tileiras "$ex" -o "$TMP/sp.cubin" --gpu-name sm_80 --opt-level 1
  cmp "$TMP/eq.cubin" "$TMP/sp.cubin"
  for f in py pydbg pyrm jl rs eq; do
    head -c 4 "$TMP/$f.cubin" | od -An -c | grep -q 'E   L   F'
  done
}

@test "a broken CUDA toolkit: a ptxas that is not executable (named so), one killed by a signal, and no libdevice for a kernel calling __nv_* are exit 5 with a message and no output" {
  local bc="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  local vecadd="$bc/samples-VectorAddition-vec_add_kernel_1d.f32.sm_80.13.4.tileirbc"
  local layernorm="$bc/samples-LayerNorm-layer_norm_fwd.f16.sm_80.13.4.tileirbc"
  mkdir -p "$TMP/toolkit/bin"
  printf '#!/bin/sh\nexit 0\n' > "$TMP/toolkit/bin/ptxas"
  # The toolkit alone: no ptxas beside tileiras, on PATH or in the default.
  local tileiras
  tileiras="$(command -v tileiras)"
  broken() {
    CUDA_ROOT="$TMP/toolkit" TILEPIPE_DEFAULT_CUDA_ROOT=/nonexistent PATH=/usr/bin:/bin "$tileiras" "$@"
  }
  run broken "$vecadd" --gpu-name sm_80 -o "$TMP/k.cubin"
  [ "$status" -eq 5 ] && [[ "$output" == *"tile-pack: error: cannot find 'ptxas' of the CUDA toolkit"*"$TMP/toolkit/bin/ptxas (not executable)"* ]] ||
    { echo "$output"; false; }
  printf '#!/bin/sh\nkill -9 $$\n' > "$TMP/toolkit/bin/ptxas"
  chmod +x "$TMP/toolkit/bin/ptxas"
  run broken "$vecadd" --gpu-name sm_80 -o "$TMP/k.cubin"
  [ "$status" -eq 5 ] && [[ "$output" == *"tile-pack: error: ptxas was killed by a signal"* ]] ||
    { echo "$output"; false; }
  [ ! -e "$TMP/k.cubin" ]
  # LayerNorm's rsqrt comes from libdevice, which this toolkit lacks.
  run broken "$layernorm" --gpu-name sm_80 --emit=ptx -o "$TMP/k.ptx"
  [ "$status" -eq 5 ] && [[ "$output" == *"error: could not find libdevice.10.bc of the CUDA toolkit; set CUDA_HOME. Searched:"*"$TMP/toolkit/nvvm/libdevice/libdevice.10.bc"* ]] ||
    { echo "$output"; false; }
  [ ! -e "$TMP/k.ptx" ]
}
