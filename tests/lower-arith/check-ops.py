#!/usr/bin/python3
"""Table-driven numeric checks of the cuda_tile arithmetic family.

Each GROUP below is one kernel: it loads the 128-element inputs a (and b),
applies every op of the group's table to them and stores each result to its
own output; emu-check.py compiles it with tileiras, runs it in tile-emu and
compares every output with the table's numpy expression. One compile and one
emulator run per group keeps the suite fast.

  check-ops.py [--bin DIR] [--group NAME]... [--keep DIR] [--print NAME]

Exit 0 when every group matches, 1 on a mismatch, 2 on a tool failure.
"""
import argparse, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMU_CHECK = os.path.join(HERE, "..", "lib", "emu-check.py")
N = 128

# Shorthands expanded into the numpy expressions (emu-check evaluates one
# statement per output).
HELPERS = {
    # C division (toward zero), exact in float64 for 32-bit operands.
    "tdiv(a, b)": "np.trunc(a.astype(np.float64) / b).astype(a.dtype)",
    # Toward +inf.
    "cdiv(a, b)": "(-((-a.astype(np.int64)) // b)).astype(a.dtype)",
}
for bits in (16, 32, 64):
    for kind in ("int", "uint"):
        dtype = "np.%s%d" % (kind, bits)
        # Saturating float -> int: NaN -> 0, clamp to the integer range.
        HELPERS["sat(a, %s)" % dtype] = (
            "np.clip(np.trunc(np.where(np.isnan(a), 0, a).astype(np.float64)), "
            "np.iinfo(%s).min, np.iinfo(%s).max).astype(%s)" % (dtype, dtype, dtype))


def expand(expr):
    for short, long in HELPERS.items():
        expr = expr.replace(short, long)
    return expr


# Each op: (output element type, cuda_tile lines computing {r} from %x/%y
# with temporaries {c} {s} {u}, numpy expression over a/b).
I32_BINARY = [
    ("i32", "{r} = addi %x, %y : tile<128xi32>", "a + b"),
    ("i32", "{r} = subi %x, %y : tile<128xi32>", "a - b"),
    ("i32", "{r} = muli %x, %y : tile<128xi32>", "a * b"),
    ("i32", "{r} = divi %x, %y signed : tile<128xi32>", "tdiv(a, b)"),
    ("i32", "{r} = divi %x, %y signed rounding<negative_inf> : tile<128xi32>", "a // b"),
    ("i32", "{r} = divi %x, %y signed rounding<positive_inf> : tile<128xi32>", "cdiv(a, b)"),
    ("i32", "{r} = divi %x, %y unsigned : tile<128xi32>",
     "(a.view(np.uint32) // b.view(np.uint32)).view(np.int32)"),
    ("i32", "{r} = divi %x, %y unsigned rounding<positive_inf> : tile<128xi32>",
     "(-((-a.view(np.uint32).astype(np.int64)) // b.view(np.uint32).astype(np.int64))).astype(np.uint32).view(np.int32)"),
    ("i32", "{r} = remi %x, %y signed : tile<128xi32>", "np.fmod(a, b)"),
    ("i32", "{r} = remi %x, %y unsigned : tile<128xi32>",
     "(a.view(np.uint32) % b.view(np.uint32)).view(np.int32)"),
    ("i32", "{r} = maxi %x, %y signed : tile<128xi32>", "np.maximum(a, b)"),
    ("i32", "{r} = mini %x, %y signed : tile<128xi32>", "np.minimum(a, b)"),
    ("i32", "{r} = maxi %x, %y unsigned : tile<128xi32>",
     "np.maximum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)"),
    ("i32", "{r} = mini %x, %y unsigned : tile<128xi32>",
     "np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)"),
    ("i32", "{r} = andi %x, %y : tile<128xi32>", "a & b"),
    ("i32", "{r} = ori %x, %y : tile<128xi32>", "a | b"),
    ("i32", "{r} = xori %x, %y : tile<128xi32>", "a ^ b"),
    ("i32", "{s} = andi %y, %c7 : tile<128xi32>\n{r} = shli %x, {s} : tile<128xi32>",
     "a << (b & 7)"),
    ("i32", "{s} = andi %y, %c7 : tile<128xi32>\n{r} = shri %x, {s} signed : tile<128xi32>",
     "a >> (b & 7)"),
    ("i32", "{s} = andi %y, %c7 : tile<128xi32>\n{r} = shri %x, {s} unsigned : tile<128xi32>",
     "(a.view(np.uint32) >> (b & 7).astype(np.uint32)).view(np.int32)"),
    ("i32", "{r} = mulhii %x, %y : tile<128xi32>",
     "((a.astype(np.int64) * b.astype(np.int64)) >> 32).astype(np.int32)"),
    ("i32", "{r} = negi %x : tile<128xi32>", "-a"),
    ("i32", "{r} = absi %x : tile<128xi32>", "np.abs(a)"),
    ("i32", "{c} = cmpi less_than %x, %y, signed : tile<128xi32> -> tile<128xi1>\n"
            "{r} = select {c}, %x, %y : tile<128xi1>, tile<128xi32>", "np.where(a < b, a, b)"),
]
for pred, sign, expr in [
        ("equal", "signed", "a == b"), ("not_equal", "signed", "a != b"),
        ("less_than", "signed", "a < b"), ("less_than_or_equal", "signed", "a <= b"),
        ("greater_than", "signed", "a > b"), ("greater_than_or_equal", "signed", "a >= b"),
        ("less_than", "unsigned", "a.view(np.uint32) < b.view(np.uint32)"),
        ("greater_than_or_equal", "unsigned", "a.view(np.uint32) >= b.view(np.uint32)")]:
    I32_BINARY.append(("i32", "{c} = cmpi %s %%x, %%y, %s : tile<128xi32> -> tile<128xi1>\n"
                       "{r} = exti {c} unsigned : tile<128xi1> -> tile<128xi32>" % (pred, sign),
                       "(%s).astype(np.int32)" % expr))

F32_BINARY = [
    ("f32", "{r} = addf %x, %y : tile<128xf32>", "a + b"),
    ("f32", "{r} = subf %x, %y : tile<128xf32>", "a - b"),
    ("f32", "{r} = mulf %x, %y : tile<128xf32>", "a * b"),
    ("f32", "{r} = divf %x, %y : tile<128xf32>", "a / b"),
    ("f32", "{r} = remf %x, %y : tile<128xf32>", "np.fmod(a, b)"),
    ("f32", "{r} = maxf %x, %y : tile<128xf32>", "np.fmax(a, b)"),
    ("f32", "{r} = minf %x, %y : tile<128xf32>", "np.fmin(a, b)"),
    ("f32", "{r} = maxf %x, %y propagate_nan : tile<128xf32>", "np.maximum(a, b)"),
    ("f32", "{r} = minf %x, %y propagate_nan : tile<128xf32>", "np.minimum(a, b)"),
    ("f32", "{r} = fma %x, %y, %x : tile<128xf32>", "a * b + a"),
    ("f32", "{r} = negf %x : tile<128xf32>", "-a"),
    ("f32", "{r} = absf %x : tile<128xf32>", "np.abs(a)"),
    ("f32", "{r} = ceil %x : tile<128xf32>", "np.ceil(a)"),
    ("f32", "{r} = floor %x : tile<128xf32>", "np.floor(a)"),
    ("f32", "{c} = cmpf less_than ordered %x, %y : tile<128xf32> -> tile<128xi1>\n"
            "{r} = select {c}, %x, %y : tile<128xi1>, tile<128xf32>", "np.where(a < b, a, b)"),
]
for pred, order, expr in [
        ("equal", "ordered", "a == b"), ("not_equal", "ordered", "(a != b) & ~nan"),
        ("less_than", "ordered", "a < b"), ("less_than_or_equal", "ordered", "a <= b"),
        ("greater_than", "ordered", "a > b"), ("greater_than_or_equal", "ordered", "a >= b"),
        ("equal", "unordered", "(a == b) | nan"), ("not_equal", "unordered", "a != b"),
        ("less_than", "unordered", "(a < b) | nan"), ("greater_than", "unordered", "(a > b) | nan")]:
    F32_BINARY.append(("i32", "{c} = cmpf %s %s %%x, %%y : tile<128xf32> -> tile<128xi1>\n"
                       "{r} = exti {c} unsigned : tile<128xi1> -> tile<128xi32>" % (pred, order),
                       "(%s).astype(np.int32)" % expr.replace(
                           "nan", "(np.isnan(a) | np.isnan(b))")))

# Transcendentals on positive inputs (libdevice); tolerance in the group.
# sin/cos/tan are missing: libdevice's __nv_sinf & co. use inline PTX, which
# tile-emu cannot run (arith.bats checks they compile to those calls).
F32_MATH = [
    ("f32", "{r} = exp %x : tile<128xf32>", "np.exp(a)"),
    ("f32", "{r} = exp2 %x : tile<128xf32>", "np.exp2(a)"),
    ("f32", "{r} = log %x : tile<128xf32>", "np.log(a)"),
    ("f32", "{r} = log2 %x : tile<128xf32>", "np.log2(a)"),
    ("f32", "{r} = sqrt %x : tile<128xf32>", "np.sqrt(a)"),
    ("f32", "{r} = rsqrt %x : tile<128xf32>", "1 / np.sqrt(a)"),
    ("f32", "{r} = sinh %x : tile<128xf32>", "np.sinh(a)"),
    ("f32", "{r} = cosh %x : tile<128xf32>", "np.cosh(a)"),
    ("f32", "{r} = tanh %x : tile<128xf32>", "np.tanh(a)"),
    ("f32", "{r} = pow %x, %y : tile<128xf32>", "np.power(a, b)"),
    ("f32", "{r} = atan2 %x, %y : tile<128xf32>", "np.arctan2(a, b)"),
]

# Conversions from f32 (saturating ftoi, NaN -> 0) and from i32.
F32_CONVERT = [
    ("i32", "{r} = ftoi %x signed : tile<128xf32> -> tile<128xi32>", "sat(a, np.int32)"),
    ("i32", "{r} = ftoi %x unsigned : tile<128xf32> -> tile<128xi32>",
     "sat(a, np.uint32).view(np.int32)"),
    ("i16", "{r} = ftoi %x signed : tile<128xf32> -> tile<128xi16>", "sat(a, np.int16)"),
    ("i64", "{r} = ftoi %x signed : tile<128xf32> -> tile<128xi64>", "sat(a, np.int64)"),
    ("f16", "{r} = ftof %x : tile<128xf32> -> tile<128xf16>", "a.astype(np.float16)"),
    ("f64", "{r} = ftof %x : tile<128xf32> -> tile<128xf64>", "a.astype(np.float64)"),
    ("i32", "{r} = bitcast %x : tile<128xf32> -> tile<128xi32>", "a.view(np.int32)"),
]
I32_CONVERT = [
    ("f32", "{r} = itof %x signed : tile<128xi32> -> tile<128xf32>", "a.astype(np.float32)"),
    ("f32", "{r} = itof %x unsigned : tile<128xi32> -> tile<128xf32>",
     "a.view(np.uint32).astype(np.float32)"),
    ("i64", "{r} = exti %x signed : tile<128xi32> -> tile<128xi64>", "a.astype(np.int64)"),
    ("i64", "{r} = exti %x unsigned : tile<128xi32> -> tile<128xi64>",
     "a.view(np.uint32).astype(np.int64)"),
    ("i16", "{r} = trunci %x : tile<128xi32> -> tile<128xi16>", "a.astype(np.int16)"),
]

RNG = "np.random.default_rng(%d)"
INT_A = "np.concatenate([np.array([-7, 7, -7, 7, -8, 9, -2147483648, 2147483647], np.int32), " \
        "%s.integers(-1000, 1000, 120, dtype=np.int32)])" % (RNG % 1)
INT_B = "np.concatenate([np.array([2, -2, -2, 2, 3, -4, 3, 5], np.int32), " \
        "np.where(np.arange(120) %% 2 == 0, 1, -1).astype(np.int32) * %s.integers(1, 50, 120, dtype=np.int32)])" % (RNG % 2)
F_A = "np.concatenate([np.array([np.nan, 1.0, np.nan, -2.5, 3e9, -3e9, 7e4, -0.75], np.float32), " \
      "%s.uniform(-100, 100, 120).astype(np.float32)])" % (RNG % 3)
F_B = "np.concatenate([np.array([2.0, np.nan, np.nan, 4.0, 1.0, 2.0, -3.0, 0.5], np.float32), " \
      "%s.uniform(0.5, 50, 120).astype(np.float32)])" % (RNG % 4)
POS_A = "%s.uniform(0.1, 3, 128).astype(np.float32)" % (RNG % 5)
POS_B = "%s.uniform(-2, 2, 128).astype(np.float32)" % (RNG % 6)

# name: (input element type, a, b or None, table, rtol, atol)
GROUPS = {
    "i32-binary": ("i32", INT_A, INT_B, I32_BINARY, 0, 0),
    "f32-binary": ("f32", F_A, F_B, F32_BINARY, 1e-6, 1e-6),
    "f32-math": ("f32", POS_A, POS_B, F32_MATH, 1e-5, 1e-6),
    "f32-convert": ("f32", F_A, None, F32_CONVERT, 1e-6, 0),
    "i32-convert": ("i32", INT_A, None, I32_CONVERT, 1e-6, 0),
}

NUMPY = {"i16": "np.int16", "i32": "np.int32", "i64": "np.int64",
         "f16": "np.float16", "f32": "np.float32", "f64": "np.float64"}


def pointer_lines(name, elem):
    return ["%%p_%s = reshape %%%s : tile<ptr<%s>> -> tile<1xptr<%s>>" % (name, name, elem, elem),
            "%%b_%s = broadcast %%p_%s : tile<1xptr<%s>> -> tile<%dxptr<%s>>" % (name, name, elem, N, elem),
            "%%q_%s = offset %%b_%s, %%idx : tile<%dxptr<%s>>, tile<%dxi32> -> tile<%dxptr<%s>>"
            % (name, name, N, elem, N, N, elem)]


def kernel(elem, binary, table):
    params = ["%%a: tile<ptr<%s>>" % elem]
    inputs = ["a"] + (["b"] if binary else [])
    if binary:
        params.append("%%b: tile<ptr<%s>>" % elem)
    params += ["%%o%d: tile<ptr<%s>>" % (i, out) for i, (out, _, _) in enumerate(table)]
    body = ["%%idx = iota : tile<%dxi32>" % N,
            "%%c7 = constant <i32: 7> : tile<%dxi32>" % N]
    for name in inputs:
        body += pointer_lines(name, elem)
    body.append("%%x, %%tx = load_ptr_tko weak %%q_a : tile<%dxptr<%s>> -> tile<%dx%s>, token" % (N, elem, N, elem))
    if binary:
        body.append("%%y, %%ty = load_ptr_tko weak %%q_b : tile<%dxptr<%s>> -> tile<%dx%s>, token" % (N, elem, N, elem))
    for i, (out, lines, _) in enumerate(table):
        for line in lines.split("\n"):
            for tmp in "rcsu":
                line = line.replace("{%s}" % tmp, "%%%s_%d" % (tmp, i))
            body.append(line)
        body += pointer_lines("o%d" % i, out)
        body.append("%%t%d = store_ptr_tko weak %%q_o%d, %%r_%d : tile<%dxptr<%s>>, tile<%dx%s> -> token"
                    % (i, i, i, N, out, N, out))
    body.append("return")
    return ("cuda_tile.module @arith {\n  entry @ops(%s) {\n    %s\n  }\n}\n"
            % (", ".join(params), "\n    ".join(body)))


def run_group(name, binary_dir, keep):
    elem, a, b, table, rtol, atol = GROUPS[name]
    work = keep or tempfile.mkdtemp(prefix="check-ops-")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, name + ".mlir")
    with open(path, "w") as f:
        f.write(kernel(elem, b is not None, table))
    cmd = [sys.executable, EMU_CHECK, path, "--entry", "ops", "--rtol", str(rtol),
           "--atol", str(atol), "--array", "a=" + a]
    if b is not None:
        cmd += ["--array", "b=" + b]
    for i, (out, _, _) in enumerate(table):
        cmd += ["--array", "o%d=np.zeros(%d, %s)" % (i, N, NUMPY[out])]
    for i, (out, _, expr) in enumerate(table):
        cmd += ["--expect", "o%d = np.asarray(%s).astype(%s)" % (i, expand(expr), NUMPY[out])]
    if binary_dir:
        cmd += ["--bin", binary_dir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write("%s (%s):\n%s" % (name, path, r.stderr))
        for line in r.stderr.splitlines():  # name the op behind each bad output
            if line.startswith("o") and " differs" in line:
                index = int(line.split()[0][1:])
                sys.stderr.write("  o%d is: %s\n" % (index, table[index][1]))
    return r.returncode


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default=os.environ.get("TILEPIPE_BIN", ""))
    p.add_argument("--group", action="append")
    p.add_argument("--keep")
    p.add_argument("--print", metavar="GROUP", help="print the group's kernel and exit")
    o = p.parse_args()
    if o.print:
        elem, _, b, table, _, _ = GROUPS[o.print]
        sys.stdout.write(kernel(elem, b is not None, table))
        return 0
    worst = 0
    for name in o.group or GROUPS:
        worst = max(worst, run_group(name, o.bin, o.keep))
    return worst


if __name__ == "__main__":
    sys.exit(main())
