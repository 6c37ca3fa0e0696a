#!/usr/bin/python3
"""Compile one corpus case with tileiras and check it numerically in tile-emu.

  run-case.py --manifest M --case KEY --bytecode FILE --gpu-name sm_XX --bin DIR --work DIR
              [--shape NAME=D0,D1,...]... [--grid X,Y,Z] [--seed N]
  run-case.py ... --cubin IMAGE [--block X,Y,Z]
  run-case.py ... --llvm KERNEL.ll --bin DIR

With --llvm tile-emu runs KERNEL.ll (nvptx64 LLVM IR made beforehand, e.g. by
tile-llvm from an edited stage output) instead of what tileiras makes of the
bytecode.

With --cubin the case runs on a real GPU instead: IMAGE (a cubin or PTX made
beforehand) is launched by tests/gpu/launch-cubin.py, which takes tile-emu's
command line; --bin is then not needed (scripts/gpu-check).

--shape and --grid run a reduced shape of the same kernel (the same bytecode
with smaller arguments) where the manifest's full size is too slow for the
emulator: the array NAME gets the new shape with row-major contiguous strides,
and the kernel parameters derived from it follow.

Inputs are made as the manifest describes each argument (dtype, shape, strides
in elements, byte offset, init); the kernel gets the manifest's kernel_params
in order; the manifest's numpy_prep/numpy_ref compute the reference on a dict
`t` of float32/int32 views; outputs are compared with its tolerance.
Exit 0 when every output matches, 1 otherwise (with the reason on stderr).
"""
import argparse, json, os, re, subprocess, sys
import numpy as np

NUMPY_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64,
                "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
                "uint8": np.uint8, "bool": np.bool_}


def e4m3fn_bits(values):
    """float32 -> float8_e4m3fn bit patterns (nearest even, saturating to 448)."""
    x = np.asarray(values, np.float64)
    sign = np.where(np.signbit(x), 0x80, 0).astype(np.uint8)
    a = np.minimum(np.abs(x), 448.0)
    exp = np.clip(np.floor(np.log2(np.maximum(a, 2.0 ** -9))), -6, 8)
    step = 2.0 ** (exp - 3)              # spacing of the grid around a
    q = np.round(a / step) * step        # numpy rounds half to even
    q = np.minimum(q, 448.0)
    e = np.clip(np.floor(np.log2(np.maximum(q, 2.0 ** -9))), -6, 8)
    normal = q >= 2.0 ** -6
    mant = np.where(normal, np.round((q / 2.0 ** e - 1) * 8), np.round(q / 2.0 ** -9))
    bits = np.where(normal, (e + 7) * 8 + mant, mant)
    return (sign | bits.astype(np.uint8)).astype(np.uint8)


def e4m3fn_values(bits):
    bits = np.asarray(bits, np.uint8)
    e = (bits >> 3) & 0xF
    m = (bits & 7).astype(np.float64)
    v = np.where(e == 0, m * 2.0 ** -9, (1 + m / 8) * 2.0 ** (e.astype(np.float64) - 7))
    v = np.where((bits & 0x7F) == 0x7F, np.nan, v)
    return np.where(bits & 0x80, -v, v).astype(np.float32)


def round_to_tf32(values):
    """float32 values rounded to tf32 (10 mantissa bits), nearest even."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000
    return bits.astype(np.uint32).view(np.float32)


def to_storage(values, dtype):
    """float32 values -> (stored array for the .npy, float32 view of what was stored)."""
    if dtype == "float8_e4m3fn":
        bits = e4m3fn_bits(values)
        return bits, e4m3fn_values(bits)
    if dtype == "float8_e8m0fnu":  # powers of two: 2^(bits - 127)
        bits = np.clip(np.round(np.log2(np.maximum(np.abs(values), 2.0 ** -127))) + 127, 0, 254)
        bits = bits.astype(np.uint8)
        return bits, np.exp2(bits.astype(np.float64) - 127).astype(np.float32)
    if dtype == "bfloat16":
        bits = values.astype(np.float32).view(np.uint32)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        return rounded, (rounded.astype(np.uint32) << 16).view(np.float32)
    stored = values.astype(NUMPY_DTYPES[dtype])
    return stored, stored.astype(np.float32 if stored.dtype.kind == "f" else np.int32)


def from_storage(stored, dtype):
    if dtype == "float8_e4m3fn":
        return e4m3fn_values(stored)
    if dtype == "float8_e8m0fnu":
        return np.exp2(stored.astype(np.float64) - 127).astype(np.float32)
    if dtype == "bfloat16":
        return (stored.astype(np.uint32) << 16).view(np.float32)
    return stored.astype(np.float32 if stored.dtype.kind == "f" else np.int32)


def storage_itemsize(dtype):
    if dtype.startswith("float8"):
        return 1
    return 2 if dtype == "bfloat16" else np.dtype(NUMPY_DTYPES[dtype]).itemsize


def strided(flat, arg):
    """The argument's view of a flat array holding its buffer's elements."""
    start = arg.get("byte_offset", 0) // storage_itemsize(arg["dtype"])
    item = flat.dtype.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[start:], shape=arg["shape"], strides=[s * item for s in arg["strides"]])


def reduce_shapes(case, shapes, grid):
    """Applies --shape/--grid: smaller arrays, contiguous strides, a new grid."""
    by_name = {}
    for arg in case["args"]:
        if arg["kind"] == "array":
            by_name[arg["name"]] = arg
        elif arg["kind"] == "list":
            by_name.update((item["name"], item) for item in arg["items"])
    for spec in shapes:
        name, _, dims = spec.partition("=")
        if name not in by_name:
            sys.exit("run-case.py: --shape names no array of the case: %r" % name)
        arg = by_name[name]
        shape = [int(d) for d in dims.split(",")]
        if len(shape) != len(arg["shape"]):
            sys.exit("run-case.py: --shape %s needs %d dims" % (name, len(arg["shape"])))
        strides, step = [], 1
        for n in reversed(shape):
            strides.insert(0, step)
            step *= n
        arg["shape"], arg["strides"], arg["byte_offset"] = shape, strides, 0
    if grid:
        case["grid"] = [int(g) for g in grid.split(",")]


def main():
    p = argparse.ArgumentParser()
    for name in ("manifest", "case", "gpu-name", "work"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--bytecode")
    p.add_argument("--bin")
    p.add_argument("--cubin", help="run IMAGE on the GPU instead of compiling it for tile-emu")
    p.add_argument("--llvm", help="run this LLVM IR in tile-emu instead of compiling --bytecode")
    p.add_argument("--block", default="1,1,1", help="with --cubin: the launch's block")
    p.add_argument("--time", default="0", help="with --cubin: also time N launches")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...")
    p.add_argument("--grid", metavar="X,Y,Z")
    o = p.parse_args()
    case = json.load(open(o.manifest))["cases"][o.case]
    reduce_shapes(case, o.shape, o.grid)
    os.makedirs(o.work, exist_ok=True)
    rng = np.random.default_rng(o.seed)

    if not o.cubin and not (o.bin and (o.bytecode or o.llvm)):
        p.error("--bin and --bytecode (or --llvm) are needed unless --cubin is given")
    kernel_ll = o.llvm or os.path.join(o.work, "kernel.ll")
    compiled = subprocess.run([os.path.join(o.bin, "tileiras"), o.bytecode, "--emit=llvm",
                               "-o", kernel_ll, "--gpu-name", o.gpu_name]) \
        if not (o.cubin or o.llvm) else None
    if compiled and compiled.returncode != 0:
        print("%s: tileiras failed (exit %d) for %s" % (o.case, compiled.returncode, o.bytecode),
              file=sys.stderr)
        return 1

    # Every array (list items too) starts from the manifest's init; numpy_prep
    # may then overwrite inputs (derived statistics, twiddles, routing tables)
    # before they are stored for the kernel as their dtype rounds them.
    arrays = []
    for arg in case["args"]:
        if arg["kind"] == "array":
            arrays.append(arg)
        elif arg["kind"] == "list":
            arrays.extend(arg["items"])
    flats, t = {}, {}
    for arg in arrays:
        extent = arg.get("byte_offset", 0) // storage_itemsize(arg["dtype"]) + 1 + sum(
            (n - 1) * s for n, s in zip(arg["shape"], arg["strides"]))
        if arg.get("init") == "zeros":
            values = np.zeros(extent + 8, np.float32)
        elif arg.get("init") == "rand":
            values = rng.random(extent + 8).astype(np.float32)
        else:
            values = rng.standard_normal(extent + 8).astype(np.float32)
        flats[arg["name"]] = values
        t[arg["name"]] = strided(values, arg).copy()
    env = {"np": np, "t": t}
    if case.get("numpy_prep"):
        exec(case["numpy_prep"], env)
    files = {}
    for arg in arrays:
        strided(flats[arg["name"]], arg)[...] = t[arg["name"]]
        stored, as_f32 = to_storage(flats[arg["name"]], arg["dtype"])
        t[arg["name"]] = strided(as_f32, arg).copy()
        files[arg["name"]] = os.path.join(o.work, re.sub(r"\W", "_", arg["name"]) + ".npy")
        np.save(files[arg["name"]], stored)

    params, patches = [], []
    for param in case["kernel_params"]:
        m = re.fullmatch(r"(\w+)\.(base|shape|stride|items|len)(?:\[(\d+)\])?", param["name"])
        arg = next(a for a in case["args"] if a["name"] == (m.group(1) if m else param["name"]))
        if arg["kind"] == "scalar":
            params.append("%s:%r" % (param["ctype"], arg["value"]))
        elif m.group(2) == "base":
            params.append("ptr:%s+%d" % (files[arg["name"]], arg.get("byte_offset", 0)))
        elif m.group(2) == "items":
            # cuTile stages a list as one int64 table: per item base, shape..., stride...
            words = []
            for item in arg["items"]:
                patches.append((len(words), item))
                words += [0] + list(item["shape"]) + list(item["strides"])
            table = os.path.join(o.work, arg["name"] + ".items.npy")
            np.save(table, np.array(words, np.int64))
            params.append("ptr:" + table)
            patches = ["%s@%d=%s+%d" % (table, w, files[i["name"]], i.get("byte_offset", 0))
                       for w, i in patches]
        elif m.group(2) == "len":
            params.append("%s:%d" % (param["ctype"], len(arg["items"])))
        else:
            key = "shape" if m.group(2) == "shape" else "strides"
            params.append("%s:%d" % (param["ctype"], arg[key][int(m.group(3))]))

    out_dir = os.path.join(o.work, "out")
    grid = ",".join(str(g) for g in case["grid"])
    if o.cubin:
        launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu",
                                "launch-cubin.py")
        cmd = [sys.executable, launcher, o.cubin, "--block", o.block, "--time", o.time]
    else:
        cmd = [os.path.join(o.bin, "tile-emu"), kernel_ll]
    cmd += ["--kernel", case["symbol"], "--grid", grid, "--gpu-name", o.gpu_name,
            "--out-dir", out_dir]
    for param in params:
        cmd += ["--param", param]
    for patch in patches:
        cmd += ["--pointer-into", patch]
    ran = subprocess.run(cmd)
    if ran.returncode != 0:
        print("%s: %s failed (exit %d)" % (o.case, "the GPU launch" if o.cubin else "tile-emu",
                                          ran.returncode), file=sys.stderr)
        return 1

    if "tf32" in case["tolerance"].get("note", ""):
        # The kernel multiplies tf32 values (ftof f32 -> tf32 rounds to
        # nearest even; the tensor cores read nothing else): the reference
        # takes its inputs rounded alike, since tf32's rounding of randn
        # inputs alone exceeds the manifest's tolerance at these K (17693 of
        # MatMul f32's 262144 outputs).
        for arg in arrays:
            if arg["name"] not in case["outputs"] and arg["dtype"] == "float32":
                t[arg["name"]] = round_to_tf32(t[arg["name"]])
    exec(case["numpy_ref"], env)
    for name in case["outputs"]:
        arg = next(a for a in case["args"] if a["name"] == name)
        stem = os.path.splitext(os.path.basename(files[name]))[0]
        got = strided(from_storage(np.load(os.path.join(out_dir, stem + ".npy")), arg["dtype"]), arg)
        want = t[name]
        tol = case["tolerance"]
        if not np.allclose(got, want, atol=tol["atol"], rtol=tol["rtol"]):
            bad = np.argwhere(~np.isclose(got, want, atol=tol["atol"], rtol=tol["rtol"]))
            print("%s: output %s differs at %d places, first %s: got %r want %r" % (
                o.case, name, len(bad), tuple(bad[0]), got[tuple(bad[0])], want[tuple(bad[0])]),
                file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
