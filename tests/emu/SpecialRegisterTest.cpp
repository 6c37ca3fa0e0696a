//===- SpecialRegisterTest.cpp - %tid, %ctaid, %lanemask_*, isspacep ------===//
//
// A 3-D block (8 x 2 x 4) in a 2 x 3 grid reads every special register that
// has one right value (PTX ISA, "Special Registers"): ids and sizes, the
// lane and warp of the linear thread id x + 8 (y + 2 z), the lane masks, the
// warp size; and isspacep tells shared from global addresses.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Emu/Emulator.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tilepipe::emu;

namespace {

const char *kSpecialRegisters = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@scratch = internal addrspace(3) global [4 x i32] undef, align 4

; Thread (x, y, z) of CTA (cx, cy) writes record (cx + 2 cy) * 64 + x + 8 (y +
; 2 z) of 24 words: the special registers below in order, then isspacep.shared
; of a shared variable, isspacep.global and isspacep.shared of %out.
define ptx_kernel void @special_registers(ptr addrspace(1) %out) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %cx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %cy = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %z2 = mul i32 %tz, 2
  %yz = add i32 %ty, %z2
  %yz8 = mul i32 %yz, 8
  %linear = add i32 %tx, %yz8
  %cy2 = mul i32 %cy, 2
  %cta = add i32 %cx, %cy2
  %ctabase = mul i32 %cta, 64
  %thread = add i32 %ctabase, %linear
  %word = mul i32 %thread, 24
  %record = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %word
  %tid_x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @field(ptr addrspace(1) %record, i32 0, i32 %tid_x)
  %tid_y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  call void @field(ptr addrspace(1) %record, i32 1, i32 %tid_y)
  %tid_z = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  call void @field(ptr addrspace(1) %record, i32 2, i32 %tid_z)
  %ntid_x = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  call void @field(ptr addrspace(1) %record, i32 3, i32 %ntid_x)
  %ntid_y = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  call void @field(ptr addrspace(1) %record, i32 4, i32 %ntid_y)
  %ntid_z = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  call void @field(ptr addrspace(1) %record, i32 5, i32 %ntid_z)
  %ctaid_x = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  call void @field(ptr addrspace(1) %record, i32 6, i32 %ctaid_x)
  %ctaid_y = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  call void @field(ptr addrspace(1) %record, i32 7, i32 %ctaid_y)
  %ctaid_z = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  call void @field(ptr addrspace(1) %record, i32 8, i32 %ctaid_z)
  %nctaid_x = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  call void @field(ptr addrspace(1) %record, i32 9, i32 %nctaid_x)
  %nctaid_y = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  call void @field(ptr addrspace(1) %record, i32 10, i32 %nctaid_y)
  %nctaid_z = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  call void @field(ptr addrspace(1) %record, i32 11, i32 %nctaid_z)
  %laneid = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  call void @field(ptr addrspace(1) %record, i32 12, i32 %laneid)
  %warpid = call i32 @llvm.nvvm.read.ptx.sreg.warpid()
  call void @field(ptr addrspace(1) %record, i32 13, i32 %warpid)
  %lanemask_eq = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
  call void @field(ptr addrspace(1) %record, i32 14, i32 %lanemask_eq)
  %lanemask_le = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.le()
  call void @field(ptr addrspace(1) %record, i32 15, i32 %lanemask_le)
  %lanemask_lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  call void @field(ptr addrspace(1) %record, i32 16, i32 %lanemask_lt)
  %lanemask_ge = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.ge()
  call void @field(ptr addrspace(1) %record, i32 17, i32 %lanemask_ge)
  %lanemask_gt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
  call void @field(ptr addrspace(1) %record, i32 18, i32 %lanemask_gt)
  %warpsize = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  call void @field(ptr addrspace(1) %record, i32 19, i32 %warpsize)
  %sharedg = addrspacecast ptr addrspace(3) @scratch to ptr
  %outg = addrspacecast ptr addrspace(1) %out to ptr
  %s1 = call i1 @llvm.nvvm.isspacep.shared(ptr %sharedg)
  %s2 = call i1 @llvm.nvvm.isspacep.global(ptr %outg)
  %s3 = call i1 @llvm.nvvm.isspacep.shared(ptr %outg)
  %s1z = zext i1 %s1 to i32
  %s2z = zext i1 %s2 to i32
  %s3z = zext i1 %s3 to i32
  call void @field(ptr addrspace(1) %record, i32 20, i32 %s1z)
  call void @field(ptr addrspace(1) %record, i32 21, i32 %s2z)
  call void @field(ptr addrspace(1) %record, i32 22, i32 %s3z)
  ret void
}

define internal void @field(ptr addrspace(1) %record, i32 %i, i32 %value) {
  %slot = getelementptr inbounds i32, ptr addrspace(1) %record, i32 %i
  store i32 %value, ptr addrspace(1) %slot, align 4
  ret void
}

declare i1 @llvm.nvvm.isspacep.shared(ptr)
declare i1 @llvm.nvvm.isspacep.global(ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.le()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.ge()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
)";

TEST(Emulator, SpecialRegistersOfA3DLaunch) {
  auto created = Emulator::createFromIR(kSpecialRegisters, "sreg.ll");
  ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
  std::vector<uint32_t> out(6 * 64 * 24, 0xdeadbeef);
  created->registerBuffer(out.data(), out.size() * 4, "out");
  llvm::Error err = created->launch("special_registers", Dim3{2, 3, 1}, Dim3{8, 2, 4},
                                    {KernelArg::pointer(out.data())});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  int mismatches = 0;
  for (uint32_t cy = 0; cy < 3; ++cy)
    for (uint32_t cx = 0; cx < 2; ++cx)
      for (uint32_t z = 0; z < 4; ++z)
        for (uint32_t y = 0; y < 2; ++y)
          for (uint32_t x = 0; x < 8; ++x) {
            uint32_t linear = x + 8 * (y + 2 * z), lane = linear % 32;
            uint32_t eq = 1u << lane, lt = eq - 1, le = lt | eq;
            std::vector<uint32_t> expected = {x, y, z, 8, 2, 4, cx, cy, 0, 2, 3, 1,
                                              lane, linear / 32, eq, le, lt, ~lt, ~le, 32,
                                              1, 1, 0};
            const uint32_t *record = &out[((cx + 2 * cy) * 64 + linear) * 24];
            for (size_t i = 0; i < expected.size(); ++i)
              if (record[i] != expected[i] && ++mismatches <= 5)
                ADD_FAILURE() << "CTA (" << cx << "," << cy << ") thread (" << x << "," << y
                              << "," << z << ") field " << i << ": " << record[i] << " != "
                              << expected[i];
          }
  EXPECT_EQ(mismatches, 0);
}

} // namespace
