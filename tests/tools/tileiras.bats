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
