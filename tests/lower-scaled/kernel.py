#!/usr/bin/python3
"""Print a small cuda_tile kernel around one mmaf_scaled, for emu-check.py.

  kernel.py --m 16 --n 16 --k 64 --ks 2 --a f16 --scale f32 [--batch 2]

Kernel @k(a, b, sa, sb, c, d) loads A [batch x] M x K, B [batch x] K x N,
the scales SA [batch x] M x Ks and SB [batch x] Ks x N and the f32
accumulator C (row-major, dense), computes D = (A * SA) x (B * SB) + C with
mmaf_scaled (each scale covering K/Ks consecutive k) and stores D.

A 1-byte element type (f8E4M3FN, f8E5M2, f8E8M0FNU) is passed in memory as
i32 words holding its bit pattern: the kernel loads i32, truncates to i8 and
bitcasts, so the test needs no 1-byte memory access. f4E2M1FN operands are
loaded as they are, packed two to a byte (element 2i in the low nibble of
byte i, row-major).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tile_kernel import Kernel, tile  # noqa: E402

BYTE_TYPES = ("f8E4M3FN", "f8E5M2", "f8E8M0FNU")


def memory_type(dtype):
    return "i32" if dtype in BYTE_TYPES else dtype


def main():
    p = argparse.ArgumentParser()
    for dim in ("m", "n", "k", "ks"):
        p.add_argument("--" + dim, type=int, required=True)
    p.add_argument("--batch", type=int, default=0)
    p.add_argument("--a", default="f16")
    p.add_argument("--b", default=None)
    p.add_argument("--scale", default="f32")
    o = p.parse_args()
    o.b = o.b or o.a
    lead = [o.batch] if o.batch else []
    sa, sb, sc = lead + [o.m, o.k], lead + [o.k, o.n], lead + [o.m, o.n]
    ssa, ssb = lead + [o.m, o.ks], lead + [o.ks, o.n]
    params = (("a", o.a), ("b", o.b), ("sa", o.scale), ("sb", o.scale), ("c", "f32"), ("d_out", "f32"))
    k = Kernel()
    k.emit("%tok = make_token : token")
    for name, dtype in params:
        k.emit("%%%s_p = assume div_by<16>, %%%s : tile<ptr<%s>>" % (name, name, memory_type(dtype)))
    a, b = k.load("%a_p", sa, o.a, memory_type(o.a)), k.load("%b_p", sb, o.b, memory_type(o.b))
    xa, xb = k.load("%sa_p", ssa, o.scale, memory_type(o.scale)), k.load("%sb_p", ssb, o.scale, memory_type(o.scale))
    c = k.load("%c_p", sc, "f32")
    k.emit("%%d = mmaf_scaled %s, %s, %s, %s, %s : %s, %s, %s, %s, %s" % (
        a, b, c, xa, xb, tile(sa, o.a), tile(sb, o.b), tile(sc, "f32"),
        tile(ssa, o.scale), tile(ssb, o.scale)))
    k.store("%d", "%d_out_p", sc, "f32")
    print("cuda_tile.module @kernels {")
    print("  entry @k(%s) {" % ", ".join("%%%s: tile<ptr<%s>>" % (n, memory_type(t)) for n, t in params))
    print("\n".join(k.lines))
    print("    return")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
