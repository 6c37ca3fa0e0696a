// A table of addresses read one word at a time: a pointer table is a tile of
// i64 words (cuda_tile pointees are numbers, so there is no ptr<ptr<T>>).
// Word %j comes from a 0-d load_ptr_tko, becomes a pointer by int_to_ptr,
// and element 5 behind it is read by a second 0-d load and stored to out.
// LOWER-LABEL: func.func @k
// LOWER: %[[W:.*]] = tile_as.load %{{.*}} : tensor<1x!tile_as.ptr<i64, 1>{{.*}}> -> tensor<1xi64
// LOWER: %[[S:.*]] = tile_as.to_scalar %[[W]]
// LOWER: tile_as.int_to_ptr %[[S]] : i64 -> !tile_as.ptr<f32, 1>
cuda_tile.module @m {
  entry @k(%table: tile<ptr<i64>>, %j: tile<i32>, %out: tile<ptr<f32>>) {
    %tj = offset %table, %j : tile<ptr<i64>>, tile<i32> -> tile<ptr<i64>>
    %w, %t0 = load_ptr_tko weak %tj : tile<ptr<i64>> -> tile<i64>, token
    %p = int_to_ptr %w : tile<i64> -> tile<ptr<f32>>
    %five = constant <i32: 5> : tile<i32>
    %p5 = offset %p, %five : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
    %x, %t1 = load_ptr_tko weak %p5 : tile<ptr<f32>> -> tile<f32>, token
    %t2 = store_ptr_tko weak %out, %x : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}
