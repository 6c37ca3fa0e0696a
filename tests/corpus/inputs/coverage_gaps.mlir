// Lowered ops that no other lowering suite runs (op-coverage.py finds them):
// powi (f32 base, i32 exponent, elementwise) and get_num_tile_blocks. Every
// block of the grid writes the same results: out = x ** e, and the grid size
// (x, y, z) into grid[0..2].
cuda_tile.module @kernels {
  entry @k(%x: tile<ptr<f32>>, %e: tile<ptr<i32>>, %out: tile<ptr<f32>>, %grid: tile<ptr<i32>>) {
    %tok = make_token : token
    %iota = iota : tile<128xi32>
    %xs = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %xb = broadcast %xs : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %xp = offset %xb, %iota : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %xv, %t0 = load_ptr_tko weak %xp token = %tok : tile<128xptr<f32>> -> tile<128xf32>, token
    %es = reshape %e : tile<ptr<i32>> -> tile<1xptr<i32>>
    %eb = broadcast %es : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %ep = offset %eb, %iota : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %ev, %t1 = load_ptr_tko weak %ep token = %tok : tile<128xptr<i32>> -> tile<128xi32>, token
    %y = powi %xv, %ev : tile<128xf32>, tile<128xi32>
    %os = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %os : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %op = offset %ob, %iota : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %t2 = store_ptr_tko weak %op, %y : tile<128xptr<f32>>, tile<128xf32> -> token
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    %gs = reshape %grid : tile<ptr<i32>> -> tile<1xptr<i32>>
    %c0 = constant <i32: 0> : tile<1xi32>
    %c1 = constant <i32: 1> : tile<1xi32>
    %c2 = constant <i32: 2> : tile<1xi32>
    %g0 = offset %gs, %c0 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %g1 = offset %gs, %c1 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %g2 = offset %gs, %c2 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %vx = reshape %nx : tile<i32> -> tile<1xi32>
    %vy = reshape %ny : tile<i32> -> tile<1xi32>
    %vz = reshape %nz : tile<i32> -> tile<1xi32>
    %t3 = store_ptr_tko weak %g0, %vx : tile<1xptr<i32>>, tile<1xi32> -> token
    %t4 = store_ptr_tko weak %g1, %vy : tile<1xptr<i32>>, tile<1xi32> -> token
    %t5 = store_ptr_tko weak %g2, %vz : tile<1xptr<i32>>, tile<1xi32> -> token
    return
  }
}
