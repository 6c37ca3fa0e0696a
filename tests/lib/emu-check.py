#!/usr/bin/python3
"""Compile a small cuda_tile kernel and check what it computes in tile-emu.

  emu-check.py KERNEL.mlir|KERNEL.ll --entry NAME [--grid X[,Y,Z]] [--gpu-name sm_80]
      [--array NAME=NUMPY_EXPR | --scalar TYPE:VALUE]...   (kernel params, in order)
      --expect 'NAME = NUMPY_EXPR' [--expect ...] [--rtol R] [--atol A]
      [--helpers FILE.py]

Each --array makes an input buffer from a numpy expression (np is numpy; earlier
arrays are in scope) and passes its pointer; each --scalar passes a scalar as
tile-emu's --param does (i32:5, f32:1.5). Dtype bfloat16 arrays are written as
`bf16(EXPR)` (stored as uint16 bit patterns). Each --expect evaluates a numpy
statement over the *input* values of the arrays and compares the named array
as the kernel left it. Exit 0 when all match, 1 otherwise (with a diff), 2 on
a tool failure (its stderr is shown). --helpers runs a Python file first and
puts what it defines in scope of every expression (reference implementations).
A KERNEL.ll is LLVM IR compiled already (by the stage tools, with pass options
tileiras has no flag for) and runs as it is.
"""
import argparse, os, subprocess, sys, tempfile
import numpy as np


class Param(argparse.Action):
    def __call__(self, parser, ns, value, option):
        ns.params.append((option.lstrip("-"), value))


def bf16(values):
    bits = np.asarray(values, dtype=np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kernel")
    p.add_argument("--entry", required=True)
    p.add_argument("--grid", default="1")
    p.add_argument("--gpu-name", default="sm_80")
    p.add_argument("--array", action=Param, dest="params")
    p.add_argument("--scalar", action=Param, dest="params")
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--rtol", type=float, default=1e-5)
    p.add_argument("--atol", type=float, default=1e-6)
    p.add_argument("--bin", default=os.environ.get("TILEPIPE_BIN", ""))
    p.add_argument("--helpers", action="append", default=[])
    p.set_defaults(params=[])
    o = p.parse_args()
    tool = lambda name: os.path.join(o.bin, name) if o.bin else name

    work = tempfile.mkdtemp(prefix="emu-check-")
    ll = o.kernel
    if not ll.endswith(".ll"):
        ll = os.path.join(work, "kernel.ll")
        r = subprocess.run([tool("tileiras"), o.kernel, "--emit=llvm", "-o", ll,
                            "--gpu-name", o.gpu_name], capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stderr)
            return 2

    env = {"np": np, "bf16": bf16}
    for helpers in o.helpers:
        exec(compile(open(helpers).read(), helpers, "exec"), env)
    inputs, args = {}, []
    for kind, value in o.params:
        if kind == "scalar":
            args.append(value)
            continue
        name, expr = value.split("=", 1)
        array = np.ascontiguousarray(eval(expr, env))
        env[name] = inputs[name] = array
        path = os.path.join(work, name + ".npy")
        np.save(path, array)
        args.append("ptr:" + path)
    out = os.path.join(work, "out")
    cmd = [tool("tile-emu"), ll, "--kernel", o.entry, "--grid", o.grid,
           "--gpu-name", o.gpu_name, "--out-dir", out]
    for a in args:
        cmd += ["--param", a]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        return 2

    ok = True
    for statement in o.expect:
        name = statement.split("=", 1)[0].strip()
        scope = dict(env, **{k: v.copy() for k, v in inputs.items()})
        exec(statement, scope)
        want = np.asarray(scope[name])
        got = np.load(os.path.join(out, name + ".npy"))
        if got.dtype == np.uint16 and inputs[name].dtype == np.uint16 and want.dtype != np.uint16:
            got = (got.astype(np.uint32) << 16).view(np.float32)  # bf16 bits
        if want.dtype.kind == "f" or got.dtype.kind == "f":
            same = np.allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=o.rtol, atol=o.atol, equal_nan=True)
        else:
            same = np.array_equal(got, want)
        if not same:
            ok = False
            sys.stderr.write("%s differs:\n  got  %s\n  want %s\n" % (name, got.ravel()[:16], want.ravel()[:16]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
