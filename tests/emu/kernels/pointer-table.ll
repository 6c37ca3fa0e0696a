; Hand-written: every thread i stores i into the buffer whose address is word
; 1 of the pointer table (a cuTile list argument's shape: base words).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @write_through_table(ptr addrspace(1) %table) "nvvm.reqntid"="32" {
  %slot = getelementptr i64, ptr addrspace(1) %table, i64 1
  %word = load i64, ptr addrspace(1) %slot, align 8
  %base = inttoptr i64 %word to ptr addrspace(1)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %wide = zext i32 %tid to i64
  %at = getelementptr i32, ptr addrspace(1) %base, i64 %wide
  store i32 %tid, ptr addrspace(1) %at, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
