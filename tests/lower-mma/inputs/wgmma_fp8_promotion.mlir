// One 64x128 by 128x128 e4m3 mmaf into f32 (kernel.py --m 64 --n 128 --k 128 --a f8E4M3FN --acc f32) on sm_90a: the fp8 wgmma path, its sums promoted into the f32 accumulator (fp8-promotion.bats).
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %c: tile<ptr<f32>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f8E4M3FN>>
    %b_p = assume div_by<16>, %b : tile<ptr<f8E4M3FN>>
    %c_p = assume div_by<16>, %c : tile<ptr<f32>>
    %d_out_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %c2 = constant <i32: 64> : tile<i32>
    %c3 = constant <i32: 128> : tile<i32>
    %c4 = constant <i32: 128> : tile<i32>
    %tv4 = make_tensor_view %a_p, shape = [%c2, %c3], strides = [%c4, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %pv4 = make_partition_view %tv4 : partition_view<tile=(64x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %c5 = constant <i32: 0> : tile<i32>
    %x6, %lt6 = load_view_tko weak %pv4[%c5, %c5] token = %tok : partition_view<tile=(64x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<64x128xf8E4M3FN>, token
    %c8 = constant <i32: 128> : tile<i32>
    %c9 = constant <i32: 128> : tile<i32>
    %c10 = constant <i32: 128> : tile<i32>
    %tv10 = make_tensor_view %b_p, shape = [%c8, %c9], strides = [%c10, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %pv10 = make_partition_view %tv10 : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %c11 = constant <i32: 0> : tile<i32>
    %x12, %lt12 = load_view_tko weak %pv10[%c11, %c11] token = %tok : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<128x128xf8E4M3FN>, token
    %c14 = constant <i32: 64> : tile<i32>
    %c15 = constant <i32: 128> : tile<i32>
    %c16 = constant <i32: 128> : tile<i32>
    %tv16 = make_tensor_view %c_p, shape = [%c14, %c15], strides = [%c16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv16 = make_partition_view %tv16 : partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>
    %c17 = constant <i32: 0> : tile<i32>
    %x18, %lt18 = load_view_tko weak %pv16[%c17, %c17] token = %tok : partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x128xf32>, token
    %d = mmaf %x6, %x12, %x18 : tile<64x128xf8E4M3FN>, tile<128x128xf8E4M3FN>, tile<64x128xf32>
    %c20 = constant <i32: 64> : tile<i32>
    %c21 = constant <i32: 128> : tile<i32>
    %c22 = constant <i32: 128> : tile<i32>
    %tv22 = make_tensor_view %d_out_p, shape = [%c20, %c21], strides = [%c22, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv22 = make_partition_view %tv22 : partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>
    %c23 = constant <i32: 0> : tile<i32>
    %st24 = store_view_tko weak %d, %pv22[%c23, %c23] token = %tok : tile<64x128xf32>, partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched marks the multiply (interval 4, the default).
// SCHED: tile_as.mmaf_global {{.*}}tile_as.fp8_promotion_interval = 4 : i64

// PTX with interval 2 (tile-opt): 4 k steps in two intervals, one piece of
// 128 columns (64 accumulator registers + 2 x 64 fit the budget). Each
// interval's wgmmas go into a temporary, the first with scale-d 0; after
// the second group's commit, wait_group 1 and the first temporary added;
// wait_group 0 and the second.
// PROMOTED: wgmma.fence.sync.aligned;
// PROMOTED: setp.ne.b32 p, 0, 0;
// PROMOTED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[T0:%r[0-9]+]],
// PROMOTED: setp.ne.b32 p, 1, 0;
// PROMOTED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[T0]],
// PROMOTED: wgmma.commit_group.sync.aligned;
// PROMOTED-NEXT: wgmma.fence.sync.aligned;
// PROMOTED: setp.ne.b32 p, 0, 0;
// PROMOTED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[T1:%r[0-9]+]],
// PROMOTED: setp.ne.b32 p, 1, 0;
// PROMOTED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[T1]],
// PROMOTED: wgmma.commit_group.sync.aligned;
// PROMOTED: wgmma.wait_group.sync.aligned 1;
// PROMOTED-NOT: wgmma.mma_async
// PROMOTED: add.f32 {{.*}}[[T0]]{{[,;]}}
// PROMOTED: wgmma.wait_group.sync.aligned 0;
// PROMOTED-NOT: wgmma.mma_async
// PROMOTED: add.f32 {{.*}}[[T1]]{{[,;]}}
// PROMOTED-NOT: wgmma.mma_async

// PTX with interval 1: four pieces of one k step take the two temporaries
// in turn; the third and fourth pieces' wgmmas (scale-d 0) write the
// registers of the first and second, which were added before them.
// REUSED: setp.ne.b32 p, 0, 0;
// REUSED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[U0:%r[0-9]+]],
// REUSED: setp.ne.b32 p, 0, 0;
// REUSED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[U1:%r[0-9]+]],
// REUSED: wgmma.wait_group.sync.aligned 1;
// REUSED: add.f32 {{.*}}[[U0]]{{[,;]}}
// REUSED: setp.ne.b32 p, 0, 0;
// REUSED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[U0]],
// REUSED: wgmma.wait_group.sync.aligned 1;
// REUSED: add.f32 {{.*}}[[U1]]{{[,;]}}
// REUSED: setp.ne.b32 p, 0, 0;
// REUSED-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[U1]],

// fast-accumulation=1: the old form, every k step accumulating in place
// (scale-d 1), one group, no adds.
// FAST: wgmma.fence.sync.aligned;
// FAST-NOT: setp.ne.b32 p, 0, 0;
// FAST: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// FAST: wgmma.commit_group.sync.aligned;
// FAST-NEXT: wgmma.wait_group.sync.aligned 0;
// FAST-NOT: add.f32
// FAST-NOT: wgmma.wait_group
