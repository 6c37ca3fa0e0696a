// print_tko: once per tile block, a tile as a nested [a, b, ...] list with
// the conversion applied to each element; arguments promoted as C's printf
// does (floats to double, i1/i16 to int, i64 with %lld).
// LOWER-LABEL: func.func @k
// LOWER: tile_as.print "block %d: %d %.2f\0A", %{{.*}}, %{{.*}}, %{{.*}} : i32, tensor<8xi32, {{.*}}>, tensor<8xf32, {{.*}}>
// LLVM-DAG: @__tile_str{{[0-9]+}} = internal constant [{{[0-9]+}} x i8] c"block %d: [%d, %d, %d, %d, %d, %d, %d, %d] [%.2f, %.2f, %.2f, %.2f, %.2f, %.2f, %.2f, %.2f]\0A\00"
// LLVM-DAG: @__tile_str{{[0-9]+}} = internal constant {{.*}} c"{{\[\[}}%lld, %lld, %lld, %lld], [%lld, %lld, %lld, %lld]] [%d, %d] %5.1f %d\0A\00"
// LLVM: call i32 @vprintf(
cuda_tile.module @m {
  entry @k() {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %i = iota : tile<8xi32>
    %f = itof %i signed : tile<8xi32> -> tile<8xf32>
    %t0 = print_tko "block %d: %d %.2f\n", %bx, %i, %f : tile<i32>, tile<8xi32>, tile<8xf32> -> token
    %l = exti %i signed : tile<8xi32> -> tile<8xi64>
    %l2 = reshape %l : tile<8xi64> -> tile<2x4xi64>
    %c1 = constant <i32: 1> : tile<2xi32>
    %j = iota : tile<2xi32>
    %flags = cmpi less_than %j, %c1, signed : tile<2xi32> -> tile<2xi1>
    %h = constant <f16: 2.5> : tile<f16>
    %s = constant <i16: -7> : tile<i16>
    %t1 = print_tko "%lld %d %5.1f %d\n", %l2, %flags, %h, %s token = %t0 : tile<2x4xi64>, tile<2xi1>, tile<f16>, tile<i16> -> token
    %t2 = print_tko "done 100%%\n" token = %t1 -> token
    return
  }
}
