// Tokens carried through loops and ifs (token_order.mlir has the
// straight-line case): an access waits at a CTA barrier only when the token
// it is ordered by may carry a write of the tile block.
//
// @loop_writes: each iteration stores s[j] = i + j (token carried to the
// next iteration), then after the loop s is read back reversed with the
// carried token: both the store inside the loop (after the previous
// iteration's store) and the reversed load wait.
//   d[j] = n - 1 + (127 - j)
// @loop_reads: the loop carries its token through loads only, and an if
// yields either a load's token or the fresh one; the loads after them need
// no barrier.
//   d[j] = n * s[j] + s[127 - j]
cuda_tile.module @m {
  entry @loop_writes(%s: tile<ptr<i32>>, %d: tile<ptr<i32>>, %n: tile<i32>) {
    %i0 = iota : tile<128xi32>
    %c127 = constant <i32: 127> : tile<128xi32>
    %rev = subi %c127, %i0 : tile<128xi32>
    %sr = reshape %s : tile<ptr<i32>> -> tile<1xptr<i32>>
    %sb = broadcast %sr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %sp = offset %sb, %i0 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %sq = offset %sb, %rev : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %t0 = make_token : token
    %tl = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%tok = %t0) -> (token) {
      %i1 = reshape %i : tile<i32> -> tile<1xi32>
      %ib = broadcast %i1 : tile<1xi32> -> tile<128xi32>
      %val = addi %ib, %i0 : tile<128xi32>
      %t1 = store_ptr_tko weak %sp, %val token = %tok : tile<128xptr<i32>>, tile<128xi32> -> token
      continue %t1 : token
    }
    %v, %t2 = load_ptr_tko weak %sq token = %tl : tile<128xptr<i32>> -> tile<128xi32>, token
    %dr = reshape %d : tile<ptr<i32>> -> tile<1xptr<i32>>
    %db = broadcast %dr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %dp = offset %db, %i0 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %t3 = store_ptr_tko weak %dp, %v : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }

  entry @loop_reads(%s: tile<ptr<i32>>, %d: tile<ptr<i32>>, %n: tile<i32>) {
    %i0 = iota : tile<128xi32>
    %c127 = constant <i32: 127> : tile<128xi32>
    %rev = subi %c127, %i0 : tile<128xi32>
    %sr = reshape %s : tile<ptr<i32>> -> tile<1xptr<i32>>
    %sb = broadcast %sr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %sp = offset %sb, %i0 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %sq = offset %sb, %rev : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<128xi32>
    %t0 = make_token : token
    %r:2 = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %zero, %tok = %t0) -> (tile<128xi32>, token) {
      %x, %t1 = load_ptr_tko weak %sp token = %tok : tile<128xptr<i32>> -> tile<128xi32>, token
      %acc2 = addi %acc, %x : tile<128xi32>
      continue %acc2, %t1 : tile<128xi32>, token
    }
    %pos = cmpi greater_than %n, %c0, signed : tile<i32> -> tile<i1>
    %ti = if %pos -> (token) {
      %y, %t4 = load_ptr_tko weak %sp token = %r#1 : tile<128xptr<i32>> -> tile<128xi32>, token
      yield %t4 : token
    } else {
      yield %t0 : token
    }
    %v, %t2 = load_ptr_tko weak %sq token = %ti : tile<128xptr<i32>> -> tile<128xi32>, token
    %sum = addi %r#0, %v : tile<128xi32>
    %dr = reshape %d : tile<ptr<i32>> -> tile<1xptr<i32>>
    %db = broadcast %dr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %dp = offset %db, %i0 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %t3 = store_ptr_tko weak %dp, %sum : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
}

// LOWER-LABEL: func.func @loop_writes
// LOWER: scf.for
// LOWER: nvvm.barrier0
// LOWER-NEXT: tile_as.store
// LOWER: nvvm.barrier0
// LOWER-NEXT: tile_as.load
// LOWER-NOT: nvvm.barrier0
// LOWER: return
// LOWER-LABEL: func.func @loop_reads
// LOWER-NOT: nvvm.barrier0
// LOWER: return
