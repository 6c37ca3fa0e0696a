// FMHA's epilogue in small: A is loaded through a batched view as a
// 1 x 64 x 64 tile at [0, block, 0] and reshaped to 64 x 64, and the f16
// result D goes out through another batched view at the same coordinates.
// tile-lower's CSE merges the two accesses' index arithmetic (iota, block
// offset, masks), which tied D's store to A's load in tile-sched's layout
// classes: D then took the load's vector layout, and the reshape of the
// accumulator exchanged the whole tile through shared memory. The store now
// gets its own copy of that arithmetic (AssignLayouts.cpp,
// StoreAddressSlice.h), D keeps the accumulator's layout, and the load
// keeps its own. The view has 120 rows: the second block is ragged.
//
// In @added the stored value is the accumulator plus a tile loaded at the
// same coordinates: its class holds that load whatever the addresses do,
// so the store keeps sharing them, in the load's layout.
cuda_tile.module @kernels {
  entry @k(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %d_out: tile<ptr<f16>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %d_p = assume div_by<16>, %d_out : tile<ptr<f16>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c64 = constant <i32: 64> : tile<i32>
    %c120 = constant <i32: 120> : tile<i32>
    %c7680 = constant <i32: 7680> : tile<i32>
    %tva = make_tensor_view %a_p, shape = [%c1, %c120, %c64], strides = [%c7680, %c64, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %xa, %ta = load_view_tko weak %pva[%c0, %bx, %c0] token = %tok : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xf16>, token
    %ra = reshape %xa : tile<1x64x64xf16> -> tile<64x64xf16>
    %tvb = make_tensor_view %b_p, shape = [%c64, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pvb = make_partition_view %tvb : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
    %xb, %tb = load_view_tko weak %pvb[%c0, %c0] token = %tok : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %acc = mmaf %ra, %xb, %zero : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
    %r = reshape %acc : tile<64x64xf32> -> tile<1x64x64xf32>
    %h = ftof %r : tile<1x64x64xf32> -> tile<1x64x64xf16>
    %tvd = make_tensor_view %d_p, shape = [%c1, %c120, %c64], strides = [%c7680, %c64, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %pvd = make_partition_view %tvd : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %st = store_view_tko weak %h, %pvd[%c0, %bx, %c0] token = %tok : tile<1x64x64xf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }

  entry @added(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %d_out: tile<ptr<f16>>) {
    %tok = make_token : token
    %a_p = assume div_by<16>, %a : tile<ptr<f16>>
    %b_p = assume div_by<16>, %b : tile<ptr<f16>>
    %d_p = assume div_by<16>, %d_out : tile<ptr<f16>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c64 = constant <i32: 64> : tile<i32>
    %c120 = constant <i32: 120> : tile<i32>
    %c7680 = constant <i32: 7680> : tile<i32>
    %tva = make_tensor_view %a_p, shape = [%c1, %c120, %c64], strides = [%c7680, %c64, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %xa, %ta = load_view_tko weak %pva[%c0, %bx, %c0] token = %tok : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xf16>, token
    %ra = reshape %xa : tile<1x64x64xf16> -> tile<64x64xf16>
    %tvb = make_tensor_view %b_p, shape = [%c64, %c64], strides = [%c64, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pvb = make_partition_view %tvb : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>
    %xb, %tb = load_view_tko weak %pvb[%c0, %c0] token = %tok : partition_view<tile=(64x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x64xf16>, token
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %acc = mmaf %ra, %xb, %zero : tile<64x64xf16>, tile<64x64xf16>, tile<64x64xf32>
    %r = reshape %acc : tile<64x64xf32> -> tile<1x64x64xf32>
    %h = ftof %r : tile<1x64x64xf32> -> tile<1x64x64xf16>
    %sum = addf %h, %xa : tile<1x64x64xf16>
    %tvd = make_tensor_view %d_p, shape = [%c1, %c120, %c64], strides = [%c7680, %c64, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %pvd = make_partition_view %tvd : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %st = store_view_tko weak %sum, %pvd[%c0, %bx, %c0] token = %tok : tile<1x64x64xf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}

// @k: the load keeps its 16-byte runs; the store's pointers, mask and value
// are in the accumulator's layout under the unit dimension.
// CHECK-LABEL: func.func @k(
// CHECK: tile_as.load {{.*}} -> tensor<1x64x64xf16, #tile_as.blocked<sizePerThread = [1, 1, 8]
// CHECK: arith.truncf %{{.*}} : tensor<64x64xf32, #[[FRAG:tile_as.blocked<sizePerThread = \[1, 2\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[[0-9, ]*\], order = \[1, 0\]>]]> to tensor<64x64xf16, #[[FRAG]]>
// CHECK: tile_as.reshape %{{.*}} : tensor<64x64xf16, #[[FRAG]]> -> tensor<1x64x64xf16, #[[UNIT:tile_as.blocked<sizePerThread = \[1, 1, 2\], threadsPerWarp = \[1, 8, 4\], warpsPerCTA = \[1, [0-9, ]*\], order = \[2, 1, 0\]>]]>
// CHECK: tile_as.store %{{.*}} : tensor<1x64x64x!tile_as.ptr<f16, 1>, #[[UNIT]]>, tensor<1x64x64xf16, #[[UNIT]]>, tensor<1x64x64xi1, #[[UNIT]]>
// @added: the sum is in the load's layout, and so is the store.
// CHECK-LABEL: func.func @added(
// CHECK: tile_as.load {{.*}} -> tensor<1x64x64xf16, #[[RUNS:tile_as.blocked<sizePerThread = \[1, 1, 8\][^>]*>]]>
// CHECK: arith.addf {{.*}} : tensor<1x64x64xf16, #[[RUNS]]>
// CHECK: tile_as.store %{{.*}} : tensor<1x64x64x!tile_as.ptr<f16, 1>, #[[RUNS]]>, tensor<1x64x64xf16, #[[RUNS]]>, tensor<1x64x64xi1, #[[RUNS]]>
