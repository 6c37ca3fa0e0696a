// ftof f32 -> f8E8M0FNU under each rounding the verifier allows (zero,
// positive_inf, nearest_even), the scale bytes stored as they are, and
// e8m0 -> f32 of the nearest_even bytes. fp8.bats checks them against
// mx_reference.py's e8m0 reference.
cuda_tile.module @kernels {
  entry @e8m0(%x: tile<ptr<f32>>, %rz: tile<ptr<f8E8M0FNU>>, %rp: tile<ptr<f8E8M0FNU>>, %rn: tile<ptr<f8E8M0FNU>>, %back: tile<ptr<f32>>) {
    %tok = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %xt, %t0 = load_view_tko weak %xp[%c0] token = %tok : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %z = ftof %xt rounding<zero> : tile<256xf32> -> tile<256xf8E8M0FNU>
    %p = ftof %xt rounding<positive_inf> : tile<256xf32> -> tile<256xf8E8M0FNU>
    %n = ftof %xt : tile<256xf32> -> tile<256xf8E8M0FNU>
    %b = ftof %n : tile<256xf8E8M0FNU> -> tile<256xf32>
    %zv = make_tensor_view %rz, shape = [256], strides = [1] : tensor_view<256xf8E8M0FNU, strides=[1]>
    %zp = make_partition_view %zv : partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>
    %t1 = store_view_tko weak %z, %zp[%c0] token = %tok : tile<256xf8E8M0FNU>, partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>, tile<i32> -> token
    %pv = make_tensor_view %rp, shape = [256], strides = [1] : tensor_view<256xf8E8M0FNU, strides=[1]>
    %pp = make_partition_view %pv : partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>
    %t2 = store_view_tko weak %p, %pp[%c0] token = %tok : tile<256xf8E8M0FNU>, partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>, tile<i32> -> token
    %nv = make_tensor_view %rn, shape = [256], strides = [1] : tensor_view<256xf8E8M0FNU, strides=[1]>
    %np = make_partition_view %nv : partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>
    %t3 = store_view_tko weak %n, %np[%c0] token = %tok : tile<256xf8E8M0FNU>, partition_view<tile=(256), tensor_view<256xf8E8M0FNU, strides=[1]>>, tile<i32> -> token
    %bv = make_tensor_view %back, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %bp = make_partition_view %bv : partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>
    %t4 = store_view_tko weak %b, %bp[%c0] token = %tok : tile<256xf32>, partition_view<tile=(256), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
