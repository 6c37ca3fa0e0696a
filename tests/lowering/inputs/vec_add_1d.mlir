// A 1-D vector add shaped like cuTile's: 16-byte aligned bases and a size
// divisible by 16, so every access is one 16-byte vector per thread group.
cuda_tile.module @kernels {
  entry @vadd(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>) optimization_hints=<sm_90 = {num_worker_warps = 8}> {
    %0 = make_token : token
    %a = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %b = assume div_by<16>, %arg2 : tile<ptr<f32>>
    %c = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %n = assume div_by<16>, %arg1 : tile<i32>
    %va = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %vb = make_tensor_view %b, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %vc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %pa = make_partition_view %va : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %ta, %t1 = load_view_tko weak %pa[%bx] token = %0 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %pb = make_partition_view %vb : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %tb, %t2 = load_view_tko weak %pb[%bx] token = %0 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %sum = addf %ta, %tb : tile<1024xf32>
    %pc = make_partition_view %vc : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %t3 = store_view_tko weak %sum, %pc[%bx] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// tile-lower: views become pointer tensors + masks; facts become contiguity.
// LOWER: module attributes {{{.*}}tile_as.num_warps = 4 : i32, tile_as.opt_level = 3 : i32, tile_as.target = "sm_80", tile_as.threads_per_warp = 32 : i32}
// LOWER: func.func @vadd(%{{.*}}: !tile_as.ptr<f32, 1>, %{{.*}}: i32, %{{.*}}: !tile_as.ptr<f32, 1>, %{{.*}}: !tile_as.ptr<f32, 1>)
// LOWER: tile_as.block_id 0
// LOWER: tile_as.iota 0 : tensor<1024xi32>
// LOWER: arith.cmpi ult
// LOWER: tile_as.addptr
// LOWER: tile_as.load {{.*}} {contiguity = 4 : i64, view_alignment = 4 : i64} : tensor<1024x!tile_as.ptr<f32, 1>>, tensor<1024xi1>, tensor<1024xf32> -> tensor<1024xf32>
// LOWER: arith.addf {{.*}} : tensor<1024xf32>
// LOWER: tile_as.store {{.*}} {contiguity = 4 : i64}
// LOWER-NOT: cuda_tile.
// LOWER-NOT: tile_aa.

// tile-sched: 4 x f32 = 16 bytes per thread, 32 lanes, the hinted 8 warps.
// SCHED: module attributes {{{.*}}tile_as.num_warps = 8 : i32
// SCHED: tile_as.load {{.*}} -> tensor<1024xf32, #tile_as.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>>

// tile-llvm: the launcher's ABI, kernel marking, predicated 16-byte accesses.
// LLVM: llvm.func @vadd(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) attributes {nvvm.blocksareclusters, nvvm.cluster_dim = array<i32: 1, 1, 1>, nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>}
// LLVM: nvvm.read.ptx.sreg.ctaid.x
// LLVM: nvvm.read.ptx.sreg.tid.x
// LLVM: llvm.inline_asm has_side_effects "@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"
// LLVM: llvm.fadd {{.*}} : vector<4xf32>
// LLVM: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"
// LLVM-NOT: tile_as.

// PTX: .visible .entry vadd(
// PTX: .reqntid 256, 1, 1
// PTX-COUNT-2: ld.global.v4.b32
// PTX: st.global.v4.b32
