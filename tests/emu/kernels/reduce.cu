// Sum of x[0..n) with warp shuffles, a shared-memory stage per CTA and one
// atomicAdd per CTA. 256-thread CTAs, grid-stride loop.
extern "C" __global__ void __launch_bounds__(256) reduce_sum(const float *x, float *sum, int n) {
  __shared__ float partial[8];
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += x[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < 8 ? partial[lane] : 0.f;
    for (int offset = 4; offset > 0; offset >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (lane == 0)
      atomicAdd(sum, v);
  }
}

// Per-warp ballot / any / all of x[i] > 0 and the max via __reduce_max_sync.
extern "C" __global__ void __launch_bounds__(64) warp_votes(const int *x, unsigned *ballots, int *flags,
                                                 int *maxima) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = x[i];
  unsigned ballot = __ballot_sync(0xffffffffu, value > 0);
  int any = __any_sync(0xffffffffu, value > 0);
  int all = __all_sync(0xffffffffu, value > 0);
  int maximum = __reduce_max_sync(0xffffffffu, value);
  if ((threadIdx.x & 31) == 0) {
    int w = i / 32;
    ballots[w] = ballot;
    flags[2 * w] = any;
    flags[2 * w + 1] = all;
    maxima[w] = maximum;
  }
}
