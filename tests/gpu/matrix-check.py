#!/usr/bin/env python3
"""Check tile-emu's stmatrix, fp8 mma.sync and wgmma against a real sm_90 GPU.

  matrix-check.py prepare DIR   (here: needs llc-22 and the built tile-emu)
  matrix-check.py run DIR       (on a machine with an sm_90 GPU, python3 with
                                 numpy and cuda-python; no build needed)
  matrix-check.py inputs DIR    (the cases' inputs and references only, for a
                                 GPU machine that gets DIR/*.ptx but not the
                                 rest: `run` then compares the GPU with numpy)

`prepare` writes DIR/kernels.ll (wgmma kernels in the inline PTX form the
emulator reads, one per operand form), compiles it and
tests/emu/kernels/matrix-sm90.ll to PTX with llc-22, writes every case's
inputs and the numpy reference, and runs each case on tile-emu into
DIR/<case>/emu. `run` launches the same cases with tests/gpu/launch-cubin.py
into DIR/<case>/gpu and prints one line per case: whether the GPU, the
emulator and numpy agree. Operands in shared memory are placed with the PTX
ISA's canonical layouts (K-major and MN-major, every swizzle mode).
"""
import os, subprocess, sys
import numpy as np

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMEM_BYTES = 16384
B_OFFSET = 8192


# --- operand layouts ("Shared Memory Matrix Layout", "Canonical Layouts") ---

def canonical_offset(mn_major, swizzle, lbo, sbo, elem, mn, k):
    """Byte offset of element (mn, k) before the swizzle; T = 16 bytes of
    elements, x = swizzle bytes / 16."""
    t, x = 16 // elem, swizzle // 16
    if not mn_major and not x:   # ((8,m),(T,2k)):((1T,SBO),(1,LBO))
        return (mn % 8) * 16 + (mn // 8) * sbo + (k % t) * elem + (k // t) * lbo
    if not mn_major:             # ((8,m),(T,2k)):((xT,SBO),(1,T))
        return (mn % 8) * swizzle + (mn // 8) * sbo + k * elem
    if not x:                    # ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        return (mn % t) * elem + (mn // t) * sbo + (k % 8) * 16 + (k // 8) * lbo
    # ((T,x,m),(8,k)):((1,T,LBO),(xT,SBO))
    w = swizzle // elem
    return (mn % w) * elem + (mn // w) * lbo + (k % 8) * swizzle + (k // 8) * sbo


def swizzled(offset, swizzle):
    """Swizzle<B,4,3> on byte addresses: bits 7.. XORed into bits 4.."""
    bits = {0: 0, 32: 1, 64: 2, 128: 3}[swizzle]
    return offset ^ ((offset >> 3) & (((1 << bits) - 1) << 4))


def compact_layout(mn_major, swizzle, rows, elem):
    """(LBO, SBO) of a densely packed rows x (32 bytes of K) operand."""
    if not mn_major:
        return 128, (8 * swizzle if swizzle else 256)
    if not swizzle:
        return rows * elem // 16 * 128, 128
    return 8 * swizzle, max(1, rows * elem // swizzle) * 8 * swizzle


def descriptor_bits(mn_major, swizzle, lbo, sbo):
    """The descriptor less its start address ("Matrix Descriptor Format")."""
    mode = {0: 0, 128: 1, 64: 2, 32: 3}[swizzle]
    if not mn_major and swizzle:
        lbo = 16  # not used, "assumed to be 1"
    return (lbo >> 4) << 16 | (sbo >> 4) << 32 | mode << 62


def place(smem, base, bits, mn_major, swizzle, lbo, sbo, elem):
    """Stores the (rows x K) element bits into the byte array smem."""
    rows, k = bits.shape
    for mn in range(rows):
        for kk in range(k):
            at = swizzled(base + canonical_offset(mn_major, swizzle, lbo, sbo, elem, mn, kk), swizzle)
            smem[at:at + elem] = np.frombuffer(bits[mn, kk].tobytes(), np.uint8)


# --- element types ---

def e4m3(code):
    code = code.astype(np.int64)
    e, m = (code >> 3) & 15, (code & 7).astype(np.float64)
    v = np.where(e == 0, m * 2.0 ** -9, (8 + m) * 2.0 ** (e - 10.0))
    return np.where(code & 0x80, -v, v)


def e5m2(code):
    return (code.astype(np.uint16) << 8).view(np.float16).astype(np.float64)


TYPES = {  # element bytes
    "f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1}


def random_operand(kind, shape, rng):
    """(element bits, exact values) of a random operand."""
    if kind == "f16":
        v = rng.integers(-4, 5, shape).astype(np.float16)
        return v.view(np.uint16), v.astype(np.float64)
    if kind == "bf16":
        v = rng.integers(-4, 5, shape).astype(np.float32)
        return (v.view(np.uint32) >> 16).astype(np.uint16), v.astype(np.float64)
    if kind == "tf32":  # low 13 bits set at random: the MMA ignores them
        v = rng.integers(-4, 5, shape).astype(np.float32)
        noise = rng.integers(0, 1 << 13, shape).astype(np.uint32)
        return v.view(np.uint32) | np.where(v != 0, noise, 0).astype(np.uint32), v.astype(np.float64)
    if kind in ("e4m3", "e5m2"):  # 0, +-0.5 .. +-3, and the smallest normal/subnormal
        codes = {"e4m3": [0x00, 0x30, 0x38, 0x3c, 0x40, 0x44, 0x08, 0x01],
                 "e5m2": [0x00, 0x38, 0x3c, 0x3e, 0x40, 0x42, 0x04, 0x01]}[kind]
        c = np.array(codes, np.uint8)[rng.integers(0, 8, shape)]
        c |= (rng.integers(0, 2, shape) * 0x80).astype(np.uint8) * (c != 0)
        return c, (e4m3(c) if kind == "e4m3" else e5m2(c))
    if kind == "s8":
        v = rng.integers(-128, 128, shape).astype(np.int8)
        return v.view(np.uint8), v.astype(np.float64)
    v = rng.integers(0, 256, shape).astype(np.uint8)
    return v, v.astype(np.float64)


# --- the generated wgmma kernels ---

def accumulator_positions(n):
    """(row, col) of accumulator element i of thread t ("wgmma register fragments")."""
    t = np.arange(128)[:, None]
    i = np.arange(n // 2)[None, :]
    rows = 16 * (t // 32) + (t % 32) // 4 + 8 * ((i // 2) % 2)
    cols = 2 * (t % 4) + i % 2 + 8 * (i // 4)
    return rows, cols


def wgmma_kernel(name, opcode, d_regs, d_type, register_a, immediates):
    """A 128-thread kernel: copy 16 KiB of operands to shared memory, run one
    wgmma on the accumulators loaded from d[t * R ...], store them back."""
    ir_t = "float" if d_type == "f" else "i32"
    body = []
    for r in range(d_regs):
        body.append(f"  %s{r} = add i32 %slot, {r}")
        body.append(f"  %pc{r} = getelementptr inbounds {ir_t}, ptr addrspace(1) %d, i32 %s{r}")
        body.append(f"  %c{r} = load {ir_t}, ptr addrspace(1) %pc{r}, align 4")
    a_operand, a_args, a_constraints = "$%d" % (2 * d_regs), "i64 %descA", "l"
    extra_param = ""
    if register_a:
        extra_param = ", ptr addrspace(1) %aregs"
        for r in range(4):
            body.append(f"  %ai{r} = add i32 %aslot, {r}")
            body.append(f"  %pa{r} = getelementptr inbounds i32, ptr addrspace(1) %aregs, i32 %ai{r}")
            body.append(f"  %a{r} = load i32, ptr addrspace(1) %pa{r}, align 4")
        a_operand = "{" + ", ".join("$%d" % (2 * d_regs + r) for r in range(4)) + "}"
        a_args = ", ".join(f"i32 %a{r}" for r in range(4))
        a_constraints = ",".join(["r"] * 4)
    b_operand = "$%d" % (2 * d_regs + (4 if register_a else 1))
    d_list = "{" + ", ".join("$%d" % r for r in range(d_regs)) + "}"
    text = f"{opcode} {d_list}, {a_operand}, {b_operand}, 1" + "".join(", %d" % v for v in immediates) + ";"
    constraints = ",".join([f"={d_type}"] * d_regs + [str(r) for r in range(d_regs)]
                           + [a_constraints, "l"])
    struct = "{ " + ", ".join([ir_t] * d_regs) + " }"
    args = ", ".join([f"{ir_t} %c{r}" for r in range(d_regs)] + [a_args, "i64 %descB"])
    stores = []
    for r in range(d_regs):
        stores.append(f"  %r{r} = extractvalue {struct} %res, {r}")
        stores.append(f"  store {ir_t} %r{r}, ptr addrspace(1) %pc{r}, align 4")
    nl = "\n"
    return f"""
define ptx_kernel void @{name}(ptr addrspace(1) %in, ptr addrspace(1) %d, i64 %layoutA, i64 %layoutB{extra_param}) "nvvm.reqntid"="128" {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %copy
copy:
  %i = phi i32 [ %tid, %entry ], [ %next, %copy ]
  %src = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds i32, ptr addrspace(3) @smem, i32 %i
  store i32 %v, ptr addrspace(3) %dst, align 4
  %next = add i32 %i, 128
  %more = icmp ult i32 %next, {SMEM_BYTES // 4}
  br i1 %more, label %copy, label %mma
mma:
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  %base = ptrtoint ptr addrspace(3) @smem to i64
  %window = and i64 %base, 262143
  %startA = lshr i64 %window, 4
  %startB = add i64 %startA, {B_OFFSET >> 4}
  %descA = or i64 %layoutA, %startA
  %descB = or i64 %layoutB, %startB
  %slot = mul i32 %tid, {d_regs}
  %aslot = mul i32 %tid, 4
{nl.join(body)}
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %res = call {struct} asm sideeffect "{text}", "{constraints}"({args})
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
{nl.join(stores)}
  ret void
}}
"""


DECLARATIONS = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64)
"""


class WgmmaForm:
    """One kernel: shape, types, A from registers or not, immediates."""

    def __init__(self, n, k, d, a, b, register_a=False, scale_a=1, scale_b=1,
                 trans_a=0, trans_b=0, satfinite=False):
        self.n, self.k, self.d, self.a, self.b = n, k, d, a, b
        self.register_a, self.scale_a, self.scale_b = register_a, scale_a, scale_b
        self.trans_a, self.trans_b, self.satfinite = trans_a, trans_b, satfinite
        self.name = "wgmma_%s_%s_%s_n%d%s%s_sa%d_sb%d_ta%d_tb%d" % (
            d, a, b, n, "_sat" if satfinite else "", "_rega" if register_a else "",
            scale_a > 0, scale_b > 0, trans_a, trans_b)

    def tolerance(self):
        """H100's fp8 wgmma accumulates with fewer bits than f32 (relative
        differences up to ~1e-2 from the exact sum on mixed magnitudes); the
        emulator rounds the exact sum once. Other types compare bit for bit."""
        return 1e-2 if self.a in ("e4m3", "e5m2") else 0

    def kernel(self):
        sat = ".satfinite" if self.satfinite else ""
        opcode = f"wgmma.mma_async.sync.aligned.m64n{self.n}k{self.k}{sat}.{self.d}.{self.a}.{self.b}"
        half = self.a in ("f16", "bf16")
        imms = [] if self.d == "s32" else [self.scale_a, self.scale_b]
        if half and not self.register_a:
            imms.append(self.trans_a)
        if half:
            imms.append(self.trans_b)
        d_regs = self.n // 4 if self.d == "f16" else self.n // 2
        return wgmma_kernel(self.name, opcode, d_regs, "f" if self.d == "f32" else "r",
                            self.register_a, imms)

    def case(self, swizzle, rng):
        """Writes nothing; returns (inputs, params, reference) of one case."""
        elem = TYPES[self.a]
        a_bits, a_val = random_operand(self.a, (64, self.k), rng)
        b_bits, b_val = random_operand(self.b, (self.n, self.k), rng)  # B as N x K
        smem = np.zeros(SMEM_BYTES, np.uint8)
        lbo_a, sbo_a = compact_layout(self.trans_a, swizzle, 64, elem)
        lbo_b, sbo_b = compact_layout(self.trans_b, swizzle, self.n, elem)
        if not self.register_a:
            place(smem, 0, a_bits, self.trans_a, swizzle, lbo_a, sbo_a, elem)
        place(smem, B_OFFSET, b_bits, self.trans_b, swizzle, lbo_b, sbo_b, elem)
        rows, cols = accumulator_positions(self.n)
        if self.d == "f32":
            c = rng.integers(-8, 9, (64, self.n)).astype(np.float32)
            c_regs = c[rows, cols]
        elif self.d == "f16":
            c = rng.integers(-8, 9, (64, self.n)).astype(np.float16)
            c_regs = np.ascontiguousarray(c[rows, cols]).view(np.uint32)
        else:
            c = np.where(rng.integers(0, 8, (64, self.n)) == 0, 2**31 - 5, rng.integers(-99, 99, (64, self.n)))
            c = c.astype(np.int32)
            c_regs = c[rows, cols]
        ref = c.astype(np.float64) + (self.scale_a * a_val) @ (self.scale_b * b_val).T
        if self.d == "s32":
            ref = np.clip(ref, -2**31, 2**31 - 1) if self.satfinite else ref
            ref_regs = ref[rows, cols].astype(np.int64).astype(np.int32)
        elif self.d == "f16":
            ref_regs = np.ascontiguousarray(ref[rows, cols].astype(np.float16)).view(np.uint32)
        else:
            ref_regs = ref[rows, cols].astype(np.float32)
        inputs = {"in": smem, "d": np.ascontiguousarray(c_regs)}
        params = ["ptr:in.npy", "ptr:d.npy",
                  "i64:%d" % descriptor_bits(self.trans_a, swizzle, lbo_a, sbo_a),
                  "i64:%d" % descriptor_bits(self.trans_b, swizzle, lbo_b, sbo_b)]
        if self.register_a:
            t = np.arange(128)[:, None]
            i = np.arange(8)[None, :]  # f16/bf16 m64nNk16 A fragment
            a_rows = 16 * (t // 32) + (t % 32) // 4 + 8 * ((i // 2) % 2)
            a_cols = 2 * (t % 4) + i % 2 + 8 * (i // 4)
            inputs["aregs"] = np.ascontiguousarray(a_bits[a_rows, a_cols]).view(np.uint32)
            params.append("ptr:aregs.npy")
        return inputs, params, {"d": ref_regs}


def wgmma_cases():
    forms = []
    for ta in (0, 1):
        for tb in (0, 1):
            forms.append((WgmmaForm(16, 16, "f32", "f16", "f16", trans_a=ta, trans_b=tb), (0, 32, 64, 128)))
    forms += [
        (WgmmaForm(8, 16, "f32", "bf16", "bf16", register_a=True, scale_a=-1, trans_b=1), (128,)),
        (WgmmaForm(16, 8, "f32", "tf32", "tf32", scale_b=-1), (0, 32, 128)),
        (WgmmaForm(8, 32, "f16", "e4m3", "e5m2"), (64,)),
        (WgmmaForm(16, 32, "f32", "e5m2", "e4m3", scale_a=-1), (0, 128)),
        (WgmmaForm(16, 32, "s32", "s8", "u8", satfinite=True), (128, 32)),
        (WgmmaForm(24, 16, "f16", "f16", "f16", trans_b=1), (64,)),
    ]
    return forms


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.exit("matrix-check: %s failed:\n%s%s" % (" ".join(cmd), result.stdout, result.stderr))
    return result


def prepare(directory, emulate=True):
    directory = os.path.abspath(directory)
    os.makedirs(directory, exist_ok=True)
    forms = wgmma_cases()
    if emulate:
        with open(os.path.join(directory, "kernels.ll"), "w") as f:
            f.write('target triple = "nvptx64-nvidia-cuda"\n')
            f.write("@smem = internal addrspace(3) global [%d x i32] undef, align 1024\n" % (SMEM_BYTES // 4))
            for form, _ in forms:
                f.write(form.kernel())
            f.write(DECLARATIONS)
        for source, ptx in ((os.path.join(directory, "kernels.ll"), "kernels.ptx"),
                            (os.path.join(SRC, "tests/emu/kernels/matrix-sm90.ll"), "matrix-sm90.ptx")):
            run(["llc-22", "-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90a", "-mattr=+ptx84",
                 source, "-o", os.path.join(directory, ptx)])
    rng = np.random.default_rng(7)
    plan = []
    for form, swizzles in forms:
        for swizzle in swizzles:
            inputs, params, refs = form.case(swizzle, rng)
            plan.append(("%s_sw%d" % (form.name, swizzle), "kernels", form.name, "128", params,
                         inputs, refs, form.tolerance()))
    plan += warp_cases(rng)
    tile_emu = os.environ.get("TILE_EMU", os.path.join(SRC, "build/bin/tile-emu"))
    with open(os.path.join(directory, "plan.txt"), "w") as f:
        for case, image, kernel, block, params, inputs, refs, tolerance in plan:
            case_dir = os.path.join(directory, case)
            os.makedirs(case_dir, exist_ok=True)
            for stem, array in inputs.items():
                np.save(os.path.join(case_dir, stem + ".npy"), array)
            for stem, array in refs.items():
                np.save(os.path.join(case_dir, "ref-" + stem + ".npy"), array)
            source = (os.path.join(directory, "kernels.ll") if image == "kernels"
                      else os.path.join(SRC, "tests/emu/kernels/matrix-sm90.ll"))
            if emulate:
                run([tile_emu, source, "--kernel", kernel, "--grid", "1", "--gpu-name", "sm_90a", "--out-dir", "emu"]
                + sum([["--param", p] for p in params], []), cwd=case_dir)
            f.write("%s %s %s %s %s %s %g\n" % (case, image, kernel, block, ",".join(refs),
                                                 " ".join(params), tolerance))
    print("prepare: %d cases in %s" % (len(plan), directory))


def warp_cases(rng):
    """stmatrix and e4m3 mma.sync from tests/emu/kernels/matrix-sm90.ll."""
    cases = []
    data = np.arange(256, dtype=np.uint16)
    cases.append(("stmatrix_trans", "matrix-sm90", "stmatrix_trans", "32",
                  ["ptr:in.npy", "ptr:out.npy"], {"in": data, "out": np.zeros(256, np.uint16)},
                  {"out": data.reshape(8, 4, 4, 2).transpose(2, 1, 3, 0).reshape(-1)}, 0))
    codes = np.arange(256, dtype=np.uint8)
    finite = codes[(codes & 0x7f) != 0x7f]
    a = rng.choice(finite, (32, 16)).astype(np.uint8)
    b = rng.choice(finite, (32, 8)).astype(np.uint8)
    c = rng.standard_normal((32, 4)).astype(np.float32)
    lane = np.arange(32)[:, None]
    g, t = lane // 4, lane % 4
    i = np.arange(16)[None, :]
    A = np.zeros((16, 32))
    A[g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)] = e4m3(a)
    j = np.arange(8)[None, :]
    B = np.zeros((32, 8))
    B[4 * t + j % 4 + 16 * (j // 4), np.broadcast_to(g, (32, 8))] = e4m3(b)
    q = np.arange(4)[None, :]
    D = (A @ B)[g + 8 * (q // 2), 2 * t + q % 2] + c
    # Random codes span 2^-9 .. 448: the tensor cores' fp8 accumulation is
    # not exact there, so this case is compared with a tolerance.
    cases.append(("mma_e4m3", "matrix-sm90", "mma_e4m3", "32",
                  ["ptr:a.npy", "ptr:b.npy", "ptr:c.npy", "ptr:d.npy"],
                  {"a": a, "b": b, "c": c, "d": np.zeros((32, 4), np.float32)},
                  {"d": D.astype(np.float32)}, 1e-3))
    return cases


def compare(got, want, tolerance):
    if tolerance == 0:
        return np.array_equal(got.view(np.uint8), want.view(np.uint8)), 0.0
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    scale = np.maximum(1.0, np.abs(want.astype(np.float64)))
    return bool((diff / scale <= tolerance).all()), float((diff / scale).max())


def run_gpu(directory):
    directory = os.path.abspath(directory)
    launcher = os.path.join(SRC, "tests/gpu/launch-cubin.py")
    failed = 0
    for line in open(os.path.join(directory, "plan.txt")):
        case, image, kernel, block, outputs, *rest = line.split()
        params, tolerance = rest[:-1], float(rest[-1])
        case_dir = os.path.join(directory, case)
        cmd = [sys.executable, launcher, os.path.join(directory, image + ".ptx"), "--kernel", kernel,
               "--grid", "1", "--block", block, "--out-dir", "gpu"] + sum([["--param", p] for p in params], [])
        result = subprocess.run(cmd, cwd=case_dir, capture_output=True, text=True)
        if result.returncode != 0:
            print("FAIL %s: GPU launch: %s" % (case, (result.stdout + result.stderr).strip()[-300:]))
            failed += 1
            continue
        verdicts = []
        ok = True
        for stem in outputs.split(","):
            gpu = np.load(os.path.join(case_dir, "gpu", stem + ".npy"))
            ref = np.load(os.path.join(case_dir, "ref-" + stem + ".npy"))
            same_ref, d_ref = compare(gpu, ref, tolerance)
            ok &= same_ref
            verdict = "%s: gpu %s numpy%s" % (stem, "==" if same_ref else "!=",
                                             " (max rel %.2g)" % d_ref if tolerance else "")
            emu_path = os.path.join(case_dir, "emu", stem + ".npy")
            if os.path.exists(emu_path):
                same_emu, d_emu = compare(np.load(emu_path), gpu, tolerance)
                ok &= same_emu
                verdict += ", emu %s gpu%s" % ("==" if same_emu else "!=",
                                               " (max rel %.2g)" % d_emu if tolerance else "")
            verdicts.append(verdict)
        print("%s %s: %s" % ("PASS" if ok else "FAIL", case, "; ".join(verdicts)))
        failed += not ok
    print("matrix-check: %s" % ("all agree" if not failed else "%d case(s) differ" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("prepare", "inputs", "run"):
        sys.exit(__doc__)
    if sys.argv[1] == "run":
        sys.exit(run_gpu(sys.argv[2]))
    prepare(sys.argv[2], emulate=sys.argv[1] == "prepare")
