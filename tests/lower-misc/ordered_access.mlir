// Loads and stores with an ordering other than weak keep it down to the PTX
// ld/st: relaxed, acquire (loads) and release (stores) at the op's scope
// (tl_blk -> .cta, device -> .gpu, sys -> .sys), vector accesses included.
//   y = x + flag[0];  flag[0] = 7
// LOWER-LABEL: func.func @ordered
// LOWER: tile_as.load {{.*}}memory_order = "acquire.gpu"
// LOWER: tile_as.load {{.*}}memory_order = "relaxed.gpu"
// LOWER: tile_as.store {{.*}}memory_order = "release.sys"
// LOWER: tile_as.store {{.*}}memory_order = "relaxed.cta"
// PTX: ld.acquire.gpu.global.b32
// PTX: ld.relaxed.gpu.global.v4.b32
// PTX: st.release.sys.global.v4.b32
// PTX: st.relaxed.cta.global.b32
cuda_tile.module @m {
  entry @ordered(%flag: tile<ptr<i32>>, %x0: tile<ptr<f32>>, %y0: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %x = assume div_by<16>, %x0 : tile<ptr<f32>>
    %y = assume div_by<16>, %y0 : tile<ptr<f32>>
    %f, %t0 = load_ptr_tko acquire device %flag token = %tok : tile<ptr<i32>> -> tile<i32>, token
    %xv = make_tensor_view %x, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>
    %v, %t1 = load_view_tko relaxed device %xp[%c0] token = %t0 : partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %ff = itof %f signed : tile<i32> -> tile<f32>
    %f1 = reshape %ff : tile<f32> -> tile<1xf32>
    %fb = broadcast %f1 : tile<1xf32> -> tile<128xf32>
    %s = addf %v, %fb : tile<128xf32>
    %yv = make_tensor_view %y, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %yp = make_partition_view %yv : partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>
    %t2 = store_view_tko release sys %s, %yp[%c0] token = %t1 : tile<128xf32>, partition_view<tile=(128), tensor_view<128xf32, strides=[1]>>, tile<i32> -> token
    %seven = constant <i32: 7> : tile<i32>
    %t3 = store_ptr_tko relaxed tl_blk %flag, %seven token = %t2 : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
