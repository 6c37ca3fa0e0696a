# numpy references for inputs/gather.mlir (loaded by emu-check.py --helpers).
import numpy as np


def _padded(a, m, n, pad):
    """a (m x n) with one extra row and column of `pad`, indexable by -1."""
    return np.pad(a.reshape(m, n), ((0, 1), (0, 1)), constant_values=pad)


def _clip(index, size):
    """index where it is in [0, size), else `size` (the padding row)."""
    index = np.asarray(index)
    return np.where((index >= 0) & (index < size), index, size)


def gather_rows(a, m, n, rows, shift, gx, gy, pad):
    table = _padded(a, m, n, pad)
    r = np.arange(8 * gx)[:, None]
    c = np.arange(16 * gy)[None, :]
    cols = 16 * (c // 16) + shift + c % 16
    return table[_clip(rows[r], m), _clip(cols, n)].astype(np.float32).ravel()


def scatter_rows(dst, m, n, srows, src, shift, gx, gy):
    out = dst.reshape(m, n).copy()
    src = src.reshape(8 * gx, 16 * gy)
    for r in range(8 * gx):
        for c in range(16 * gy):
            row, col = srows[r], 16 * (c // 16) + shift + c % 16
            if 0 <= row < m and 0 <= col < n:
                out[row, col] = src[r, c]
    return out.ravel()


def gather_cols(a, m, n, cols, shift, gx, gy, pad):
    table = _padded(a, m, n, pad)
    r = np.arange(4 * gx)[:, None]
    c = np.arange(8 * gy)[None, :]
    rows = 4 * (r // 4) + shift + r % 4
    return table[_clip(rows, m), _clip(cols[c], n)].astype(np.float32).ravel()


def scatter_mid(dst, rows, src):
    out = dst.reshape(2, 32, 4).copy()
    src = src.reshape(2, 8, 4)
    for b in range(2):
        for k in range(8):
            for c in range(3):
                if 0 <= rows[k] < 32:
                    out[b, rows[k], 1 + c] = src[b, k, c]
    return out.ravel()
