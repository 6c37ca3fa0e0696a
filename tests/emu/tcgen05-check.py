#!/usr/bin/env python3
"""Inputs for and checks of the kernels in kernels/tcgen05.ll.

  tcgen05-check.py inputs KIND             writes a.npy (128 x 64 bytes of K),
                                           b.npy (64 x 64 bytes), d.npy and
                                           prints the .kind and the instruction
                                           descriptor for tile-emu's --param
  tcgen05-check.py mma KIND D.npy          D = A B^T in KIND's arithmetic
  tcgen05-check.py fragments OUT.npy       the fragments kernel's tensor memory

KIND is f16, bf16, tf32, e4m3, s8, f16acc (f16 inputs and accumulator) or
f16pair (f16 with M = 256: the mma_pair kernel's CTA pair, 256 x 64 bytes of
A, D 256 x 64).
The instruction descriptor is built from the PTX ISA's table: dtype in bits
4-5, atype 7-9, btype 10-12, N >> 3 in 17-22, M >> 4 in 24-28.
"""
import sys
import numpy as np

N = 64
# kind: (.kind immediate, dtype, atype/btype code, numpy input type)
KINDS = {
    'f16': (0, 1, 0, np.float16), 'bf16': (0, 1, 1, 'bf16'), 'f16acc': (0, 0, 0, np.float16),
    'tf32': (1, 1, 2, np.float32), 'e4m3': (2, 1, 0, 'e4m3'), 's8': (3, 2, 1, np.int8),
    'f16pair': (0, 1, 0, np.float16),
}


def rows(kind):
    """M: 128, or 256 for a CTA pair's (cta_group::2) mma."""
    return 256 if kind.endswith('pair') else 128


def idesc(kind):
    _, dtype, ab, _ = KINDS[kind]
    return dtype << 4 | ab << 7 | ab << 10 | (N >> 3) << 17 | (rows(kind) >> 4) << 24


def e4m3_bits(values):
    """Small integers as e4m3 (bias 7): exact for |v| <= 8 here."""
    out = np.zeros(values.shape, np.uint8)
    for i, v in np.ndenumerate(values):
        if v == 0:
            continue
        e = int(np.floor(np.log2(abs(v))))
        m = int(round((abs(v) / 2.0 ** e - 1) * 8))
        out[i] = (0x80 if v < 0 else 0) | (e + 7) << 3 | m
    return out


def inputs(kind):
    rng = np.random.default_rng(7)
    t = KINDS[kind][3]
    M = rows(kind)
    if t == np.int8:
        a, b = rng.integers(-128, 128, (M, 64)), rng.integers(-128, 128, (N, 64))
        return a.astype(np.int8), b.astype(np.int8), a, b
    if t == np.float32:
        # tf32 ignores the low 13 mantissa bits: 2^-20 added to integers of
        # magnitude 1 to 8 lies in them.
        ints = lambda shape: rng.integers(1, 9, shape) * rng.choice([-1, 1], shape)
        a, b = ints((M, 16)), ints((N, 16))
        noisy = lambda x: (x + np.sign(x) * 2.0 ** -20).astype(np.float32)
        return noisy(a), noisy(b), a, b
    k = 64 if t == 'e4m3' else 32
    a, b = rng.integers(-8, 9, (M, k)), rng.integers(-8, 9, (N, k))
    if t == 'e4m3':
        return e4m3_bits(a), e4m3_bits(b), a, b
    if t == 'bf16':  # small integers are exact bf16: the high half of the f32
        bits = lambda x: (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return bits(a), bits(b), a, b
    return a.astype(np.float16), b.astype(np.float16), a, b


def main():
    what, kind = sys.argv[1], sys.argv[2]
    if what == 'inputs':
        a, b, _, _ = inputs(kind)
        np.save('a.npy', a)
        np.save('b.npy', b)
        np.save('d.npy', np.zeros((rows(kind), N), np.float32))
        print(KINDS[kind][0], idesc(kind))
        return 0
    if what == 'mma':
        _, _, a, b = inputs(kind)
        want = a.astype(np.float64) @ b.astype(np.float64).T
        raw = np.load(sys.argv[3])
        if kind == 's8':
            got = raw.view(np.int32)
        elif kind == 'f16acc':  # one f16 in the low half of each 32-bit column
            got = (raw.view(np.uint32) & 0xffff).astype(np.uint16).view(np.float16)
            want = want.astype(np.float16)
        else:
            got = raw
            want = want.astype(np.float32)
        return 0 if np.array_equal(got.astype(np.float64), want.astype(np.float64)) else 1
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
