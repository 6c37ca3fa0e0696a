#!/usr/bin/python3
"""Writes the non-splat tensor constant test kernel, or the emu-check.py
arguments that run and check it.

  constant_kernel.py kernel     cuda_tile text on stdout
  constant_kernel.py args       emu-check.py arguments, one a line

The kernel `constants` stores one non-splat `constant` per case into its own
output through a tensor view, so each shape gets the layout its store
allows (16-byte aligned outputs: 2 to 16 registers along the row; the
`_unaligned` ones: 1), 1-D and 2-D, tiles smaller than the CTA (which wrap
around the threads). i1 is stored through exti (stores of i1 tiles are not
what this checks). Every output is compared bit for bit with the constant
(outputs are unsigned integer arrays of the element width).
"""
import sys

import numpy as np

# name, element type, shape
CASES = [
    ("f32_128", "f32", (128,)),
    ("i32_8", "i32", (8,)),
    ("f16_16x32", "f16", (16, 32)),
    ("bf16_8x64", "bf16", (8, 64)),
    ("i8_64", "i8", (64,)),
    ("i16_2x4", "i16", (2, 4)),
    ("i64_4x16", "i64", (4, 16)),
    ("f64_32", "f64", (32,)),
    ("i1_256", "i1", (256,)),
    ("f32_64x8", "f32", (64, 8)),
    ("f8E4M3FN_4x32", "f8E4M3FN", (4, 32)),
    # Outputs not known to be aligned: one register per access.
    ("f32_128_unaligned", "f32", (128,)),
    ("bf16_16x16_unaligned", "bf16", (16, 16)),
]
BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "i1": 32, "i8": 8, "i16": 16,
        "i32": 32, "i64": 64, "f8E4M3FN": 8}


def decode_e4m3(byte):
    """The value of an f8E4M3FN code (not NaN)."""
    sign = -1.0 if byte & 0x80 else 1.0
    exponent, mantissa = (byte >> 3) & 15, byte & 7
    if exponent == 0:
        return sign * mantissa / 8 * 2.0 ** -6
    return sign * (1 + mantissa / 8) * 2.0 ** (exponent - 7)


def values(case_index, element, shape):
    """The constant's elements as (MLIR literals, expected unsigned bits)."""
    rng = np.random.default_rng(100 + case_index)
    n = int(np.prod(shape))
    width = BITS[element]
    if element == "i1":
        v = rng.integers(0, 2, n).astype(bool)
        return ["true" if x else "false" for x in v], v.astype(np.uint32)
    if element == "f8E4M3FN":
        codes = rng.integers(0, 256, n).astype(np.uint8)
        codes[(codes & 0x7F) == 0x7F] = 0x38  # NaN codes -> 1.0
        return [repr(decode_e4m3(int(c))) for c in codes], codes
    if element.startswith("i"):
        info = np.iinfo(getattr(np, "int%d" % width))
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64).astype(info.dtype)
        return [str(int(x)) for x in v], v.view(getattr(np, "uint%d" % width))
    if element == "bf16":
        f = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(np.float32)
        bits = (f.view(np.uint32) >> 16).astype(np.uint16)
        exact = (bits.astype(np.uint32) << 16).view(np.float32)
        return [repr(float(x)) for x in exact], bits
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[element]
    v = (rng.standard_normal(n) * 2.0 ** rng.integers(-10, 10, n)).astype(dtype)
    v[:2] = [0.0, -0.0] if n > 2 else v[:2]
    return [repr(float(x)) for x in v], v.view(getattr(np, "uint%d" % width))


def nested(literals, shape):
    if len(shape) == 1:
        return "[" + ", ".join(literals) + "]"
    step = len(literals) // shape[0]
    return "[" + ", ".join(nested(literals[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def kernel():
    stored = lambda e: "i32" if e == "i1" else e
    params = ", ".join(f"%{name}: tile<ptr<{stored(e)}>>" for name, e, _ in CASES)
    lines = ["cuda_tile.module @kernels {", f"  entry @constants({params}) {{",
             "    %tok = make_token : token", "    %c0 = constant <i32: 0> : tile<i32>"]
    for i, (name, element, shape) in enumerate(CASES):
        dims = "x".join(map(str, shape))
        s = stored(element)
        strides = [int(np.prod(shape[k + 1:])) for k in range(len(shape))]
        zeros = ", ".join(["%c0"] * len(shape))
        idx = "tile<i32>"  # one type for all indices
        view = (f"tensor_view<{dims}x{s}, strides=[{','.join(map(str, strides))}]>")
        part = f"partition_view<tile=({dims}), {view}>"
        literals, _ = values(i, element, shape)
        lines += [
            f"    %{name}k = constant <{element}: {nested(literals, shape)}> : tile<{dims}x{element}>",
            f"    %{name}a = assume div_by<{1 if name.endswith('unaligned') else 16}>, "
            f"%{name} : tile<ptr<{s}>>",
            f"    %{name}v = make_tensor_view %{name}a, shape = [{', '.join(map(str, shape))}], "
            f"strides = [{', '.join(map(str, strides))}] : {view}",
            f"    %{name}p = make_partition_view %{name}v : {part}"]
        value = f"%{name}k"
        if element == "i1":
            lines.append(f"    %{name}x = exti %{name}k unsigned : tile<{dims}xi1> -> tile<{dims}xi32>")
            value = f"%{name}x"
        lines.append(f"    %{name}t = store_view_tko weak {value}, %{name}p[{zeros}] token = %tok : "
                     f"tile<{dims}x{s}>, {part}, {idx} -> token")
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def args():
    result = []
    for i, (name, element, shape) in enumerate(CASES):
        _, bits = values(i, element, shape)
        result.append(f"--array={name}=np.zeros({bits.size}, np.{bits.dtype.name})")
        result.append(f"--expect={name} = np.array({bits.tolist()}, np.{bits.dtype.name})")
    return "\n".join(result) + "\n"


if __name__ == "__main__":
    sys.stdout.write(kernel() if sys.argv[1] == "kernel" else args())
