; Floating-point knobs: a contractible a*b+c and libdevice's square root.
define ptx_kernel void @muladd(ptr addrspace(1) %p, float %a, float %b, float %c) {
entry:
  %m = fmul float %a, %b
  %r = fadd float %m, %c
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define ptx_kernel void @root(ptr addrspace(1) %p, float %x) {
entry:
  %r = call float @__nv_sqrtf(float %x)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

declare float @__nv_sqrtf(float)
