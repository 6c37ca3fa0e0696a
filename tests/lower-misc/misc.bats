#!/usr/bin/env bats
# Pointer casts, the contiguity of pointer-tile loads, globals, join_tokens,
# get_tensor_shape, print_tko and assert: lowered (FileCheck of tile-lower and LLVM IR), compiled to cubins
# for every target from 13.3 bytecode, and run in tile-emu.

setup() {
  DIR="$BATS_TEST_DIRNAME"
  EMU_CHECK="$TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  TMP="$(mktemp -d)"
}

teardown() {
  rm -rf "$TMP"
}

# check FILE PREFIX STAGE: FileCheck FILE's PREFIX lines against a stage's output.
check() {
  local emit=lowered
  [ "$3" = llvm ] && emit=llvm
  [ "$3" = sched ] && emit=scheduled
  run bash -c "tileiras '$DIR/$1' --gpu-name sm_90 --emit=$emit -o - | FileCheck --check-prefix=$2 '$DIR/$1'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the kernels lower to the tile_as ops and LLVM IR the checks expect" {
  check pointers.mlir LOWER lowered
  check pointers.mlir LLVM llvm
  check pointer_contiguity.mlir LOWER lowered
  check globals.mlir LOWER lowered
  check globals.mlir LLVM llvm
  check shape.mlir LOWER lowered
  check table.mlir LOWER sched
  check print.mlir LOWER sched
  check print.mlir LLVM llvm
  check assert.mlir LOWER sched
  check assert.mlir LLVM llvm
}

@test "13.3 bytecode of each kernel compiles to cubins for sm_80, sm_90, sm_100 and sm_120" {
  for kernel in pointers table globals shape print assert; do
    tile-read "$DIR/$kernel.mlir" --emit=tileirbc --bytecode-version=13.3 -o "$TMP/$kernel.tileirbc"
    for sm in sm_80 sm_90 sm_100 sm_120; do
      run tileiras "$TMP/$kernel.tileirbc" --gpu-name $sm -o "$TMP/$kernel.$sm.cubin"
      [ "$status" -eq 0 ] || { echo "$kernel $sm: $output"; false; }
      [ -s "$TMP/$kernel.$sm.cubin" ]
    done
  done
}

@test "tile-emu: data reached through the pointer casts, and the pointers' byte offsets" {
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/pointers.mlir" --entry k --gpu-name $sm \
      --array "p=np.arange(128, dtype=np.float32)" --array "d=np.zeros(128, np.int64)" \
      --expect "p = 2 * p" --expect "d = 4 * np.arange(128)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: a pointer taken from a table of addresses (reshape to 0-d, int_to_ptr)" {
  tileiras "$DIR/table.mlir" --gpu-name sm_80 --emit=llvm -o "$TMP/table.ll"
  /usr/bin/python3 -c "import numpy as np; np.save('$TMP/table.npy', np.zeros(2, np.int64)); np.save('$TMP/data.npy', np.arange(64, dtype=np.float32) - 10); np.save('$TMP/out.npy', np.zeros(64, np.float32))"
  run tile-emu "$TMP/table.ll" --kernel k --grid 1 --out-dir "$TMP/res" \
    --param "ptr:$TMP/table.npy" --param "ptr:$TMP/out.npy" --pointer-into "$TMP/table.npy@1=$TMP/data.npy"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run /usr/bin/python3 -c "import numpy as np; got = np.load('$TMP/res/out.npy'); want = 2 * (np.arange(64, dtype=np.float32) - 10); print(got); assert (got == want).all()"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# table_scalar J: out[0] must be element 5 of the array table word J points to.
table_scalar() {
  tileiras "$DIR/table_scalar.mlir" --gpu-name sm_80 --emit=llvm -o "$TMP/ts.ll"
  /usr/bin/python3 -c "import numpy as np; np.save('$TMP/ts_table.npy', np.zeros(3, np.int64)); [np.save('$TMP/ts_d%d.npy' % i, np.arange(8, dtype=np.float32) + 10 * i) for i in range(3)]; np.save('$TMP/ts_out.npy', np.zeros(1, np.float32))"
  tile-emu "$TMP/ts.ll" --kernel k --grid 1 --out-dir "$TMP/ts_res" \
    --param "ptr:$TMP/ts_table.npy" --param "i32:$1" --param "ptr:$TMP/ts_out.npy" \
    --pointer-into "$TMP/ts_table.npy@0=$TMP/ts_d0.npy" --pointer-into "$TMP/ts_table.npy@1=$TMP/ts_d1.npy" \
    --pointer-into "$TMP/ts_table.npy@2=$TMP/ts_d2.npy" >/dev/null
  /usr/bin/python3 -c "import numpy as np; got = np.load('$TMP/ts_res/ts_out.npy'); print(got); assert got[0] == 5 + 10 * $1"
}

@test "tile-emu: a 0-d load of a table word, int_to_ptr, and a 0-d load through it" {
  check table_scalar.mlir LOWER lowered
  for j in 0 2 1; do
    run table_scalar $j
    [ "$status" -eq 0 ] || { echo "j=$j: $output"; false; }
  done
}

@test "globals of i4 and i1 lie in memory as views read them (i4 two to a byte, i1 a byte each)" {
  check globals_subbyte.mlir LLVM llvm
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/globals_subbyte.mlir" --entry k --gpu-name $sm \
      --array "out=np.zeros(12, np.int32)" --rtol 0 --atol 0 \
      --expect "out = np.array([1, -2, 3, -4, 5, -6, 7, -8, 1, 0, 1, 1], np.int32)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: globals keep their initializers and take writes" {
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/globals.mlir" --entry k --gpu-name $sm \
      --array "out=np.zeros(4, np.float32)" \
      --expect "out = np.array([0.1, 0.2, 0.3, 0.4], np.float32) + np.array([11, 22, 33, 44])"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "tile-emu: get_tensor_shape and stores ordered by join_tokens" {
  run /usr/bin/python3 "$EMU_CHECK" "$DIR/shape.mlir" --entry k \
    --array "p=np.zeros(4, np.int64)" --scalar i32:5 --expect "p = np.array([5, 8, 10, 16])"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tile-emu: print_tko prints once per tile block with tiles as nested lists" {
  tileiras "$DIR/print.mlir" --gpu-name sm_80 --emit=llvm -o "$TMP/print.ll"
  run tile-emu "$TMP/print.ll" --kernel k --grid 2
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "$output"
  [ "$(grep -c '^block 0: ' <<<"$output")" -eq 1 ]
  [ "$(grep -c '^block 1: ' <<<"$output")" -eq 1 ]
  grep -qxF 'block 1: [0, 1, 2, 3, 4, 5, 6, 7] [0.00, 1.00, 2.00, 3.00, 4.00, 5.00, 6.00, 7.00]' <<<"$output"
  grep -qxF '[[0, 1, 2, 3], [4, 5, 6, 7]] [1, 0]   2.5 -7' <<<"$output"
  [ "$(grep -cxF 'done 100%' <<<"$output")" -eq 2 ]
}

@test "tile-emu: a failing assert stops the kernel with its message (exit 5)" {
  tileiras "$DIR/assert.mlir" --gpu-name sm_80 --emit=llvm -o "$TMP/assert.ll"
  /usr/bin/python3 -c "import numpy as np; np.save('$TMP/ok.npy', np.arange(128, dtype=np.int32) % 100)"
  /usr/bin/python3 -c "import numpy as np; a = np.arange(128, dtype=np.int32) % 100; a[77] = 100; np.save('$TMP/bad.npy', a)"
  run tile-emu "$TMP/assert.ll" --kernel k --grid 1 --param "ptr:$TMP/ok.npy" --param i32:3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  run tile-emu "$TMP/assert.ll" --kernel k --grid 1 --param "ptr:$TMP/bad.npy" --param i32:3
  echo "$output"
  [ "$status" -eq 5 ]
  [[ "$output" == *"assertion \`value out of range' failed at "*"assert.mlir:"*" in k"* ]]
  run tile-emu "$TMP/assert.ll" --kernel k --grid 1 --param "ptr:$TMP/ok.npy" --param i32:-1
  echo "$output"
  [ "$status" -eq 5 ]
  [[ "$output" == *"assertion \`n is negative' failed"* ]]
}

@test "a print whose format takes its width from an argument fails with a located diagnostic" {
  cat > "$TMP/star.mlir" <<'MLIR'
cuda_tile.module @m {
  entry @k() {
    %c = constant <i32: 4> : tile<i32>
    %t = print_tko "%*d\n", %c : tile<i32> -> token
    return
  }
}
MLIR
  run tileiras "$TMP/star.mlir" --gpu-name sm_80 -o "$TMP/star.cubin"
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"star.mlir:4:"*"'*' widths and precisions are not supported"* ]] || { echo "$output"; false; }
  [ ! -e "$TMP/star.cubin" ]
}

@test "relaxed, acquire and release loads and stores keep their ordering and scope down to ld/st" {
  check ordered_access.mlir LOWER lowered
  run bash -c "set -o pipefail; tileiras '$DIR/ordered_access.mlir' --gpu-name sm_80 --emit=ptx -o - | FileCheck --check-prefix=PTX '$DIR/ordered_access.mlir'"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  for sm in sm_80 sm_90 sm_100; do
    run tileiras "$DIR/ordered_access.mlir" --gpu-name $sm -o "$TMP/ordered-$sm.cubin"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
  run /usr/bin/python3 "$EMU_CHECK" "$DIR/ordered_access.mlir" --entry ordered \
    --array "flag=np.array([3], np.int32)" --array "x=np.arange(128, dtype=np.float32)" \
    --array "y=np.zeros(128, np.float32)" \
    --expect "y = x + 3" --expect "flag = np.array([7], np.int32)"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "tokens carried by loops and ifs: a barrier only where the carried token may follow a write" {
  check token_order_loops.mlir LOWER lowered
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/token_order_loops.mlir" --entry loop_writes --gpu-name $sm \
      --array "s=np.zeros(128, np.int32)" --array "d=np.zeros(128, np.int32)" --scalar i32:5 \
      --expect "s = 4 + np.arange(128, dtype=np.int32)" --expect "d = 4 + np.arange(127, -1, -1, dtype=np.int32)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/token_order_loops.mlir" --entry loop_reads --gpu-name $sm \
      --array "s=np.arange(128, dtype=np.int32) * 3" --array "d=np.zeros(128, np.int32)" --scalar i32:4 \
      --expect "d = 4 * s + s[::-1]"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
}

@test "a load ordered after a store by its token waits for every thread's store (CTA barrier)" {
  check token_order.mlir LOWER lowered
  for sm in sm_80 sm_90; do
    run /usr/bin/python3 "$EMU_CHECK" "$DIR/token_order.mlir" --entry k --gpu-name $sm \
      --array "s=np.zeros(128, np.int32)" --array "d=np.zeros(128, np.int32)" \
      --expect "s = np.arange(128, dtype=np.int32)" --expect "d = np.full(128, 127, np.int32)"
    [ "$status" -eq 0 ] || { echo "$sm: $output"; false; }
  done
  run tileiras "$DIR/token_order.mlir" --gpu-name sm_80 -o "$TMP/t.cubin"
  [ "$status" -eq 0 ] && [ -s "$TMP/t.cubin" ] || { echo "$output"; false; }
}
