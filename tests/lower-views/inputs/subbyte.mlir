// i4 and f4E2M1FN tiles through views: two elements to a byte in memory,
// element 2k in the low nibble of byte k (PackedBits.h).
//
// @ints, one 4x16 tile per block (rows 4b..4b+3) of an m x 12 i4 tensor `a`
// (rows 12 nibbles apart, 6 bytes): columns 12..15 are out of bounds and
// read the padding (zero).
//   wide[r, c]  = a[r, c] sign-extended for c < 12, else 0     (m x 16 i8)
//   neg[r, c]   = -a[r, c] (i4 wrap) for c < 11                 (m x 11 i4, rows 16 nibbles apart)
//   pair[r, c]  = -a[r, c] (i4 wrap) for c < 12                 (m x 12 i4, rows 16 nibbles apart)
// The nibbles past each row of `neg` and `pair` (11..15, 12..15) belong to
// no tensor and must keep what they held. `neg` has an odd width, so a byte
// may hold one element that is stored and one that is not: each nibble is
// stored alone (atomic and/or on its word). `pair`'s base is assumed 16-byte
// aligned and its width is even, so whole bytes are stored.
//
// @floats: f4E2M1FN in an m x 6 tensor (3 bytes a row), 4x8 tiles padded
// with neg_zero (columns 6, 7), doubled through f32 (ftof saturates at 6)
// and stored to a same-shaped tensor (pairs proven: whole bytes).
cuda_tile.module @kernels {
  entry @ints(%a: tile<ptr<i4>>, %wide: tile<ptr<i8>>, %neg: tile<ptr<i4>>, %pair0: tile<ptr<i4>>, %m: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %a, shape = [%m, 12], strides = [12, 1] : tile<i32> -> tensor_view<?x12xi4, strides=[12,1]>
    %ap = make_partition_view %av : partition_view<tile=(4x16), padding_value = zero, tensor_view<?x12xi4, strides=[12,1]>>
    %t, %t1 = load_view_tko weak %ap[%bx, %c0] token = %tok : partition_view<tile=(4x16), padding_value = zero, tensor_view<?x12xi4, strides=[12,1]>>, tile<i32> -> tile<4x16xi4>, token
    %w = exti %t signed : tile<4x16xi4> -> tile<4x16xi8>
    %wv = make_tensor_view %wide, shape = [%m, 16], strides = [16, 1] : tile<i32> -> tensor_view<?x16xi8, strides=[16,1]>
    %wp = make_partition_view %wv : partition_view<tile=(4x16), tensor_view<?x16xi8, strides=[16,1]>>
    %t2 = store_view_tko weak %w, %wp[%bx, %c0] token = %t1 : tile<4x16xi8>, partition_view<tile=(4x16), tensor_view<?x16xi8, strides=[16,1]>>, tile<i32> -> token
    %z = constant <i8: 0> : tile<4x16xi8>
    %n8 = subi %z, %w : tile<4x16xi8>
    %n4 = trunci %n8 : tile<4x16xi8> -> tile<4x16xi4>
    %nv = make_tensor_view %neg, shape = [%m, 11], strides = [16, 1] : tile<i32> -> tensor_view<?x11xi4, strides=[16,1]>
    %np = make_partition_view %nv : partition_view<tile=(4x16), tensor_view<?x11xi4, strides=[16,1]>>
    %t3 = store_view_tko weak %n4, %np[%bx, %c0] token = %t2 : tile<4x16xi4>, partition_view<tile=(4x16), tensor_view<?x11xi4, strides=[16,1]>>, tile<i32> -> token
    %pair = assume div_by<16>, %pair0 : tile<ptr<i4>>
    %pv = make_tensor_view %pair, shape = [%m, 12], strides = [16, 1] : tile<i32> -> tensor_view<?x12xi4, strides=[16,1]>
    %pp = make_partition_view %pv : partition_view<tile=(4x16), tensor_view<?x12xi4, strides=[16,1]>>
    %t4 = store_view_tko weak %n4, %pp[%bx, %c0] token = %t3 : tile<4x16xi4>, partition_view<tile=(4x16), tensor_view<?x12xi4, strides=[16,1]>>, tile<i32> -> token
    return
  }

  entry @floats(%x: tile<ptr<f4E2M1FN>>, %out0: tile<ptr<f4E2M1FN>>, %m: tile<i32>) {
    %tok = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [%m, 6], strides = [6, 1] : tile<i32> -> tensor_view<?x6xf4E2M1FN, strides=[6,1]>
    %xp = make_partition_view %xv : partition_view<tile=(4x8), padding_value = neg_zero, tensor_view<?x6xf4E2M1FN, strides=[6,1]>>
    %t, %t1 = load_view_tko weak %xp[%bx, %c0] token = %tok : partition_view<tile=(4x8), padding_value = neg_zero, tensor_view<?x6xf4E2M1FN, strides=[6,1]>>, tile<i32> -> tile<4x8xf4E2M1FN>, token
    %f = ftof %t : tile<4x8xf4E2M1FN> -> tile<4x8xf32>
    %two = constant <f32: 2.0> : tile<4x8xf32>
    %d = mulf %f, %two : tile<4x8xf32>
    %d4 = ftof %d : tile<4x8xf32> -> tile<4x8xf4E2M1FN>
    %out = assume div_by<16>, %out0 : tile<ptr<f4E2M1FN>>
    %ov = make_tensor_view %out, shape = [%m, 6], strides = [6, 1] : tile<i32> -> tensor_view<?x6xf4E2M1FN, strides=[6,1]>
    %op = make_partition_view %ov : partition_view<tile=(4x8), tensor_view<?x6xf4E2M1FN, strides=[6,1]>>
    %t2 = store_view_tko weak %d4, %op[%bx, %c0] token = %t1 : tile<4x8xf4E2M1FN>, partition_view<tile=(4x8), tensor_view<?x6xf4E2M1FN, strides=[6,1]>>, tile<i32> -> token
    return
  }
}

// Loads: each element's byte at base + (offset >> 1), shifted right by
// 4 * (offset & 1), truncated to 4 bits; out-of-bounds elements take the
// padding after the load.
// LOWER-LABEL: func.func @ints(
// LOWER: %[[BYTES:.*]], %{{.*}} = tile_aa.load {{.*}} : tensor<4x16x!tile_aa.ptr<i8, 1>>, tensor<4x16xi1>, tensor<4x16xi8> -> tensor<4x16xi8>
// LOWER: %[[SHIFTED:.*]] = arith.shrui %[[BYTES]], %{{.*}} : tensor<4x16xi8>
// LOWER-NEXT: %[[NIBBLES:.*]] = arith.trunci %[[SHIFTED]] : tensor<4x16xi8> to tensor<4x16xi4>
// LOWER-NEXT: arith.select %{{.*}}, %[[NIBBLES]], %{{.*}} : tensor<4x16xi1>, tensor<4x16xi4>
// An odd-width tensor: each nibble cleared and set in its 32-bit word.
// LOWER: tile_aa.atomic_rmw "and" {{.*}} : tensor<4x16x!tile_aa.ptr<i32, 1>>, tensor<4x16xi32>, tensor<4x16xi1>
// LOWER-NEXT: tile_aa.atomic_rmw "or" {{.*}} : tensor<4x16x!tile_aa.ptr<i32, 1>>, tensor<4x16xi32>, tensor<4x16xi1>
// Pairs proven: a 4x8 tile of bytes.
// LOWER: tile_aa.store {{.*}} {contiguity = 2 : i64} : tensor<4x8x!tile_aa.ptr<i8, 1>>, tensor<4x8xi8>, tensor<4x8xi1>
// LOWER-LABEL: func.func @floats(
// LOWER: arith.bitcast {{.*}} : tensor<4x8xi4> to tensor<4x8xf4E2M1FN>
// LOWER-NEXT: arith.select
// LOWER: tile_aa.store {{.*}} : tensor<4x4x!tile_aa.ptr<i8, 1>>, tensor<4x4xi8>, tensor<4x4xi1>
// LOWER-NOT: atomic_rmw
