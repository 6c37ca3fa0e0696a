#!/usr/bin/env bats
# The three ways to run the whole flow give the same cubin: tileiras, the shell
# driver (MLIR bytecode through pipes) and Makefile.example (one file per
# stage). Also the frontends' version probe: an empty module compiles.

setup() {
  TMP="$(mktemp -d)"
  EXAMPLE="$TILEPIPE_SOURCE_DIR/examples/vector_add.tileirbc"
  ORACLE="$TILEPIPE_SHARED_DIR/corpus/oracle/bytecode"
}

teardown() {
  rm -rf "$TMP"
}

@test "tileiras, the shell driver and Makefile.example make byte-identical cubins" {
  for gpu in sm_80 sm_90 sm_100 sm_120; do
    run tileiras "$EXAMPLE" -o "$TMP/a.cubin" --gpu-name "$gpu" -O3 --lineinfo
    [ "$status" -eq 0 ] || { echo "$gpu tileiras: $output"; false; }
    TILEPIPE_BIN="$TILEPIPE_BIN" "$TILEPIPE_SOURCE_DIR/scripts/tilepipe-compile" \
      "$EXAMPLE" "$TMP/b.cubin" --gpu-name "$gpu" -O3 --lineinfo
    cp "$EXAMPLE" "$TMP/k.tileirbc"
    rm -f "$TMP"/k.*.mlir "$TMP/k.ll" "$TMP/k.ptx" "$TMP/k.cubin"
    make -s -C "$TILEPIPE_SOURCE_DIR" -f Makefile.example KERNEL="$TMP/k" GPU="$gpu" \
      TILEPIPE_BIN="$TILEPIPE_BIN" >/dev/null
    [ "$(head -c 4 "$TMP/a.cubin" | od -An -tx1 | tr -d ' ')" = "7f454c46" ]
    cmp "$TMP/a.cubin" "$TMP/b.cubin"
    cmp "$TMP/a.cubin" "$TMP/k.cubin"
  done
}

@test "Makefile.example reruns only the stages after an edited file" {
  cp "$EXAMPLE" "$TMP/k.tileirbc"
  make -s -C "$TILEPIPE_SOURCE_DIR" -f Makefile.example KERNEL="$TMP/k" GPU=sm_90 TILEPIPE_BIN="$TILEPIPE_BIN" >/dev/null
  touch -d '1 hour ago' "$TMP"/k.*
  touch "$TMP/k.sched.mlir"
  run make -C "$TILEPIPE_SOURCE_DIR" -f Makefile.example KERNEL="$TMP/k" GPU=sm_90 TILEPIPE_BIN="$TILEPIPE_BIN"
  [ "$status" -eq 0 ]
  [[ "$output" == *tile-llvm* ]]
  [[ "$output" == *tile-pack* ]]
  [[ "$output" != *tile-read* ]]
  [[ "$output" != *tile-lower* ]]
}

@test "the shell driver fails without leaving an output file" {
  echo "hello" > "$TMP/bad.tileirbc"
  run "$TILEPIPE_SOURCE_DIR/scripts/tilepipe-compile" "$TMP/bad.tileirbc" "$TMP/out.cubin" --gpu-name sm_90
  [ "$status" -ne 0 ]
  [ ! -e "$TMP/out.cubin" ]
  [ -z "$(ls "$TMP" | grep -v bad.tileirbc)" ]
}

@test "an empty module compiles with exit 0 at every bytecode version (the frontends' probe)" {
  for v in 13.1 13.2 13.3; do
    run tileiras "$ORACLE/Bytecode_emptyModuleTest.$v.tileirbc" -o "$TMP/e$v.cubin" --gpu-name sm_120
    [ "$status" -eq 0 ] || { echo "$v: $output"; false; }
    [ -s "$TMP/e$v.cubin" ]
  done
  tile-read "$ORACLE/Bytecode_emptyModuleTest.13.3.tileirbc" --emit=tileirbc --bytecode-version=13.4 -o "$TMP/e.13.4.tileirbc"
  [ "$(od -An -tx1 -j8 -N2 "$TMP/e.13.4.tileirbc" | tr -d ' ')" = "0d04" ]
  run tileiras "$TMP/e.13.4.tileirbc" -o "$TMP/e13.4.cubin" --gpu-name sm_120
  [ "$status" -eq 0 ]
}

@test "a bytecode version we do not read exits 3" {
  printf '\x7fTileIR\x00\x0d\x09\x00\x00' > "$TMP/v.tileirbc"
  run tileiras "$TMP/v.tileirbc" -o "$TMP/v.cubin" --gpu-name sm_120
  [ "$status" -eq 3 ]
  [[ "$output" == *"unsupported Tile version 13.9"* ]]
  [ ! -e "$TMP/v.cubin" ]
}

@test "--lineinfo gives PTX line tables that point at the kernel's Python source" {
  BC="$TILEPIPE_SHARED_DIR/corpus/cutile/bytecode/samples-VectorAddition-vec_add_kernel_1d.f16.sm_80.13.3.tileirbc"
  run tileiras "$BC" --emit=ptx -o "$TMP/k.ptx" --gpu-name sm_80 --lineinfo
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -q '^[[:space:]]*\.file[[:space:]]1 ".*/samples/VectorAddition.py"' "$TMP/k.ptx"
  grep -q '^[[:space:]]*\.loc[[:space:]]1 [0-9][0-9]* ' "$TMP/k.ptx"
  run tileiras "$BC" --emit=ptx -o "$TMP/plain.ptx" --gpu-name sm_80
  [ "$status" -eq 0 ]
  ! grep -q '\.loc' "$TMP/plain.ptx"
}
