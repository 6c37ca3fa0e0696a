#!/usr/bin/env bats
# gdc_wait_tko, gdc_launch_dependents_tko and memory_fence_alias_tko: lowered
# in order to griddepcontrol (sm_90+, dropped below) and fence.proxy.alias,
# from text and from 13.4 bytecode, and run in tile-emu.

setup() {
  IN="$BATS_TEST_DIRNAME/sync.mlir"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

@test "tile-lower keeps the three ops in program order as NVVM ops" {
  run bash -c "tile-lower --gpu-name sm_90 '$IN' | FileCheck --check-prefix=LOWER '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "sm_90 PTX has griddepcontrol around the accesses; sm_80 only the fence" {
  run bash -c "tileiras '$IN' --gpu-name sm_90 --emit=ptx -o - | FileCheck --check-prefix=PTX90 '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run bash -c "tileiras '$IN' --gpu-name sm_80 --emit=ptx -o - | FileCheck --check-prefix=PTX80 '$IN'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "13.4 bytecode of the kernel compiles to cubins for sm_80, sm_90 and sm_100" {
  tile-read "$IN" --emit=tileirbc --bytecode-version=13.4 -o "$TMP/sync.tileirbc"
  for sm in sm_80 sm_90 sm_100; do
    run tileiras "$TMP/sync.tileirbc" --gpu-name $sm -o "$TMP/sync.$sm.cubin"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    [ -s "$TMP/sync.$sm.cubin" ]
  done
}

@test "tile-emu runs the kernel (the ops order, the data is doubled)" {
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py" "$IN" --entry k \
      --gpu-name $sm --array "p=np.arange(128, dtype=np.float32)" --expect "p = 2 * p"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}
