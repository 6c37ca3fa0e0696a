// Every atomic_rmw_tko mode on a 128-element tile of pointers (one address
// per element): the memory gets the combined value and the result the old
// one. All entries share one shape; rmw.bats checks them.
cuda_tile.module @m {
  entry @rmw_and_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, and, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_or_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, or, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_xor_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, xor, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_add_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, add, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_max_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, max, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_min_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, min, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_umax_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, umax, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_umin_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, umin, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_xchg_i32(%p: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, xchg, %x : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }
  entry @rmw_add_i64(%p: tile<ptr<i64>>, %v: tile<ptr<i64>>, %o: tile<ptr<i64>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i64>> -> tile<1xptr<i64>>
    %pb = broadcast %pr : tile<1xptr<i64>> -> tile<128xptr<i64>>
    %pp = offset %pb, %i : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
    %vr = reshape %v : tile<ptr<i64>> -> tile<1xptr<i64>>
    %vb = broadcast %vr : tile<1xptr<i64>> -> tile<128xptr<i64>>
    %vp = offset %vb, %i : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
    %or = reshape %o : tile<ptr<i64>> -> tile<1xptr<i64>>
    %ob = broadcast %or : tile<1xptr<i64>> -> tile<128xptr<i64>>
    %op = offset %ob, %i : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<i64>> -> tile<128xi64>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, add, %x : tile<128xptr<i64>>, tile<128xi64> -> tile<128xi64>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<i64>>, tile<128xi64> -> token
    return
  }
  entry @rmw_addf_f32(%p: tile<ptr<f32>>, %v: tile<ptr<f32>>, %o: tile<ptr<f32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %pp = offset %pb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %vr = reshape %v : tile<ptr<f32>> -> tile<1xptr<f32>>
    %vb = broadcast %vr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %vp = offset %vb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %or = reshape %o : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %or : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %op = offset %ob, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<f32>> -> tile<128xf32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, addf, %x : tile<128xptr<f32>>, tile<128xf32> -> tile<128xf32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
  entry @rmw_addf_f16(%p: tile<ptr<f16>>, %v: tile<ptr<f16>>, %o: tile<ptr<f16>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<f16>> -> tile<1xptr<f16>>
    %pb = broadcast %pr : tile<1xptr<f16>> -> tile<128xptr<f16>>
    %pp = offset %pb, %i : tile<128xptr<f16>>, tile<128xi32> -> tile<128xptr<f16>>
    %vr = reshape %v : tile<ptr<f16>> -> tile<1xptr<f16>>
    %vb = broadcast %vr : tile<1xptr<f16>> -> tile<128xptr<f16>>
    %vp = offset %vb, %i : tile<128xptr<f16>>, tile<128xi32> -> tile<128xptr<f16>>
    %or = reshape %o : tile<ptr<f16>> -> tile<1xptr<f16>>
    %ob = broadcast %or : tile<1xptr<f16>> -> tile<128xptr<f16>>
    %op = offset %ob, %i : tile<128xptr<f16>>, tile<128xi32> -> tile<128xptr<f16>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<f16>> -> tile<128xf16>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, addf, %x : tile<128xptr<f16>>, tile<128xf16> -> tile<128xf16>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<f16>>, tile<128xf16> -> token
    return
  }
  entry @rmw_addf_f64(%p: tile<ptr<f64>>, %v: tile<ptr<f64>>, %o: tile<ptr<f64>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<f64>> -> tile<1xptr<f64>>
    %pb = broadcast %pr : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %pp = offset %pb, %i : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %vr = reshape %v : tile<ptr<f64>> -> tile<1xptr<f64>>
    %vb = broadcast %vr : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %vp = offset %vb, %i : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %or = reshape %o : tile<ptr<f64>> -> tile<1xptr<f64>>
    %ob = broadcast %or : tile<1xptr<f64>> -> tile<128xptr<f64>>
    %op = offset %ob, %i : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<f64>> -> tile<128xf64>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, addf, %x : tile<128xptr<f64>>, tile<128xf64> -> tile<128xf64>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<f64>>, tile<128xf64> -> token
    return
  }
  entry @rmw_xchg_f32(%p: tile<ptr<f32>>, %v: tile<ptr<f32>>, %o: tile<ptr<f32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %pp = offset %pb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %vr = reshape %v : tile<ptr<f32>> -> tile<1xptr<f32>>
    %vb = broadcast %vr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %vp = offset %vb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %or = reshape %o : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %or : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %op = offset %ob, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<f32>> -> tile<128xf32>, token
    %old, %t1 = atomic_rmw_tko relaxed device %pp, xchg, %x : tile<128xptr<f32>>, tile<128xf32> -> tile<128xf32>, token
    %t2 = store_ptr_tko weak %op, %old : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
