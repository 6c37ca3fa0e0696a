// ftof f32 -> tf32 (nearest even, the one rounding ftof allows for tf32)
// read back as f32 (tf32 values are f32 bit patterns); fp8.bats checks it
// against numpy.
cuda_tile.module @kernels {
  entry @tf32(%x: tile<ptr<f32>>, %rn: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %xt, %t0 = load_view_tko weak %xp[%c0] token = %tok : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %n = ftof %xt : tile<256xf32> -> tile<256xtf32>
    %nb = ftof %n : tile<256xtf32> -> tile<256xf32>
    %nv = make_tensor_view %rn, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %np = make_partition_view %nv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %t1 = store_view_tko weak %nb, %np[%c0] token = %tok : tile<256xf32>, partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// CHECK-LABEL: llvm.func @tf32
// The nearest-even rounding: + 0xfff + the kept lowest bit, then the mask.
// CHECK: llvm.mlir.constant(dense<4095> : vector<{{[0-9]+}}xi32>)
// CHECK: llvm.and %{{.*}}, %{{.*}} : vector<{{[0-9]+}}xi32>
// CHECK-NOT: llvm.fptrunc
