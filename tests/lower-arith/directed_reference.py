# Exact reference for directed rounding (loaded by emu-check.py --helpers and
# by directed_kernel.py). Every result is computed as an exact rational
# (fractions.Fraction) and rounded once toward zero, -inf or +inf in the
# format's own precision and exponent range, so nothing here inherits a
# rounding from numpy or the host FPU. Results are compared as bit patterns
# (uint16/32/64), so the sign of zero counts.
import fractions
import math

import numpy as np

# name: (significand bits incl. the implicit one, min normal exponent,
#        max exponent, bits dtype)
FORMATS = {
    "f16": (11, -14, 15, np.uint16),
    "bf16": (8, -126, 127, np.uint16),
    "f32": (24, -126, 127, np.uint32),
    "f64": (53, -1022, 1023, np.uint64),
}
KINDS = {"add": 2, "sub": 2, "mul": 2, "div": 2, "fma": 3, "sqrt": 1}
MODES = ("zero", "negative_inf", "positive_inf")
F = fractions.Fraction


def floor_log2(q):
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while F(2) ** e > q:
        e -= 1
    while F(2) ** (e + 1) <= q:
        e += 1
    return e


def round_magnitude(q, fmt, up):
    """q > 0 rounded down (up=False) or up in `fmt`; inf when up overflows."""
    p, emin, emax, _ = FORMATS[fmt]
    ulp = F(2) ** (max(floor_log2(q), emin) - p + 1)
    m = math.ceil(q / ulp) if up else math.floor(q / ulp)
    largest = (2 - F(2) ** (1 - p)) * F(2) ** emax
    v = m * ulp
    if v > largest:
        return math.inf if up else float(largest)
    return float(v)


def round_directed(q, fmt, mode, zero_sign):
    """Exact rational q rounded once in `mode`; zero_sign (+1/-1) is the sign
    IEEE 754 gives an exact zero."""
    if q == 0:
        return 0.0 if zero_sign > 0 else -0.0
    negative = q < 0
    up = {"zero": False, "positive_inf": not negative, "negative_inf": negative}[mode]
    v = round_magnitude(abs(q), fmt, up)
    return -v if negative else v


def step(v, fmt, up):
    """The neighbour of v (a value of `fmt`) above or below it."""
    p, emin, _, _ = FORMATS[fmt]
    q = abs(F(v))
    away = (v >= 0) == up
    ulp = lambda e: F(2) ** (max(e, emin) - p + 1)
    if q == 0:
        delta = ulp(emin)
    elif away:
        delta = ulp(floor_log2(q))
    else:  # toward zero: at a power of two the gap below is half the one above
        delta = ulp(floor_log2(q) - (1 if q == F(2) ** floor_log2(q) else 0))
    r = F(v) + delta if up else F(v) - delta
    return float(r)


def rounded_sqrt(x, fmt, mode):
    """sqrt(x), x >= 0 a value of `fmt`, rounded in `mode`: the largest d
    with d*d <= x, or the value above it when d*d < x and rounding up."""
    q = F(x)
    d = round_magnitude(F(math.sqrt(x)), fmt, False) if x else 0.0
    while F(d) ** 2 > q:
        d = step(d, fmt, False)
    while F(step(d, fmt, True)) ** 2 <= q:
        d = step(d, fmt, True)
    if F(d) ** 2 == q or mode != "positive_inf":
        return d
    return step(d, fmt, True)


def sign_of(v):
    return -1 if math.copysign(1.0, v) < 0 else 1


def directed_one(kind, mode, fmt, a, b=0.0, c=0.0):
    """One result (a Python float holding a value of `fmt`)."""
    rm = -1 if mode == "negative_inf" else 1  # sign of an exact zero sum
    if kind == "sqrt":
        if a == 0:
            return a  # sqrt(-0) is -0
        return rounded_sqrt(a, fmt, mode)
    if kind in ("add", "sub"):
        b = -b if kind == "sub" else b
        q = F(a) + F(b)
        zs = sign_of(a) if sign_of(a) == sign_of(b) else rm
        return round_directed(q, fmt, mode, zs)
    if kind == "mul":
        return round_directed(F(a) * F(b), fmt, mode, sign_of(a) * sign_of(b))
    if kind == "div":
        return round_directed(F(a) / F(b), fmt, mode, sign_of(a) * sign_of(b))
    if kind == "fma":
        pa, pc = F(a) * F(b), F(c)
        psign = sign_of(a) * sign_of(b)
        zs = psign if (pa == 0 and psign == sign_of(c)) else rm
        return round_directed(pa + pc, fmt, mode, zs)
    raise ValueError(kind)


def to_bits(values, fmt):
    """Python floats holding values of `fmt` -> their bit patterns."""
    if fmt == "bf16":
        return (np.array(values, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[fmt]
    return np.array(values, dtype).view(FORMATS[fmt][3])


def from_bits(bits, fmt):
    bits = np.asarray(bits)
    with np.errstate(invalid="ignore"):  # signalling NaNs among random bits
        if fmt == "bf16":
            return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[fmt]
        return bits.view(dtype).astype(np.float64)


def directed(kind, mode, fmt, *operand_bits):
    """Expected result bits of kind/mode over operand bit arrays."""
    values = [from_bits(bits, fmt) for bits in operand_bits]
    out = [directed_one(kind, mode, fmt, *map(float, args)) for args in zip(*values)]
    return to_bits(out, fmt)


def directed_inputs(fmt, n, seed):
    """Operand bits: random finite values over the whole exponent range
    (overflow, subnormal and zero results), small integers and quarters
    (exact results, results exactly halfway between neighbours), the same
    scaled near the top of the range, both signs, a few specials. No NaN or
    infinity (their results are NaN or exact)."""
    rng = np.random.default_rng(seed)
    p, emin, emax, bits_dtype = FORMATS[fmt]
    width = np.dtype(bits_dtype).itemsize * 8
    raw = rng.integers(0, 2 ** width - 1, n, dtype=np.uint64, endpoint=True).astype(bits_dtype)
    vals = from_bits(raw, fmt)
    third = n // 3
    small = rng.integers(-64, 65, n) / 2.0 ** rng.integers(0, 3, n)
    vals[third:2 * third] = small[third:2 * third]
    vals[2 * third:2 * third + n // 12] = small[:n // 12] * 2.0 ** (emax - 7)
    vals[-8:] = [0.0, -0.0, 1.0, -1.0, 2.0 ** emin, -(2.0 ** (emin - p + 1)), 3.0, -3.0]
    bits = to_bits(vals, fmt)
    bits[~np.isfinite(from_bits(bits, fmt))] = to_bits([1.5], fmt)[0]
    return bits


def operand_sets(fmt, n):
    """a, b, c with structure between them: every 7th b equals a (a - b
    cancels to an exact zero) and every 11th b is a's neighbour (a tiny
    difference); b is never zero (it divides), zeros become the smallest
    subnormal of their sign; a few pairs sum to exact ties."""
    a = directed_inputs(fmt, n, 1)
    b = directed_inputs(fmt, n, 2)
    c = directed_inputs(fmt, n, 3)
    b[::7] = a[::7]
    b[5::11] = a[5::11] + 1
    b[~np.isfinite(from_bits(b, fmt))] = a[~np.isfinite(from_bits(b, fmt))]
    zero = from_bits(b, fmt) == 0
    b[zero] |= 1
    # Ties: +-1 + +-2^-p is exactly halfway between 1 and its neighbour
    # (above or below), which nearest-even would round to 1 and a directed
    # rounding must not confuse with it.
    p = FORMATS[fmt][0]
    a[13:21] = to_bits([1.0, -1.0, 1.0, -1.0, 3.0, -3.0, 2.0 ** -p, -(2.0 ** -p)], fmt)
    b[13:21] = to_bits([2.0 ** -p, -(2.0 ** -p), -(2.0 ** -p), 2.0 ** -p,
                        3 * 2.0 ** -p, 3 * 2.0 ** -p, 1.0, 1.0], fmt)
    return a, b, c


def magnitude(bits):
    """Bits with the sign cleared (sqrt's operands)."""
    sign = np.array(1, bits.dtype) << np.array(bits.dtype.itemsize * 8 - 1, bits.dtype)
    return bits & ~sign
