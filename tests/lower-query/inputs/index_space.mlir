// get_index_space_shape of partition views with a ragged last tile: a
// 100x70 tensor in 16x32 tiles has ceil(100/16) x ceil(70/32) = 7 x 3 tiles.
// out[0..1]: dynamic sizes; out[2..3]: static sizes; out[4..5]: dim_map = [1, 0]
// (16-row tiles along the 70 columns, 32-column tiles along the 100 rows: 5 x 4).
cuda_tile.module @kernels {
  entry @index_space(%a: tile<ptr<f32>>, %rows: tile<i32>, %cols: tile<i32>, %out: tile<ptr<i32>>) {
    %dyn = make_tensor_view %a, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pdyn = make_partition_view %dyn : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %d0, %d1 = get_index_space_shape %pdyn : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %fixed = make_tensor_view %a, shape = [100, 70], strides = [70, 1] : tensor_view<100x70xf32, strides=[70,1]>
    %pfixed = make_partition_view %fixed : partition_view<tile=(16x32), tensor_view<100x70xf32, strides=[70,1]>>
    %s0, %s1 = get_index_space_shape %pfixed : partition_view<tile=(16x32), tensor_view<100x70xf32, strides=[70,1]>> -> tile<i32>
    %pswap = make_partition_view %dyn : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %m0, %m1 = get_index_space_shape %pswap : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]> -> tile<i32>
    // Scalar stores do not lower yet: each count goes out as a 1-element tile.
    %base = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %c0 = constant <i32: 0> : tile<1xi32>
    %p0 = offset %base, %c0 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v0 = reshape %d0 : tile<i32> -> tile<1xi32>
    %t0 = store_ptr_tko weak %p0, %v0 : tile<1xptr<i32>>, tile<1xi32> -> token
    %c1 = constant <i32: 1> : tile<1xi32>
    %p1 = offset %base, %c1 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v1 = reshape %d1 : tile<i32> -> tile<1xi32>
    %t1 = store_ptr_tko weak %p1, %v1 : tile<1xptr<i32>>, tile<1xi32> -> token
    %c2 = constant <i32: 2> : tile<1xi32>
    %p2 = offset %base, %c2 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v2 = reshape %s0 : tile<i32> -> tile<1xi32>
    %t2 = store_ptr_tko weak %p2, %v2 : tile<1xptr<i32>>, tile<1xi32> -> token
    %c3 = constant <i32: 3> : tile<1xi32>
    %p3 = offset %base, %c3 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v3 = reshape %s1 : tile<i32> -> tile<1xi32>
    %t3 = store_ptr_tko weak %p3, %v3 : tile<1xptr<i32>>, tile<1xi32> -> token
    %c4 = constant <i32: 4> : tile<1xi32>
    %p4 = offset %base, %c4 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v4 = reshape %m0 : tile<i32> -> tile<1xi32>
    %t4 = store_ptr_tko weak %p4, %v4 : tile<1xptr<i32>>, tile<1xi32> -> token
    %c5 = constant <i32: 5> : tile<1xi32>
    %p5 = offset %base, %c5 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %v5 = reshape %m1 : tile<i32> -> tile<1xi32>
    %t5 = store_ptr_tko weak %p5, %v5 : tile<1xptr<i32>>, tile<1xi32> -> token
    return
  }
}

// Dynamic sizes: (size + tile - 1) / tile on the kernel arguments; static
// sizes fold to constants; dim_map = [1, 0] swaps which size each tile divides.
// LOWER-LABEL: func.func @index_space(
// LOWER-DAG: %[[C3:.*]] = arith.constant 3 : i32
// LOWER-DAG: %[[C7:.*]] = arith.constant 7 : i32
// LOWER-DAG: %[[C15:.*]] = arith.constant 15 : i32
// LOWER-DAG: %[[C16:.*]] = arith.constant 16 : i32
// LOWER-DAG: %[[C31:.*]] = arith.constant 31 : i32
// LOWER-DAG: %[[C32:.*]] = arith.constant 32 : i32
// LOWER: %[[R0:.*]] = arith.addi %arg1, %[[C15]] : i32
// LOWER-NEXT: %[[D0:.*]] = arith.divui %[[R0]], %[[C16]] : i32
// LOWER-NEXT: %[[R1:.*]] = arith.addi %arg2, %[[C31]] : i32
// LOWER-NEXT: %[[D1:.*]] = arith.divui %[[R1]], %[[C32]] : i32
// LOWER-NEXT: %[[R2:.*]] = arith.addi %arg2, %[[C15]] : i32
// LOWER-NEXT: %[[M0:.*]] = arith.divui %[[R2]], %[[C16]] : i32
// LOWER-NEXT: %[[R3:.*]] = arith.addi %arg1, %[[C31]] : i32
// LOWER-NEXT: %[[M1:.*]] = arith.divui %[[R3]], %[[C32]] : i32
// LOWER: tile_as.splat %[[D0]] :
// LOWER: tile_as.splat %[[D1]] :
// LOWER: tile_as.splat %[[C7]] :
// LOWER: tile_as.splat %[[C3]] :
// LOWER: tile_as.splat %[[M0]] :
// LOWER: tile_as.splat %[[M1]] :
// LOWER-NOT: get_index_space_shape
