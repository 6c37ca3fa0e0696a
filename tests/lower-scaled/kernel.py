#!/usr/bin/python3
"""Print a small cuda_tile kernel around one mmaf_scaled, for emu-check.py.

  kernel.py --m 16 --n 16 --k 64 --ks 2 --a f16 --scale f32 [--batch 2]

Kernel @k(a, b, sa, sb, c, d) loads A [batch x] M x K, B [batch x] K x N,
the scales SA [batch x] M x Ks and SB [batch x] Ks x N and the f32
accumulator C (row-major, dense), computes D = (A * SA) x (B * SB) + C with
mmaf_scaled (each scale covering K/Ks consecutive k) and stores D.

A 1-byte element type (f8E4M3FN, f8E5M2, f8E8M0FNU) is passed in memory as
i32 words holding its bit pattern: the kernel loads i32, truncates to i8 and
bitcasts, so the test needs no 1-byte memory access.
"""
import argparse

BYTE_TYPES = ("f8E4M3FN", "f8E5M2", "f8E8M0FNU")


def tile(shape, dtype):
    return "tile<%s>" % "x".join([str(s) for s in shape] + [dtype])


def memory_type(dtype):
    return "i32" if dtype in BYTE_TYPES else dtype


class Kernel:
    def __init__(self):
        self.lines, self.n = [], 0

    def emit(self, line):
        self.lines.append("    " + line)

    def const(self, value):
        self.n += 1
        self.emit("%%c%d = constant <i32: %d> : tile<i32>" % (self.n, value))
        return "%%c%d" % self.n

    def view(self, ptr, shape, dtype):
        self.n += 1
        strides, s = [], 1
        for d in reversed(shape):
            strides.insert(0, s)
            s *= d
        dims = [self.const(d) for d in shape]
        strs = [self.const(d) for d in strides[:-1]] + ["1"]
        q = "x".join("?" for _ in shape)
        sq = ",".join(["?"] * (len(shape) - 1) + ["1"])
        tview = "tensor_view<%sx%s, strides=[%s]>" % (q, dtype, sq)
        pview = "partition_view<tile=(%s), %s>" % ("x".join(map(str, shape)), tview)
        self.emit("%%tv%d = make_tensor_view %s, shape = [%s], strides = [%s] : tile<i32> -> %s"
                  % (self.n, ptr, ", ".join(dims), ", ".join(strs), tview))
        self.emit("%%pv%d = make_partition_view %%tv%d : %s" % (self.n, self.n, pview))
        return "%%pv%d" % self.n, pview

    def load(self, ptr, shape, dtype):
        stored = memory_type(dtype)
        pv, ptype = self.view(ptr, shape, stored)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        x = "%%x%d" % self.n
        self.emit("%s, %%lt%d = load_view_tko weak %s[%s] token = %%tok : %s, tile<i32> -> %s, token"
                  % (x, self.n, pv, idx, ptype, tile(shape, stored)))
        if stored != dtype:
            self.emit("%s_b = trunci %s : %s -> %s" % (x, x, tile(shape, "i32"), tile(shape, "i8")))
            self.emit("%s_f = bitcast %s_b : %s -> %s" % (x, x, tile(shape, "i8"), tile(shape, dtype)))
            x += "_f"
        return x

    def store(self, value, ptr, shape, dtype):
        pv, ptype = self.view(ptr, shape, dtype)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        self.emit("%%st%d = store_view_tko weak %s, %s[%s] token = %%tok : %s, %s, tile<i32> -> token"
                  % (self.n, value, pv, idx, tile(shape, dtype), ptype))


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
    a, b = k.load("%a_p", sa, o.a), k.load("%b_p", sb, o.b)
    xa, xb = k.load("%sa_p", ssa, o.scale), k.load("%sb_p", ssb, o.scale)
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
