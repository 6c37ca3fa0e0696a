// The TMA family as MLIR's NVVM dialect spells it. Lowered with
//   mlir-opt --convert-nvvm-to-llvm | mlir-translate --mlir-to-llvmir
// the blocking mbarrier.try_wait.parity and the predicated mbarrier.init,
// mbarrier.arrive.expect_tx and cp.async.bulk.tensor ops become inline PTX;
// some tensormap.replace fields are inline PTX written by hand.
//
// b = scale * a for row-major f32 matrices of %rows x %cols (rows %cols
// floats apart), one 32 x 32 tile per CTA of 32 threads; %maps holds 256
// zero bytes per CTA for the CTA's two tensor maps.
module {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x f32>

  llvm.func @describe(%map: !llvm.ptr<1>, %base: !llvm.ptr<1>, %rows: i32, %cols: i32) {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %address = llvm.ptrtoint %base : !llvm.ptr<1> to i64
    llvm.inline_asm has_side_effects "tensormap.replace.tile.global_address.global.b1024.b64 [$0], $1;", "l,l" %map, %address : (!llvm.ptr<1>, i64) -> ()
    llvm.inline_asm has_side_effects "tensormap.replace.tile.rank.global.b1024.b32 [$0], 1;", "l" %map : (!llvm.ptr<1>) -> ()
    llvm.inline_asm has_side_effects "tensormap.replace.tile.elemtype.global.b1024.b32 [$0], 7;", "l" %map : (!llvm.ptr<1>) -> ()
    llvm.inline_asm has_side_effects "tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 0, $1;", "l,r" %map, %cols : (!llvm.ptr<1>, i32) -> ()
    llvm.inline_asm has_side_effects "tensormap.replace.tile.global_dim.global.b1024.b32 [$0], 1, $1;", "l,r" %map, %rows : (!llvm.ptr<1>, i32) -> ()
    %cols64 = llvm.zext %cols : i32 to i64
    %stride = llvm.mul %cols64, %c4 : i64
    llvm.inline_asm has_side_effects "tensormap.replace.tile.global_stride.global.b1024.b64 [$0], 0, $1;", "l,l" %map, %stride : (!llvm.ptr<1>, i64) -> ()
    llvm.call_intrinsic "llvm.nvvm.tensormap.replace.box.dim.p1"(%map, %c0, %c32) : (!llvm.ptr<1>, i32, i32) -> ()
    llvm.call_intrinsic "llvm.nvvm.tensormap.replace.box.dim.p1"(%map, %c1, %c32) : (!llvm.ptr<1>, i32, i32) -> ()
    llvm.return
  }

  llvm.func @scale_tiles(%maps: !llvm.ptr<1>, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %rows: i32, %cols: i32, %scale: f32)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c256 = llvm.mlir.constant(256 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %c4096 = llvm.mlir.constant(4096 : i32) : i32
    %ticks = llvm.mlir.constant(1000000 : i32) : i32
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %bx = nvvm.read.ptx.sreg.ctaid.x : i32
    %by = nvvm.read.ptx.sreg.ctaid.y : i32
    %nbx = nvvm.read.ptx.sreg.nctaid.x : i32
    %cta.row = llvm.mul %by, %nbx : i32
    %cta = llvm.add %cta.row, %bx : i32
    %slot = llvm.mul %cta, %c256 : i32
    %map.a = llvm.getelementptr %maps[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %map.b = llvm.getelementptr %map.a[%c128] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %map.a.generic = llvm.addrspacecast %map.a : !llvm.ptr<1> to !llvm.ptr
    %map.b.generic = llvm.addrspacecast %map.b : !llvm.ptr<1> to !llvm.ptr
    %x = llvm.mul %bx, %c32 : i32
    %y = llvm.mul %by, %c32 : i32
    %is0 = llvm.icmp "eq" %tid, %c0 : i32
    llvm.cond_br %is0, ^build, ^built
  ^build:
    llvm.call @describe(%map.a, %a, %rows, %cols) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32) -> ()
    llvm.call @describe(%map.b, %b, %rows, %cols) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32) -> ()
    nvvm.fence.proxy.release #nvvm.mem_scope<gpu>
    nvvm.fence.proxy.acquire #nvvm.mem_scope<gpu> %map.a.generic, %c128
    nvvm.fence.proxy.acquire #nvvm.mem_scope<gpu> %map.b.generic, %c128
    llvm.br ^built
  ^built:
    nvvm.mbarrier.init %bar, %c1, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.barrier0
    nvvm.mbarrier.arrive.expect_tx %bar, %c4096, predicate = %is0 : !llvm.ptr<3>, i32, i1
    %dst = llvm.addrspacecast %tile : !llvm.ptr<3> to !llvm.ptr<7>
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map.a.generic, %bar, box[%x, %y] predicate = %is0 : !llvm.ptr<7>, !llvm.ptr
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    llvm.br ^scale(%tid : i32)
  ^scale(%i: i32):
    %p = llvm.getelementptr %tile[0, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<1024 x f32>
    %v = llvm.load %p : !llvm.ptr<3> -> f32
    %scaled = llvm.fmul %v, %scale : f32
    llvm.store %scaled, %p : f32, !llvm.ptr<3>
    %next = llvm.add %i, %c32 : i32
    %more = llvm.icmp "ult" %next, %c1024 : i32
    llvm.cond_br %more, ^scale(%next : i32), ^store
  ^store:
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier0
    nvvm.cp.async.bulk.tensor.global.shared.cta %map.b.generic, %tile, box[%x, %y], predicate = %is0 : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.wait_group 0 {read}
    llvm.return
  }
}
