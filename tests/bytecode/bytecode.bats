#!/usr/bin/env bats
# tile-read over TileIR bytecode: the whole shared corpus, NVIDIA's invalid and
# legacy inputs, hostile inputs, and the writer through --emit=tileirbc.

HERE="$BATS_TEST_DIRNAME"
CORPUS="$TILEPIPE_SHARED_DIR/corpus"

setup() {
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# Every file is compared in-process by BytecodeReaderTest; through the tool,
# every 12th file of the sorted walk (one process each keeps this ~10 s).
@test "corpus .tileirbc files read and print as NVIDIA's reader prints them" {
  run python3 "$HERE/check-corpus.py" "$TILEPIPE_BIN/tile-read" "$CORPUS" --stride 12
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "invalid-or-legacy inputs behave as their README says" {
  run python3 "$HERE/check-invalid.py" "$TILEPIPE_BIN/tile-read" \
    "$CORPUS/oracle/invalid-or-legacy"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "truncated and corrupted bytecode fails with exit 3 or 5, never a signal" {
  run python3 "$HERE/check-hostile.py" "$TILEPIPE_BIN/tile-read" "$CORPUS"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "binary garbage and unsupported versions are not TileIR (exit 3)" {
  printf '\x7eTileIR\x00\x0d\x01\x00\x00\x00' > "$TMP/garbage.bin"
  run tile-read "$TMP/garbage.bin"
  [ "$status" -eq 3 ]
  [[ "$output" == *"does not correspond to Tile IR bytecode"* ]]
  printf '\x7fTileIR\x00\x0d\x05\x00\x00\x00' > "$TMP/v135.tileirbc"
  run tile-read "$TMP/v135.tileirbc"
  [ "$status" -eq 3 ]
  [[ "$output" == *"unsupported Tile version 13.5.0, this reader supports versions [13.1 - 13.4]"* ]]
}

@test "--emit=tileirbc round-trips a corpus kernel at its own version" {
  for file in "$CORPUS"/cutile/bytecode/*sm_100.13.[1234].tileirbc; do
    version="${file%.tileirbc}"; version="${version##*.sm_100.}"
    tile-read "$file" > "$TMP/first.mlir"
    tile-read --emit=tileirbc --bytecode-version="$version" "$file" -o "$TMP/again.tileirbc"
    tile-read "$TMP/again.tileirbc" > "$TMP/second.mlir"
    diff "$TMP/first.mlir" "$TMP/second.mlir"
    break
  done
}

@test "writing a 13.3-only op at 13.1 is refused with a clear message" {
  file="$(ls "$CORPUS"/oracle/bytecode/*.13.3.tileirbc | while read f; do
    [ -e "${f%.13.3.tileirbc}.13.1.tileirbc" ] || { echo "$f"; break; }; done)"
  [ -n "$file" ]
  run tile-read --emit=tileirbc --bytecode-version=13.1 "$file" -o "$TMP/out.tileirbc"
  echo "$output"
  [ "$status" -eq 5 ]
  [[ "$output" == *"cannot write TileIR bytecode 13.1"* ]]
  [ ! -e "$TMP/out.tileirbc" ]
}

@test "gather_scatter_view accesses (a tile of indices on the sparse dimension) round-trip through bytecode 13.3" {
  local gather="$TILEPIPE_SOURCE_DIR/tests/dialect/roundtrip/gather-scatter-13.3.mlir"
  tile-read "$gather" > "$TMP/first.mlir"
  grep -q 'tile<4xi32>, tile<i32> -> tile<4x8xf32>, token' "$TMP/first.mlir"
  grep -q 'tile<i64>, tile<8xi64>, tile<i64> -> token' "$TMP/first.mlir"
  tile-read --emit=tileirbc --bytecode-version=13.3 "$gather" -o "$TMP/gather.tileirbc"
  tile-read "$TMP/gather.tileirbc" > "$TMP/second.mlir"
  diff "$TMP/first.mlir" "$TMP/second.mlir"
}

# The 13.4 ops that only cuTile Python's writer emits (insert 118,
# gdc_launch_dependents_tko 119, gdc_wait_tko 120, memory_fence_alias_tko 122).
OPS_13_4="$TILEPIPE_SOURCE_DIR/tests/dialect/roundtrip/ops-13.4.mlir"

@test "13.4 ops (insert, gdc_*_tko, memory_fence_alias_tko) round-trip through bytecode 13.4" {
  tile-read "$OPS_13_4" > "$TMP/first.mlir"
  grep -q 'insert ' "$TMP/first.mlir"
  grep -q 'gdc_launch_dependents_tko token=' "$TMP/first.mlir"
  grep -q 'memory_fence_alias_tko' "$TMP/first.mlir"
  tile-read --emit=tileirbc --bytecode-version=13.4 "$OPS_13_4" -o "$TMP/ops.tileirbc"
  tile-read "$TMP/ops.tileirbc" > "$TMP/second.mlir"
  diff "$TMP/first.mlir" "$TMP/second.mlir"
}

@test "13.4 ops are encoded with cuTile's opcodes and field layout" {
  cat > "$TMP/wire.mlir" <<'MLIR'
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.000000e+00> : tile<2xf32>
    %b = constant <f32: 0.000000e+00> : tile<4xf32>
    %i = constant <i32: 1> : tile<i32>
    %r = insert %a into %b[%i] : tile<2xf32> -> tile<4xf32>
    %t0 = gdc_wait_tko : token
    %t1 = gdc_launch_dependents_tko token=%t0 : token
    %t2 = memory_fence_alias_tko token=%t1 : token
    return
  }
}
MLIR
  tile-read --emit=tileirbc --bytecode-version=13.4 "$TMP/wire.mlir" -o "$TMP/wire.tileirbc"
  # insert: 118, result count 1 + type, 3 operands (%a=0 %b=1 %i=2);
  # gdc_wait_tko: 120, token type, 0 operands; gdc_launch_dependents_tko:
  # 119, token type, 1 operand (%t0=4); memory_fence_alias_tko: 122, token
  # type, its one operand without a count (%t1=5); return.
  run python3 -c '
import re, sys
hex = open(sys.argv[1], "rb").read().hex()
pattern = r"7601..03000102" r"78(?P<tok>..)00" r"77(?P=tok)0104" r"7a(?P=tok)05" r"5c0000"
sys.exit(0 if re.search(pattern, hex) else "no match in " + hex)' "$TMP/wire.tileirbc"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "writing a 13.4 op at 13.3 is refused with a clear message" {
  local op
  for op in 'insert %c into %c[] : tile<i32> -> tile<i32>' \
            'gdc_launch_dependents_tko : token' 'gdc_wait_tko : token' \
            'memory_fence_alias_tko token=%t : token'; do
    printf 'cuda_tile.module @m {\n  entry @k() {\n    %%c = constant <i32: 0> : tile<i32>\n    %%t = make_token : token\n    %%0 = %s\n    return\n  }\n}\n' "$op" > "$TMP/op.mlir"
    tile-read "$TMP/op.mlir" > /dev/null
    run tile-read --emit=tileirbc --bytecode-version=13.3 "$TMP/op.mlir" -o "$TMP/out.tileirbc"
    echo "$op: $output"
    [ "$status" -eq 5 ]
    [[ "$output" == *"cannot write TileIR bytecode 13.3: op 'cuda_tile.${op%% *}' requires bytecode version 13.4"* ]]
    [ ! -e "$TMP/out.tileirbc" ]
  done
}
