// Non-splat tensor constants (TensorConstantToLLVM.cpp): each becomes an
// internal constant array of its elements' bits in global memory, row-major;
// every register is loaded from it at its coordinate. i1 is stored as bytes.
// RUN by constants.bats: tileiras --emit=llvm | FileCheck.
// CHECK-DAG: @__tile_const{{[0-9]+}} = internal addrspace(1) constant [8 x i16] [i16 15360, i16 16384, i16 16896, i16 17408, i16 -17408, i16 -16384, i16 -15872, i16 -15360], align 2
// CHECK-DAG: @__tile_const{{[0-9]+}} = internal addrspace(1) constant [4 x i8] c"\01\00\00\01", align 1
// CHECK: define {{.*}}@constants(
// CHECK-DAG: getelementptr i16, ptr addrspace(1) @__tile_const
// CHECK-DAG: load i16, ptr addrspace(1)
// CHECK-DAG: bitcast i16 %{{[0-9]+}} to half
// CHECK-DAG: load i8, ptr addrspace(1)
// CHECK-DAG: icmp ne i8 %{{[0-9]+}}, 0
cuda_tile.module @kernels {
  entry @constants(%out: tile<ptr<f16>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %k = constant <f16: [[1.0, 2.0, 3.0, 4.0], [-1.0, -2.0, -3.0, -4.0]]> : tile<2x4xf16>
    %m = constant <i1: [true, false, false, true]> : tile<4xi1>
    %mm = reshape %m : tile<4xi1> -> tile<1x4xi1>
    %m2 = broadcast %mm : tile<1x4xi1> -> tile<2x4xi1>
    %z = constant <f16: 0.0> : tile<2x4xf16>
    %r = select %m2, %k, %z : tile<2x4xi1>, tile<2x4xf16>
    %v = make_tensor_view %out, shape = [2, 4], strides = [4, 1] : tensor_view<2x4xf16, strides=[4,1]>
    %p = make_partition_view %v : partition_view<tile=(2x4), tensor_view<2x4xf16, strides=[4,1]>>
    %t = store_view_tko weak %r, %p[%c0, %c0] token = %tok : tile<2x4xf16>, partition_view<tile=(2x4), tensor_view<2x4xf16, strides=[4,1]>>, tile<i32> -> token
    return
  }
}
