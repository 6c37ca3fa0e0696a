#!/usr/bin/python3
"""Print a small cuda_tile kernel around one mmaf or mmai, for emu-check.py.

  kernel.py --m 16 --n 16 --k 16 --a f16 --b f16 --acc f32 [--batch 2]
  kernel.py --m 32 --n 16 --k 64 --a i8 --b i8 --acc i32 [--unsigned-lhs]

Kernel @k(a, b, c, d) loads A [batch x] M x K, B [batch x] K x N and the
accumulator C [batch x] M x N (row-major, dense), computes D = A x B + C with
mmaf (float) or mmai (i8, signed unless --unsigned-lhs/--unsigned-rhs) and
stores D.
"""
import argparse


def tile(shape, dtype):
    return "tile<%s>" % "x".join([str(s) for s in shape] + [dtype])


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
        pv, ptype = self.view(ptr, shape, dtype)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        self.emit("%%x%d, %%lt%d = load_view_tko weak %s[%s] token = %%tok : %s, tile<i32> -> %s, token"
                  % (self.n, self.n, pv, idx, ptype, tile(shape, dtype)))
        return "%%x%d" % self.n

    def store(self, value, ptr, shape, dtype):
        pv, ptype = self.view(ptr, shape, dtype)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        self.emit("%%st%d = store_view_tko weak %s, %s[%s] token = %%tok : %s, %s, tile<i32> -> token"
                  % (self.n, value, pv, idx, tile(shape, dtype), ptype))


def main():
    p = argparse.ArgumentParser()
    for dim in ("m", "n", "k"):
        p.add_argument("--" + dim, type=int, required=True)
    p.add_argument("--batch", type=int, default=0)
    p.add_argument("--a", default="f32")
    p.add_argument("--b", default=None)
    p.add_argument("--acc", default="f32")
    p.add_argument("--unsigned-lhs", action="store_true")
    p.add_argument("--unsigned-rhs", action="store_true")
    o = p.parse_args()
    o.b = o.b or o.a
    lead = [o.batch] if o.batch else []
    sa, sb, sc = lead + [o.m, o.k], lead + [o.k, o.n], lead + [o.m, o.n]
    k = Kernel()
    k.emit("%tok = make_token : token")
    # 16-byte aligned pointers (as cuTile asserts), so i8 tiles load in
    # vectors rather than single bytes.
    for name, dtype in (("a", o.a), ("b", o.b), ("c", o.acc), ("d_out", o.acc)):
        k.emit("%%%s_p = assume div_by<16>, %%%s : tile<ptr<%s>>" % (name, name, dtype))
    a, b, c = k.load("%a_p", sa, o.a), k.load("%b_p", sb, o.b), k.load("%c_p", sc, o.acc)
    types = "%s, %s, %s" % (tile(sa, o.a), tile(sb, o.b), tile(sc, o.acc))
    if o.acc.startswith("i"):
        sign = lambda u: "unsigned" if u else "signed"
        k.emit("%%d = mmai %s, %s, %s %s %s : %s" % (a, b, c, sign(o.unsigned_lhs),
                                                   sign(o.unsigned_rhs), types))
    else:
        k.emit("%%d = mmaf %s, %s, %s : %s" % (a, b, c, types))
    k.store("%d", "%d_out_p", sc, o.acc)
    print("cuda_tile.module @kernels {")
    print("  entry @k(%%a: tile<ptr<%s>>, %%b: tile<ptr<%s>>, %%c: tile<ptr<%s>>, %%d_out: tile<ptr<%s>>) {"
          % (o.a, o.b, o.acc, o.acc))
    print("\n".join(k.lines))
    print("    return")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
