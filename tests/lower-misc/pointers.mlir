// int_to_ptr / ptr_to_int / ptr_to_ptr on a scalar pointer and on a tile of
// pointers: the kernel reaches its data only through the casts, doubles it,
// and stores each pointer's byte offset from the base (4 * i).
// LOWER-LABEL: func.func @k
// LOWER: tile_as.ptr_to_int %{{.*}} : !tile_as.ptr<f32, 1> -> i64
// LOWER: tile_as.int_to_ptr %{{.*}} : i64 -> !tile_as.ptr<i32, 1>
// LOWER: tile_as.ptr_to_ptr %{{.*}} : !tile_as.ptr<i32, 1> -> !tile_as.ptr<f32, 1>
// LOWER: tile_as.ptr_to_int %{{.*}} : tensor<128x!tile_as.ptr<f32, 1>> -> tensor<128xi64>
// LOWER: tile_as.int_to_ptr %{{.*}} : tensor<128xi64> -> tensor<128x!tile_as.ptr<i32, 1>>
// LLVM-LABEL: define {{.*}} @k(
// LLVM: ptrtoint ptr addrspace(1) %0 to i64
// LLVM: inttoptr i64 %{{.*}} to ptr addrspace(1)
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %d: tile<ptr<i64>>) {
    %a = ptr_to_int %p : tile<ptr<f32>> -> tile<i64>
    %b = int_to_ptr %a : tile<i64> -> tile<ptr<i32>>
    %c = ptr_to_ptr %b : tile<ptr<i32>> -> tile<ptr<f32>>
    %cr = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
    %cb = broadcast %cr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %i = iota : tile<128xi32>
    %q = offset %cb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %qi = ptr_to_int %q : tile<128xptr<f32>> -> tile<128xi64>
    %qp = int_to_ptr %qi : tile<128xi64> -> tile<128xptr<i32>>
    %qf = ptr_to_ptr %qp : tile<128xptr<i32>> -> tile<128xptr<f32>>
    %v, %t1 = load_ptr_tko weak %qf : tile<128xptr<f32>> -> tile<128xf32>, token
    %w = addf %v, %v : tile<128xf32>
    %t2 = store_ptr_tko weak %q, %w token = %t1 : tile<128xptr<f32>>, tile<128xf32> -> token
    %ar = reshape %a : tile<i64> -> tile<1xi64>
    %ab = broadcast %ar : tile<1xi64> -> tile<128xi64>
    %off = subi %qi, %ab : tile<128xi64>
    %dr = reshape %d : tile<ptr<i64>> -> tile<1xptr<i64>>
    %db = broadcast %dr : tile<1xptr<i64>> -> tile<128xptr<i64>>
    %dq = offset %db, %i : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
    %t3 = store_ptr_tko weak %dq, %off : tile<128xptr<i64>>, tile<128xi64> -> token
    return
  }
}
