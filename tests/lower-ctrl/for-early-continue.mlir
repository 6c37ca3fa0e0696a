// out[j] = sum over i < n with i % 3 != 0 of a[i * 128 + j]: a
// cuda_tile.for whose body leaves early by a `continue` inside an if.
cuda_tile.module @kernels {
  entry @skip_thirds(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>, %n: tile<i32>) {
    %idx = iota : tile<128xi32>
    %pa = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa2 = broadcast %pa : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %zero = constant <f32: 0.000000e+00> : tile<128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %sum = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %zero) -> (tile<128xf32>) {
      %m = remi %i, %c3 signed : tile<i32>
      %skip = cmpi equal %m, %c0, signed : tile<i32> -> tile<i1>
      if %skip {
        continue %acc : tile<128xf32>
      }
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
