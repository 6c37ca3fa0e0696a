; setmaxnreg through its NVVM intrinsic: sm_90a and later 'a' targets only.
define ptx_kernel void @producer() {
entry:
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 240)
  ret void
}

declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32)
