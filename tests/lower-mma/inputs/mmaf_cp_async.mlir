// The MatMul tile, 128x64 by 64x256 f16 into f32, with ragged views (kernel.py --m 128 --n 256 --k 64 --a f16 --acc f32 --valid 120,248,56): the mma.sync path fed by cp.async.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 120> : tile<i32>
    %c3 = constant <i32: 56> : tile<i32>
    %c4 = constant <i32: 64> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x64xf16>, token
    %c8 = constant <i32: 56> : tile<i32>
    %c9 = constant <i32: 248> : tile<i32>
    %c10 = constant <i32: 256> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x256xf16>, token
    %c14 = constant <i32: 120> : tile<i32>
    %c15 = constant <i32: 248> : tile<i32>
    %c16 = constant <i32: 256> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(128x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(128x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x256xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<128x64xf16>, tile<64x256xf16>, tile<128x256xf32>
    %c20 = constant <i32: 120> : tile<i32>
    %c21 = constant <i32: 248> : tile<i32>
    %c22 = constant <i32: 256> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched: A's and B's loads (zero-padded, 8 f16 per thread and run)
// fuse into one tile_as.mmaf_global through their pointers and masks; only
// the accumulator's load stays.
// SCHED: tile_as.load {{.*}} : tensor<128x256x!tile_as.ptr<f32, 1>
// SCHED-NOT: tile_as.load
// SCHED: tile_as.mmaf_global %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} : tensor<128x64x!tile_as.ptr<f16, 1>, {{.*}}> mask tensor<128x64xi1, {{.*}}>, tensor<64x256x!tile_as.ptr<f16, 1>, {{.*}}> mask tensor<64x256xi1, {{.*}}>, tensor<128x256xf32
// SCHED-NOT: tile_as.mmaf %

// tile-llvm: per K chunk (two of 32), after the barrier that frees the
// staging, 16-byte cp.async.cg copies whose source size drops to 0 for a
// masked-off run, then commit, wait for all and a barrier before ldmatrix.
// LLVM-LABEL: llvm.func @k
// LLVM: nvvm.barrier0
// LLVM: %[[BYTES:[0-9]+]] = llvm.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i1, i32
// LLVM: nvvm.cp.async.shared.global %{{[0-9]+}}, %{{[0-9]+}}, 16, cache = cg, %{{[0-9]+}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// LLVM-NOT: llvm.store {{.*}}!llvm.ptr<3>
// LLVM: nvvm.cp.async.commit.group
// LLVM-NEXT: nvvm.cp.async.wait.group 0
// LLVM-NEXT: nvvm.barrier0
// LLVM: nvvm.ldmatrix
// LLVM: nvvm.mma.sync
// LLVM: nvvm.barrier0
// LLVM: nvvm.cp.async.shared.global
// LLVM: nvvm.cp.async.commit.group
// LLVM-NEXT: nvvm.cp.async.wait.group 0
// LLVM-NEXT: nvvm.barrier0

// PTX output: A and B never pass through registers (no 16-byte global
// loads, no shared stores).
// PTX-NOT: ld.global.v4
// PTX-NOT: st.shared
// PTX: bar.sync 0;
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX-NEXT: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ld.global.v4
// PTX-NOT: st.shared

// The accumulator takes 128 registers per thread (8 warps): each chunk's
// loop over k steps stays rolled, and a k step reaches all its A and B
// fragments at constant offsets from one address per operand; a copied run
// of A outside the chunk is branched around rather than sent to a trash slot.
// ROLLED: #loop_unroll = #llvm.loop_unroll<disable = true>
// ROLLED: #loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
// ROLLED-LABEL: llvm.func @k
// ROLLED: llvm.cond_br {{.*}} {loop_annotation = #loop_annotation}
// ROLLED: llvm.cond_br {{.*}} {loop_annotation = #loop_annotation}
// PTXADDR: @%p{{[0-9]+}} bra $L__BB0_[[SKIP:[0-9]+]];
// PTXADDR: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTXADDR-NEXT: $L__BB0_[[SKIP]]:
// PTXADDR: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{].*[}]}}, [%rd[[A:[0-9]+]]];
// PTXADDR-NEXT: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{].*[}]}}, [%rd[[A]]+2560];
// PTXADDR-NEXT: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{].*[}]}}, [%rd[[A]]+5120];
// PTXADDR-NEXT: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{].*[}]}}, [%rd[[A]]+7680];
// PTXADDR-NEXT: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{[{].*[}]}}, [%rd[[B:[0-9]+]]+10256];
// PTXADDR: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{[{].*[}]}}, [%rd[[B]]+10320];
