// One 16x16x8 f16 x f16 + f32 mmaf (kernel.py --m 16 --n 16 --k 8 --a f16 --acc f32).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %c2 = constant <i32: 16> : tile<i32>
    %c3 = constant <i32: 8> : tile<i32>
    %c4 = constant <i32: 8> : tile<i32>
    %tv4 = make_tensor_view %a, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(16x8), tensor_view<?x?xf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(16x8), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<16x8xf16>, token
    %c8 = constant <i32: 8> : tile<i32>
    %c9 = constant <i32: 16> : tile<i32>
    %c10 = constant <i32: 16> : tile<i32>
    %tv10 = make_tensor_view %b, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(8x16), tensor_view<?x?xf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(8x16), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<8x16xf16>, token
    %c14 = constant <i32: 16> : tile<i32>
    %c15 = constant <i32: 16> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %tv16 = make_tensor_view %c, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<16x8xf16>, tile<8x16xf16>, tile<16x16xf32>
    %c20 = constant <i32: 16> : tile<i32>
    %c21 = constant <i32: 16> : tile<i32>
    %c22 = constant <i32: 16> : tile<i32>
    %tv22 = make_tensor_view %d_out, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-lower: one tile_as.mmaf over the loaded tensors, result typed as acc.
// LOWER: %[[D:.*]] = tile_as.mmaf %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x8xf16>, tensor<8x16xf16>, tensor<16x16xf32>
// LOWER: tile_as.store %{{.*}}, %[[D]]
// LOWER-NOT: cuda_tile.

// tile-llvm: a scratch of A (16x8 f16 + trash slot = 258 bytes, padded to
// 272) then B (8x16 f16 + trash); a barrier, this thread's A and B element
// stored to shared memory, a barrier, then a loop over k (not unrolled) whose
// block carries k and the thread's 2 accumulators: the A/B elements loaded,
// widened to f32 and FMA'd, k + 1 < 8 branching back; a final barrier before
// the scratch is reused.
// LLVM: llvm.mlir.global internal @__tile_scratch() {addr_space = 3 : i32{{.*}}!llvm.array<530 x i8>
// LLVM-LABEL: llvm.func @k
// LLVM: nvvm.barrier0
// LLVM: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
// LLVM: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
// LLVM-NEXT: nvvm.barrier0
// LLVM: llvm.br ^[[LOOP:bb[0-9]+]](%{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32)
// LLVM: ^[[LOOP]](%[[K:.*]]: i32, %{{.*}}: f32, %{{.*}}: f32):
// LLVM: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// LLVM-NEXT: llvm.fpext %{{.*}} : f16 to f32
// LLVM-COUNT-2: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// LLVM-NOT: llvm.intr.fma
// LLVM: %[[NEXT:.*]] = llvm.add %[[K]], %{{.*}} : i32
// LLVM: %[[MORE:.*]] = llvm.icmp "slt" %[[NEXT]], %{{.*}} : i32
// LLVM-NEXT: llvm.cond_br %[[MORE]], ^[[LOOP]](%[[NEXT]], {{.*}}), ^[[EXIT:bb[0-9]+]](
// LLVM: ^[[EXIT]](
// LLVM-NOT: llvm.intr.fma
// LLVM: nvvm.barrier0
// LLVM-NOT: tile_as.

// tileiras (PTX): LLVM's -O3 unrolls this short loop again: 16 FMAs
// (2 accumulators x 8) after the staging barriers.
// PTX: bar.sync 0;
// PTX: st.shared.b16
// PTX: bar.sync 0;
// PTX-COUNT-16: fma.rn.f32
// PTX: bar.sync 0;
