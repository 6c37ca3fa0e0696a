# Shared by the corpus suites (`load corpus-common`): where the corpus is, a
# scratch folder per test, and the two checks every suite makes.

corpus_setup() {
  MANIFEST="$TILEPIPE_SHARED_DIR/corpus/cutile/manifest.json"
  BYTECODE="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode"
  RUN="$BATS_TEST_DIRNAME/run-case.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# check CASE SM VERSION [run-case args]: the case's bytecode for SM and
# VERSION compiled for SM, run in tile-emu and compared with numpy. An
# arch- or family-specific SM (sm_90a, sm_120f) compiles the bytecode of its
# base (sm_90, sm_120).
check() {
  local case=$1 sm=$2 v=$3
  shift 3
  "$RUN" --manifest "$MANIFEST" --case "$case" --bytecode "$BYTECODE/$case.${sm%[af]}.$v.tileirbc" \
    --gpu-name "$sm" --bin "$TILEPIPE_BIN" --work "$TMP/$case.$sm.$v" "$@"
}

# compiles_to_cubin CASE SM VERSION: tileiras makes a non-empty cubin, or the
# test fails showing the diagnostic.
compiles_to_cubin() {
  run tileiras "$BYTECODE/$1.$2.$3.tileirbc" --gpu-name "$2" -o "$TMP/k.cubin"
  [ "$status" -eq 0 ] && [ -s "$TMP/k.cubin" ] || { echo "$1 $2 $3: $output"; return 1; }
  rm -f "$TMP/k.cubin"
}
