cuda_tile.module @kernels {
  entry @gather_rows(%arg0: tile<ptr<f32>>) {
    %0 = make_token : token
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %1 = iota : tile<4xi32>
    %tview = make_tensor_view %arg0, shape = [16, 6], strides = [6, 1] : tensor_view<16x6xf32, strides=[6,1]>
    %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(4x8), padding_value = pos_inf, tensor_view<16x6xf32, strides=[6,1]>, sparse_dim=0>
    %tile, %result_token = load_view_tko weak %gsview[%1, %cst_0_i32] token = %0 : gather_scatter_view<tile=(4x8), padding_value = pos_inf, tensor_view<16x6xf32, strides=[6,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> tile<4x8xf32>, token
    %2 = store_view_tko weak %tile, %gsview[%1, %cst_0_i32] token = %result_token : tile<4x8xf32>, gather_scatter_view<tile=(4x8), padding_value = pos_inf, tensor_view<16x6xf32, strides=[6,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> token
    return
  }
  entry @scatter_columns(%arg0: tile<ptr<f16>>) {
    %cst_0_i64 = constant <i64: 0> : tile<i64>
    %0 = iota : tile<8xi64>
    %cst_0_f16 = constant <f16: 0.000000e+00> : tile<2x8x4xf16>
    %tview = make_tensor_view %arg0, shape = [2, 32, 4], strides = [128, 4, 1] : tensor_view<2x32x4xf16, strides=[128,4,1]>
    %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(2x8x4), tensor_view<2x32x4xf16, strides=[128,4,1]>, sparse_dim=1>
    %1 = store_view_tko weak %cst_0_f16, %gsview[%cst_0_i64, %0, %cst_0_i64] : tile<2x8x4xf16>, gather_scatter_view<tile=(2x8x4), tensor_view<2x32x4xf16, strides=[128,4,1]>, sparse_dim=1>, tile<i64>, tile<8xi64>, tile<i64> -> token
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %2 = store_view_tko weak %cst_0_f16, %gsview[%cst_1_i32, %0, %cst_1_i32] : tile<2x8x4xf16>, gather_scatter_view<tile=(2x8x4), tensor_view<2x32x4xf16, strides=[128,4,1]>, sparse_dim=1>, tile<i32>, tile<8xi64>, tile<i32> -> token
    return
  }
}
