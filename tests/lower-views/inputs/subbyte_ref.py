"""numpy side of subbyte.bats: 4-bit elements two to a byte, element 2k in
the low nibble of byte k."""
import numpy as np

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def nibbles(b):
    b = np.asarray(b, np.uint8)
    return np.stack([b & 15, b >> 4], 1).ravel()


def pack(n):
    n = np.asarray(n).astype(np.uint8) & 15
    return (n[0::2] | (n[1::2] << 4)).astype(np.uint8)


def signed(n):
    return (np.asarray(n).astype(np.int16) ^ 8) - 8


def with_columns(buf, width, cols, values):
    """buf's nibbles as rows of `width`, the first `cols` of each replaced."""
    n = nibbles(buf).reshape(-1, width).copy()
    n[:, :cols] = np.asarray(values).astype(np.int16) & 15
    return pack(n.ravel())


def e2m1_value(code):
    return (-1.0 if code & 8 else 1.0) * E2M1[code & 7]


def e2m1_code(value):
    """The code of an e2m1 value (-0 included); values beyond 6 saturate."""
    magnitude = min(abs(value), 6.0)
    return (8 if np.signbit(value) else 0) | E2M1.index(magnitude)


def doubled(x):
    return pack([e2m1_code(2 * e2m1_value(c)) for c in nibbles(x)])
