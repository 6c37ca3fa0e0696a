# numpy decoders for the block-scaled fp4 checks (emu-check.py --helpers):
# the values the kernels' memory holds, decoded independently of tilepipe.
import numpy as np

# e2m1: sign, 2 exponent bits (bias 1), 1 mantissa bit; no inf or NaN.
E2M1_MAGNITUDES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def e2m1(packed, k):
    """Packed e2m1 bytes [..., K/2] (element 2i in the low nibble of byte i)
    as float64 [..., K]."""
    packed = np.asarray(packed, dtype=np.uint8)
    nibbles = np.stack([packed & 15, packed >> 4], axis=-1).reshape(packed.shape[:-1] + (k,))
    return np.where(nibbles & 8, -1.0, 1.0) * E2M1_MAGNITUDES[nibbles & 7]


def e8m0(bits):
    """f8E8M0FNU bit patterns as powers of two (255, NaN, is not used)."""
    return np.exp2(np.asarray(bits, dtype=np.float64) - 127)


def e4m3(bits):
    """f8E4M3FN bit patterns (no NaN among them) as float64."""
    u = np.asarray(bits, dtype=np.int64)
    exponent, mantissa = (u >> 3) & 15, u & 7
    magnitude = np.where(exponent, (8 + mantissa) * 2.0 ** (exponent - 10), mantissa * 2.0 ** -9)
    return np.where(u & 0x80, -1.0, 1.0) * magnitude


def ue4m3(bits):
    """NVFP4 scales as the tensor cores read them: unsigned e4m3, bit 7
    ignored (PTX ISA, kind::mxf4nvf4's ue4m3)."""
    return e4m3(np.asarray(bits, dtype=np.int64) & 0x7F)


def scaled(values, scales, block, axis):
    """`values` times their scales, each scale repeated over `block` k."""
    return values * np.repeat(scales, block, axis=axis)
