#!/usr/bin/python3
"""Print a small cuda_tile kernel around one mmaf or mmai, for emu-check.py.

  kernel.py --m 16 --n 16 --k 16 --a f16 --b f16 --acc f32 [--batch 2]
  kernel.py --m 32 --n 16 --k 64 --a i8 --b i8 --acc i32 [--unsigned-lhs]
  kernel.py ... --b-kmajor     (b holds B^T, N x K row-major, and the kernel reads
                                the K x N tile B through dim_map=[1, 0], as FMHA
                                reads K^T: B's K is the unit-stride dimension)
  kernel.py ... --warps 8      (num_worker_warps hint for sm_80 and sm_90)
  kernel.py ... --valid 50,60,40 [--padding zero]
  kernel.py --m 128 --n 64 --k 32 --a f16 --acc f32 --then 32
  kernel.py --m 64 --n 32 --k 64 --a f32 --ftof-tf32   (f32 loads, ftof to tf32)
  kernel.py --m 64 --n 32 --k 256 --a f16 --k-tile 64   (a K loop, as cuTile's matmuls)

Kernel @k(a, b, c, d) loads A [batch x] M x K, B [batch x] K x N and the
accumulator C [batch x] M x N (row-major, dense), computes D = A x B + C with
mmaf (float) or mmai (i8, signed unless --unsigned-lhs/--unsigned-rhs) and
stores D. With --valid VM,VN,VK the arrays keep their M x K, K x N and
M x N allocations, but the kernel's views claim only VM x VK, VK x VN and
VM x VN of them: the tiles overhang the views (ragged edges), A and B read
as --padding (a cuda_tile padding value, default zero) there, and D is
stored only inside VM x VN.
With --then N2 the kernel is @k(a, b, c, e, d_out) and chains a second
multiply onto the first, as attention does with its probabilities:
P = ftof(A x B + C) to A's type (f32 accumulator), then D = P x E (E
[batch x] N x N2, of A's type; D [batch x] M x N2, f32, no addend).
With --ftof-tf32, A and B (f32) are converted to tf32 (ftof, rounding to
nearest even) before the mmaf, as cuTile's tf32 matmuls do.
With --k-tile KT (2-D, no --then or --b-kmajor) the mmaf runs in a K loop,
as in cuTile's matmuls: per iteration i it loads tile i of views of A and B
tiled M x KT and KT x N (as many iterations as A's view has tiles along K,
so a --valid K that KT does not divide ends in a zero-padded tile) and
accumulates onto C, carried through the loop.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tile_kernel import Kernel, tile  # noqa: E402


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
    p.add_argument("--b-kmajor", action="store_true", help="b holds B^T (N x K), read transposed")
    p.add_argument("--warps", type=int, default=0, help="num_worker_warps hint (sm_80, sm_90)")
    p.add_argument("--valid", default=None, help="VM,VN,VK: the views' extents")
    p.add_argument("--padding", default="zero")
    p.add_argument("--then", type=int, default=0, help="N2: chain P x E (see above)")
    p.add_argument("--ftof-tf32", action="store_true", help="ftof A and B (f32) to tf32")
    p.add_argument("--k-tile", type=int, default=0, help="KT: loop over K in tiles of KT")
    o = p.parse_args()
    if o.k_tile and (o.batch or o.then or o.b_kmajor or o.k % o.k_tile):
        p.error("--k-tile takes a 2-D multiply whose K it divides, without --then or --b-kmajor")
    o.b = o.b or o.a
    lead = [o.batch] if o.batch else []
    sa, sb, sc = lead + [o.m, o.k], lead + [o.k, o.n], lead + [o.m, o.n]
    k = Kernel()
    k.emit("%tok = make_token : token")
    # 16-byte aligned pointers (as cuTile asserts), so i8 tiles load in
    # vectors rather than single bytes.
    params = [("a", o.a), ("b", o.b), ("c", o.acc)] + ([("e", o.a)] if o.then else [])
    params.append(("d_out", o.acc))
    for name, dtype in params:
        k.emit("%%%s_p = assume div_by<16>, %%%s : tile<ptr<%s>>" % (name, name, dtype))
    ea = eb = ec = pad = None
    if o.valid:
        vm, vn, vk = map(int, o.valid.split(","))
        ea, eb, ec, pad = lead + [vm, vk], lead + [vk, vn], lead + [vm, vn], o.padding
    c = k.load("%c_p", sc, o.acc, extent=ec, padding=pad)
    if o.k_tile:
        # The loop's body: tile %kk of A and B, the multiply below onto the
        # carried %acc, continued.
        ka, kb = [o.m, o.k_tile], [o.k_tile, o.n]
        pa, ptype_a = k.view("%a_p", sa, o.a, extent=ea, padding=pad, tile_shape=ka)
        pb, ptype_b = k.view("%b_p", sb, o.b, extent=eb, padding=pad, tile_shape=kb)
        zero, one = k.const(0), k.const(1)
        k.emit("%%tiles:2 = get_index_space_shape %s : %s -> tile<i32>" % (pa, ptype_a))
        k.emit("%%d = for %%kk in (%s to %%tiles#1, step %s) : tile<i32> iter_values(%%acc = %s)"
               " -> (%s) {" % (zero, one, c, tile(sc, o.acc)))
        k.emit("  %%ka, %%kat = load_view_tko weak %s[%s, %%kk] token = %%tok : %s, tile<i32> -> %s, token"
               % (pa, zero, ptype_a, tile(ka, o.a)))
        k.emit("  %%kb, %%kbt = load_view_tko weak %s[%%kk, %s] token = %%tok : %s, tile<i32> -> %s, token"
               % (pb, zero, ptype_b, tile(kb, o.b)))
        a, b, c, sa, sb = "%ka", "%kb", "%acc", ka, kb
    else:
        a = k.load("%a_p", sa, o.a, extent=ea, padding=pad)
        b = k.load("%b_p", sb, o.b, extent=eb, padding=pad,
                   dim_map=[1, 0] if o.b_kmajor and not o.batch else None)
    ta, tb = o.a, o.b
    if o.ftof_tf32:
        for name, shape in (("a", sa), ("b", sb)):
            k.emit("%%%s_tf32 = ftof %s : %s -> %s" % (name, a if name == "a" else b,
                                                      tile(shape, "f32"), tile(shape, "tf32")))
        a, b, ta, tb = "%a_tf32", "%b_tf32", "tf32", "tf32"
    types = "%s, %s, %s" % (tile(sa, ta), tile(sb, tb), tile(sc, o.acc))
    if o.acc.startswith("i"):
        sign = lambda u: "unsigned" if u else "signed"
        k.emit("%%d = mmai %s, %s, %s %s %s : %s" % (a, b, c, sign(o.unsigned_lhs),
                                                   sign(o.unsigned_rhs), types))
    else:
        # (In the loop the product is continued; the loop's result is %d.)
        k.emit("%%%s = mmaf %s, %s, %s : %s" % ("dk" if o.k_tile else "d", a, b, c, types))
    if o.k_tile:
        k.emit("  continue %%dk : %s" % tile(sc, o.acc))
        k.emit("}")
    if o.then:
        se, sd = lead + [o.n, o.then], lead + [o.m, o.then]
        e = k.load("%e_p", se, o.a)
        k.emit("%%p = ftof %%d : %s -> %s" % (tile(sc, o.acc), tile(sc, o.a)))
        k.emit("%%z = constant <%s: 0.000000e+00> : %s" % (o.acc, tile(sd, o.acc)))
        k.emit("%%d2 = mmaf %%p, %s, %%z : %s, %s, %s"
               % (e, tile(sc, o.a), tile(se, o.a), tile(sd, o.acc)))
        k.store("%d2", "%d_out_p", sd, o.acc)
    else:
        k.store("%d", "%d_out_p", sc, o.acc, extent=ec)
    print("cuda_tile.module @kernels {")
    hints = (" optimization_hints=<sm_80 = {num_worker_warps = %d}, sm_90 = {num_worker_warps = %d}>"
             % (o.warps, o.warps) if o.warps else "")
    print("  entry @k(%s)%s {" % (", ".join("%%%s: tile<ptr<%s>>" % p for p in params), hints))
    print("\n".join(k.lines))
    print("    return")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
