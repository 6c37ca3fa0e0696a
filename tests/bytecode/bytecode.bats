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
