// global / get_global: module-level arrays in global memory with their
// initializers; a kernel reads two and writes a third and reads it back (every
// thread holding an element writes the same value, so the replicas agree).
// LOWER: tile_as.global "val" {constant} = dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tensor<4xf32>
// LOWER: tile_as.global "counts" {alignment = 256 : i64, internal}
// LOWER-LABEL: func.func @k
// LOWER: tile_as.get_global @val : <f32, 1>
// LLVM-DAG: @val = addrspace(1) constant [4 x float] [float 0x3FB99999A0000000, float 0x3FC99999A0000000, float 0x3FD3333340000000, float 0x3FD99999A0000000], align 4
// LLVM-DAG: @counts = internal addrspace(1) global [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 256
// LLVM-DAG: @scratch = addrspace(1) global [4 x i32] zeroinitializer, align 4
cuda_tile.module @m {
  global constant @val <f32: [0.1, 0.2, 0.3, 0.4]> : tile<4xf32>
  global private @counts alignment = 256 <i32: [1, 2, 3, 4]> : tile<4xi32>
  global @scratch <i32: 0> : tile<4xi32>
  entry @k(%out: tile<ptr<f32>>) {
    %i = iota : tile<4xi32>
    %g = get_global @val : tile<ptr<f32>>
    %gr = reshape %g : tile<ptr<f32>> -> tile<1xptr<f32>>
    %gb = broadcast %gr : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %gq = offset %gb, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %v, %t0 = load_ptr_tko weak %gq : tile<4xptr<f32>> -> tile<4xf32>, token
    %c = get_global @counts : tile<ptr<i32>>
    %cr = reshape %c : tile<ptr<i32>> -> tile<1xptr<i32>>
    %cb = broadcast %cr : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %cq = offset %cb, %i : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %n, %t1 = load_ptr_tko weak %cq : tile<4xptr<i32>> -> tile<4xi32>, token
    %s = get_global @scratch : tile<ptr<i32>>
    %sr = reshape %s : tile<ptr<i32>> -> tile<1xptr<i32>>
    %sb = broadcast %sr : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %sq = offset %sb, %i : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %c1 = constant <i32: 1> : tile<4xi32>
    %c10 = constant <i32: 10> : tile<4xi32>
    %i1 = addi %i, %c1 : tile<4xi32>
    %tens = muli %i1, %c10 : tile<4xi32>
    %t2 = store_ptr_tko weak %sq, %tens token = %t1 : tile<4xptr<i32>>, tile<4xi32> -> token
    %m, %t3 = load_ptr_tko weak %sq token = %t2 : tile<4xptr<i32>> -> tile<4xi32>, token
    %nm = addi %n, %m : tile<4xi32>
    %nmf = itof %nm signed : tile<4xi32> -> tile<4xf32>
    %sum = addf %v, %nmf : tile<4xf32>
    %or = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %or : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %oq = offset %ob, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %t4 = store_ptr_tko weak %oq, %sum : tile<4xptr<f32>>, tile<4xf32> -> token
    return
  }
}
