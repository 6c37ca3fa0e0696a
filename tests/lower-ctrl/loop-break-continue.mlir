// out[j] = sum over even i < n of a[i * 128 + j]: a cuda_tile.loop that
// leaves by `break` once i reaches n and skips odd i by an early `continue`,
// both inside ifs; the counter and the tile are loop-carried, and so is a
// memory token.
cuda_tile.module @kernels {
  entry @even_rows(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>, %n: tile<i32>) {
    %idx = iota : tile<128xi32>
    %pa = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa2 = broadcast %pa : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %zero = constant <f32: 0.000000e+00> : tile<128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %tok0 = make_token : token
    %res:3 = loop iter_values(%i = %c0, %acc = %zero, %tok = %tok0) : tile<i32>, tile<128xf32>, token -> tile<i32>, tile<128xf32>, token {
      %done = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
      if %done {
        break %i, %acc, %tok : tile<i32>, tile<128xf32>, token
      }
      %next = addi %i, %c1 : tile<i32>
      %bit = andi %i, %c1 : tile<i32>
      %odd = cmpi equal %bit, %c1, signed : tile<i32> -> tile<i1>
      if %odd {
        continue %next, %acc, %tok : tile<i32>, tile<128xf32>, token
      }
      %base = muli %i, %c128 : tile<i32>
      %base1 = reshape %base : tile<i32> -> tile<1xi32>
      %base2 = broadcast %base1 : tile<1xi32> -> tile<128xi32>
      %off = addi %base2, %idx : tile<128xi32>
      %p = offset %pa2, %off : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
      %x, %t = load_ptr_tko weak %p token = %tok : tile<128xptr<f32>> -> tile<128xf32>, token
      %sum = addf %acc, %x : tile<128xf32>
      continue %next, %sum, %t : tile<i32>, tile<128xf32>, token
    }
    %po = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %po2 = broadcast %po : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qo = offset %po2, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %st = store_ptr_tko weak %qo, %res#1 token = %res#2 : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
