// make_gather_scatter_view is not lowered yet: tile-lower must reject it
// cleanly (replace it by another unlowered op when it lowers).
cuda_tile.module @kernels {
  entry @gather(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [16, 16], strides = [16, 1] : tensor_view<16x16xf32, strides=[16,1]>
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=0>
    return
  }
}
