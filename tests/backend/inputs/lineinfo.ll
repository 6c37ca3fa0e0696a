; A kernel with DWARF line information (file kernel.py, lines 3 and 4).
define ptx_kernel void @scale(ptr addrspace(1) %p, float %s) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %idx = zext i32 %tid to i64, !dbg !9
  %ptr = getelementptr float, ptr addrspace(1) %p, i64 %idx, !dbg !9
  %v = load float, ptr addrspace(1) %ptr, align 4, !dbg !9
  %r = fmul float %v, %s, !dbg !10
  store float %r, ptr addrspace(1) %ptr, align 4, !dbg !10
  ret void, !dbg !10
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "tilepipe test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kernel.py", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 2, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocation(line: 3, column: 5, scope: !5)
!10 = !DILocation(line: 4, column: 7, scope: !5)
