// The tcgen05 mma kernel of tcgen05.ll written with MLIR 22's NVVM dialect
// ops (nvvm.tcgen05.alloc/mma/commit/ld/dealloc, nvvm.tcgen05.mma_smem_desc),
// which mlir-translate turns into the llvm.nvvm.tcgen05.* intrinsics (the
// mbarrier wait needs mlir-opt --convert-nvvm-to-llvm first):
// d (128 x 64 f32) = a (128 x 32 f16) * b (64 x 32 f16)^T, kind::f16, in two
// mmas of K = 16, operands staged K-major without swizzle (8 x 16-byte core
// matrices, LBO 128 bytes, SBO 512 bytes).
module {
  llvm.mlir.global internal @taddr() {addr_space = 3 : i32, alignment = 4 : i64} : i32
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.mlir.global internal @tile_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i8>
  llvm.mlir.global internal @tile_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>

  // Row-major %rows x 64 bytes at %src into the canonical layout at %dst.
  llvm.func internal @stage(%dst: !llvm.ptr<3>, %src: !llvm.ptr<1>, %rows: i32, %tid: i32) {
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %chunks = llvm.mul %rows, %c4 : i32
    llvm.br ^loop(%tid : i32)
  ^loop(%i: i32):
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %mn = llvm.lshr %i, %c2 : i32
    %c = llvm.and %i, %c3 : i32
    %src.off = llvm.mul %i, %c16 : i32
    %from = llvm.getelementptr inbounds %src[%src.off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %v = llvm.load %from {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
    %row8 = llvm.and %mn, %c7 : i32
    %group = llvm.lshr %mn, %c3 : i32
    %o1 = llvm.mul %row8, %c16 : i32
    %o2 = llvm.mul %group, %c512 : i32
    %o3 = llvm.mul %c, %c128 : i32
    %o12 = llvm.add %o1, %o2 : i32
    %off = llvm.add %o12, %o3 : i32
    %to = llvm.getelementptr inbounds %dst[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    llvm.store %v, %to {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
    %next = llvm.add %i, %c128 : i32
    %more = llvm.icmp "ult" %next, %chunks : i32
    llvm.cond_br %more, ^loop(%next : i32), ^done
  ^done:
    llvm.return
  }

  // The descriptor of the operand at %tile, %k16 steps of K = 16 (256 bytes) on.
  llvm.func internal @descriptor(%tile: !llvm.ptr<3>, %k16: i32) -> i64 {
    %base = llvm.ptrtoint %tile : !llvm.ptr<3> to i32
    %c256 = llvm.mlir.constant(256 : i32) : i32
    %step = llvm.mul %k16, %c256 : i32
    %start = llvm.add %base, %step : i32
    %mask = llvm.mlir.constant(262143 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %masked = llvm.and %start, %mask : i32
    %encoded = llvm.lshr %masked, %c4 : i32
    %lbo = llvm.mlir.constant(8 : i32) : i32
    %sbo = llvm.mlir.constant(32 : i32) : i32
    %zero8 = llvm.mlir.constant(0 : i8) : i8
    %relative = llvm.mlir.constant(false) : i1
    %desc = nvvm.tcgen05.mma_smem_desc (%encoded, %lbo, %sbo, %zero8, %relative, %zero8) : (i32, i32, i32, i8, i1, i8) -> i64
    llvm.return %desc : i64
  }

  llvm.func @mma(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %d: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c5 = llvm.mlir.constant(5 : i32) : i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %warp = llvm.lshr %tid, %c5 : i32
    %is.warp0 = llvm.icmp "eq" %warp, %c0 : i32
    %taddr = llvm.mlir.addressof @taddr : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %tile.a = llvm.mlir.addressof @tile_a : !llvm.ptr<3>
    %tile.b = llvm.mlir.addressof @tile_b : !llvm.ptr<3>
    llvm.cond_br %is.warp0, ^alloc, ^stage
  ^alloc:
    nvvm.tcgen05.alloc %taddr, %c64 : !llvm.ptr<3>, i32
    nvvm.tcgen05.relinquish_alloc_permit
    llvm.br ^stage
  ^stage:
    llvm.call @stage(%tile.a, %a, %c128, %tid) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i32) -> ()
    llvm.call @stage(%tile.b, %b, %c64, %tid) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i32) -> ()
    %is0 = llvm.icmp "eq" %tid, %c0 : i32
    llvm.cond_br %is0, ^init, ^sync
  ^init:
    nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
    llvm.br ^sync
  ^sync:
    nvvm.tcgen05.fence <before>
    nvvm.barrier0
    nvvm.tcgen05.fence <after>
    %base = llvm.load %taddr : !llvm.ptr<3> -> i32
    %base.ptr = llvm.inttoptr %base : i32 to !llvm.ptr<6>
    llvm.cond_br %is0, ^compute, ^wait
  ^compute:
    // kind::f16, f16 inputs, f32 D (1 << 4), N = 64 (8 << 17), M = 128 (8 << 24)
    %idesc = llvm.mlir.constant(135266320 : i32) : i32
    %false = llvm.mlir.constant(false) : i1
    %true = llvm.mlir.constant(true) : i1
    %a0 = llvm.call @descriptor(%tile.a, %c0) : (!llvm.ptr<3>, i32) -> i64
    %b0 = llvm.call @descriptor(%tile.b, %c0) : (!llvm.ptr<3>, i32) -> i64
    nvvm.tcgen05.mma %base.ptr, %a0, %b0, %idesc, %false {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    %a1 = llvm.call @descriptor(%tile.a, %c1) : (!llvm.ptr<3>, i32) -> i64
    %b1 = llvm.call @descriptor(%tile.b, %c1) : (!llvm.ptr<3>, i32) -> i64
    nvvm.tcgen05.mma %base.ptr, %a1, %b1, %idesc, %true {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    nvvm.tcgen05.commit %bar : !llvm.ptr<3>
    llvm.br ^wait
  ^wait:
    // Blocks (inline PTX after --convert-nvvm-to-llvm) until the commit's phase.
    %ticks = llvm.mlir.constant(1000000 : i32) : i32
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %c21 = llvm.mlir.constant(21 : i32) : i32
    %lanes = llvm.shl %warp, %c21 : i32
    %mine = llvm.add %base, %lanes : i32
    %mine.ptr = llvm.inttoptr %mine : i32 to !llvm.ptr<6>
    %row = nvvm.tcgen05.ld %mine.ptr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
    nvvm.tcgen05.wait <load>
    %c256 = llvm.mlir.constant(256 : i32) : i32
    %row.off = llvm.mul %tid, %c256 : i32
    %to = llvm.getelementptr inbounds %d[%row.off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    llvm.store %row, %to {alignment = 16 : i64} : vector<64xi32>, !llvm.ptr<1>
    nvvm.tcgen05.fence <before>
    nvvm.barrier0
    llvm.cond_br %is.warp0, ^free, ^exit
  ^free:
    nvvm.tcgen05.dealloc %base.ptr, %c64 : !llvm.ptr<6>, i32
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
