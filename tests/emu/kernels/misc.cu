#include <cassert>
#include <cstdio>

// mode 0: printf from two threads; 1: trap in thread 5; 2: failed assert.
extern "C" __global__ void __launch_bounds__(32) misc(int mode, float *out) {
  if (mode == 0 && threadIdx.x < 2)
    printf("hello from thread %d of CTA %d: %.2f %s\n", threadIdx.x, blockIdx.x, 1.5f, "ok");
  if (mode == 1 && threadIdx.x == 5)
    __trap();
  if (mode == 2)
    assert(threadIdx.x != 7);
  out[threadIdx.x] = sqrtf((float)threadIdx.x) + expf(-(float)threadIdx.x);
}

// CTA 0 publishes the generic address of its shared array; the other CTAs
// read through it, which is another CTA's shared memory.
extern "C" __global__ void __launch_bounds__(32) shared_leak(unsigned long long *slot, float *out) {
  __shared__ float tile[32];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0)
      *slot = (unsigned long long)&tile[0];
  } else {
    out[threadIdx.x] = *(volatile float *)(*slot + 4 * threadIdx.x);
  }
}
