define ptx_kernel void @oops() {
entry:
  %x = add i32 1,
  ret void
}
