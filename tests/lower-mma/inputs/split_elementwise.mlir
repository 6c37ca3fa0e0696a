// Loops that add up tiles elementwise (tilepipe-split-mma-accumulators):
// @colsums sums the rows of X and Y in 32x1024 f32 tiles (cuTile's
// LayerNorm backward dW/dB: two accumulators, 512 registers per thread on
// 4 warps) and stores their column sums; each block owns 1024 columns. The
// loop, the reduces and the stores become eight loops over 32x128 column
// strips (64 registers per thread), each reducing and storing its strip.
// @rowsums reduces along the wide axis instead: rows are not split below 32,
// so its loop stays whole.
cuda_tile.module @kernels {
  entry @colsums(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %sx: tile<ptr<f32>>, %sy: tile<ptr<f32>>,
                 %m: tile<i32>, %n: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %xv = make_tensor_view %x, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %yv = make_tensor_view %y, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %sxv = make_tensor_view %sx, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %syv = make_tensor_view %sy, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %yp = make_partition_view %yv : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %sxp = make_partition_view %sxv : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %syp = make_partition_view %syv : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %rows:2 = get_index_space_shape %xp : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<32x1024xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc:2 = for %i in (%c0 to %rows#0, step %c1) : tile<i32> iter_values(%ax = %zero, %ay = %zero) -> (tile<32x1024xf32>, tile<32x1024xf32>) {
      %tx, %t1 = load_view_tko weak %xp[%i, %bx] token = %tok : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x1024xf32>, token
      %ty, %t2 = load_view_tko weak %yp[%i, %bx] token = %tok : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x1024xf32>, token
      %nx = addf %ax, %tx : tile<32x1024xf32>
      %ny = addf %ay, %ty : tile<32x1024xf32>
      continue %nx, %ny : tile<32x1024xf32>, tile<32x1024xf32>
    }
    %sumx = reduce %acc#0 dim=0 identities=[0.000000e+00 : f32] : tile<32x1024xf32> -> tile<1024xf32>
    (%l: tile<f32>, %r: tile<f32>) {
      %s = addf %l, %r : tile<f32>
      yield %s : tile<f32>
    }
    %sumy = reduce %acc#1 dim=0 identities=[0.000000e+00 : f32] : tile<32x1024xf32> -> tile<1024xf32>
    (%l: tile<f32>, %r: tile<f32>) {
      %s = addf %l, %r : tile<f32>
      yield %s : tile<f32>
    }
    %t3 = store_view_tko weak %sumx, %sxp[%bx] token = %tok : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %t4 = store_view_tko weak %sumy, %syp[%bx] token = %tok : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }

  entry @rowsums(%x: tile<ptr<f32>>, %sx: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %xv = make_tensor_view %x, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %sxv = make_tensor_view %sx, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %sxp = make_partition_view %sxv : partition_view<tile=(32), tensor_view<?xf32, strides=[1]>>
    %cols:2 = get_index_space_shape %xp : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<32x1024xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %j in (%c0 to %cols#1, step %c1) : tile<i32> iter_values(%a = %zero) -> (tile<32x1024xf32>) {
      %t, %t1 = load_view_tko weak %xp[%bx, %j] token = %tok : partition_view<tile=(32x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x1024xf32>, token
      %s = addf %a, %t : tile<32x1024xf32>
      continue %s : tile<32x1024xf32>
    }
    %sum = reduce %acc dim=1 identities=[0.000000e+00 : f32] : tile<32x1024xf32> -> tile<32xf32>
    (%l: tile<f32>, %r: tile<f32>) {
      %s = addf %l, %r : tile<f32>
      yield %s : tile<f32>
    }
    %t2 = store_view_tko weak %sum, %sxp[%bx] token = %tok : tile<32xf32>, partition_view<tile=(32), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// SPLIT-LABEL: func.func @colsums
// SPLIT-COUNT-8: scf.for {{.*}} -> (tensor<32x128xf32>, tensor<32x128xf32>)
// SPLIT-NOT: tensor<32x1024xf32>
// SPLIT-LABEL: func.func @rowsums
// SPLIT: scf.for {{.*}} -> (tensor<32x1024xf32>)
// SPLIT-NOT: scf.for

// Each strip's loop is followed by its reduces and its two stores, the
// second strip's addresses offset by 128 columns.
// STRIP-LABEL: func.func @colsums
// STRIP: scf.for {{.*}} -> (tensor<32x128xf32>, tensor<32x128xf32>)
// STRIP: tile_as.reduce {{.*}} axis = 0 {{.*}} : tensor<32x128xf32> -> tensor<128xf32>
// STRIP: tile_as.store {{.*}} : tensor<128x!tile_as.ptr<f32, 1>>, tensor<128xf32>
// STRIP: tile_as.reduce {{.*}} axis = 0 {{.*}} : tensor<32x128xf32> -> tensor<128xf32>
// STRIP: tile_as.store {{.*}} : tensor<128x!tile_as.ptr<f32, 1>>, tensor<128xf32>
// STRIP: arith.constant dense<128> : tensor<32x128xi32>
// STRIP: scf.for {{.*}} -> (tensor<32x128xf32>, tensor<32x128xf32>)
