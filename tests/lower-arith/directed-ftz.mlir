// f32 directed rounding with flush_to_zero (directed.bats): the .ftz forms
// flush subnormal operands and results to zero of the same sign.
// CHECK: call float @llvm.nvvm.add.rp.ftz.f(
// CHECK: call float @llvm.nvvm.mul.rz.ftz.f(
// CHECK: call float @llvm.nvvm.add.rm.f(
cuda_tile.module @kernels {
  entry @ftz(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %sum: tile<ptr<f32>>, %prod: tile<ptr<f32>>, %kept: tile<ptr<f32>>) {
    %i = iota : tile<4xi32>
    %x1 = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %xn = broadcast %x1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %xp = offset %xn, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %y1 = reshape %y : tile<ptr<f32>> -> tile<1xptr<f32>>
    %yn = broadcast %y1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %yp = offset %yn, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %s1 = reshape %sum : tile<ptr<f32>> -> tile<1xptr<f32>>
    %sn = broadcast %s1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %sp = offset %sn, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %p1 = reshape %prod : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pn = broadcast %p1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %pp = offset %pn, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %k1 = reshape %kept : tile<ptr<f32>> -> tile<1xptr<f32>>
    %kn = broadcast %k1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %kp = offset %kn, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %a, %t0 = load_ptr_tko weak %xp : tile<4xptr<f32>> -> tile<4xf32>, token
    %b, %t1 = load_ptr_tko weak %yp : tile<4xptr<f32>> -> tile<4xf32>, token
    %s = addf %a, %b rounding<positive_inf> flush_to_zero : tile<4xf32>
    %p = mulf %a, %b rounding<zero> flush_to_zero : tile<4xf32>
    %k = addf %a, %b rounding<negative_inf> : tile<4xf32>
    %t2 = store_ptr_tko weak %sp, %s : tile<4xptr<f32>>, tile<4xf32> -> token
    %t3 = store_ptr_tko weak %pp, %p : tile<4xptr<f32>>, tile<4xf32> -> token
    %t4 = store_ptr_tko weak %kp, %k : tile<4xptr<f32>>, tile<4xf32> -> token
    return
  }
}
