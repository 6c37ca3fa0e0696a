#!/usr/bin/python3
"""Compile one corpus case with tileiras and check it numerically in tile-emu.

  run-case.py --manifest M --case KEY --bytecode FILE --gpu-name sm_XX --bin DIR --work DIR

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


def to_storage(values, dtype):
    """float32 values -> (stored array for the .npy, float32 view of what was stored)."""
    if dtype == "bfloat16":
        bits = values.astype(np.float32).view(np.uint32)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        return rounded, (rounded.astype(np.uint32) << 16).view(np.float32)
    stored = values.astype(NUMPY_DTYPES[dtype])
    return stored, stored.astype(np.float32 if stored.dtype.kind == "f" else np.int32)


def from_storage(stored, dtype):
    if dtype == "bfloat16":
        return (stored.astype(np.uint32) << 16).view(np.float32)
    return stored.astype(np.float32 if stored.dtype.kind == "f" else np.int32)


def storage_itemsize(dtype):
    return 2 if dtype == "bfloat16" else np.dtype(NUMPY_DTYPES[dtype]).itemsize


def strided(flat, arg):
    """The argument's view of a flat array holding its buffer's elements."""
    start = arg.get("byte_offset", 0) // storage_itemsize(arg["dtype"])
    item = flat.dtype.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[start:], shape=arg["shape"], strides=[s * item for s in arg["strides"]])


def main():
    p = argparse.ArgumentParser()
    for name in ("manifest", "case", "bytecode", "gpu-name", "bin", "work"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--seed", type=int, default=0)
    o = p.parse_args()
    case = json.load(open(o.manifest))["cases"][o.case]
    os.makedirs(o.work, exist_ok=True)
    rng = np.random.default_rng(o.seed)

    kernel_ll = os.path.join(o.work, "kernel.ll")
    subprocess.run([os.path.join(o.bin, "tileiras"), o.bytecode, "--emit=llvm", "-o", kernel_ll,
                    "--gpu-name", o.gpu_name], check=True)

    flats, views, t = {}, {}, {}
    for arg in case["args"]:
        if arg["kind"] != "array":
            continue
        extent = arg.get("byte_offset", 0) // storage_itemsize(arg["dtype"]) + 1 + sum(
            (n - 1) * s for n, s in zip(arg["shape"], arg["strides"]))
        values = rng.standard_normal(extent + 8).astype(np.float32)
        if arg.get("init") == "zeros":
            values[:] = 0
        stored, as_f32 = to_storage(values, arg["dtype"])
        flats[arg["name"]] = stored
        t[arg["name"]] = strided(as_f32, arg).copy()
        np.save(os.path.join(o.work, arg["name"] + ".npy"), stored)

    params = []
    for param in case["kernel_params"]:
        m = re.fullmatch(r"(\w+)\.(base|shape|stride)(?:\[(\d+)\])?", param["name"])
        arg = next(a for a in case["args"] if a["name"] == m.group(1))
        if m.group(2) == "base":
            params.append("ptr:%s+%d" % (os.path.join(o.work, arg["name"] + ".npy"),
                                         arg.get("byte_offset", 0)))
        else:
            key = "shape" if m.group(2) == "shape" else "strides"
            params.append("%s:%d" % (param["ctype"], arg[key][int(m.group(3))]))

    out_dir = os.path.join(o.work, "out")
    grid = ",".join(str(g) for g in case["grid"])
    cmd = [os.path.join(o.bin, "tile-emu"), kernel_ll, "--kernel", case["symbol"], "--grid", grid,
           "--gpu-name", o.gpu_name, "--out-dir", out_dir]
    for param in params:
        cmd += ["--param", param]
    subprocess.run(cmd, check=True)

    env = {"np": np, "t": t}
    if case.get("numpy_prep"):
        exec(case["numpy_prep"], env)
    exec(case["numpy_ref"], env)
    for name in case["outputs"]:
        arg = next(a for a in case["args"] if a["name"] == name)
        got = strided(from_storage(np.load(os.path.join(out_dir, name + ".npy")), arg["dtype"]), arg)
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
