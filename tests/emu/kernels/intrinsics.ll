; ModuleID = 'intrinsics.cu'
source_filename = "intrinsics.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @intrinsics(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, ptr noundef captures(none) %2, ptr noundef writeonly captures(none) %3) local_unnamed_addr #0 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = zext nneg i32 %5 to i64
  %7 = getelementptr inbounds nuw float, ptr %0, i64 %6
  %8 = addrspacecast ptr %7 to ptr addrspace(1)
  %9 = load float, ptr addrspace(1) %8, align 4, !invariant.load !8
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %10 = tail call noundef i32 @llvm.nvvm.activemask()
  %11 = and i32 %5, 3
  %12 = tail call noundef i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 range(i32 -3, 4) %11)
  %13 = tail call contract noundef float @__nv_fast_expf(float noundef %9) #6
  %14 = mul nuw nsw i32 %5, 6
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds nuw float, ptr %1, i64 %15
  store float %13, ptr %16, align 4, !tbaa !9
  %17 = tail call contract noundef float @__nv_fast_fdividef(float noundef %9, float noundef 3.000000e+00) #6
  %18 = getelementptr i8, ptr %16, i64 4
  store float %17, ptr %18, align 4, !tbaa !9
  %19 = tail call contract noundef float @__nv_saturatef(float noundef %9) #6
  %20 = getelementptr i8, ptr %16, i64 8
  store float %19, ptr %20, align 4, !tbaa !9
  %21 = fcmp contract ogt float %9, 0.000000e+00
  %22 = fneg contract float %9
  %23 = select contract i1 %21, float %9, float %22
  %24 = tail call contract noundef float @__nv_fsqrt_rz(float noundef %23) #6
  %25 = getelementptr i8, ptr %16, i64 12
  store float %24, ptr %25, align 4, !tbaa !9
  %26 = fmul contract float %9, %9
  %27 = fadd contract float %26, 1.000000e+00
  %28 = tail call contract noundef float @__nv_rsqrtf(float noundef %27) #6
  %29 = getelementptr i8, ptr %16, i64 16
  store float %28, ptr %29, align 4, !tbaa !9
  %30 = tail call contract noundef float @__nv_fast_sinf(float noundef %9) #6
  %31 = tail call contract noundef float @__nv_tanhf(float noundef %9) #6
  %32 = fadd contract float %30, %31
  %33 = tail call contract noundef float @__nv_powf(float noundef 2.000000e+00, float noundef %9) #6
  %34 = fadd contract float %32, %33
  %35 = tail call contract noundef float @__nv_logf(float noundef %27) #6
  %36 = fadd contract float %34, %35
  %37 = tail call contract noundef float @__nv_erff(float noundef %9) #6
  %38 = fadd contract float %36, %37
  %39 = getelementptr i8, ptr %16, i64 20
  store float %38, ptr %39, align 4, !tbaa !9
  %40 = mul nuw nsw i32 %5, 7
  %41 = zext nneg i32 %40 to i64
  %42 = getelementptr inbounds nuw i32, ptr %2, i64 %41
  store i32 %10, ptr %42, align 4, !tbaa !4
  %43 = getelementptr i8, ptr %42, i64 4
  store i32 %12, ptr %43, align 4, !tbaa !4
  %44 = mul nuw nsw i32 %5, 100000
  %45 = tail call noundef i32 @__nv_mulhi(i32 noundef %44, i32 noundef 300000) #6
  %46 = getelementptr i8, ptr %42, i64 8
  store i32 %45, ptr %46, align 4, !tbaa !4
  %47 = tail call noundef i32 @__nv_sad(i32 noundef %5, i32 noundef 17, i32 noundef 1) #6
  %48 = getelementptr i8, ptr %42, i64 12
  store i32 %47, ptr %48, align 4, !tbaa !4
  %49 = tail call noundef i32 @__nv_byte_perm(i32 noundef 857870592, i32 noundef 2003195204, i32 noundef 20800) #6
  %50 = getelementptr i8, ptr %42, i64 16
  store i32 %49, ptr %50, align 4, !tbaa !4
  %51 = tail call noundef i32 @__nv_ffs(i32 noundef %5) #6
  %52 = tail call noundef i32 @__nv_clz(i32 noundef %5) #6
  %53 = add nsw i32 %52, %51
  %54 = tail call noundef i32 @__nv_popc(i32 noundef %5) #6
  %55 = add nsw i32 %53, %54
  %56 = tail call noundef i32 @__nv_brev(i32 noundef %5) #6
  %57 = add i32 %55, %56
  %58 = getelementptr i8, ptr %42, i64 20
  store i32 %57, ptr %58, align 4, !tbaa !4
  %59 = getelementptr inbounds nuw i8, ptr %2, i64 1792
  %60 = atomicrmw uinc_wrap ptr %59, i32 10 seq_cst, align 4
  %61 = getelementptr i8, ptr %42, i64 24
  store i32 %60, ptr %61, align 4, !tbaa !4
  %62 = getelementptr inbounds nuw i8, ptr %2, i64 1796
  %63 = atomicrmw max ptr %62, i32 %5 seq_cst, align 4
  %64 = tail call noundef i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %65 = icmp sgt i64 %64, 0
  %66 = zext i1 %65 to i64
  %67 = getelementptr inbounds nuw i64, ptr %3, i64 %6
  store i64 %66, ptr %67, align 8, !tbaa !11
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.warp.sync(i32) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.activemask() #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32) #3

; Function Attrs: convergent nounwind
declare dso_local float @__nv_fast_expf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_fast_fdividef(float noundef, float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_saturatef(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_fsqrt_rz(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_rsqrtf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_fast_sinf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_tanhf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_powf(float noundef, float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_logf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_erff(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_mulhi(i32 noundef, i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_sad(i32 noundef, i32 noundef, i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_byte_perm(i32 noundef, i32 noundef, i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_ffs(i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_clz(i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_popc(i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__nv_brev(i32 noundef) local_unnamed_addr #4

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(inaccessiblemem: readwrite)
declare noundef i64 @llvm.nvvm.read.ptx.sreg.clock64() #5

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "nvvm.maxntid"="64" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" }
attributes #5 = { mustprogress nocallback nofree nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #6 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C++ TBAA"}
!8 = !{}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !6, i64 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"long long", !6, i64 0}
