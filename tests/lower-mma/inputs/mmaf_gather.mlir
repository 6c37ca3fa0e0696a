// A row gather into mmaf, as cuTile's fused MoE kernel writes it: A (64x32)
// holds rows idx[0..64) of a [rows x stride] bf16 array (a pointer tile: the
// splat base, offset by idx[i] * stride plus iota along K), masked where
// idx[i] >= rows and where k >= kvalid; B is a zero-padded 32x64 view; D
// goes out through a pointer tile too. With `stride` and `kvalid` multiples
// of 8 (the assumes) every run of 8 elements along K is proven adjacent,
// 16-byte aligned and under one mask bit, so A reaches shared memory by
// cp.async. numeric.bats runs it in tile-emu (and again with kvalid's
// assume dropped, where A stays a register load).
cuda_tile.module @kernels {
  entry @gather(%a: tile<ptr<bf16>>, %rows: tile<i32>, %stride: tile<i32>, %kvalid: tile<i32>, %idx: tile<ptr<i32>>, %b: tile<ptr<bf16>>, %d_out: tile<ptr<f32>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<bf16>>
    %idx_p = assume div_by<16>, %idx : tile<ptr<i32>>
    %b_p = assume div_by<16>, %b : tile<ptr<bf16>>
    %d_p = assume div_by<16>, %d_out : tile<ptr<f32>>
    %stride_8 = assume div_by<8>, %stride : tile<i32>
    %kvalid_8 = assume div_by<8>, %kvalid : tile<i32>
    // idx[0..64)
    %m = iota : tile<64xi32>
    %idx_1 = reshape %idx_p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %idx_64 = broadcast %idx_1 : tile<1xptr<i32>> -> tile<64xptr<i32>>
    %idx_ptrs = offset %idx_64, %m : tile<64xptr<i32>>, tile<64xi32> -> tile<64xptr<i32>>
    %row, %t0 = load_ptr_tko weak %idx_ptrs : tile<64xptr<i32>> -> tile<64xi32>, token
    // A: a + row * stride + k, masked by row < rows and k < kvalid
    %row_c = reshape %row : tile<64xi32> -> tile<64x1xi32>
    %row_b = broadcast %row_c : tile<64x1xi32> -> tile<64x32xi32>
    %rows_1 = reshape %rows : tile<i32> -> tile<1x1xi32>
    %rows_b = broadcast %rows_1 : tile<1x1xi32> -> tile<64x32xi32>
    %row_ok = cmpi less_than %row_b, %rows_b, unsigned : tile<64x32xi32> -> tile<64x32xi1>
    %stride_1 = reshape %stride_8 : tile<i32> -> tile<1x1xi32>
    %stride_b = broadcast %stride_1 : tile<1x1xi32> -> tile<64x32xi32>
    %row_off = muli %row_b, %stride_b : tile<64x32xi32>
    %k = iota : tile<32xi32>
    %k_r = reshape %k : tile<32xi32> -> tile<1x32xi32>
    %k_b = broadcast %k_r : tile<1x32xi32> -> tile<64x32xi32>
    %kvalid_1 = reshape %kvalid_8 : tile<i32> -> tile<1x1xi32>
    %kvalid_b = broadcast %kvalid_1 : tile<1x1xi32> -> tile<64x32xi32>
    %k_ok = cmpi less_than %k_b, %kvalid_b, unsigned : tile<64x32xi32> -> tile<64x32xi1>
    %mask = andi %row_ok, %k_ok : tile<64x32xi1>
    %off = addi %row_off, %k_b : tile<64x32xi32>
    %a_1 = reshape %a_p : tile<ptr<bf16>> -> tile<1x1xptr<bf16>>
    %a_b = broadcast %a_1 : tile<1x1xptr<bf16>> -> tile<64x32xptr<bf16>>
    %a_ptrs = offset %a_b, %off : tile<64x32xptr<bf16>>, tile<64x32xi32> -> tile<64x32xptr<bf16>>
    %zero = constant <bf16: 0.000000e+00> : tile<bf16>
    %zero_1 = reshape %zero : tile<bf16> -> tile<1x1xbf16>
    %zero_b = broadcast %zero_1 : tile<1x1xbf16> -> tile<64x32xbf16>
    %x_a, %t1 = load_ptr_tko weak %a_ptrs, %mask, %zero_b : tile<64x32xptr<bf16>>, tile<64x32xi1>, tile<64x32xbf16> -> tile<64x32xbf16>, token
    // B: a zero-padded 32x64 view
    %c32 = constant <i32: 32> : tile<i32>
    %c64 = constant <i32: 64> : tile<i32>
    %tv_b = make_tensor_view %b_p, shape = [%c32, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %pv_b = make_partition_view %tv_b : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x_b, %t2 = load_view_tko weak %pv_b[%c0, %c0] token = %tok : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<32x64xbf16>, token
    %acc = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %d = mmaf %x_a, %x_b, %acc : tile<64x32xbf16>, tile<32x64xbf16>, tile<64x64xf32>
    // D: d_out + m * 64 + n
    %m_c = reshape %m : tile<64xi32> -> tile<64x1xi32>
    %m_b = broadcast %m_c : tile<64x1xi32> -> tile<64x64xi32>
    %c64_1 = reshape %c64 : tile<i32> -> tile<1x1xi32>
    %c64_b = broadcast %c64_1 : tile<1x1xi32> -> tile<64x64xi32>
    %d_row = muli %m_b, %c64_b : tile<64x64xi32>
    %n_r = reshape %m : tile<64xi32> -> tile<1x64xi32>
    %n_b = broadcast %n_r : tile<1x64xi32> -> tile<64x64xi32>
    %d_off = addi %d_row, %n_b : tile<64x64xi32>
    %d_1 = reshape %d_p : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %d_b = broadcast %d_1 : tile<1x1xptr<f32>> -> tile<64x64xptr<f32>>
    %d_ptrs = offset %d_b, %d_off : tile<64x64xptr<f32>>, tile<64x64xi32> -> tile<64x64xptr<f32>>
    %t3 = store_ptr_tko weak %d_ptrs, %d : tile<64x64xptr<f32>>, tile<64x64xf32> -> token
    return
  }
}

// tile-lower: the gathered A proves runs of 8 bf16 (16 bytes: the stride
// and kvalid divide by 8, the base by 16 bytes), the idx load runs of 4 i32
// and the D store runs of 4 f32 (its offsets m * 64 + n give whole rows;
// the base's 16 bytes bound them).
// LOWER-LABEL: func.func @gather
// LOWER: tile_as.load {{.*}} {contiguity = 4 : i64} : tensor<64x!tile_as.ptr<i32, 1>>
// LOWER: tile_as.load {{.*}} {contiguity = 8 : i64} : tensor<64x32x!tile_as.ptr<bf16, 1>>
// LOWER: tile_as.store {{.*}} {contiguity = 4 : i64} : tensor<64x64x!tile_as.ptr<f32, 1>>

// tile-sched: A's gather and B's view load both fuse into the mmaf_global.
// SCHED: tile_as.mmaf_global %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} mask %{{[0-9]+}}, %{{.*}} : tensor<64x32x!tile_as.ptr<bf16, 1>
// SCHED-NOT: tile_as.mmaf %

// Without kvalid's assume the K mask is not constant over 8 elements: A
// stays a register load (no contiguity), B alone is copied.
// NOKDIV: tile_as.load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tensor<64x32x!tile_as.ptr<bf16, 1>
// NOKDIV: tile_as.mmaf_global %{{[0-9]+}}, %{{[0-9]+}} mask %{{[0-9]+}}, %{{.*}} : tensor<64x32xbf16

// sm_90a (wgmma): A's gather fuses without a view (cp.async), B with its
// view (TMA).
// WGSCHED: tile_as.mmaf_global %{{[0-9]+}} mask %{{[0-9]+}}, %{{[0-9]+}} mask %{{[0-9]+}} view %arg5[
// WGSCHED-NOT: tile_as.mmaf %
// The PTX: thread 0 builds B's tensor map; per chunk, after the barrier that
// frees the staging, it arrives with B's bytes and issues B's box; the
// threads meanwhile copy A's rows by cp.async (two 16-byte runs each),
// commit, wait, fence for the async proxy and meet at a barrier; then
// everyone waits on the mbarrier's phase and the warpgroup multiplies.
// WGPTX: tensormap.replace.tile.global_address.global.b1024.b64
// WGPTX-NOT: tensormap.replace.tile.global_address
// WGPTX: mbarrier.init.shared.b64
// WGPTX: bar.sync 0;
// WGPTX-NOT: bar.sync
// WGPTX: mov.b32 [[BYTES:%r[0-9]+]], 4096;
// WGPTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// WGPTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WGPTX-NOT: cp.async.bulk.tensor
// WGPTX-NOT: bar.sync
// WGPTX-COUNT-2: cp.async.cg.shared.global
// WGPTX-NEXT: cp.async.commit_group;
// WGPTX-NEXT: cp.async.wait_group 0;
// WGPTX-NEXT: fence.proxy.async.shared::cta;
// WGPTX-NEXT: bar.sync 0;
// WGPTX: mbarrier.try_wait.parity.shared.b64 {{.*}}, 0,
// WGPTX: wgmma.fence.sync.aligned;
// WGPTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// WGPTX-NOT: mma.sync.aligned
