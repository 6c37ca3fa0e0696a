//===- TmaTest.cpp - tile-emu's TMA family: mbarrier tx, bulk and tensor copies
//
// Hand-written nvptx64 kernels JIT-run by the emulator, checked against
// hand-computed results: mbarrier phases with transaction counts, the
// non-tensor bulk copies, tensor loads (out-of-bounds fill, the swizzle
// modes, traversal strides) and stores (clipped at the bounds), tensor maps
// built by tensormap.replace, and the errors of wrong use.
//
//===----------------------------------------------------------------------===//
#include "TensorMap.h"

#include "tilepipe/Emu/Emulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace tilepipe::emu;

namespace {

const char *kTmaKernels = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bar = internal addrspace(3) global i64 undef, align 8
@tile = internal addrspace(3) global [4096 x i8] undef, align 1024
@smap = internal addrspace(3) global [128 x i8] undef, align 128

; out[i] = 1 when the mbarrier phase of parity %parity has completed.
define internal void @probe(ptr addrspace(1) %out, i32 %i, i32 %parity) {
  %done = call i1 @llvm.nvvm.mbarrier.test.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %parity)
  %v = zext i1 %done to i32
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %slot, align 4
  ret void
}

define internal void @put(ptr addrspace(1) %out, i32 %i, i64 %value) {
  %v = trunc i64 %value to i32
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %slot, align 4
  ret void
}

; One thread walks an mbarrier of one arrival through three phases.
define ptx_kernel void @tx_counts(ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  ; Phase 0: the arrival comes with 64 expected bytes.
  %t0 = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 64)
  call void @probe(ptr addrspace(1) %out, i32 0, i32 0)
  call void @llvm.nvvm.mbarrier.complete.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 48)
  call void @probe(ptr addrspace(1) %out, i32 1, i32 0)
  call void @llvm.nvvm.mbarrier.complete.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 16)
  call void @probe(ptr addrspace(1) %out, i32 2, i32 0)
  ; Phase 1: bytes expected apart from the arrival.
  call void @llvm.nvvm.mbarrier.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 32)
  %t1 = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  call void @probe(ptr addrspace(1) %out, i32 3, i32 1)
  call void @llvm.nvvm.mbarrier.complete.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 32)
  call void @probe(ptr addrspace(1) %out, i32 4, i32 1)
  ; Phase 2: the bytes land before they are expected (tx-count -8).
  call void @llvm.nvvm.mbarrier.complete.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 8)
  call void @probe(ptr addrspace(1) %out, i32 5, i32 0)
  %t2 = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 8)
  call void @probe(ptr addrspace(1) %out, i32 6, i32 0)
  %pending = call i32 @llvm.nvvm.mbarrier.pending.count(i64 %t0)
  %p64 = zext i32 %pending to i64
  call void @put(ptr addrspace(1) %out, i32 7, i64 %p64)
  %phase1 = lshr i64 %t1, 63
  call void @put(ptr addrspace(1) %out, i32 8, i64 %phase1)
  %done1 = call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @bar, i64 %t2)
  %d64 = zext i1 %done1 to i64
  call void @put(ptr addrspace(1) %out, i32 9, i64 %d64)
  ret void
}

define internal void @wait_phase0() {
entry:
  br label %wait
wait:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)
  br i1 %done, label %exit, label %wait
exit:
  ret void
}

; Loads the box at (%x, %y) of %map into @tile + %offset, waits for the
; mbarrier, then copies the %bytes bytes there as they lie to %out.
define ptx_kernel void @load_2d(ptr %map, ptr addrspace(1) %out, i32 %x, i32 %y, i32 %bytes, i32 %offset) "nvvm.reqntid"="1" {
  %dst = getelementptr inbounds i8, ptr addrspace(3) @tile, i32 %offset
  %cluster = addrspacecast ptr addrspace(3) %dst to ptr addrspace(7)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  call void @llvm.nvvm.prefetch.tensormap.p0(ptr %map)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %bytes)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %cluster, ptr addrspace(3) @bar, ptr %map, i32 %x, i32 %y, i16 0, i64 0, i1 false, i1 false, i32 0)
  call void @wait_phase0()
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %out, ptr addrspace(3) %dst, i32 %bytes, i1 false)
  ret void
}

; The 3-D form of @load_2d at (%x, %y, %z), into @tile.
define ptx_kernel void @load_3d(ptr %map, ptr addrspace(1) %out, i32 %x, i32 %y, i32 %z, i32 %bytes) "nvvm.reqntid"="1" {
  %cluster = addrspacecast ptr addrspace(3) @tile to ptr addrspace(7)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %bytes)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.cta.tile.3d(ptr addrspace(3) @tile, ptr addrspace(3) @bar, ptr %map, i32 %x, i32 %y, i32 %z, i64 0, i1 false)
  call void @wait_phase0()
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %out, ptr addrspace(3) @tile, i32 %bytes, i1 false)
  ret void
}

; Puts %bytes bytes of %in into @tile and stores them as the box at
; (%x, %y) of %map.
define ptx_kernel void @store_2d(ptr %map, ptr addrspace(1) %in, i32 %x, i32 %y, i32 %bytes) "nvvm.reqntid"="1" {
  call void @llvm.memcpy.p3.p1.i32(ptr addrspace(3) @tile, ptr addrspace(1) %in, i32 %bytes, i1 false)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @tile, ptr %map, i32 %x, i32 %y, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  ret void
}

; Copies %bytes bytes %src -> @tile -> %dst + 16 with the bulk copies.
define ptx_kernel void @bulk(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %bytes) "nvvm.reqntid"="1" {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %bytes)
  %cluster = addrspacecast ptr addrspace(3) @tile to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) %cluster, ptr addrspace(3) @bar, ptr addrspace(1) %src, i32 %bytes, i16 1, i64 0, i1 true, i1 false)
  call void @wait_phase0()
  %to = getelementptr inbounds i8, ptr addrspace(1) %dst, i32 16
  call void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1) %to, ptr addrspace(3) @tile, i32 %bytes, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group(i32 0)
  ret void
}

; Waits for 64 bytes that no copy ever delivers.
define ptx_kernel void @never_completes() "nvvm.reqntid"="2" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 2)
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  %t = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 32)
  call void @wait_phase0()
  ret void
}

; Every field of a rank-3 map in global memory and of a rank-1 map in
; shared memory (copied to %copy).
define ptx_kernel void @build_maps(ptr addrspace(1) %map, ptr addrspace(1) %copy) "nvvm.reqntid"="1" {
  call void @llvm.nvvm.tensormap.replace.global.address.p1(ptr addrspace(1) %map, i64 4096)
  call void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1) %map, i32 2)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 0, i32 32)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 1, i32 8)
  call void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1) %map, i32 2, i32 2)
  call void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1) %map, i32 0, i32 100)
  call void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1) %map, i32 1, i32 50)
  call void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1) %map, i32 2, i32 7)
  call void @llvm.nvvm.tensormap.replace.global.stride.p1(ptr addrspace(1) %map, i32 0, i64 400)
  call void @llvm.nvvm.tensormap.replace.global.stride.p1(ptr addrspace(1) %map, i32 1, i64 20000)
  call void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1) %map, i32 1, i32 2)
  call void @llvm.nvvm.tensormap.replace.elemtype.p1(ptr addrspace(1) %map, i32 7)
  call void @llvm.nvvm.tensormap.replace.interleave.layout.p1(ptr addrspace(1) %map, i32 0)
  call void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1) %map, i32 3)
  call void @llvm.nvvm.tensormap.replace.swizzle.atomicity.p1(ptr addrspace(1) %map, i32 0)
  call void @llvm.nvvm.tensormap.replace.fill.mode.p1(ptr addrspace(1) %map, i32 1)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  call void @llvm.memset.p3.i32(ptr addrspace(3) @smap, i8 0, i32 128, i1 false)
  call void @llvm.nvvm.tensormap.replace.global.address.p3(ptr addrspace(3) @smap, i64 8192)
  call void @llvm.nvvm.tensormap.replace.rank.p3(ptr addrspace(3) @smap, i32 0)
  call void @llvm.nvvm.tensormap.replace.box.dim.p3(ptr addrspace(3) @smap, i32 0, i32 16)
  call void @llvm.nvvm.tensormap.replace.global.dim.p3(ptr addrspace(3) @smap, i32 0, i32 16)
  call void @llvm.nvvm.tensormap.replace.elemtype.p3(ptr addrspace(3) @smap, i32 6)
  call void @llvm.memcpy.p1.p3.i32(ptr addrspace(1) %copy, ptr addrspace(3) @smap, i32 128, i1 false)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr addrspace(1) %copy, i32 128)
  ret void
}

define ptx_kernel void @replace_rank(ptr addrspace(1) %map, i32 %rankMinusOne) "nvvm.reqntid"="1" {
  call void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1) %map, i32 %rankMinusOne)
  ret void
}

; Inline PTX forms: a shared map built and published with
; tensormap.cp_fenceproxy, guarded mbarrier.init (only the first runs) and an
; arrive.expect_tx returning its state: out[0] = its pending count.
define ptx_kernel void @ptx_forms(ptr addrspace(1) %map, ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  call void @llvm.memset.p3.i32(ptr addrspace(3) @smap, i8 0, i32 128, i1 false)
  call void asm sideeffect "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [$0], 1, $1;", "r,r"(ptr addrspace(3) @smap, i32 77)
  call void asm sideeffect "tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [$0], 2;", "r"(ptr addrspace(3) @smap)
  call void asm sideeffect "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$0], [$1], 128;", "l,r"(ptr addrspace(1) %map, ptr addrspace(3) @smap)
  call void asm sideeffect "@$2 mbarrier.init.shared.b64 [$0], $1;", "r,r,b"(ptr addrspace(3) @bar, i32 2, i1 true)
  call void asm sideeffect "@!$2 mbarrier.init.shared.b64 [$0], $1;", "r,r,b"(ptr addrspace(3) @bar, i32 5, i1 true)
  %state = call i64 asm sideeffect "mbarrier.arrive.expect_tx.shared::cta.b64 $0, [$1], $2;", "=l,r,r"(ptr addrspace(3) @bar, i32 16)
  %pending = call i32 @llvm.nvvm.mbarrier.pending.count(i64 %state)
  store i32 %pending, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.complete.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i32 @llvm.nvvm.mbarrier.pending.count(i64)
declare void @llvm.nvvm.prefetch.tensormap.p0(ptr)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.cta.tile.3d(ptr addrspace(3), ptr addrspace(3), ptr, i32, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
declare void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1), ptr addrspace(3), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group(i32)
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr, i32)
declare void @llvm.nvvm.tensormap.replace.global.address.p1(ptr addrspace(1), i64)
declare void @llvm.nvvm.tensormap.replace.rank.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.box.dim.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.global.dim.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.global.stride.p1(ptr addrspace(1), i32, i64)
declare void @llvm.nvvm.tensormap.replace.element.stride.p1(ptr addrspace(1), i32, i32)
declare void @llvm.nvvm.tensormap.replace.elemtype.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.interleave.layout.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.swizzle.mode.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.swizzle.atomicity.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.fill.mode.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.tensormap.replace.global.address.p3(ptr addrspace(3), i64)
declare void @llvm.nvvm.tensormap.replace.rank.p3(ptr addrspace(3), i32)
declare void @llvm.nvvm.tensormap.replace.box.dim.p3(ptr addrspace(3), i32, i32)
declare void @llvm.nvvm.tensormap.replace.global.dim.p3(ptr addrspace(3), i32, i32)
declare void @llvm.nvvm.tensormap.replace.elemtype.p3(ptr addrspace(3), i32)
declare void @llvm.memcpy.p1.p3.i32(ptr addrspace(1), ptr addrspace(3), i32, i1)
declare void @llvm.memcpy.p3.p1.i32(ptr addrspace(3), ptr addrspace(1), i32, i1)
declare void @llvm.memset.p3.i32(ptr addrspace(3), i8, i32, i1)
)";

/// A 2-D tensor of `width` x `height` f32 elements (rows `rowFloats` apart),
/// as tensormap.replace would describe it.
TensorMapLayout tensorMap2d(const void *base, uint32_t width, uint32_t height, uint32_t rowFloats,
                            uint16_t boxWidth, uint16_t boxHeight, SwizzleMode swizzle = SwizzleMode::None,
                            TensorFillMode fill = TensorFillMode::Zero) {
  TensorMapLayout map;
  std::memset(&map, 0, sizeof(map));
  map.globalAddress = reinterpret_cast<uintptr_t>(base);
  map.rankMinusOne = 1;
  map.globalDim[0] = width;
  map.globalDim[1] = height;
  map.globalStride[0] = uint64_t(rowFloats) * 4;
  map.boxDim[0] = boxWidth;
  map.boxDim[1] = boxHeight;
  map.elemType = uint8_t(TensorElemType::F32);
  map.swizzle = uint8_t(swizzle);
  map.fillMode = uint8_t(fill);
  map.magic = kTensorMapMagic;
  return map;
}

class TmaKernels : public ::testing::Test {
protected:
  void SetUp() override {
    auto created = Emulator::createFromIR(kTmaKernels, "tma.ll", EmulatorOptions());
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    emulator_ = std::make_unique<Emulator>(std::move(*created));
  }

  /// Registers `data` as a global buffer.
  template <class T> T *global(std::vector<T> &data) {
    emulator_->registerBuffer(data.data(), data.size() * sizeof(T), "buffer");
    return data.data();
  }
  template <class T> KernelArg buffer(std::vector<T> &data) {
    return KernelArg::pointer(global(data));
  }
  KernelArg mapArg(TensorMapLayout &map) {
    emulator_->registerBuffer(&map, sizeof(map), "tensor map");
    return KernelArg::pointer(&map);
  }
  static KernelArg i32(int32_t value) { return KernelArg::integer(32, uint32_t(value)); }

  /// Launches one CTA; the error message, "" when the launch succeeded.
  std::string failure(const char *kernel, std::vector<KernelArg> args, uint32_t block = 1) {
    llvm::Error err = emulator_->launch(kernel, Dim3{1, 1, 1}, Dim3{block, 1, 1}, args);
    return err ? llvm::toString(std::move(err)) : std::string();
  }

  std::unique_ptr<Emulator> emulator_;
};

/// tensor(x, y) = 100 * y + x over a 10 x 6 tensor in rows of 12 floats.
std::vector<float> sampleTensor() {
  std::vector<float> data(12 * 6, -1.0f);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 10; ++x)
      data[y * 12 + x] = float(100 * y + x);
  return data;
}

} // namespace

TEST_F(TmaKernels, MBarrierPhasesWaitForArrivalsAndTransactionBytes) {
  std::vector<int32_t> out(10, -1);
  ASSERT_EQ(failure("tx_counts", {buffer(out)}), "");
  // Phase 0 stays open while 64 then 16 bytes are outstanding and completes
  // with the last complete_tx; phase 1 waits for its 32 expected bytes after
  // the arrival; in phase 2 the tx-count dips to -8 and the arrive.expect_tx
  // of 8 bytes completes it. Token t0: 0 arrivals pending; t1 names phase 1;
  // t2's phase has completed.
  std::vector<int32_t> expected = {0, 0, 1, 0, 1, 0, 1, 0, 1, 1};
  EXPECT_EQ(out, expected);
}

TEST_F(TmaKernels, TensorLoadZeroFillsTheRaggedOutOfBoundsBox) {
  std::vector<float> tensor = sampleTensor(), out(8 * 4, -7.0f);
  // The 8 x 4 box at (4, 4) covers columns 4-11 and rows 4-7 of a 10 x 6
  // tensor: columns 10 and 11 and rows 6 and 7 lie outside.
  TensorMapLayout map = tensorMap2d(global(tensor), 10, 6, 12, 8, 4);
  ASSERT_EQ(failure("load_2d", {mapArg(map), buffer(out), i32(4), i32(4), i32(128), i32(0)}), "");
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 8; ++col) {
      float expected = (row < 2 && col < 6) ? float(100 * (4 + row) + 4 + col) : 0.0f;
      EXPECT_EQ(out[row * 8 + col], expected) << row << "," << col;
    }
  // Negative coordinates: the box at (-4, -3) sees x = 0..3 of rows 0.
  std::vector<float> low(8 * 4, -7.0f);
  ASSERT_EQ(failure("load_2d", {mapArg(map), buffer(low), i32(-4), i32(-3), i32(128), i32(0)}), "");
  for (int col = 0; col < 8; ++col)
    EXPECT_EQ(low[3 * 8 + col], col < 4 ? 0.0f : float(col - 4)) << col;
  EXPECT_EQ(low[0], 0.0f);
}

TEST_F(TmaKernels, TensorLoadNaNFillAndElementStrides) {
  std::vector<float> tensor = sampleTensor(), out(8 * 3, -7.0f);
  TensorMapLayout map = tensorMap2d(global(tensor), 10, 6, 12, 8, 6, SwizzleMode::None,
                                    TensorFillMode::NaN);
  // Every second row: the 6-high box at (8, 1) transfers ceil(6 / 2) = 3
  // rows, y = 1, 3 and 5, each x = 8..15 of which 10.. lie outside.
  map.elementStride[1] = 2;
  ASSERT_EQ(failure("load_2d", {mapArg(map), buffer(out), i32(8), i32(1), i32(96), i32(0)}), "");
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 8; ++col) {
      float value = out[row * 8 + col];
      if (col < 2)
        EXPECT_EQ(value, float(100 * (1 + 2 * row) + 8 + col)) << row << "," << col;
      else
        EXPECT_TRUE(std::isnan(value)) << row << "," << col;
    }
  uint32_t bits;
  std::memcpy(&bits, &out[2], 4);
  EXPECT_EQ(bits, 0x7fffffffu); // the canonical NaN
}

TEST_F(TmaKernels, ThreeDimensionalLoadFollowsEveryStride) {
  // t(x, y, z) = 10000 z + 100 y + x, 8 x 3 x 4 elements in rows of 12
  // floats and planes of 40 rows (padding between both).
  std::vector<float> tensor(12 * 40 * 4, -1.0f), out(8 * 2 * 3, -7.0f);
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 8; ++x)
        tensor[(z * 40 + y) * 12 + x] = float(10000 * z + 100 * y + x);
  TensorMapLayout map = tensorMap2d(global(tensor), 8, 3, 12, 8, 2);
  map.rankMinusOne = 2;
  map.globalDim[2] = 4;
  map.globalStride[1] = 40 * 12 * 4;
  map.boxDim[2] = 3;
  // The 8 x 2 x 3 box at (-4, 2, 2): y = 3 and z = 4 lie outside.
  ASSERT_EQ(failure("load_3d", {mapArg(map), buffer(out), i32(-4), i32(2), i32(2), i32(192)}), "");
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 8; ++i) {
        int x = i - 4, y = 2 + j, z = 2 + k;
        bool inside = x >= 0 && y < 3 && z < 4;
        EXPECT_EQ(out[(k * 2 + j) * 8 + i], inside ? float(10000 * z + 100 * y + x) : 0.0f)
            << i << "," << j << "," << k;
      }
}

TEST_F(TmaKernels, SwizzleModesPermuteSixteenByteChunksPerRow) {
  // A 32 x 8 f32 tensor loaded whole with rows of 32, 64 or 128 bytes: the
  // 16-byte chunk c of the tile's 128-byte line l lands at chunk
  // c ^ (l mod 2, 4 or 8) for the 32-, 64- and 128-byte modes (PTX ISA
  // "Tensor Map: swizzling modes"; the tile starts at a 1024-byte boundary).
  std::vector<float> tensor(32 * 8);
  for (size_t i = 0; i < tensor.size(); ++i)
    tensor[i] = float(i);
  struct Case { SwizzleMode mode; uint16_t boxWidth; unsigned lines; };
  for (Case c : {Case{SwizzleMode::Bytes32, 8, 2}, Case{SwizzleMode::Bytes64, 16, 4},
                 Case{SwizzleMode::Bytes128, 32, 8}}) {
    std::vector<float> out(32 * 8, -1.0f);
    uint16_t boxHeight = 8;
    TensorMapLayout map = tensorMap2d(global(tensor), 32, 8, 32, c.boxWidth, boxHeight, c.mode);
    unsigned bytes = c.boxWidth * boxHeight * 4;
    ASSERT_EQ(failure("load_2d", {mapArg(map), buffer(out), i32(0), i32(0), i32(bytes), i32(0)}), "");
    for (unsigned row = 0; row < boxHeight; ++row)
      for (unsigned col = 0; col < c.boxWidth; ++col) {
        unsigned logical = (row * c.boxWidth + col) * 4; // unswizzled byte offset
        unsigned line = logical / 128, chunk = logical / 16 % 8;
        unsigned physical = line * 128 + (chunk ^ (line % c.lines)) * 16 + logical % 16;
        EXPECT_EQ(out[physical / 4], float(row * 32 + col))
            << "mode " << int(c.mode) << " row " << row << " col " << col;
      }
  }
  // Spot checks of the 128-byte mode by hand: line 1 swaps chunks 0 and 1,
  // so element (1, 0) (byte 128) sits at byte 144 and (1, 4) at byte 128;
  // line 7 reverses the chunks, so (7, 0) sits at byte 7 * 128 + 112.
  std::vector<float> out(32 * 8, -1.0f);
  TensorMapLayout map = tensorMap2d(global(tensor), 32, 8, 32, 32, 8, SwizzleMode::Bytes128);
  ASSERT_EQ(failure("load_2d", {mapArg(map), buffer(out), i32(0), i32(0), i32(1024), i32(0)}), "");
  EXPECT_EQ(out[144 / 4], 32.0f);
  EXPECT_EQ(out[128 / 4], 36.0f);
  EXPECT_EQ(out[(7 * 128 + 112) / 4], 224.0f);
  EXPECT_EQ(out[0], 0.0f);
}

TEST_F(TmaKernels, TensorStoreIsClippedAtTheBounds) {
  std::vector<float> tensor = sampleTensor(), tile(8 * 4);
  for (size_t i = 0; i < tile.size(); ++i)
    tile[i] = 1000.0f + float(i);
  TensorMapLayout map = tensorMap2d(global(tensor), 10, 6, 12, 8, 4);
  ASSERT_EQ(failure("store_2d", {mapArg(map), buffer(tile), i32(4), i32(4), i32(128)}), "");
  std::vector<float> expected = sampleTensor();
  // Rows 4-5, columns 4-9 are written; the padding columns 10 and 11 of the
  // rows and everything below row 5 are not.
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 6; ++col)
      expected[(4 + row) * 12 + 4 + col] = 1000.0f + float(row * 8 + col);
  EXPECT_EQ(tensor, expected);
}

TEST_F(TmaKernels, BulkCopiesThroughSharedMemory) {
  std::vector<int32_t> src(16), dst(24, -1);
  for (int i = 0; i < 16; ++i)
    src[i] = i * i;
  ASSERT_EQ(failure("bulk", {buffer(src), buffer(dst), i32(64)}), "");
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(dst[i], i >= 4 && i < 20 ? (i - 4) * (i - 4) : -1) << i;

  std::string message = failure("bulk", {buffer(src), buffer(dst), i32(24)});
  EXPECT_NE(message.find("cp.async.bulk of 24 bytes (the size must be a multiple of 16)"),
            std::string::npos) << message;
}

TEST_F(TmaKernels, TensormapReplaceWritesEveryField) {
  std::vector<uint8_t> global(128 + 64, 0), copy(128 + 64, 0xff);
  // 64-byte aligned views of the two buffers.
  auto aligned = [](std::vector<uint8_t> &v) {
    return reinterpret_cast<TensorMapLayout *>((reinterpret_cast<uintptr_t>(v.data()) + 63) & ~uintptr_t(63));
  };
  TensorMapLayout *map = aligned(global), *shared = aligned(copy);
  emulator_->registerBuffer(global.data(), global.size(), "map");
  emulator_->registerBuffer(copy.data(), copy.size(), "copy");
  ASSERT_EQ(failure("build_maps", {KernelArg::pointer(map), KernelArg::pointer(shared)}), "");
  EXPECT_EQ(map->magic, kTensorMapMagic);
  EXPECT_EQ(map->globalAddress, 4096u);
  EXPECT_EQ(map->rankMinusOne, 2);
  EXPECT_EQ(map->boxDim[0], 32);
  EXPECT_EQ(map->boxDim[1], 8);
  EXPECT_EQ(map->boxDim[2], 2);
  EXPECT_EQ(map->globalDim[0], 100u);
  EXPECT_EQ(map->globalDim[1], 50u);
  EXPECT_EQ(map->globalDim[2], 7u);
  EXPECT_EQ(map->globalStride[0], 400u);
  EXPECT_EQ(map->globalStride[1], 20000u);
  EXPECT_EQ(map->elementStride[0], 0); // not replaced: reads as 1
  EXPECT_EQ(map->elementStride[1], 2);
  EXPECT_EQ(map->elemType, uint8_t(TensorElemType::F32));
  EXPECT_EQ(map->swizzle, uint8_t(SwizzleMode::Bytes128));
  EXPECT_EQ(map->fillMode, uint8_t(TensorFillMode::NaN));
  std::string error;
  std::optional<TensorMap> decoded = decodeTensorMap(*map, error);
  ASSERT_TRUE(decoded.has_value()) << error;
  EXPECT_EQ(decoded->rank, 3u);
  EXPECT_EQ(decoded->globalStride[0], 4u);
  EXPECT_EQ(decoded->globalStride[2], 20000u);
  EXPECT_EQ(decoded->transferred(1), 4u);
  EXPECT_EQ(decoded->boxBytes(), 32u * 4 * 2 * 4);

  // The shared-memory map started from zeros: rank 1, f16, no swizzle.
  EXPECT_EQ(shared->magic, kTensorMapMagic);
  EXPECT_EQ(shared->globalAddress, 8192u);
  EXPECT_EQ(shared->rankMinusOne, 0);
  EXPECT_EQ(shared->elemType, uint8_t(TensorElemType::F16));
  decoded = decodeTensorMap(*shared, error);
  ASSERT_TRUE(decoded.has_value()) << error;
  EXPECT_EQ(decoded->boxBytes(), 32u);
}

TEST_F(TmaKernels, InlinePtxFormsRunAsTheirIntrinsics) {
  std::vector<uint8_t> bytes(128 + 64, 0);
  auto *map = reinterpret_cast<TensorMapLayout *>(
      (reinterpret_cast<uintptr_t>(global(bytes)) + 63) & ~uintptr_t(63));
  std::vector<int32_t> out(1, -1);
  ASSERT_EQ(failure("ptx_forms", {KernelArg::pointer(map), buffer(out)}), "");
  EXPECT_EQ(map->magic, kTensorMapMagic);
  EXPECT_EQ(map->globalDim[1], 77u);
  EXPECT_EQ(map->swizzle, uint8_t(SwizzleMode::Bytes64));
  EXPECT_EQ(out[0], 1); // 2 expected arrivals, one arrived
}

TEST_F(TmaKernels, WrongUseGivesClearErrors) {
  std::vector<float> tensor = sampleTensor(), out(8 * 4 + 64);
  TensorMapLayout map = tensorMap2d(global(tensor), 10, 6, 12, 8, 4);
  std::string message =
      failure("load_2d", {mapArg(map), buffer(out), i32(0), i32(0), i32(128), i32(64)});
  EXPECT_NE(message.find("cp.async.bulk.tensor: shared memory destination"), std::string::npos)
      << message;
  EXPECT_NE(message.find("is not 128-byte aligned"), std::string::npos) << message;

  TensorMapLayout rank3 = map;
  rank3.rankMinusOne = 2;
  rank3.globalDim[2] = 1;
  rank3.boxDim[2] = 1;
  message = failure("load_2d", {mapArg(rank3), buffer(out), i32(0), i32(0), i32(128), i32(0)});
  EXPECT_NE(message.find("cp.async.bulk.tensor.2d with the rank-3 tensor map"), std::string::npos)
      << message;

  TensorMapLayout unbuilt;
  std::memset(&unbuilt, 0, sizeof(unbuilt));
  message = failure("load_2d", {mapArg(unbuilt), buffer(out), i32(0), i32(0), i32(128), i32(0)});
  EXPECT_NE(message.find("not a tensor map built by tensormap.replace"), std::string::npos)
      << message;

  TensorMapLayout wide = tensorMap2d(global(tensor), 10, 6, 12, 16, 4, SwizzleMode::Bytes32);
  message = failure("load_2d", {mapArg(wide), buffer(out), i32(0), i32(0), i32(128), i32(0)});
  EXPECT_NE(message.find("more than the 32-byte swizzle span"), std::string::npos) << message;

  message = failure("load_2d", {mapArg(map), buffer(out), i32(2), i32(0), i32(128), i32(0)});
  EXPECT_NE(message.find("coordinate 2 of dimension 0 starts the box 8 bytes into a row"),
            std::string::npos) << message;

  TensorMapLayout columnStride = map;
  columnStride.elementStride[0] = 2;
  message = failure("load_2d", {mapArg(columnStride), buffer(out), i32(0), i32(0), i32(64), i32(0)});
  EXPECT_NE(message.find("element_stride[0] is 2: traversal strides along dimension 0 are not "
                         "emulated"), std::string::npos) << message;

  message = failure("replace_rank", {mapArg(map), i32(5)});
  EXPECT_NE(message.find("tensormap.replace.tile.rank with new_val 5"), std::string::npos)
      << message;

  message = failure("never_completes", {}, 2);
  EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
}

TEST(TmaIntrinsics, EveryNameVariantIsDecoded) {
  // LLVM 22's spellings (IntrinsicsNVVM.td), scope/space/relaxed/tl variants
  // included; a cluster is one CTA, so the cluster forms run as CTA forms.
  for (const char *name :
       {"mbarrier.arrive.expect.tx.scope.cluster.space.cluster",
        "mbarrier.arrive.drop.expect.tx.relaxed.scope.cta.space.cta",
        "mbarrier.arrive.relaxed.scope.cta.space.cluster", "mbarrier.arrive.drop.scope.cta.space.cta",
        "mbarrier.expect.tx.scope.cluster.space.cta", "mbarrier.complete.tx.scope.cta.space.cluster",
        "mbarrier.try.wait.parity.tl.relaxed.scope.cluster.space.cta",
        "mbarrier.try.wait.tl.scope.cta.space.cta", "mbarrier.test.wait.parity.scope.cta.space.cta",
        "mbarrier.test.wait.shared", "mbarrier.pending.count",
        "cp.async.bulk.global.to.shared.cta", "cp.async.bulk.shared.cta.to.cluster",
        "cp.async.bulk.shared.cta.to.global.bytemask", "cp.async.bulk.tensor.g2s.tile.1d",
        "cp.async.bulk.tensor.g2s.cta.tile.5d", "cp.async.bulk.tensor.s2g.tile.4d",
        "tensormap.replace.swizzle.atomicity.p3", "tensormap.replace.global.stride.p0"})
    EXPECT_TRUE(lookupIntrinsic(std::string("llvm.nvvm.") + name).has_value()) << name;
  for (const char *name : {"cp.async.bulk.tensor.g2s.im2col.3d", "cp.async.bulk.tensor.g2s.tile.6d",
                           "cp.async.bulk.tensor.reduce.add.tile.2d",
                           "cp.async.bulk.tensor.s2g.tile.scatter4.2d"})
    EXPECT_FALSE(lookupIntrinsic(std::string("llvm.nvvm.") + name).has_value()) << name;
  for (const char *name : {"cp.async.bulk.commit.group", "cp.async.bulk.wait.group.read",
                           "cp.async.bulk.tensor.prefetch.tile.2d", "cp.async.bulk.prefetch.L2",
                           "fence.proxy.tensormap_generic.acquire.gpu", "fence.proxy.async.shared_cta",
                           "prefetch.tensormap.p0"})
    EXPECT_TRUE(isNoOpIntrinsic(std::string("llvm.nvvm.") + name)) << name;
}
