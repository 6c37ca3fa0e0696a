// A padded view whose rows come in 16-byte runs: an MxN f16 tensor with N a
// multiple of 8 (row stride N, base 16-byte aligned) in 16x64 tiles, one tile
// per block, padded with -inf. The load proves runs of 8 f16 under one mask
// bit (contiguity 8), so each run is one ld.global.v4.b32 and, where its mask
// bit is off, takes the padding as four 32-bit selects of the packed words
// (not eight 16-bit ones, one per element). Each loaded tile is stored whole
// into a (16*gx)x(64*gy) buffer `full` (row stride ldf), so the padding read
// past the tensor's edge shows.
cuda_tile.module @kernels {
  entry @pad_runs(%a: tile<ptr<f16>>, %m: tile<i32>, %n: tile<i32>,
                  %full: tile<ptr<f16>>, %ldf: tile<i32>) {
    %tok = make_token : token
    %a16 = assume div_by<16>, %a : tile<ptr<f16>>
    %n8 = assume div_by<8>, %n : tile<i32>
    %f16 = assume div_by<16>, %full : tile<ptr<f16>>
    %ldf8 = assume div_by<8>, %ldf : tile<i32>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %rows = muli %gx, %c16 : tile<i32>
    %src = make_tensor_view %a16, shape = [%m, %n8], strides = [%n8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %psrc = make_partition_view %src : partition_view<tile=(16x64), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>
    %t, %t1 = load_view_tko weak %psrc[%bx, %by] token = %tok : partition_view<tile=(16x64), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<16x64xf16>, token
    %dst = make_tensor_view %f16, shape = [%rows, %ldf8], strides = [%ldf8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pdst = make_partition_view %dst : partition_view<tile=(16x64), tensor_view<?x?xf16, strides=[?,1]>>
    %t2 = store_view_tko weak %t, %pdst[%bx, %by] token = %t1 : tile<16x64xf16>, partition_view<tile=(16x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// PTX-LABEL: .entry pad_runs(
// PTX-NOT: selp.b16
// PTX: ld.global.v4.b32
// PTX-NOT: selp.b16
// PTX: selp.b32
// PTX-NOT: selp.b16
