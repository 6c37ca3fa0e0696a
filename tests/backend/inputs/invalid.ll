; Parses, but the verifier rejects it: %v is used before it is defined.
define ptx_kernel void @bad(ptr addrspace(1) %p) {
entry:
  store i32 %v, ptr addrspace(1) %p, align 4
  %v = add i32 1, 2
  ret void
}
