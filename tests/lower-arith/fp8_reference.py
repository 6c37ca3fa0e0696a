"""Reference fp8 conversions for tests, by brute force over every code: the
values are decoded from the format's definition, and a float converts to the
nearest finite code (ties to the even code), saturating beyond the largest
finite value, NaN to the canonical NaN 0x7f (PTX cvt.rn.satfinite)."""
import math
import numpy as np

FORMATS = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}


def fp8_decode_table(fmt):
    ebits, mbits, bias = FORMATS[fmt]
    values = []
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        e = (code >> mbits) & ((1 << ebits) - 1)
        m = code & ((1 << mbits) - 1)
        if fmt == "e4m3" and e == 15 and m == 7:
            values.append(math.nan)
        elif fmt == "e5m2" and e == 31:
            values.append(sign * math.inf if m == 0 else math.nan)
        elif e == 0:
            values.append(sign * math.ldexp(m, 1 - bias - mbits))
        else:
            values.append(sign * math.ldexp((1 << mbits) + m, e - bias - mbits))
    return np.array(values, np.float64)


def fp8_encode(x, fmt):
    table = fp8_decode_table(fmt)
    finite = [(v, c) for c, v in enumerate(table[:128]) if math.isfinite(v)]
    out = []
    for value in np.asarray(x, np.float64).ravel():
        if math.isnan(value):
            out.append(0x7F)
            continue
        a = abs(value)
        best = min(finite, key=lambda vc: (abs(vc[0] - a), vc[1] & 1))
        if a >= finite[-1][0]:
            best = finite[-1]
        out.append(best[1] | (0x80 if math.copysign(1.0, value) < 0 else 0))
    return np.array(out, np.uint8)


def fp8_test_inputs(count):
    """Every finite code of both formats, every midpoint between neighbours
    (ties) and its f32 neighbours, specials, then random values."""
    parts = [np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 448, 449, 57344, 61440, 1e10,
                       -1e-10, 2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -11, 2.0 ** -16, 2.0 ** -17,
                       3 * 2.0 ** -18], np.float32)]
    for fmt in FORMATS:
        table = fp8_decode_table(fmt)
        positive = np.sort(table[:128][np.isfinite(table[:128])]).astype(np.float32)
        mids = ((positive[:-1].astype(np.float64) + positive[1:]) / 2).astype(np.float32)
        parts += [positive, -mids, mids, np.nextafter(mids, np.float32(0)),
                  np.nextafter(mids, np.float32(np.inf))]
    values = np.concatenate(parts)
    rng = np.random.default_rng(8)
    extra = count - values.size
    assert extra >= 0, values.size
    random = (rng.standard_normal(extra) * np.exp2(rng.integers(-18, 18, extra))).astype(np.float32)
    return np.concatenate([values, random]).astype(np.float32)
