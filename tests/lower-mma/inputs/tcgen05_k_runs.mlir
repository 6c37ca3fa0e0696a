// tile-sched's output for kernel.py --m 128 --n 64 --k 64 --a bf16 --b-kmajor on sm_100 with B's
// load laid out with 8-element runs along K (K first in the order): the mmaf_global copies B
// K-major (rhs_k_runs). (tile-sched gives no load that layout yet: see lowering.bats.)
module attributes {tile_aa.module_name = "kernels", tile_as.num_warps = 4 : i32, tile_as.opt_level = 3 : i32, tile_as.target = "sm_100", tile_as.threads_per_warp = 32 : i32} {
  func.func @k(%arg0: !tile_as.ptr<bf16, 1>, %arg1: !tile_as.ptr<bf16, 1>, %arg2: !tile_as.ptr<f32, 1>, %arg3: !tile_as.ptr<f32, 1>) {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xbf16, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xbf16, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %0 = tile_as.iota 0 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %1 = tile_as.splat %c0_i32 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %2 = arith.addi %1, %0 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %3 = tile_as.splat %c128_i32 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %4 = arith.cmpi ult, %2, %3 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %5 = tile_as.splat %c64_i32 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %6 = arith.muli %2, %5 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %7 = tile_as.iota 1 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %8 = arith.addi %1, %7 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %9 = arith.cmpi ult, %8, %5 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %10 = arith.andi %4, %9 : tensor<128x64xi1, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %11 = arith.addi %6, %8 : tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %12 = tile_as.splat %arg0 : tensor<128x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %13 = tile_as.addptr %12, %11 : tensor<128x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %14 = tile_as.iota 0 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %15 = tile_as.splat %c0_i32 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %16 = arith.addi %15, %14 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %17 = tile_as.splat %c64_i32 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %18 = arith.cmpi ult, %16, %17 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %19 = tile_as.iota 1 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %20 = arith.addi %15, %19 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %21 = arith.cmpi ult, %20, %17 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %22 = arith.andi %18, %21 : tensor<64x64xi1, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %23 = arith.muli %20, %17 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %24 = arith.addi %16, %23 : tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %25 = tile_as.splat %arg1 : tensor<64x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %26 = tile_as.addptr %25, %24 : tensor<64x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>, tensor<64x64xi32, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
    %27 = tile_as.splat %arg2 : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %28 = tile_as.addptr %27, %11 : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %29 = tile_as.load %28, %10, %cst {contiguity = 4 : i64} : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xi1, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>> -> tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %30 = tile_as.mmaf_global %13 mask %10, %26 mask %22, %29 {rhs_k_runs} : tensor<128x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>> mask tensor<128x64xi1, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<64x64x!tile_as.ptr<bf16, 1>, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>> mask tensor<64x64xi1, #tile_as.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>, tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %31 = tile_as.splat %arg3 : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    %32 = tile_as.addptr %31, %11 : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xi32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    tile_as.store %32, %30, %10 {contiguity = 4 : i64} : tensor<128x64x!tile_as.ptr<f32, 1>, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xf32, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>, tensor<128x64xi1, #tile_as.blocked<sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>>
    return
  }
}
