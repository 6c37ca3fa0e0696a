// A spread of CUDA intrinsics and libdevice functions (some of which use
// single-instruction inline PTX, e.g. tanhf's rcp.approx.ftz.f32).
extern "C" __global__ void __launch_bounds__(64) intrinsics(const float *x, float *f, int *i,
                                                            unsigned long long *c) {
  int t = threadIdx.x;
  float v = __ldg(&x[t]);
  __syncwarp();
  unsigned active = __activemask();
  unsigned same = __match_any_sync(0xffffffffu, t % 4);
  f[t * 6 + 0] = __expf(v);
  f[t * 6 + 1] = __fdividef(v, 3.0f);
  f[t * 6 + 2] = __saturatef(v);
  f[t * 6 + 3] = __fsqrt_rz(v > 0 ? v : -v);
  f[t * 6 + 4] = rsqrtf(v * v + 1);
  f[t * 6 + 5] = __sinf(v) + tanhf(v) + powf(2.f, v) + logf(v * v + 1) + erff(v);
  i[t * 7 + 0] = active;
  i[t * 7 + 1] = same;
  i[t * 7 + 2] = __mulhi(t * 100000, 300000);
  i[t * 7 + 3] = __sad(t, 17, 1);
  i[t * 7 + 4] = __byte_perm(0x33221100, 0x77665544, 0x5140);
  i[t * 7 + 5] = __ffs(t) + __clz(t) + __popc(t) + __brev(t);
  i[t * 7 + 6] = atomicInc((unsigned *)&i[448], 10);
  atomicMax(&i[449], t);
  c[t] = clock64() > 0;
}
