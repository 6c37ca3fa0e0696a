; ModuleID = 'reduce.cu'
source_filename = "reduce.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ10reduce_sumE7partial = internal unnamed_addr addrspace(3) global [8 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @reduce_sum(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %6 = mul i32 %4, %5
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = add i32 %6, %7
  %9 = icmp slt i32 %8, %2
  br i1 %9, label %10, label %13

10:                                               ; preds = %3
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %12 = mul i32 %11, %5
  br label %27

13:                                               ; preds = %27, %3
  %14 = phi float [ 0.000000e+00, %3 ], [ %33, %27 ]
  %15 = tail call contract noundef float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %14, i32 16, i32 31)
  %16 = fadd contract float %14, %15
  %17 = tail call contract noundef float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %16, i32 8, i32 31)
  %18 = fadd contract float %16, %17
  %19 = tail call contract noundef float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %18, i32 4, i32 31)
  %20 = fadd contract float %18, %19
  %21 = tail call contract noundef float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %20, i32 2, i32 31)
  %22 = fadd contract float %20, %21
  %23 = tail call contract noundef float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %22, i32 1, i32 31)
  %24 = and i32 %7, 31
  %25 = lshr i32 %7, 5
  %26 = icmp eq i32 %24, 0
  br i1 %26, label %36, label %40

27:                                               ; preds = %10, %27
  %28 = phi float [ 0.000000e+00, %10 ], [ %33, %27 ]
  %29 = phi i32 [ %8, %10 ], [ %34, %27 ]
  %30 = sext i32 %29 to i64
  %31 = getelementptr inbounds float, ptr %0, i64 %30
  %32 = load float, ptr %31, align 4, !tbaa !8
  %33 = fadd contract float %28, %32
  %34 = add i32 %29, %12
  %35 = icmp slt i32 %34, %2
  br i1 %35, label %27, label %13, !llvm.loop !10

36:                                               ; preds = %13
  %37 = fadd contract float %22, %23
  %38 = zext nneg i32 %25 to i64
  %39 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE7partial to ptr), i64 %38
  store float %37, ptr %39, align 4, !tbaa !8
  br label %40

40:                                               ; preds = %36, %13
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %41 = icmp eq i32 %25, 0
  br i1 %41, label %42, label %58

42:                                               ; preds = %40
  %43 = icmp samesign ult i32 %24, 8
  br i1 %43, label %44, label %48

44:                                               ; preds = %42
  %45 = zext nneg i32 %24 to i64
  %46 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ10reduce_sumE7partial to ptr), i64 %45
  %47 = load float, ptr %46, align 4, !tbaa !8
  br label %48

48:                                               ; preds = %42, %44
  %49 = phi contract float [ %47, %44 ], [ 0.000000e+00, %42 ]
  %50 = tail call contract noundef float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %49, i32 4, i32 31)
  %51 = fadd contract float %49, %50
  %52 = tail call contract noundef float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %51, i32 2, i32 31)
  %53 = fadd contract float %51, %52
  %54 = tail call contract noundef float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %53, i32 1, i32 31)
  br i1 %26, label %55, label %58

55:                                               ; preds = %48
  %56 = fadd contract float %53, %54
  %57 = atomicrmw fadd ptr %1, float %56 seq_cst, align 4
  br label %58

58:                                               ; preds = %48, %55, %40
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite)
define dso_local ptx_kernel void @warp_votes(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, ptr noundef writeonly captures(none) %2, ptr noundef writeonly captures(none) %3) local_unnamed_addr #2 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = mul i32 %5, %6
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add i32 %7, %8
  %10 = sext i32 %9 to i64
  %11 = getelementptr inbounds i32, ptr %0, i64 %10
  %12 = load i32, ptr %11, align 4, !tbaa !4
  %13 = icmp sgt i32 %12, 0
  %14 = tail call noundef i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %13)
  %15 = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %13)
  %16 = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %13)
  %17 = tail call noundef i32 @llvm.nvvm.redux.sync.max(i32 %12, i32 -1)
  %18 = and i32 %8, 31
  %19 = icmp eq i32 %18, 0
  br i1 %19, label %20, label %31

20:                                               ; preds = %4
  %21 = zext i1 %16 to i32
  %22 = zext i1 %15 to i32
  %23 = sdiv i32 %9, 32
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds i32, ptr %1, i64 %24
  store i32 %14, ptr %25, align 4, !tbaa !4
  %26 = shl nsw i32 %23, 1
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds i32, ptr %2, i64 %27
  store i32 %22, ptr %28, align 4, !tbaa !4
  %29 = getelementptr i8, ptr %28, i64 4
  store i32 %21, ptr %29, align 4, !tbaa !4
  %30 = getelementptr inbounds i32, ptr %3, i64 %24
  store i32 %17, ptr %30, align 4, !tbaa !4
  br label %31

31:                                               ; preds = %20, %4
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1) #4

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.redux.sync.max(i32, i32) #4

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "nvvm.maxntid"="256" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { convergent mustprogress noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "nvvm.maxntid"="64" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" "uniform-work-group-size"="true" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }

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
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.mustprogress"}
