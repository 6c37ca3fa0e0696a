// A table of addresses (as cuTile passes a list of arrays): one i64 word
// taken out of a loaded tile (extract, reshape to a 0-d tile), turned into a
// pointer with int_to_ptr, and used as the base of the data the kernel
// doubles into `out`.
// LOWER-LABEL: func.func @k
// LOWER: %[[WORD:.*]] = tile_as.to_scalar %{{.*}} : tensor<1xi64, {{.*}}>
// LOWER: tile_as.int_to_ptr %[[WORD]] : i64 -> !tile_as.ptr<f32, 1>
cuda_tile.module @m {
  entry @k(%table: tile<ptr<i64>>, %out: tile<ptr<f32>>) {
    %j = iota : tile<2xi32>
    %tr = reshape %table : tile<ptr<i64>> -> tile<1xptr<i64>>
    %tb = broadcast %tr : tile<1xptr<i64>> -> tile<2xptr<i64>>
    %tq = offset %tb, %j : tile<2xptr<i64>>, tile<2xi32> -> tile<2xptr<i64>>
    %words, %t0 = load_ptr_tko weak %tq : tile<2xptr<i64>> -> tile<2xi64>, token
    %one = constant <i32: 1> : tile<i32>
    %w1 = extract %words[%one] : tile<2xi64> -> tile<1xi64>
    %w = reshape %w1 : tile<1xi64> -> tile<i64>
    %p = int_to_ptr %w : tile<i64> -> tile<ptr<f32>>
    %i = iota : tile<64xi32>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %pq = offset %pb, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %v, %t1 = load_ptr_tko weak %pq : tile<64xptr<f32>> -> tile<64xf32>, token
    %v2 = addf %v, %v : tile<64xf32>
    %or = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %or : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %oq = offset %ob, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %t2 = store_ptr_tko weak %oq, %v2 : tile<64xptr<f32>>, tile<64xf32> -> token
    return
  }
}
