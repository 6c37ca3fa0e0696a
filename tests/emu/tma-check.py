#!/usr/bin/env python3
"""Checks the outputs of kernels/tma.ll against numpy (the same checks ran on
an H100, see libcommon/lib/Emu/TensorMap.h).

  tma-check.py swizzle M.npy SW.npy        swizzle_modes: M is 8 x 32 f32
  tma-check.py box A.npy OUT.npy nan|strided X Y
                                           nan_fill / strided (traversal stride 2
                                           along dimension 1) at (X, Y) of the
                                           72 x 44 f32 matrix A
"""
import sys
import numpy as np


def swizzled(tile, lines):
    """tile's bytes as TMA places them: the 16-byte chunk c of 128-byte line l
    goes to chunk c ^ (l mod lines) (PTX ISA "Tensor Map: swizzling modes")."""
    out = np.empty_like(tile)
    for i in range(tile.size):
        byte = 4 * i
        line, chunk = byte // 128, byte // 16 % 8
        out[(line * 128 + (chunk ^ (line % lines)) * 16 + byte % 16) // 4] = tile[i]
    return out


def check_swizzle(m, sw):
    ok = True
    for mode, width in ((1, 8), (2, 16), (3, 32)):
        tile = m[:, :width].reshape(-1)
        got = sw[256 * (mode - 1):256 * (mode - 1) + tile.size]
        if not np.array_equal(got, swizzled(tile, 1 << mode)):
            print("swizzle mode", mode, "differs:", got[:16])
            ok = False
    return ok


def check_box(a, out, mode, x0, y0):
    stride, fill = (1, np.nan) if mode == "nan" else (2, 0.0)
    height = 32 // stride
    got = out[:32 * height].reshape(height, 32)
    want = np.full((height, 32), fill, np.float32)
    for r in range(height):
        for k in range(32):
            y, x = y0 + stride * r, x0 + k
            if 0 <= y < a.shape[0] and 0 <= x < a.shape[1]:
                want[r, k] = a[y, x]
    ok = np.array_equal(got, want, equal_nan=True)
    if not ok:
        print(mode, x0, y0, "differs:", got[:2], want[:2])
    return ok


if __name__ == "__main__":
    what, inputs = sys.argv[1], [np.load(p) for p in sys.argv[2:4]]
    if what == "swizzle":
        ok = check_swizzle(*inputs)
    else:
        ok = check_box(*inputs, sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    sys.exit(0 if ok else 1)
