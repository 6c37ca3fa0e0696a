// Grid dependency control and the alias fence (13.4): each lowers to its NVVM
// op in program order between the memory ops its tokens order.
// LOWER-LABEL: func.func @k
// LOWER: nvvm.griddepcontrol wait
// LOWER: tile_as.load
// LOWER: nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
// LOWER: tile_as.store
// LOWER: nvvm.griddepcontrol launch_dependents
// PTX90: griddepcontrol.wait;
// PTX90: ld.global
// PTX90: fence.proxy.alias;
// PTX90: st.global
// PTX90: griddepcontrol.launch_dependents;
// PTX80-NOT: griddepcontrol
// PTX80: fence.proxy.alias;
// PTX80-NOT: griddepcontrol
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %t1 = gdc_wait_tko : token
    %pt = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %b = broadcast %pt : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %i = iota : tile<128xi32>
    %q = offset %b, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %v, %t2 = load_ptr_tko weak %q token = %t1 : tile<128xptr<f32>> -> tile<128xf32>, token
    %t3 = memory_fence_alias_tko token = %t2 : token
    %w = addf %v, %v : tile<128xf32>
    %t4 = store_ptr_tko weak %q, %w token = %t3 : tile<128xptr<f32>>, tile<128xf32> -> token
    %t5 = gdc_launch_dependents_tko token = %t4 : token
    return
  }
}
