; Hand-written nvptx64 kernels for the corners of the emulation: integer
; division the way the GPU does it, runaway recursion, an endless spin-wait,
; dynamic shared memory and address-space-5 local memory.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64-A5"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i32], align 16

; out = {7 / d, INT_MIN % d}: on the GPU neither traps.
define ptx_kernel void @divide(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="1" {
  %q = udiv i32 7, %d
  %r = srem i32 -2147483648, %d
  store i32 %q, ptr addrspace(1) %out, align 4
  %p = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

define internal void @recurse(i32 %n) {
  %a = alloca [64 x i32], align 4, addrspace(5)
  %p = getelementptr [64 x i32], ptr addrspace(5) %a, i32 0, i32 1
  store volatile i32 %n, ptr addrspace(5) %p
  %m = add i32 %n, 1
  call void @recurse(i32 %m)
  ret void
}

define ptx_kernel void @runaway(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="2" {
  call void @recurse(i32 0)
  ret void
}

; Frames larger than a thread's 4 MiB host stack: an 8 MiB local array in
; the kernel itself (tile-emu refuses the launch, --thread-stack-mib 16 runs
; it: out[t] = d + t), and one in a function it calls (found at run time).
define ptx_kernel void @bigframe(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="2" {
  %a = alloca [2097152 x i32], align 4, addrspace(5)
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %far = sub i32 2097151, %t
  %p = getelementptr [2097152 x i32], ptr addrspace(5) %a, i32 0, i32 %far
  %v = add i32 %d, %t
  store volatile i32 %v, ptr addrspace(5) %p
  %w = load volatile i32, ptr addrspace(5) %p
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %w, ptr addrspace(1) %q
  ret void
}

define internal void @bigcallee(i32 %n) {
  %a = alloca [2097152 x i32], align 4, addrspace(5)
  %p = getelementptr [2097152 x i32], ptr addrspace(5) %a, i32 0, i32 7
  store volatile i32 %n, ptr addrspace(5) %p
  ret void
}

define ptx_kernel void @bigcall(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="2" {
  call void @bigcallee(i32 %d)
  ret void
}

; Waits for a flag nobody sets.
define ptx_kernel void @spin(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="2" {
entry:
  br label %loop
loop:
  %v = load volatile i32, ptr addrspace(1) %out
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %loop, label %exit
exit:
  ret void
}

; Thread i stores i * d into dyn[i] (through local memory), then after the
; barrier reads dyn[ntid - 1 - i] into out[i]. Needs ntid * 4 bytes of
; dynamic shared memory.
define ptx_kernel void @reverse_dynamic(ptr addrspace(1) %out, i32 %d) "nvvm.reqntid"="64" {
  %tmp = alloca i32, align 4, addrspace(5)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %v = mul i32 %tid, %d
  store i32 %v, ptr addrspace(5) %tmp, align 4
  %w = load i32, ptr addrspace(5) %tmp, align 4
  %slot = getelementptr [0 x i32], ptr addrspace(3) @dyn, i32 0, i32 %tid
  store i32 %w, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %last = sub i32 %ntid, 1
  %other = sub i32 %last, %tid
  %oslot = getelementptr [0 x i32], ptr addrspace(3) @dyn, i32 0, i32 %other
  %o = load i32, ptr addrspace(3) %oslot, align 4
  %dst = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %o, ptr addrspace(1) %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; Every scalar parameter type --param accepts, widened into out[0..5].
define ptx_kernel void @scalars(half %h, bfloat %b, double %d, i8 %c, i64 %e, i1 %f,
                                ptr addrspace(1) %out) "nvvm.reqntid"="1" {
  %hf = fpext half %h to double
  %bf = fpext bfloat %b to double
  %cf = sitofp i8 %c to double
  %ef = sitofp i64 %e to double
  %ff = uitofp i1 %f to double
  store double %hf, ptr addrspace(1) %out, align 8
  %p1 = getelementptr double, ptr addrspace(1) %out, i32 1
  store double %bf, ptr addrspace(1) %p1, align 8
  %p2 = getelementptr double, ptr addrspace(1) %out, i32 2
  store double %d, ptr addrspace(1) %p2, align 8
  %p3 = getelementptr double, ptr addrspace(1) %out, i32 3
  store double %cf, ptr addrspace(1) %p3, align 8
  %p4 = getelementptr double, ptr addrspace(1) %out, i32 4
  store double %ef, ptr addrspace(1) %p4, align 8
  %p5 = getelementptr double, ptr addrspace(1) %out, i32 5
  store double %ff, ptr addrspace(1) %p5, align 8
  ret void
}

; Each thread mallocs 4 ints, fills them with tid..tid+3, stores their sum in
; out[tid] and frees the block (twice when %twice is set, or writes one past
; its end when %overrun is set).
define ptx_kernel void @heap(ptr addrspace(1) %out, i32 %twice, i32 %overrun) "nvvm.reqntid"="32" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %block = call ptr @malloc(i64 16)
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %next, %fill ]
  %sum = phi i32 [ 0, %entry ], [ %sum1, %fill ]
  %v = add i32 %tid, %i
  %p = getelementptr i32, ptr %block, i32 %i
  store i32 %v, ptr %p, align 4
  %r = load i32, ptr %p, align 4
  %sum1 = add i32 %sum, %r
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 4
  br i1 %more, label %fill, label %done
done:
  %dst = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum1, ptr addrspace(1) %dst, align 4
  %over = icmp ne i32 %overrun, 0
  br i1 %over, label %overflow, label %release
overflow:
  %past = getelementptr i32, ptr %block, i32 4
  store i32 0, ptr %past, align 4
  br label %release
release:
  call void @free(ptr %block)
  %again = icmp ne i32 %twice, 0
  br i1 %again, label %second, label %exit
second:
  call void @free(ptr %block)
  br label %exit
exit:
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
