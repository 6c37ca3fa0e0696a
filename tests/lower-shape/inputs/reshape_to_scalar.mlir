// reshape of single-element tiles to 0-d tiles (cuTile's `tile.item()`, as
// the MoE kernel reads its expert id): element %i of a 64-element f32 tile
// and element [%i / 4, %i % 4] of a 16x4 i32 tile, each as a scalar,
// broadcast over 16 elements of b and c.
cuda_tile.module @kernels {
  entry @item(%a: tile<ptr<f32>>, %ia: tile<ptr<i32>>, %b: tile<ptr<f32>>, %c: tile<ptr<i32>>, %i: tile<i32>) {
    %iota64 = iota : tile<64xi32>
    %pa0 = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pa1 = broadcast %pa0 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %pa = offset %pa1, %iota64 : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %x, %tx = load_ptr_tko weak %pa : tile<64xptr<f32>> -> tile<64xf32>, token
    %x1 = extract %x[%i] : tile<64xf32> -> tile<1xf32>
    %f = reshape %x1 : tile<1xf32> -> tile<f32>

    %pi0 = reshape %ia : tile<ptr<i32>> -> tile<1x1xptr<i32>>
    %pi1 = broadcast %pi0 : tile<1x1xptr<i32>> -> tile<16x4xptr<i32>>
    %idx = reshape %iota64 : tile<64xi32> -> tile<16x4xi32>
    %pi = offset %pi1, %idx : tile<16x4xptr<i32>>, tile<16x4xi32> -> tile<16x4xptr<i32>>
    %y, %ty = load_ptr_tko weak %pi : tile<16x4xptr<i32>> -> tile<16x4xi32>, token
    %s4 = constant <i32: 4> : tile<i32>
    %r = divi %i, %s4 signed : tile<i32>
    %q = remi %i, %s4 signed : tile<i32>
    %y1 = extract %y[%r, %q] : tile<16x4xi32> -> tile<1x1xi32>
    %n = reshape %y1 : tile<1x1xi32> -> tile<i32>

    %iota16 = iota : tile<16xi32>
    %f1 = reshape %f : tile<f32> -> tile<1xf32>
    %fb = broadcast %f1 : tile<1xf32> -> tile<16xf32>
    %pb0 = reshape %b : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb1 = broadcast %pb0 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %pb = offset %pb1, %iota16 : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>
    %t1 = store_ptr_tko weak %pb, %fb : tile<16xptr<f32>>, tile<16xf32> -> token
    // The scalar used as an offset, as MoE uses its expert id.
    %n1 = reshape %n : tile<i32> -> tile<1xi32>
    %nb = broadcast %n1 : tile<1xi32> -> tile<16xi32>
    %pc0 = reshape %c : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pc1 = broadcast %pc0 : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %pc = offset %pc1, %iota16 : tile<16xptr<i32>>, tile<16xi32> -> tile<16xptr<i32>>
    %nplus = addi %nb, %iota16 : tile<16xi32>
    %t2 = store_ptr_tko weak %pc, %nplus : tile<16xptr<i32>>, tile<16xi32> -> token
    return
  }
}

// tile-lower -O0: each 0-d reshape reads the element through a rank-1 reduce
// whose combiner ORs the element's bits (f32 bitcast to i32 and back).
// LOWER-LABEL: func.func @item
// LOWER: tile_as.extract
// LOWER: %[[BITS:.*]] = arith.bitcast %{{.*}} : tensor<1xf32> to tensor<1xi32>
// LOWER: tile_as.reduce %[[BITS]] axis = 0 identities = [0 : i32] : tensor<1xi32> -> i32
// LOWER: arith.ori
// LOWER: tile_as.combine_yield
// LOWER: arith.bitcast %{{.*}} : i32 to f32
// LOWER: tile_as.reshape %{{.*}} : tensor<1x1xi32> -> tensor<1xi32>
// LOWER: tile_as.reduce %{{.*}} axis = 0 identities = [0 : i32] : tensor<1xi32> -> i32
// LOWER-NOT: cuda_tile.reshape
