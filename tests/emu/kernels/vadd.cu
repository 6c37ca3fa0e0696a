// c[i] = a[i] + b[i] for i < n; 128-thread CTAs.
extern "C" __global__ void __launch_bounds__(128) vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// The same without the bounds check: reads past the end when n % 128 != 0.
extern "C" __global__ void __launch_bounds__(128) vadd_unchecked(const float *a, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

// Grid-stride version: any grid covers all n elements.
extern "C" __global__ void __launch_bounds__(128) vadd_strided(const float *a, const float *b, float *c,
                                                               int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}
