cuda_tile.module @kernels {
  entry @insert_block() {
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<2x4xf32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<4x8xf32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %0 = insert %cst_1_f32 into %cst_0_f32[%cst_0_i32, %cst_1_i32] : tile<2x4xf32> -> tile<4x8xf32>
    return
  }
  entry @insert_scalar() {
    %cst_7_i16 = constant <i16: 7> : tile<i16>
    %cst_0_i16 = constant <i16: 0> : tile<i16>
    %0 = insert %cst_7_i16 into %cst_0_i16[] : tile<i16> -> tile<i16>
    return
  }
  entry @grid_dependency_control() {
    %0 = gdc_wait_tko : token
    %1 = gdc_launch_dependents_tko token=%0 : token
    %2 = gdc_launch_dependents_tko : token
    %3 = gdc_wait_tko token=%2 : token
    return
  }
  entry @alias_fence() {
    %0 = make_token : token
    %1 = memory_fence_alias_tko token=%0 : token
    return
  }
}
