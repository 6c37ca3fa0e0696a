// out = n > 0 ? a * 2 : a + 1, the tile chosen by a cuda_tile.if with a
// result.
cuda_tile.module @kernels {
  entry @choose(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>, %n: tile<i32>) {
    %idx = iota : tile<128xi32>
    %pa = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa2 = broadcast %pa : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qa = offset %pa2, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t = load_ptr_tko weak %qa : tile<128xptr<f32>> -> tile<128xf32>, token
    %c0 = constant <i32: 0> : tile<i32>
    %two = constant <f32: 2.000000e+00> : tile<128xf32>
    %one = constant <f32: 1.000000e+00> : tile<128xf32>
    %positive = cmpi greater_than %n, %c0, signed : tile<i32> -> tile<i1>
    %r = if %positive -> (tile<128xf32>) {
      %doubled = mulf %x, %two : tile<128xf32>
      yield %doubled : tile<128xf32>
    } else {
      %incremented = addf %x, %one : tile<128xf32>
      yield %incremented : tile<128xf32>
    }
    %po = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %po2 = broadcast %po : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qo = offset %po2, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %st = store_ptr_tko weak %qo, %r : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}

// LOWER-LABEL: func.func @choose
// LOWER: %[[C:.*]] = arith.cmpi sgt, %arg2, %{{.*}} : i32
// LOWER: %[[R:.*]] = scf.if %[[C]] -> (tensor<128xf32>) {
// LOWER:   %[[D:.*]] = arith.mulf
// LOWER:   scf.yield %[[D]] : tensor<128xf32>
// LOWER: } else {
// LOWER:   %[[I:.*]] = arith.addf
// LOWER:   scf.yield %[[I]] : tensor<128xf32>
// LOWER: }
// LOWER: tile_as.store %{{.*}}, %[[R]]

// LLVM: llvm.cond_br %{{.*}}, ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
// LLVM: ^[[THEN]]:
// LLVM: llvm.fmul {{.*}} : vector<1xf32>
// LLVM: llvm.br ^[[MERGE:bb[0-9]+]](%{{.*}} : vector<1xf32>)
// LLVM: ^[[ELSE]]:
// LLVM: llvm.fadd {{.*}} : vector<1xf32>
// LLVM: llvm.br ^[[MERGE]](%{{.*}} : vector<1xf32>)
// LLVM: ^[[MERGE]](%{{.*}}: vector<1xf32>):
