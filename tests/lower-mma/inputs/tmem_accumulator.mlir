// K loops on tcgen05 (tilepipe-keep-accumulators-in-tmem): C = A x B for
// ragged MxK by KxN f16 matrices, one 128x128 tile per block, K in tiles of
// 32. In @kloop the accumulator only feeds the multiply, so it stays in
// tensor memory for the whole loop: acc_to_tmem before, the multiply marked
// tile_as.tmem_accumulator, acc_from_tmem after; the lowered loop has no
// tcgen05.st or tcgen05.ld. In @halved the loop halves the sum after each
// multiply (C = sum over K tiles t of A_t B_t / 2^(T - t)), so the
// accumulator keeps its registers and each multiply's round trip.
cuda_tile.module @kernels {
  entry @kloop(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x128xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x128xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x128xf16>, tile<128x128xf32>
      continue %y : tile<128x128xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  entry @halved(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
                %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %av = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %half = constant <f32: 5.000000e-01> : tile<128x128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<128x128xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(128x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x128xf16>, token
      %y = mmaf %ta, %tb, %x : tile<128x32xf16>, tile<32x128xf16>, tile<128x128xf32>
      %h = mulf %y, %half : tile<128x128xf32>
      continue %h : tile<128x128xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// SCHED-LABEL: func.func @kloop(
// SCHED: %[[T:.*]] = tile_as.acc_to_tmem
// SCHED: scf.for {{.*}} iter_args(%[[X:.*]] = %[[T]])
// SCHED: tile_as.mmaf{{.*}} %[[X]] {tile_as.tmem_accumulator}
// SCHED-NEXT: scf.yield
// SCHED: %[[R:.*]] = tile_as.acc_from_tmem
// SCHED: tile_as.store {{.*}}, %[[R]],
// SCHED-LABEL: func.func @halved(
// SCHED-NOT: tmem
// SCHED: return

// Stored before the loop, read after it (64 columns per thread, two
// pieces of 32 each way): the loop's multiplies
// accumulate in place. (@halved stores and loads in the loop.)
// LLVM-LABEL: define ptx_kernel void @kloop(
// LLVM-COUNT-2: call void @llvm.nvvm.tcgen05.st.32x32b.x32(
// LLVM-NOT: @llvm.nvvm.tcgen05.{{ld|st}}
// LLVM: call void @llvm.nvvm.tcgen05.mma.shared(
// LLVM-NOT: @llvm.nvvm.tcgen05.{{ld|st}}
// LLVM: call void @llvm.nvvm.tcgen05.commit
// LLVM-NOT: @llvm.nvvm.tcgen05.{{ld|st}}
// LLVM-COUNT-2: call <32 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x32(
// LLVM-NOT: @llvm.nvvm.tcgen05.{{ld|st|mma}}
// LLVM-LABEL: define ptx_kernel void @halved(
// LLVM: call void @llvm.nvvm.tcgen05.st.32x32b
// LLVM: call void @llvm.nvvm.tcgen05.mma.shared(
// LLVM: call <32 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x32(
