// A 1x8x64 f16 tile loaded, reshaped to 8x64 (only a unit dimension
// dropped), doubled, reshaped back and stored: the 8x64 shape takes the
// vector width of the 1x8x64 loads, so both reshapes move no data.
cuda_tile.module @kernels {
  entry @squeeze(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>) {
    %tok = make_token : token
    %pa = assume div_by<16>, %a : tile<ptr<f16>>
    %pb = assume div_by<16>, %b : tile<ptr<f16>>
    %tva = make_tensor_view %pa, shape = [1, 8, 64], strides = [512, 64, 1] : tensor_view<1x8x64xf16, strides=[512,64,1]>
    %pva = make_partition_view %tva : partition_view<tile=(1x8x64), tensor_view<1x8x64xf16, strides=[512,64,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t = load_view_tko weak %pva[%c0, %c0, %c0] token = %tok : partition_view<tile=(1x8x64), tensor_view<1x8x64xf16, strides=[512,64,1]>>, tile<i32> -> tile<1x8x64xf16>, token
    %y = reshape %x : tile<1x8x64xf16> -> tile<8x64xf16>
    %z = addf %y, %y : tile<8x64xf16>
    %w = reshape %z : tile<8x64xf16> -> tile<1x8x64xf16>
    %tvb = make_tensor_view %pb, shape = [1, 8, 64], strides = [512, 64, 1] : tensor_view<1x8x64xf16, strides=[512,64,1]>
    %pvb = make_partition_view %tvb : partition_view<tile=(1x8x64), tensor_view<1x8x64xf16, strides=[512,64,1]>>
    %st = store_view_tko weak %w, %pvb[%c0, %c0, %c0] token = %tok : tile<1x8x64xf16>, partition_view<tile=(1x8x64), tensor_view<1x8x64xf16, strides=[512,64,1]>>, tile<i32> -> token
    return
  }
}

// SCHED-LABEL: func.func @squeeze
// SCHED: tile_as.reshape %{{.*}} : tensor<1x8x64xf16, #tile_as.blocked<sizePerThread = [1, 1, 8], {{.*}}>> -> tensor<8x64xf16, #tile_as.blocked<sizePerThread = [1, 8], {{.*}}>>

// No shared-memory exchange: the loaded vector goes straight to the store.
// LLVM-LABEL: llvm.func @squeeze
// LLVM-NOT: nvvm.barrier0
// LLVM-NOT: !llvm.ptr<3>
// LLVM: llvm.return
