// assert: a thread holding a false element calls __assertfail with the
// message, the kernel's source position and the kernel's name.
// LOWER-LABEL: func.func @k
// LOWER: tile_as.assert %{{.*}}, "value out of range" : tensor<128xi1, {{.*}}>
// LOWER: tile_as.assert %{{.*}}, "n is negative" : i1
// LLVM: c"value out of range\00"
// LLVM: call void @__assertfail(ptr @__tile_str{{[0-9]+}}, ptr @__tile_str{{[0-9]+}}, i32 {{[0-9]+}}, ptr @__tile_str{{[0-9]+}}, i64 1)
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %i = iota : tile<128xi32>
    %q = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %v, %t = load_ptr_tko weak %q : tile<128xptr<i32>> -> tile<128xi32>, token
    %limit = constant <i32: 100> : tile<128xi32>
    %ok = cmpi less_than %v, %limit, signed : tile<128xi32> -> tile<128xi1>
    assert %ok, "value out of range" : tile<128xi1>
    %zero = constant <i32: 0> : tile<i32>
    %nonneg = cmpi greater_than_or_equal %n, %zero, signed : tile<i32> -> tile<i1>
    assert %nonneg, "n is negative" : tile<i1>
    return
  }
}
