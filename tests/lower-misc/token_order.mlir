// A store and a load ordered by a token, where each element is loaded by a
// different thread than the one that stored it (the load reads the tile
// reversed): the load must wait at a CTA barrier for every thread's store.
// A load whose token comes from make_token (or from other loads) does not.
// LOWER-LABEL: func.func @k
// LOWER: tile_as.store
// LOWER-NEXT: nvvm.barrier0
// LOWER-NEXT: tile_as.load
// LOWER-NOT: nvvm.barrier0
// LOWER: return
cuda_tile.module @m {
  entry @k(%s: tile<ptr<i32>>, %d: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %c127 = constant <i32: 127> : tile<128xi32>
    %rev = subi %c127, %i : tile<128xi32>
    %sr = reshape %s : tile<ptr<i32>> -> tile<1xptr<i32>>
    %sb = broadcast %sr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %sp = offset %sb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %sq = offset %sb, %rev : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %t1 = store_ptr_tko weak %sp, %i : tile<128xptr<i32>>, tile<128xi32> -> token
    %v, %t2 = load_ptr_tko weak %sq token = %t1 : tile<128xptr<i32>> -> tile<128xi32>, token
    %dr = reshape %d : tile<ptr<i32>> -> tile<1xptr<i32>>
    %db = broadcast %dr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %dp = offset %db, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %t0 = make_token : token
    %w, %t3 = load_ptr_tko weak %sp token = %t0 : tile<128xptr<i32>> -> tile<128xi32>, token
    %x = addi %v, %w : tile<128xi32>
    %t4 = store_ptr_tko weak %dp, %x : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
}
