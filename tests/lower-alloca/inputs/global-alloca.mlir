// alloca with `global`: a buffer per tile block in global memory, from the
// device heap. The kernel is alloca.mlir's with both buffers global: each
// block copies its 16x32 tile of `a` (M x 32 f32) through its first buffer,
// and round-trips it with the rows reversed through pointer tiles into the
// second (128-byte aligned, more than malloc's 16), so blocks and buffers
// must not overlap and other threads' writes must be seen.
//   out[i, j] = a[i, j] + 1
//   rev[i, j] = a[16*b + 15 - (i mod 16), j]   (b = i div 16)
cuda_tile.module @kernels {
  entry @scratch(%a: tile<ptr<f32>>, %out: tile<ptr<f32>>, %rev: tile<ptr<f32>>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %m = muli %gx, %c16 : tile<i32>
    %av = make_tensor_view %a, shape = [%m, 32], strides = [32, 1] : tile<i32> -> tensor_view<?x32xf32, strides=[32,1]>
    %ap = make_partition_view %av : partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>
    %t, %t1 = load_view_tko weak %ap[%bx, %bz] token = %tok : partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>, tile<i32> -> tile<16x32xf32>, token

    %buf = alloca num_elem = 512, alignment = 16 global : tile<ptr<f32>>
    %bv = make_tensor_view %buf, shape = [16, 32], strides = [32, 1] : tensor_view<16x32xf32, strides=[32,1]>
    %bp = make_partition_view %bv : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>
    %t2 = store_view_tko weak %t, %bp[%bz, %bz] token = %t1 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> token
    %back, %t3 = load_view_tko weak %bp[%bz, %bz] token = %t2 : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> tile<16x32xf32>, token
    %one = constant <f32: 1.0> : tile<16x32xf32>
    %plus = addf %back, %one : tile<16x32xf32>
    %ov = make_tensor_view %out, shape = [%m, 32], strides = [32, 1] : tile<i32> -> tensor_view<?x32xf32, strides=[32,1]>
    %op = make_partition_view %ov : partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>
    %t4 = store_view_tko weak %plus, %op[%bx, %bz] token = %t3 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>, tile<i32> -> token

    // Rows reversed: element (i, j) is stored at (15 - i) * 32 + j of the
    // second buffer, then read back at the same offsets.
    %buf2 = alloca num_elem = 512, alignment = 128 global : tile<ptr<f32>>
    %rows = iota : tile<16xi32>
    %c15 = constant <i32: 15> : tile<16xi32>
    %rrev = subi %c15, %rows : tile<16xi32>
    %r2 = reshape %rrev : tile<16xi32> -> tile<16x1xi32>
    %rb = broadcast %r2 : tile<16x1xi32> -> tile<16x32xi32>
    %cols = iota : tile<32xi32>
    %c2 = reshape %cols : tile<32xi32> -> tile<1x32xi32>
    %cb = broadcast %c2 : tile<1x32xi32> -> tile<16x32xi32>
    %c32 = constant <i32: 32> : tile<16x32xi32>
    %rowoff = muli %rb, %c32 : tile<16x32xi32>
    %offs = addi %rowoff, %cb : tile<16x32xi32>
    %b1 = reshape %buf2 : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %bb = broadcast %b1 : tile<1x1xptr<f32>> -> tile<16x32xptr<f32>>
    %ptrs = offset %bb, %offs : tile<16x32xptr<f32>>, tile<16x32xi32> -> tile<16x32xptr<f32>>
    %t5 = store_ptr_tko weak %ptrs, %t token = %t4 : tile<16x32xptr<f32>>, tile<16x32xf32> -> token
    %r, %t6 = load_ptr_tko weak %ptrs token = %t5 : tile<16x32xptr<f32>> -> tile<16x32xf32>, token
    // The buffer's rows in order: row i holds a's row 15 - i of this tile.
    %bv2 = make_tensor_view %buf2, shape = [16, 32], strides = [32, 1] : tensor_view<16x32xf32, strides=[32,1]>
    %bp2 = make_partition_view %bv2 : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>
    %inorder, %t7 = load_view_tko weak %bp2[%bz, %bz] token = %t6 : partition_view<tile=(16x32), tensor_view<16x32xf32, strides=[32,1]>>, tile<i32> -> tile<16x32xf32>, token
    %rv = make_tensor_view %rev, shape = [%m, 32], strides = [32, 1] : tile<i32> -> tensor_view<?x32xf32, strides=[32,1]>
    %rp = make_partition_view %rv : partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>
    %t8 = store_view_tko weak %inorder, %rp[%bx, %bz] token = %t7 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x32xf32, strides=[32,1]>>, tile<i32> -> token
    return
  }
}

// Both buffers stay global pointers (no generic addressing, no barrier
// after each access); thread 0 mallocs them at entry (the 128-byte aligned
// one 112 bytes larger, to be aligned up) into shared-memory slots, a
// barrier publishes them, a null block traps, and thread 0 frees both
// before the return.
// LOWER-DAG: @__tile_heap_slot0 = internal addrspace(3) global i64 undef, align 8
// LOWER-DAG: @__tile_heap_slot1 = internal addrspace(3) global i64 undef, align 8
// LOWER-DAG: declare {{.*}}ptr @malloc(i64)
// LOWER-DAG: declare {{.*}}void @free(ptr)
// LOWER-LABEL: define ptx_kernel void @scratch(
// LOWER: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LOWER: call ptr @malloc(i64 2048)
// LOWER: store i64 %{{.*}}, ptr addrspace(3) @__tile_heap_slot0
// LOWER: call ptr @malloc(i64 2160)
// LOWER: store i64 %{{.*}}, ptr addrspace(3) @__tile_heap_slot1
// LOWER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LOWER-NEXT: load i64, ptr addrspace(3) @__tile_heap_slot0
// LOWER: call void @llvm.trap()
// LOWER: addrspacecast ptr %{{.*}} to ptr addrspace(1)
// LOWER: load i64, ptr addrspace(3) @__tile_heap_slot1
// LOWER: call void @llvm.trap()
// LOWER: addrspacecast ptr %{{.*}} to ptr addrspace(1)
// LOWER-NOT: @malloc
// LOWER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LOWER: call void @free(ptr
// LOWER-NEXT: call void @free(ptr
// LOWER: ret void
// PTX-DAG: .extern .func free
// PTX-DAG: .extern .func  (.param .b64 func_retval0) malloc
// PTX: call.uni (retval0), malloc, (param0);
// PTX: st.shared.b64 [__tile_heap_slot0],
// PTX: call.uni (retval0), malloc, (param0);
// PTX: st.shared.b64 [__tile_heap_slot1],
// PTX: cvta.to.global.u64
// PTX: call.uni free, (param0);
// PTX: call.uni free, (param0);
