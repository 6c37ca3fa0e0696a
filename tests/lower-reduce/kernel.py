#!/usr/bin/python3
"""Print a small cuda_tile kernel around one reduce or scan, for emu-check.py.

  kernel.py reduce --dtype f32 --shape 8x16 --dim 1 --op add
  kernel.py scan   --dtype i32 --shape 64 --dim 0 --op add [--reverse]
  kernel.py argmax --shape 8x16 --dim 1

Kernel @k takes the input pointer(s) then the output pointer(s); tensors are
row-major and dense. reduce/scan: (x, y). argmax: (x, idx, value, index),
a two-operand reduce over (value, index) keeping the largest value and, of
equal values, the smallest index. A reduce to a 0-d tile stores one element.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tile_kernel import Kernel, tile  # noqa: E402

IDENTITY = {
    ("add", "f32"): "0.000000e+00 : f32", ("add", "f16"): "0.000000e+00 : f16",
    ("add", "i32"): "0 : i32",
    ("max", "f32"): "0xFF800000 : f32", ("max", "f16"): "0xFC00 : f16",
    ("max", "i32"): "-2147483648 : i32",
}


def combiner_op(op, dtype):
    if dtype == "i32":
        return {"add": "addi %a, %b", "max": "maxi %a, %b signed"}[op]
    return {"add": "addf %a, %b", "max": "maxf %a, %b"}[op]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["reduce", "scan", "argmax"])
    p.add_argument("--dtype", default="f32")
    p.add_argument("--shape", required=True)
    p.add_argument("--dim", type=int, default=0)
    p.add_argument("--op", default="add")
    p.add_argument("--reverse", action="store_true")
    p.add_argument("--warps", type=int, default=0, help="num_worker_warps hint (sm_80)")
    o = p.parse_args()
    shape = [int(s) for s in o.shape.split("x")]
    reduced = shape[:o.dim] + shape[o.dim + 1:]
    k = Kernel()
    dt = "f32" if o.kind == "argmax" else o.dtype
    if o.kind == "argmax":
        params = "%x: tile<ptr<f32>>, %idx: tile<ptr<i32>>, %v: tile<ptr<f32>>, %i: tile<ptr<i32>>"
    else:
        params = "%%x: tile<ptr<%s>>, %%y: tile<ptr<%s>>" % (dt, dt)
    hints = " optimization_hints=<sm_80 = {num_worker_warps = %d}>" % o.warps if o.warps else ""
    k.emit("%tok = make_token : token")
    x = k.load("%x", shape, dt)
    if o.kind == "argmax":
        j = k.load("%idx", shape, "i32")
        k.emit("%%red:2 = reduce %s, %s dim=%d identities=[0xFF800000 : f32, 2147483647 : i32] : %s, %s -> %s, %s"
               % (x, j, o.dim, tile(shape, "f32"), tile(shape, "i32"), tile(reduced, "f32"), tile(reduced, "i32")))
        k.lines.append("""    (%av: tile<f32>, %ai: tile<i32>, %bv: tile<f32>, %bi: tile<i32>) {
      %gt = cmpf greater_than ordered %bv, %av : tile<f32> -> tile<i1>
      %eq = cmpf equal ordered %bv, %av : tile<f32> -> tile<i1>
      %lt = cmpi less_than %bi, %ai, signed : tile<i32> -> tile<i1>
      %tie = andi %eq, %lt : tile<i1>
      %take = ori %gt, %tie : tile<i1>
      %mv = select %take, %bv, %av : tile<i1>, tile<f32>
      %mi = select %take, %bi, %ai : tile<i1>, tile<i32>
      yield %mv, %mi : tile<f32>, tile<i32>
    }""")
        k.store("%red#0", "%v", reduced, "f32")
        k.store("%red#1", "%i", reduced, "i32")
    else:
        scan = o.kind == "scan"
        out = shape if scan else reduced
        rev = " reverse=%s" % ("true" if o.reverse else "false") if scan else ""
        k.emit("%%red = %s %s dim=%d%s identities=[%s] : %s -> %s"
               % (o.kind, x, o.dim, rev, IDENTITY[(o.op, dt)], tile(shape, dt), tile(out, dt)))
        k.lines.append("""    (%%a: tile<%s>, %%b: tile<%s>) {
      %%s = %s : tile<%s>
      yield %%s : tile<%s>
    }""" % (dt, dt, combiner_op(o.op, dt), dt, dt))
        k.store("%red", "%y", out, dt)
    k.emit("return")
    print("cuda_tile.module @kernels {\n  entry @k(%s)%s {\n%s\n  }\n}"
          % (params, hints, "\n".join(k.lines)))


if __name__ == "__main__":
    main()
