"""Reference OCP MX conversions for tests. f4E2M1FN (e2m1): the eight
magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 (no infinity, no NaN); a float goes to
the nearest (ties to the even code), saturating beyond 6, NaN to +6 (PTX
cvt.rn.satfinite.e2m1x2), keeping the sign of zero."""
import math
import numpy as np

E2M1_MAGNITUDES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def e2m1_round_trip(x):
    """x (f32) -> e2m1 -> f32, as values."""
    out = []
    for value in np.asarray(x, np.float64).ravel():
        if math.isnan(value):
            out.append(6.0)
            continue
        a = min(abs(value), 6.0)
        code = min(range(8), key=lambda c: (abs(E2M1_MAGNITUDES[c] - a), c & 1))
        out.append(math.copysign(E2M1_MAGNITUDES[code], value))
    return np.array(out, np.float32)


def e2m1_test_inputs(n):
    """Every magnitude, every midpoint (the ties), neighbours just off them,
    both signs, out-of-range values, infinities and NaN; then random."""
    points = E2M1_MAGNITUDES + [(a + b) / 2 for a, b in zip(E2M1_MAGNITUDES, E2M1_MAGNITUDES[1:])]
    base = []
    for p in points:
        p32 = np.float32(p)
        base += [p32, np.nextafter(p32, np.float32(0)), np.nextafter(p32, np.float32(10))]
    base += [7.0, 1e30, math.inf, math.nan, 1e-30]
    base = np.array(base, np.float32)
    values = np.concatenate([base, -base])
    rng = np.random.default_rng(11)
    rest = (rng.standard_normal(n - len(values)) * 3).astype(np.float32)
    return np.concatenate([values, rest]).astype(np.float32)[:n]


# f8E8M0FNU (OCP MX scale): code E is 2^(E - 127), 0xFF NaN, no sign, zero or
# infinity. A float's magnitude maps to E rounded toward zero, upward, or to
# the nearer of 2^E and 2^(E+1) (ties to even E), saturating to 0xFE.


def e8m0_encode(x, mode):
    out = []
    for value in np.asarray(x, np.float64).ravel():
        if math.isnan(value):
            out.append(0xFF)
            continue
        a = abs(value)
        below = 0  # the largest E with 2^(E-127) <= a (0 when a is smaller)
        while below < 254 and math.ldexp(1.0, below + 1 - 127) <= a:
            below += 1
        low = math.ldexp(1.0, below - 127)
        if mode == "zero" or a <= low:
            code = below
        elif mode == "positive_inf":
            code = below + 1
        else:
            middle = 1.5 * low
            code = below + 1 if a > middle or (a == middle and below % 2 == 1) else below
        out.append(min(code, 0xFE))
    return np.array(out, np.uint8)


def e8m0_decode(codes):
    codes = np.asarray(codes).astype(np.int64)
    return np.array([math.nan if c == 0xFF else math.ldexp(1.0, int(c) - 127) for c in codes],
                    np.float32)


def e8m0_test_inputs(n):
    """Powers of two, the midpoints 1.5 * 2^E, neighbours of both, f32
    subnormals around 2^-127, the largest values, zero, infinity, NaN and
    negatives; then random magnitudes."""
    base = []
    for e in [-127, -126, -100, -3, -1, 0, 1, 2, 3, 50, 126, 127]:
        for m in [1.0, 1.5]:
            v = np.float32(math.ldexp(m, e))
            base += [v, np.nextafter(v, np.float32(0)), np.nextafter(v, np.float32(math.inf))]
    base += [0.0, 1e-45, math.ldexp(1.25, -127), math.ldexp(1.75, -127), 3.4e38,
             math.inf, math.nan, -2.0, -3.0, -0.7,
             # Negatives take their magnitude's scale (CUDA's cuda_fp8.h: the
             # absolute value is rounded), -0 and -inf included.
             -0.0, -math.inf, -math.ldexp(1.5, -127), -math.ldexp(1.5, 3),
             -3.4e38]
    base = np.array(base, np.float32)
    rng = np.random.default_rng(13)
    rest = np.ldexp(rng.uniform(1, 2, n - len(base)), rng.integers(-130, 128, n - len(base)))
    return np.concatenate([base, rest.astype(np.float32)]).astype(np.float32)[:n]
