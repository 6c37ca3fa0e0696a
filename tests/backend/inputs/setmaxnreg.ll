; A warp-specialized producer raises its register budget with setmaxnreg,
; which only the arch-specific sm_90a (and later 'a') targets have.
define ptx_kernel void @producer() {
entry:
  call void asm sideeffect "setmaxnreg.inc.sync.aligned.u32 240;", ""()
  ret void
}
