// alloca without `global`: a buffer private to each tile block (shared
// memory). Each block copies its 16x32 tile of `a` (an M x 32 f32 tensor)
// into its own buffer, reads it back, and writes the result; a second
// buffer round-trips the tile's rows reversed through pointer tiles
// (offset + load_ptr/store_ptr), so the two buffers must not overlap.
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

    %buf = alloca num_elem = 512, alignment = 16 : tile<ptr<f32>>
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
    %buf2 = alloca num_elem = 512, alignment = 128 : tile<ptr<f32>>
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

// Each alloca is its own shared buffer, seen through its generic address;
// every access of the kernel uses generic pointers and is followed by a CTA
// barrier (the next access may involve other threads).
// LOWER-LABEL: func.func @scratch(
// LOWER: tile_as.load %{{.*}} : tensor<16x32x!tile_as.ptr<f32, 0>>
// LOWER-NEXT: nvvm.barrier0
// LOWER: tile_as.alloca {alignment = 16 : i64, num_elem = 512 : i64} : <f32, 0>
// LOWER: tile_as.store %{{.*}} : tensor<16x32x!tile_as.ptr<f32, 0>>
// LOWER-NEXT: nvvm.barrier0
// LOWER: tile_as.alloca {alignment = 128 : i64, num_elem = 512 : i64} : <f32, 0>
// PTX-DAG: .shared .align 16 .b8 __tile_alloca{{[0-9]}}[2048];
// PTX-DAG: .shared .align 128 .b8 __tile_alloca{{[0-9]}}[2048];
// PTX-NOT: ld.global
// PTX-NOT: st.global
