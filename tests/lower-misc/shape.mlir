// get_tensor_shape (static and dynamic sizes, widened to i64) and
// join_tokens: the kernel writes the view's sizes through two stores whose
// joined token orders a load of them, then doubles what it loaded.
// LOWER-LABEL: func.func @k
// LOWER-DAG: arith.extsi %arg1 : i32 to i64
// LOWER-DAG: arith.constant 8 : i64
// LOWER-NOT: join_tokens
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i64>>, %n: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n, 8], strides = [8, 1] : tile<i32> -> tensor_view<?x8xi64, strides=[8,1]>
    %s:2 = get_tensor_shape %tv : tensor_view<?x8xi64, strides=[8,1]> -> tile<i64>
    %pr = reshape %p : tile<ptr<i64>> -> tile<1xptr<i64>>
    %one = constant <i32: 1> : tile<1xi32>
    %p1 = offset %pr, %one : tile<1xptr<i64>>, tile<1xi32> -> tile<1xptr<i64>>
    %s0 = reshape %s#0 : tile<i64> -> tile<1xi64>
    %s1 = reshape %s#1 : tile<i64> -> tile<1xi64>
    %t0 = store_ptr_tko weak %pr, %s0 : tile<1xptr<i64>>, tile<1xi64> -> token
    %t1 = store_ptr_tko weak %p1, %s1 : tile<1xptr<i64>>, tile<1xi64> -> token
    %t = join_tokens %t0, %t1 : token
    %i = iota : tile<2xi32>
    %pb = broadcast %pr : tile<1xptr<i64>> -> tile<2xptr<i64>>
    %q = offset %pb, %i : tile<2xptr<i64>>, tile<2xi32> -> tile<2xptr<i64>>
    %v, %t2 = load_ptr_tko weak %q token = %t : tile<2xptr<i64>> -> tile<2xi64>, token
    %two = constant <i64: 2> : tile<2xi64>
    %w = muli %v, %two : tile<2xi64>
    %c2 = constant <i32: 2> : tile<2xi32>
    %q2 = offset %q, %c2 : tile<2xptr<i64>>, tile<2xi32> -> tile<2xptr<i64>>
    %t3 = store_ptr_tko weak %q2, %w token = %t2 : tile<2xptr<i64>>, tile<2xi64> -> token
    return
  }
}
