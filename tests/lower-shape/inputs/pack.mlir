// pack/unpack: numbers to their bytes (low byte first) and back.
// bytes = pack(x) for an 8x4 f32 tile (128 bytes, stored sign-extended as
// i32); back = unpack(pack(x)); half = unpack of 64 bytes (given as i32
// words 0..255) into 32 f16.
cuda_tile.module @kernels {
  entry @pack(%x: tile<ptr<f32>>, %bytes: tile<ptr<i32>>, %back: tile<ptr<f32>>, %raw: tile<ptr<i32>>, %half: tile<ptr<f16>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [8, 4], strides = [4, 1] : tensor_view<8x4xf32, strides=[4,1]>
    %xp = make_partition_view %xv : partition_view<tile=(8x4), tensor_view<8x4xf32, strides=[4,1]>>
    %xt, %t0 = load_view_tko weak %xp[%c0, %c0] token = %tok : partition_view<tile=(8x4), tensor_view<8x4xf32, strides=[4,1]>>, tile<i32> -> tile<8x4xf32>, token
    %p = pack %xt : tile<8x4xf32> -> tile<128xi8>
    %pw = exti %p signed : tile<128xi8> -> tile<128xi32>
    %bv = make_tensor_view %bytes, shape = [128], strides = [1] : tensor_view<128xi32, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>
    %t1 = store_view_tko weak %pw, %bp[%c0] token = %tok : tile<128xi32>, partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>, tile<i32> -> token
    %u = unpack %p : tile<128xi8> -> tile<8x4xf32>
    %kv = make_tensor_view %back, shape = [8, 4], strides = [4, 1] : tensor_view<8x4xf32, strides=[4,1]>
    %kp = make_partition_view %kv : partition_view<tile=(8x4), tensor_view<8x4xf32, strides=[4,1]>>
    %t2 = store_view_tko weak %u, %kp[%c0, %c0] token = %tok : tile<8x4xf32>, partition_view<tile=(8x4), tensor_view<8x4xf32, strides=[4,1]>>, tile<i32> -> token
    %rv = make_tensor_view %raw, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %rp = make_partition_view %rv : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
    %rt, %t3 = load_view_tko weak %rp[%c0] token = %tok : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> tile<64xi32>, token
    %r8 = trunci %rt : tile<64xi32> -> tile<64xi8>
    %h = unpack %r8 : tile<64xi8> -> tile<32xf16>
    %hv = make_tensor_view %half, shape = [32], strides = [1] : tensor_view<32xf16, strides=[1]>
    %hp = make_partition_view %hv : partition_view<tile=(32), tensor_view<32xf16, strides=[1]>>
    %t4 = store_view_tko weak %h, %hp[%c0] token = %tok : tile<32xf16>, partition_view<tile=(32), tensor_view<32xf16, strides=[1]>>, tile<i32> -> token
    return
  }
}

// pack: the f32 bits spread over 4 bytes by shifts of 0, 8, 16, 24.
// LOWER-LABEL: func.func @pack
// LOWER: arith.bitcast %{{.*}} : tensor<32xf32> to tensor<32xi32>
// LOWER: tile_as.broadcast %{{.*}} : tensor<32x1xi32> -> tensor<32x4xi32>
// LOWER: arith.shrui
// LOWER: arith.trunci %{{.*}} : tensor<32x4xi32> to tensor<32x4xi8>
// LOWER-NOT: pack
