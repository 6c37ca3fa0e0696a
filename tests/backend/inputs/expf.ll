; out[i] = expf(in[i]) through libdevice's __nv_expf.
define ptx_kernel void @exp_kernel(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %pout = getelementptr float, ptr addrspace(1) %out, i64 %idx
  %x = load float, ptr addrspace(1) %pin, align 4
  %y = call float @__nv_expf(float %x)
  store float %y, ptr addrspace(1) %pout, align 4
  ret void
}

declare float @__nv_expf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
