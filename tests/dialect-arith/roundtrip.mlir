// Every op of CudaTileArithOps.td in NVIDIA's printed form (the text
// cuda-tile-opt prints: default rounding modes elided, leaving two spaces).
// Run by arith.bats: tile-opt %s | FileCheck --strict-whitespace %s
// Run by arith.bats: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck --strict-whitespace %s

cuda_tile.module @arith {
  // CHECK-LABEL: entry @float_unary
  entry @float_unary() {
    %x = constant <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
    %h = constant <f16: 1.000000e+00> : tile<f16>
    // CHECK: absf %{{.*}} : tile<2xf32>
    %0 = absf %x : tile<2xf32>
    // CHECK: ceil %{{.*}} : tile<2xf32>
    %1 = ceil %x : tile<2xf32>
    // CHECK: cos %{{.*}} : tile<f16>
    %2 = cos %h : tile<f16>
    // CHECK: cosh %{{.*}} : tile<2xf32>
    %3 = cosh %x : tile<2xf32>
    // CHECK: floor %{{.*}} : tile<2xf32>
    %4 = floor %x : tile<2xf32>
    // CHECK: log %{{.*}} : tile<2xf32>
    %5 = log %x : tile<2xf32>
    // CHECK: log2 %{{.*}} : tile<2xf32>
    %6 = log2 %x : tile<2xf32>
    // CHECK: negf %{{.*}} : tile<2xf32>
    %7 = negf %x : tile<2xf32>
    // CHECK: sin %{{.*}} : tile<2xf32>
    %8 = sin %x : tile<2xf32>
    // CHECK: sinh %{{.*}} : tile<2xf32>
    %9 = sinh %x : tile<2xf32>
    // CHECK: tan %{{.*}} : tile<2xf32>
    %10 = tan %x : tile<2xf32>
    // CHECK: exp2 %{{.*}} : tile<2xf32>
    %11 = exp2 %x : tile<2xf32>
    // CHECK: exp2 %{{.*}} flush_to_zero : tile<2xf32>
    %12 = exp2 %x flush_to_zero : tile<2xf32>
    // CHECK: rsqrt %{{.*}} : tile<2xf32>
    %13 = rsqrt %x : tile<2xf32>
    // CHECK: rsqrt %{{.*}} flush_to_zero : tile<2xf32>
    %14 = rsqrt %x flush_to_zero : tile<2xf32>
    // CHECK: sqrt %{{[a-z0-9_]+}}  : tile<2xf32>
    %15 = sqrt %x : tile<2xf32>
    // CHECK: sqrt %{{[a-z0-9_]+}}  : tile<f16>
    %16 = sqrt %h rounding<nearest_even> : tile<f16>
    // CHECK: sqrt %{{.*}} rounding<approx> flush_to_zero : tile<2xf32>
    %17 = sqrt %x rounding<approx> flush_to_zero : tile<2xf32>
    // CHECK: sqrt %{{.*}} rounding<positive_inf> : tile<2xf32>
    %18 = sqrt %x rounding<positive_inf> : tile<2xf32>
    // CHECK: exp %{{[a-z0-9_]+}}  : tile<2xf32>
    %19 = exp %x : tile<2xf32>
    // CHECK: exp %{{[a-z0-9_]+}}  : tile<2xf32>
    %20 = exp %x rounding<full> : tile<2xf32>
    // CHECK: exp %{{.*}} rounding<approx> : tile<2xf32>
    %21 = exp %x rounding<approx> : tile<2xf32>
    // CHECK: tanh %{{[a-z0-9_]+}}  : tile<f16>
    %22 = tanh %h : tile<f16>
    // CHECK: tanh %{{.*}} rounding<approx> : tile<2xf32>
    %23 = tanh %x rounding<approx> : tile<2xf32>
    return
  }

  // CHECK-LABEL: entry @float_binary
  entry @float_binary() {
    %x = constant <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
    %d = constant <f64: 1.000000e+00> : tile<f64>
    // CHECK: addf %{{.*}}, %{{[a-z0-9_]+}}  : tile<2xf32>
    %0 = addf %x, %x : tile<2xf32>
    // CHECK: addf %{{.*}}, %{{[a-z0-9_]+}} rounding<zero> flush_to_zero : tile<2xf32>
    %1 = addf %x, %x rounding<zero> flush_to_zero : tile<2xf32>
    // CHECK: subf %{{.*}}, %{{[a-z0-9_]+}} rounding<negative_inf> : tile<f64>
    %2 = subf %d, %d rounding<negative_inf> : tile<f64>
    // CHECK: mulf %{{.*}}, %{{[a-z0-9_]+}}  flush_to_zero : tile<2xf32>
    %3 = mulf %x, %x flush_to_zero : tile<2xf32>
    // CHECK: divf %{{.*}}, %{{[a-z0-9_]+}}  : tile<f64>
    %4 = divf %d, %d : tile<f64>
    // CHECK: divf %{{.*}}, %{{[a-z0-9_]+}} rounding<approx> flush_to_zero : tile<2xf32>
    %5 = divf %x, %x rounding<approx> flush_to_zero : tile<2xf32>
    // CHECK: divf %{{.*}}, %{{[a-z0-9_]+}} rounding<full> : tile<2xf32>
    %6 = divf %x, %x rounding<full> : tile<2xf32>
    // CHECK: remf %{{.*}}, %{{[a-z0-9_]+}} : tile<2xf32>
    %7 = remf %x, %x : tile<2xf32>
    // CHECK: pow %{{.*}}, %{{[a-z0-9_]+}} : tile<2xf32>
    %8 = pow %x, %x : tile<2xf32>
    // CHECK: atan2 %{{.*}}, %{{[a-z0-9_]+}} : tile<f64>
    %9 = atan2 %d, %d : tile<f64>
    // CHECK: maxf %{{.*}}, %{{[a-z0-9_]+}} : tile<2xf32>
    %10 = maxf %x, %x : tile<2xf32>
    // CHECK: maxf %{{.*}}, %{{[a-z0-9_]+}} flush_to_zero propagate_nan : tile<2xf32>
    %11 = maxf %x, %x propagate_nan flush_to_zero : tile<2xf32>
    // CHECK: minf %{{.*}}, %{{[a-z0-9_]+}} propagate_nan : tile<f64>
    %12 = minf %d, %d propagate_nan : tile<f64>
    // CHECK: fma %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}}  : tile<2xf32>
    %13 = fma %x, %x, %x : tile<2xf32>
    // CHECK: fma %{{.*}}, %{{.*}}, %{{[a-z0-9_]+}} rounding<zero> flush_to_zero : tile<2xf32>
    %14 = fma %x, %x, %x rounding<zero> flush_to_zero : tile<2xf32>
    // CHECK: cmpf less_than ordered %{{.*}}, %{{.*}} : tile<2xf32> -> tile<2xi1>
    %15 = cmpf less_than ordered %x, %x : tile<2xf32> -> tile<2xi1>
    // CHECK: cmpf not_equal unordered %{{.*}}, %{{.*}} : tile<f64> -> tile<i1>
    %16 = cmpf not_equal unordered %d, %d : tile<f64> -> tile<i1>
    %n = constant <i32: [1, 2]> : tile<2xi32>
    // CHECK: powi %{{.*}}, %{{.*}} : tile<2xf32>, tile<2xi32>
    %17 = powi %x, %n : tile<2xf32>, tile<2xi32>
    return
  }

  // CHECK-LABEL: entry @integer
  entry @integer() {
    %a = constant <i32: [1, 2]> : tile<2xi32>
    %b = constant <i1: true> : tile<i1>
    // CHECK: absi %{{.*}} : tile<2xi32>
    %0 = absi %a : tile<2xi32>
    // CHECK: negi %{{.*}} : tile<2xi32>
    %1 = negi %a : tile<2xi32>
    // CHECK: negi %{{.*}} overflow<no_signed_wrap> : tile<2xi32>
    %2 = negi %a overflow<no_signed_wrap> : tile<2xi32>
    // CHECK: addi %{{.*}}, %{{.*}} : tile<2xi32>
    %3 = addi %a, %a overflow<none> : tile<2xi32>
    // CHECK: addi %{{.*}}, %{{.*}} overflow<no_wrap> : tile<i1>
    %4 = addi %b, %b overflow<no_wrap> : tile<i1>
    // CHECK: subi %{{.*}}, %{{.*}} overflow<no_unsigned_wrap> : tile<2xi32>
    %5 = subi %a, %a overflow<no_unsigned_wrap> : tile<2xi32>
    // CHECK: muli %{{.*}}, %{{.*}} : tile<2xi32>
    %6 = muli %a, %a : tile<2xi32>
    // CHECK: shli %{{.*}}, %{{.*}} overflow<no_signed_wrap> : tile<2xi32>
    %7 = shli %a, %a overflow<no_signed_wrap> : tile<2xi32>
    // CHECK: shri %{{.*}}, %{{.*}} unsigned : tile<2xi32>
    %8 = shri %a, %a unsigned : tile<2xi32>
    // CHECK: maxi %{{.*}}, %{{.*}} signed : tile<2xi32>
    %9 = maxi %a, %a signed : tile<2xi32>
    // CHECK: mini %{{.*}}, %{{.*}} unsigned : tile<2xi32>
    %10 = mini %a, %a unsigned : tile<2xi32>
    // CHECK: remi %{{.*}}, %{{.*}} signed : tile<2xi32>
    %11 = remi %a, %a signed : tile<2xi32>
    // CHECK: divi %{{.*}}, %{{.*}} signed : tile<2xi32>
    %12 = divi %a, %a signed : tile<2xi32>
    // CHECK: divi %{{.*}}, %{{.*}} signed rounding<negative_inf> : tile<2xi32>
    %13 = divi %a, %a signed rounding<negative_inf> : tile<2xi32>
    // CHECK: divi %{{.*}}, %{{.*}} unsigned rounding<positive_inf> : tile<2xi32>
    %14 = divi %a, %a unsigned rounding<positive_inf> : tile<2xi32>
    // CHECK: mulhii %{{.*}}, %{{.*}} : tile<2xi32>
    %15 = mulhii %a, %a : tile<2xi32>
    // CHECK: andi %{{.*}}, %{{.*}} : tile<i1>
    %16 = andi %b, %b : tile<i1>
    // CHECK: ori %{{.*}}, %{{.*}} : tile<2xi32>
    %17 = ori %a, %a : tile<2xi32>
    // CHECK: xori %{{.*}}, %{{.*}} : tile<2xi32>
    %18 = xori %a, %a : tile<2xi32>
    // CHECK: cmpi greater_than_or_equal %{{.*}}, %{{.*}}, unsigned : tile<2xi32> -> tile<2xi1>
    %19 = cmpi greater_than_or_equal %a, %a, unsigned : tile<2xi32> -> tile<2xi1>
    // CHECK: select %{{.*}}, %{{.*}}, %{{.*}} : tile<2xi1>, tile<2xi32>
    %20 = select %19, %a, %a : tile<2xi1>, tile<2xi32>
    return
  }

  // CHECK-LABEL: entry @conversions
  entry @conversions(%p: tile<ptr<f32>>) {
    %i = constant <i16: [1, 2]> : tile<2xi16>
    %f = constant <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
    // CHECK: bitcast %{{.*}} : tile<2xi16> -> tile<2xf16>
    %0 = bitcast %i : tile<2xi16> -> tile<2xf16>
    // CHECK: exti %{{.*}} signed : tile<2xi16> -> tile<2xi64>
    %1 = exti %i signed : tile<2xi16> -> tile<2xi64>
    // CHECK: trunci %{{.*}} : tile<2xi16> -> tile<2xi8>
    %2 = trunci %i : tile<2xi16> -> tile<2xi8>
    // CHECK: trunci %{{.*}} overflow<no_wrap> : tile<2xi16> -> tile<2xi4>
    %3 = trunci %i overflow<no_wrap> : tile<2xi16> -> tile<2xi4>
    // CHECK: ftof %{{[a-z0-9_]+}}  : tile<2xf32> -> tile<2xbf16>
    %4 = ftof %f : tile<2xf32> -> tile<2xbf16>
    // CHECK: ftof %{{.*}} rounding<zero> : tile<2xf32> -> tile<2xf8E8M0FNU>
    %5 = ftof %f rounding<zero> : tile<2xf32> -> tile<2xf8E8M0FNU>
    // CHECK: ftoi %{{.*}} unsigned  : tile<2xf32> -> tile<2xi32>
    %6 = ftoi %f unsigned : tile<2xf32> -> tile<2xi32>
    // CHECK: itof %{{.*}} signed  : tile<2xi16> -> tile<2xf64>
    %7 = itof %i signed : tile<2xi16> -> tile<2xf64>
    // CHECK: ptr_to_int %{{.*}} : tile<ptr<f32>> -> tile<i64>
    %8 = ptr_to_int %p : tile<ptr<f32>> -> tile<i64>
    // CHECK: int_to_ptr %{{.*}} : tile<i64> -> tile<ptr<i8>>
    %9 = int_to_ptr %8 : tile<i64> -> tile<ptr<i8>>
    // CHECK: ptr_to_ptr %{{.*}} : tile<ptr<i8>> -> tile<ptr<f64>>
    %10 = ptr_to_ptr %9 : tile<ptr<i8>> -> tile<ptr<f64>>
    return
  }

  // CHECK-LABEL: entry @shapes
  entry @shapes(%idx: tile<i32>) {
    %s = constant <f32: 1.000000e+00> : tile<f32>
    %m = constant <f32: 1.000000e+00> : tile<2x4xf32>
    // CHECK: %reshape = reshape %{{.*}} : tile<f32> -> tile<1x1xf32>
    %0 = reshape %s : tile<f32> -> tile<1x1xf32>
    // CHECK: %bcast = broadcast %reshape : tile<1x1xf32> -> tile<2x1xf32>
    %1 = broadcast %0 : tile<1x1xf32> -> tile<2x1xf32>
    // CHECK: cat %{{.*}}, %{{.*}} dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<2x8xf32>
    %2 = cat %m, %m dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<2x8xf32>
    // CHECK: extract %{{.*}}[%{{.*}}, %{{.*}}] : tile<2x8xf32> -> tile<1x4xf32>
    %3 = extract %2[%idx, %idx] : tile<2x8xf32> -> tile<1x4xf32>
    // CHECK: iota : tile<8xi32>
    %4 = iota : tile<8xi32>
    // CHECK: permute %{{.*}} [1, 0] : tile<2x4xf32> -> tile<4x2xf32>
    %5 = permute %m [1, 0] : tile<2x4xf32> -> tile<4x2xf32>
    // CHECK: pack %{{.*}} : tile<2x4xf32> -> tile<32xi8>
    %6 = pack %m : tile<2x4xf32> -> tile<32xi8>
    // CHECK: unpack %{{.*}} : tile<32xi8> -> tile<16xf16>
    %7 = unpack %6 : tile<32xi8> -> tile<16xf16>
    return
  }
}
