// Atomics beyond one address per element: scalar pointers (run once per
// CTA, the old value seen by every thread), masks, tiles smaller than the
// CTA (replicated over threads, still run once per element), compare-and-
// swap, reduction into a view, and each ordering and scope.
// LOWER-LABEL: func.func @counter
// LOWER: tile_as.atomic_rmw "add" {{.*}} {ordering = "acq_rel", scope = "device"} : !tile_as.ptr<i32, 1>, i32
// LOWER-LABEL: func.func @cas
// LOWER: tile_as.atomic_cas {{.*}} {ordering = "acq_rel", scope = "tl_blk"} : tensor<128x!tile_as.ptr<i32, 1>
// LOWER-LABEL: func.func @red
// LOWER: tile_as.atomic_rmw "addf" {{.*}} {ordering = "relaxed", scope = "device"}
cuda_tile.module @m {
  // Each CTA adds 1 to *c and marks o[old]: every CTA must see its own old
  // value, so o ends all ones and *c the number of CTAs.
  entry @counter(%c: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %one = constant <i32: 1> : tile<i32>
    %old, %t = atomic_rmw_tko acq_rel device %c, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %idx = reshape %old : tile<i32> -> tile<1xi32>
    %op = offset %or, %idx : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %ones = constant <i32: 1> : tile<1xi32>
    %t2 = store_ptr_tko weak %op, %ones : tile<1xptr<i32>>, tile<1xi32> -> token
    return
  }

  // A spin lock as cuTile writes it (layer_norm_bwd): acquire with a CAS in
  // a loop, update *n under the lock, release with an exchange.
  entry @locked(%lock: tile<ptr<i32>>, %n: tile<ptr<i32>>) {
    %t0 = make_token : token
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %true = constant <i1: true> : tile<i1>
    %l = loop iter_values(%it = %t0) : token -> token {
      %old, %t1 = atomic_cas_tko acquire device %lock, %zero, %one, %true token=%it : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
      %busy = cmpi equal %old, %one, signed : tile<i32> -> tile<i1>
      if %busy {
      } else {
        break %t1 : token
      }
      continue %t1 : token
    }
    %np = reshape %n : tile<ptr<i32>> -> tile<1xptr<i32>>
    %v, %t2 = load_ptr_tko weak %np token=%l : tile<1xptr<i32>> -> tile<1xi32>, token
    %ones = constant <i32: 1> : tile<1xi32>
    %w = addi %v, %ones : tile<1xi32>
    %t3 = store_ptr_tko weak %np, %w token=%t2 : tile<1xptr<i32>>, tile<1xi32> -> token
    %r, %t4 = atomic_rmw_tko release sys %lock, xchg, %zero, %true token=%t3 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
    return
  }

  // Four elements over 128 threads, the last masked off: p[0:3] += v once.
  entry @small_masked(%p: tile<ptr<f32>>, %v: tile<ptr<f32>>, %o: tile<ptr<f32>>) {
    %i = iota : tile<4xi32>
    %three = constant <i32: 3> : tile<4xi32>
    %m = cmpi less_than %i, %three, signed : tile<4xi32> -> tile<4xi1>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %pp = offset %pb, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %vr = reshape %v : tile<ptr<f32>> -> tile<1xptr<f32>>
    %vb = broadcast %vr : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %vp = offset %vb, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %or = reshape %o : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %or : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %op = offset %ob, %i : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<4xptr<f32>> -> tile<4xf32>, token
    %old, %t1 = atomic_rmw_tko relaxed tl_blk %pp, addf, %x, %m : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> tile<4xf32>, token
    %t2 = store_ptr_tko weak %op, %old, %m : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> token
    return
  }

  // p[i] = p[i] == c[i] ? v[i] : p[i]; o[i] = old p[i].
  entry @cas(%p: tile<ptr<i32>>, %c: tile<ptr<i32>>, %v: tile<ptr<i32>>, %o: tile<ptr<i32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %pr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %pp = offset %pb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %cr = reshape %c : tile<ptr<i32>> -> tile<1xptr<i32>>
    %cb = broadcast %cr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %cp = offset %cb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %vr = reshape %v : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vb = broadcast %vr : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %vp = offset %vb, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %or = reshape %o : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %or : tile<1xptr<i32>> -> tile<128xptr<i32>>
    %op = offset %ob, %i : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
    %cmp, %t0 = load_ptr_tko weak %cp : tile<128xptr<i32>> -> tile<128xi32>, token
    %val, %t1 = load_ptr_tko weak %vp : tile<128xptr<i32>> -> tile<128xi32>, token
    %old, %t2 = atomic_cas_tko acq_rel tl_blk %pp, %cmp, %val : tile<128xptr<i32>>, tile<128xi32> -> tile<128xi32>, token
    %t3 = store_ptr_tko weak %op, %old : tile<128xptr<i32>>, tile<128xi32> -> token
    return
  }

  // The same on f32 bits, system scope, relaxed.
  entry @cas_f32(%p: tile<ptr<f32>>, %c: tile<ptr<f32>>, %v: tile<ptr<f32>>) {
    %i = iota : tile<128xi32>
    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %pp = offset %pb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %cr = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
    %cb = broadcast %cr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %cp = offset %cb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %vr = reshape %v : tile<ptr<f32>> -> tile<1xptr<f32>>
    %vb = broadcast %vr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %vp = offset %vb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %cmp, %t0 = load_ptr_tko weak %cp : tile<128xptr<f32>> -> tile<128xf32>, token
    %val, %t1 = load_ptr_tko weak %vp : tile<128xptr<f32>> -> tile<128xf32>, token
    %old, %t2 = atomic_cas_tko relaxed sys %pp, %cmp, %val : tile<128xptr<f32>>, tile<128xf32> -> tile<128xf32>, token
    return
  }

  // Tile b of a ragged view of n elements: p[128b + j] += v[128b + j] for
  // the j inside the view.
  entry @red(%p: tile<ptr<f32>>, %n: tile<i32>, %v: tile<ptr<f32>>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %i = iota : tile<128xi32>
    %c128 = constant <i32: 128> : tile<i32>
    %base = muli %bx, %c128 : tile<i32>
    %br = reshape %base : tile<i32> -> tile<1xi32>
    %bb = broadcast %br : tile<1xi32> -> tile<128xi32>
    %j = addi %bb, %i : tile<128xi32>
    %vr = reshape %v : tile<ptr<f32>> -> tile<1xptr<f32>>
    %vb = broadcast %vr : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %vp = offset %vb, %j : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t0 = load_ptr_tko weak %vp : tile<128xptr<f32>> -> tile<128xf32>, token
    %t1 = atomic_red_view_tko relaxed device %pv[%bx], addf, %x : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
