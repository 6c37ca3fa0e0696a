// cuTile's tf32 matmul shape: f32 tiles loaded and rounded by ftof, 32x32x32 with ragged views (kernel.py --m 32 --n 32 --k 32 --a f32 --ftof-tf32 --valid 30,28,20).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f32>>
    %b_p = assume div_by<16>, %b : tile<ptr<f32>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 30> : tile<i32>
    %c3 = constant <i32: 20> : tile<i32>
    %c4 = constant <i32: 32> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x32xf32>, token
    %c8 = constant <i32: 20> : tile<i32>
    %c9 = constant <i32: 28> : tile<i32>
    %c10 = constant <i32: 32> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x32xf32>, token
    %a_r = ftof %x6 : tile<32x32xf32> -> tile<32x32xtf32>
    %b_r = ftof %x12 : tile<32x32xf32> -> tile<32x32xtf32>
    %c14 = constant <i32: 30> : tile<i32>
    %c15 = constant <i32: 28> : tile<i32>
    %c16 = constant <i32: 32> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x32xf32>, token
    %d = mmaf %a_r, %b_r, %x18 : tile<32x32xtf32>, tile<32x32xtf32>, tile<32x32xf32>
    %c20 = constant <i32: 30> : tile<i32>
    %c21 = constant <i32: 28> : tile<i32>
    %c22 = constant <i32: 32> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<32x32xf32>, partition_view<tile=(32x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched: both loads and their ftof (arith.truncf to tf32) fuse into one
// tile_as.mmaf_global over the f32 pointers, marked to round both operands.
// SCHED-NOT: arith.truncf
// SCHED: tile_as.mmaf_global %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} {lhs_tf32, rhs_tf32} : tensor<32x32x!tile_as.ptr<f32, 1>, {{.*}}> mask tensor<32x32xi1, {{.*}}>, tensor<32x32x!tile_as.ptr<f32, 1>, {{.*}}> mask tensor<32x32xi1, {{.*}}>, tensor<32x32xf32
// SCHED-NOT: arith.truncf

// In the PTX, the raw f32 tiles are copied by cp.async in 8-byte runs (the
// accumulator layout's), B as [K][N] rows like A, never through registers
// (the accumulator C is the only global load);
// each fragment register is rounded to nearest even between ldmatrix and
// mma.sync: add 0xfff plus the lowest kept bit, clear the 13 low bits, NaN
// (above 0x7f800000 without the sign) kept quiet.
// PTX-NOT: st.shared
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 8, %r{{[0-9]+}};
// PTX-NOT: , 4, %r
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+}}+4624], [%rd{{[0-9]+}}], 8, %r{{[0-9]+}};
// PTX-NOT: , 4, %r
// PTX: cp.async.commit_group;
// PTX-NEXT: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r[[A0:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}
// PTX-NEXT: bfe.u32 %r[[ODD:[0-9]+]], %r[[A0]], 13, 1;
// PTX-NEXT: add.s32 %r[[SUM:[0-9]+]], %r[[A0]], %r[[ODD]];
// PTX-NEXT: add.s32 %r[[SUM2:[0-9]+]], %r[[SUM]], 4095;
// PTX-NEXT: and.b32 %r{{[0-9]+}}, %r[[SUM2]], -8192;
// PTX: setp.gt.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, 2139095040;
// PTX: or.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 4194304;
// A B fragment is two words, k l % 4 and l % 4 + 4 of column l / 4: four
// rows of 40 words (32 columns, pitch 8 modulo 32 banks) apart; each is
// rounded too.
// PTX: ld.shared.b32 %r[[B0:[0-9]+]], [%rd[[BASE:[0-9]+]]+-704];
// PTX-NEXT: ld.shared.b32 %r{{[0-9]+}}, [%rd[[BASE]]+-64];
// PTX: bfe.u32 %r{{[0-9]+}}, %r[[B0]], 13, 1;
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX: ld.shared.b32 %r{{[0-9]+}}, [%rd[[BASE]]+-640];
// PTX-NEXT: ld.shared.b32 %r{{[0-9]+}}, [%rd[[BASE]]];
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-NOT: ldmatrix
// PTX-NOT: ld.global
// PTX-NOT: st.shared
