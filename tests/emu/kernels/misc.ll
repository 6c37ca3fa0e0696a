; ModuleID = 'misc.cu'
source_filename = "misc.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%printf_args = type { i32, i32, double, ptr }

@.str = private unnamed_addr constant [41 x i8] c"hello from thread %d of CTA %d: %.2f %s\0A\00", align 1
@.str1 = private unnamed_addr constant [3 x i8] c"ok\00", align 1
@.str2 = private unnamed_addr constant [17 x i8] c"threadIdx.x != 7\00", align 1
@.str3 = private unnamed_addr constant [8 x i8] c"misc.cu\00", align 1
@__PRETTY_FUNCTION__.misc = private unnamed_addr constant [24 x i8] c"void misc(int, float *)\00", align 1
@_ZZ11shared_leakE4tile = internal addrspace(3) global [32 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @misc(i32 noundef %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = alloca %printf_args, align 8
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %0, label %19 [
    i32 0, label %5
    i32 1, label %13
    i32 2, label %16
  ]

5:                                                ; preds = %2
  %6 = icmp samesign ult i32 %4, 2
  br i1 %6, label %7, label %19

7:                                                ; preds = %5
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %4, ptr %3, align 8
  %9 = getelementptr inbounds nuw i8, ptr %3, i64 4
  store i32 %8, ptr %9, align 4
  %10 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store double 1.500000e+00, ptr %10, align 8
  %11 = getelementptr inbounds nuw i8, ptr %3, i64 16
  store ptr @.str1, ptr %11, align 8
  %12 = call i32 @vprintf(ptr nonnull @.str, ptr nonnull %3) #5
  br label %19

13:                                               ; preds = %2
  %14 = icmp eq i32 %4, 5
  br i1 %14, label %15, label %19

15:                                               ; preds = %13
  tail call void @llvm.trap()
  unreachable

16:                                               ; preds = %2
  %17 = icmp eq i32 %4, 7
  br i1 %17, label %18, label %19

18:                                               ; preds = %16
  tail call void @__assertfail(ptr noundef nonnull @.str2, ptr noundef nonnull @.str3, i32 noundef 11, ptr noundef nonnull @__PRETTY_FUNCTION__.misc, i64 noundef 1) #6
  br label %19

19:                                               ; preds = %2, %13, %5, %7, %18, %16
  %20 = phi i32 [ %4, %16 ], [ %4, %13 ], [ %4, %5 ], [ %4, %7 ], [ 7, %18 ], [ %4, %2 ]
  %21 = uitofp nneg i32 %20 to float
  %22 = call contract noundef float @__nv_sqrtf(float noundef %21) #6
  %23 = fneg contract float %21
  %24 = call contract noundef float @__nv_expf(float noundef %23) #6
  %25 = fadd contract float %22, %24
  %26 = zext nneg i32 %20 to i64
  %27 = getelementptr inbounds nuw float, ptr %1, i64 %26
  store float %25, ptr %27, align 4, !tbaa !8
  ret void
}

declare i32 @vprintf(ptr, ptr) local_unnamed_addr

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @shared_leak(ptr noundef captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = uitofp nneg i32 %3 to float
  %5 = zext nneg i32 %3 to i64
  %6 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ11shared_leakE4tile to ptr), i64 %5
  store float %4, ptr %6, align 4, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %9, label %12

9:                                                ; preds = %2
  %10 = icmp eq i32 %3, 0
  br i1 %10, label %11, label %20

11:                                               ; preds = %9
  store i64 ptrtoint (ptr addrspacecast (ptr addrspace(3) @_ZZ11shared_leakE4tile to ptr) to i64), ptr %0, align 8, !tbaa !10
  br label %20

12:                                               ; preds = %2
  %13 = load i64, ptr %0, align 8, !tbaa !10
  %14 = shl nuw nsw i32 %3, 2
  %15 = zext nneg i32 %14 to i64
  %16 = add i64 %13, %15
  %17 = inttoptr i64 %16 to ptr
  %18 = load volatile float, ptr %17, align 4, !tbaa !8
  %19 = getelementptr inbounds nuw float, ptr %1, i64 %5
  store float %18, ptr %19, align 4, !tbaa !8
  br label %20

20:                                               ; preds = %9, %11, %12
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
declare void @llvm.trap() #3

; Function Attrs: convergent nounwind
declare dso_local void @__assertfail(ptr noundef, ptr noundef, i32 noundef, ptr noundef, i64 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_sqrtf(float noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_expf(float noundef) local_unnamed_addr #4

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "nvvm.maxntid"="32" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { cold noreturn nounwind memory(inaccessiblemem: write) }
attributes #4 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" }
attributes #5 = { nounwind }
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
!8 = !{!9, !9, i64 0}
!9 = !{!"float", !6, i64 0}
!10 = !{!11, !11, i64 0}
!11 = !{!"long long", !6, i64 0}
