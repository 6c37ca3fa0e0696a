// tilepipe-pair-tcgen05-mmas on C = A x B for ragged MxK by KxN matrices (N
// and K multiples of 16 bytes: TMA's row strides), each kernel asking
// sm_100 for clusters of two CTAs (num_cta_in_cga = 2) with 256-row tiles,
// which tilepipe-split-tile-blocks-across-cta-pair splits by M: the pair
// then issues tcgen05.mma.cta_group::2 where it can.
cuda_tile.module @kernels {
  // 256x64 f16 tiles: the pair issues M = 256, N = 64 MMAs; each CTA loads 32 of B's columns.
  entry @pair_f16(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ap16 = assume div_by<16>, %a : tile<ptr<f16>>
    %bp16 = assume div_by<16>, %b : tile<ptr<f16>>
    %cp16 = assume div_by<16>, %c : tile<ptr<f32>>
    %n8 = assume div_by<8>, %n : tile<i32>
    %k8 = assume div_by<8>, %k : tile<i32>
    %av = make_tensor_view %ap16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %bp16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %cp16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x64xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x64xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<256x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x64xf16>, token
      %y = mmaf %ta, %tb, %x : tile<256x32xf16>, tile<32x64xf16>, tile<256x64xf32>
      continue %y : tile<256x64xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x64xf32>, partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 256x128 bf16 tiles, K in tiles of 64: N = 128, 64 of B's columns per CTA.
  entry @pair_bf16(%a: tile<ptr<bf16>>, %b: tile<ptr<bf16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ap16 = assume div_by<16>, %a : tile<ptr<bf16>>
    %bp16 = assume div_by<16>, %b : tile<ptr<bf16>>
    %cp16 = assume div_by<16>, %c : tile<ptr<f32>>
    %n8 = assume div_by<8>, %n : tile<i32>
    %k8 = assume div_by<8>, %k : tile<i32>
    %av = make_tensor_view %ap16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %bv = make_tensor_view %bp16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %cv = make_tensor_view %cp16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x128xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<256x64xbf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x128xbf16>, token
      %y = mmaf %ta, %tb, %x : tile<256x64xbf16>, tile<64x128xbf16>, tile<256x128xf32>
      continue %y : tile<256x128xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x128xf32>, partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 256x32 tiles: N / 2 = 16 is under 32, so each CTA keeps its cta_group::1 MMAs.
  entry @pair_n32(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ap16 = assume div_by<16>, %a : tile<ptr<f16>>
    %bp16 = assume div_by<16>, %b : tile<ptr<f16>>
    %cp16 = assume div_by<16>, %c : tile<ptr<f32>>
    %n8 = assume div_by<8>, %n : tile<i32>
    %k8 = assume div_by<8>, %k : tile<i32>
    %av = make_tensor_view %ap16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %bv = make_tensor_view %bp16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cv = make_tensor_view %cp16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x32), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x32xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x32xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<256x32xf16>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x32), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<32x32xf16>, token
      %y = mmaf %ta, %tb, %x : tile<256x32xf16>, tile<32x32xf16>, tile<256x32xf32>
      continue %y : tile<256x32xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x32xf32>, partition_view<tile=(256x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 256x64 tiles of f32 loads rounded to tf32 (ftof): kind::tf32, every thread of both CTAs rounds its slot.
  entry @pair_tf32(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ap16 = assume div_by<16>, %a : tile<ptr<f32>>
    %bp16 = assume div_by<16>, %b : tile<ptr<f32>>
    %cp16 = assume div_by<16>, %c : tile<ptr<f32>>
    %n8 = assume div_by<4>, %n : tile<i32>
    %k8 = assume div_by<4>, %k : tile<i32>
    %av = make_tensor_view %ap16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %bv = make_tensor_view %bp16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %cv = make_tensor_view %cp16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x64xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x64xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<256x32xf32>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x64xf32>, token
      %fa = ftof %ta : tile<256x32xf32> -> tile<256x32xtf32>
      %fb = ftof %tb : tile<32x64xf32> -> tile<32x64xtf32>
      %y = mmaf %fa, %fb, %x : tile<256x32xtf32>, tile<32x64xtf32>, tile<256x64xf32>
      continue %y : tile<256x64xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x64xf32>, partition_view<tile=(256x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }

  // 256x128 e4m3 tiles: kind::f8f6f4, 64 one-byte columns of B per CTA.
  entry @pair_e4m3(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %c: tile<ptr<f32>>,
               %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ap16 = assume div_by<16>, %a : tile<ptr<f8E4M3FN>>
    %bp16 = assume div_by<16>, %b : tile<ptr<f8E4M3FN>>
    %cp16 = assume div_by<16>, %c : tile<ptr<f32>>
    %n8 = assume div_by<16>, %n : tile<i32>
    %k8 = assume div_by<16>, %k : tile<i32>
    %av = make_tensor_view %ap16, shape = [%m, %k8], strides = [%k8, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %bv = make_tensor_view %bp16, shape = [%k8, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %cv = make_tensor_view %cp16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ap = make_partition_view %av : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %cp = make_partition_view %cv : partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>
    %kt:2 = get_index_space_shape %ap : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>> -> tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<256x128xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %kt#1, step %c1) : tile<i32> iter_values(%x = %zero) -> (tile<256x128xf32>) {
      %ta, %t1 = load_view_tko weak %ap[%bx, %i] token = %tok : partition_view<tile=(256x64), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<256x64xf8E4M3FN>, token
      %tb, %t2 = load_view_tko weak %bp[%i, %by] token = %tok : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<64x128xf8E4M3FN>, token
      %y = mmaf %ta, %tb, %x : tile<256x64xf8E4M3FN>, tile<64x128xf8E4M3FN>, tile<256x128xf32>
      continue %y : tile<256x128xf32>
    }
    %t3 = store_view_tko weak %acc, %cp[%bx, %by] token = %tok : tile<256x128xf32>, partition_view<tile=(256x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-sched -v: which form each split kernel runs, and why.
// REMARK: remark: sm_100: num_cta_in_cga = 2: each tile block runs on a CTA pair (.reqnctapercluster 2, 1, 1); CTA rank r computes rows [r*128, r*128+128) of the 256x64 result
// REMARK: remark: tcgen05.mma.cta_group::2: the even CTA of the pair issues each M = 256, N = 64 MMA; CTA rank r loads B columns [r*32, r*32+32)
// REMARK: remark: tcgen05.mma.cta_group::2: the even CTA of the pair issues each M = 256, N = 128 MMA; CTA rank r loads B columns [r*64, r*64+64)
// REMARK: remark: the CTA pair keeps one tcgen05.mma.cta_group::1 per CTA (each CTA loads all of B): N = 32 is not a multiple of 64 up to 256
// REMARK-NEXT: note: the pair's MMA stops here
// REMARK: remark: tcgen05.mma.cta_group::2: the even CTA of the pair issues each M = 256, N = 64 MMA; CTA rank r loads B columns [r*32, r*32+32)
// REMARK: remark: tcgen05.mma.cta_group::2: the even CTA of the pair issues each M = 256, N = 128 MMA; CTA rank r loads B columns [r*64, r*64+64)

// tile-sched: the paired kernels are marked (after their K loops became
// tcgen05 rings), the N = 32 one is not.
// SCHED-LABEL: func.func @pair_f16(
// SCHED-SAME: tile_as.tcgen05_cta_pair
// SCHED: tile_as.tcgen05_stage
// SCHED-LABEL: func.func @pair_bf16(
// SCHED-SAME: tile_as.tcgen05_cta_pair
// SCHED-LABEL: func.func @pair_n32(
// SCHED-NOT: tcgen05_cta_pair
// SCHED: tile_as.tcgen05_stage
// SCHED-LABEL: func.func @pair_tf32(
// SCHED-SAME: tile_as.tcgen05_cta_pair
// SCHED: tile_as.tcgen05_stage {{.*}}operand_type = tf32
// SCHED-LABEL: func.func @pair_e4m3(
// SCHED-SAME: tile_as.tcgen05_cta_pair
// SCHED: tile_as.tcgen05_stage {{.*}}operand_type = f8E4M3FN

// The PTX of a paired kernel: every tcgen05 instruction is cta_group::2
// (alloc, relinquish, mma, commit, dealloc); the even CTA's full mbarriers
// count two arrivals, published to the cluster before anyone reaches into
// the peer; each slot holds A's 128 rows and half of B (f16, 32-deep
// chunks: 8192 + 2048 bytes, not 8192 + 4096); the even CTA's first thread
// waits for its full slot at cluster scope, issues the MMAs and commits them
// to the empty mbarrier of both CTAs (mask 0b11); the odd CTA's hands its
// full slot on to the even CTA's mbarrier (mapa, a cluster-scope release
// arrive); the drain commit reaches both CTAs too, and cluster barriers
// precede the mbarriers' invalidation and the dealloc.
// PTX-LABEL: .entry pair_f16(
// PTX-NOT: cta_group::1
// PTX: .reqnctapercluster 2, 1, 1
// PTX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// PTX: mbarrier.init.shared.b64
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: mov.b32 %r[[BYTES:[0-9]+]], 10240;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %r[[BYTES]];
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// PTX: tcgen05.fence::after_thread_sync;
// PTX: tcgen05.mma.cta_group::2.kind::f16.collector::a::discard
// PTX: tcgen05.mma.cta_group::2.kind::f16.collector::a::discard
// PTX-NEXT: mov.b16 %rs[[MASK:[0-9]+]], 3;
// PTX-NEXT: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{.*}}], %rs[[MASK]];
// PTX: mapa.shared::cluster.u64 %rd[[PEER:[0-9]+]], %rd{{[0-9]+}}, 0;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd[[PEER]]]
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [__tile_tmem_mbarrier]
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64 {{.*}}, [__tile_tmem_mbarrier]
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: mbarrier.inval.shared.b64
// PTX: tcgen05.ld.sync.aligned.32x32b
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// PTX-NOT: cta_group::1
// bf16, 16-deep chunks: 4096 + 2048 bytes per slot.
// PTX-LABEL: .entry pair_bf16(
// PTX-NOT: cta_group::1
// PTX: tcgen05.alloc.cta_group::2
// PTX: mov.b32 %r[[BBYTES:[0-9]+]], 6144;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %r[[BBYTES]];
// PTX: tcgen05.mma.cta_group::2.kind::f16
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PTX: tcgen05.dealloc.cta_group::2
// PTX-NOT: cta_group::1
// The unpaired kernel: cta_group::1 throughout, no cluster barrier, all of
// B per CTA (8192 + 2048 bytes for 32 columns).
// PTX-LABEL: .entry pair_n32(
// PTX-NOT: cta_group::2
// PTX-NOT: barrier.cluster
// PTX: tcgen05.alloc.cta_group::1
// PTX: mov.b32 %r[[NBYTES:[0-9]+]], 10240;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %r[[NBYTES]];
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.dealloc.cta_group::1
// PTX-NOT: cta_group::2
// PTX-NOT: barrier.cluster
// tf32: every thread of both CTAs waits for its full slot at cluster scope
// and rounds it, a CTA barrier, then the odd CTA's first thread arrives on
// the even CTA's full mbarrier and the even CTA's issues kind::tf32.
// PTX-LABEL: .entry pair_tf32(
// PTX-NOT: cta_group::1
// PTX: tcgen05.alloc.cta_group::2
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// PTX: fence.proxy.async.shared::cta;
// PTX: bar.sync
// PTX: tcgen05.mma.cta_group::2.kind::tf32
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX: tcgen05.dealloc.cta_group::2
// PTX-NOT: cta_group::1
// e4m3, 32-deep chunks: 4096 + 32 x 64 bytes per slot.
// PTX-LABEL: .entry pair_e4m3(
// PTX-NOT: cta_group::1
// PTX: tcgen05.alloc.cta_group::2
// PTX: mov.b32 %r[[FBYTES:[0-9]+]], 6144;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %r[[FBYTES]];
// PTX: tcgen05.mma.cta_group::2.kind::f8f6f4
// PTX: tcgen05.dealloc.cta_group::2
// PTX-NOT: cta_group::1
