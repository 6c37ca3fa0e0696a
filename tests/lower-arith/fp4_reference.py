"""Reference f4E2M1FN (OCP MX e2m1) conversions for tests: the eight
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
