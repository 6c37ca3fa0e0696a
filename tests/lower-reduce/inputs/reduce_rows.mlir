// A row sum of a 64x64 tile and a reverse inclusive scan of its rows (both
// along axis 1, where tile-sched's layout puts 32 lanes and 2 warps).
cuda_tile.module @kernels {
  entry @rows(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %z: tile<ptr<f32>>) {
    %tok = make_token : token
    %c64 = constant <i32: 64> : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %tv = make_tensor_view %x, shape = [%c64, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv = make_partition_view %tv : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %t, %lt = load_view_tko weak %pv[%c0, %c0] token = %tok : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x64xf32>, token
    %sum = reduce %t dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %tvy = make_tensor_view %y, shape = [%c64], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pvy = make_partition_view %tvy : partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>
    %t1 = store_view_tko weak %sum, %pvy[%c0] token = %tok : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %cum = scan %t dim=1 reverse=true identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64x64xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %tvz = make_tensor_view %z, shape = [%c64, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pvz = make_partition_view %tvz : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %t2 = store_view_tko weak %cum, %pvz[%c0, %c0] token = %tok : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// tile-lower: tile_as.reduce/scan keep the combiner as a region over scalars.
// LOWER: tile_as.reduce %{{.*}} axis = 1 identities = [0.000000e+00 : f32] : tensor<64x64xf32> -> tensor<64xf32> {
// LOWER-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// LOWER-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// LOWER-NEXT: tile_as.combine_yield %[[S]] : f32
// LOWER: tile_as.scan %{{.*}} axis = 1 reverse = true identities = [0.000000e+00 : f32] : tensor<64x64xf32> -> tensor<64x64xf32> {
// LOWER-NOT: cuda_tile.

// tile-sched: the result has a layout of its own shape.
// SCHED: tile_as.reduce {{.*}} : tensor<64x64xf32, #tile_as.blocked<{{.*}}>> -> tensor<64xf32, #tile_as.blocked<{{.*}}>>

// tile-llvm, reduce: the butterfly over the 32 lanes of axis 1 (xor 1..16,
// one cloned fadd per step), the two warps' partials through shared memory
// between barriers.
// LLVM: llvm.mlir.global internal @__tile_scratch() {addr_space = 3 : i32
// LLVM-LABEL: llvm.func @rows
// LLVM: %[[X1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[V:.*]], %[[O1:.*]], %{{.*}} : f32 -> f32
// LLVM-NEXT: llvm.fadd %[[V]], %[[X1]] : f32
// LLVM-COUNT-4: nvvm.shfl.sync bfly
// LLVM: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// LLVM: nvvm.barrier0
// LLVM: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// LLVM: llvm.fadd
// LLVM: nvvm.barrier0
// tile-llvm, reverse scan: lane scan by shfl.down (later lanes come first),
// warp carries through shared memory.
// LLVM: nvvm.shfl.sync down
// LLVM: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// LLVM: nvvm.barrier0
// LLVM: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// LLVM: nvvm.barrier0
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync 0;
// PTX: shfl.sync.down.b32
