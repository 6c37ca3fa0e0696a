// out[j] = sum over i < n of a[i * 128 + j]: a tile carried across the
// iterations of cuda_tile.for, loads inside the loop.
cuda_tile.module @kernels {
  entry @accumulate(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>, %n: tile<i32>) {
    %idx = iota : tile<128xi32>
    %pa = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa2 = broadcast %pa : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %zero = constant <f32: 0.000000e+00> : tile<128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %sum = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %zero) -> (tile<128xf32>) {
      %base = muli %i, %c128 : tile<i32>
      %base1 = reshape %base : tile<i32> -> tile<1xi32>
      %base2 = broadcast %base1 : tile<1xi32> -> tile<128xi32>
      %off = addi %base2, %idx : tile<128xi32>
      %p = offset %pa2, %off : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
      %x, %t = load_ptr_tko weak %p : tile<128xptr<f32>> -> tile<128xf32>, token
      %next = addf %acc, %x : tile<128xf32>
      continue %next : tile<128xf32>
    }
    %po = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %po2 = broadcast %po : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qo = offset %po2, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %st = store_ptr_tko weak %qo, %sum : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}

// The loop is scf.for over i32 bounds, the tile an iter_arg, continue a yield.
// LOWER-LABEL: func.func @accumulate
// LOWER: %[[SUM:.*]] = scf.for %[[I:.*]] = %{{.*}} to %arg2 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128xf32>) : i32 {
// LOWER: arith.muli %[[I]], %{{.*}} : i32
// LOWER: %[[X:.*]] = tile_as.load
// LOWER: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<128xf32>
// LOWER: scf.yield %[[NEXT]] : tensor<128xf32>
// LOWER: tile_as.store %{{.*}}, %[[SUM]]

// tile-sched gives the loop-carried tile the layout of the values it meets.
// SCHED: scf.for {{.*}} iter_args({{.*}}) -> (tensor<128xf32, #tile_as.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>)
// SCHED: arith.addf {{.*}} : tensor<128xf32, #tile_as.blocked

// In LLVM the tile is the thread's register vector, carried by block arguments.
// LLVM: llvm.br ^[[HEADER:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, vector<1xf32>)
// LLVM: ^[[HEADER]](%[[IV:.*]]: i32, %[[ACC:.*]]: vector<1xf32>):
// LLVM: %[[CMP:.*]] = llvm.icmp "slt" %[[IV]], %arg2 : i32
// LLVM: llvm.cond_br %[[CMP]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// LLVM: ^[[BODY]]:
// LLVM: %[[NEXT:.*]] = llvm.fadd %[[ACC]], %{{.*}} : vector<1xf32>
// LLVM: llvm.br ^[[HEADER]](%{{.*}}, %[[NEXT]] : i32, vector<1xf32>)
// LLVM: ^[[EXIT]]:
