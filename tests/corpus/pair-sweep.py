#!/usr/bin/python3
"""Forces every corpus kernel onto CTA pairs and checks it against numpy.

  pair-sweep.py --bin DIR [--shared DIR] [--targets sm_100,sm_90] [--cases REGEX]
                [--numerics split|all|none] [--work DIR]

For each case of the manifest with a numpy reference and bytecode for a
target (13.4, else the newest version there is), the kernel is lowered
(tileiras --emit=lowered), put through
tilepipe-split-tile-blocks-across-cta-pair with force-ctas=2 (as if cuTile
had asked for num_cta_in_cga = 2), scheduled and translated to LLVM IR, and
that IR runs in tile-emu (run-case.py --llvm) against the manifest's numpy
reference, at the reduced shapes the corpus suites use where the full shape
is slow in the emulator.

A kernel the pass splits must say so (the -v remark), declare a cluster of
two (nvvm.cluster_dim "2,1,1") and match numpy. A kernel it leaves on one CTA
must say why and come out exactly as without force-ctas; its numerics are
then those of the unforced kernel, which the corpus suites check, so
--numerics split (the default) runs only the split kernels in the emulator and
--numerics all runs every case.

Prints one line per case and target: case, target, split (the split's
rows/columns) or the remark's reason, and PASS/FAIL/SKIP. Exit 0 when nothing
failed.
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))

# run-case.py arguments per case: the reduced shapes tests/corpus/*.bats run
# where the corpus shape takes minutes in tile-emu. Absent: the corpus shape.
REDUCED = {
    "samples-MatMul-matmul_kernel-nonmult.f32":
        ["--shape", "A=100,68", "--shape", "B=68,52", "--shape", "C=100,52", "--grid", "8,1,1"],
    "samples-BatchMatMul-batch_matmul_kernel.f16":
        ["--shape", "A=2,144,208", "--shape", "B=2,208,272", "--shape", "C=2,144,272",
         "--grid", "2,2,2"],
    "samples-BatchMatMul-batch_matmul_kernel.fp8e4m3":
        ["--shape", "A=1,144,208", "--shape", "B=1,208,272", "--shape", "C=1,144,272",
         "--grid", "1,2,2"],
    "samples-MoE-fused_moe_kernel-w1.bf16":
        ["--shape", "A=48,128", "--shape", "B=64,256,128", "--shape", "C=384,256",
         "--grid", "128,1,1"],
    "samples-MoE-fused_moe_kernel-w2.bf16":
        ["--shape", "A=384,128", "--shape", "B=64,128,128", "--shape", "C=384,128",
         "--grid", "64,1,1"],
    "samples-AllGatherMatmul-gather_matmul_kernel.f32":
        ["--shape", "inp_list[0]=128,128", "--shape", "inp_list[1]=128,128",
         "--shape", "w=128,128", "--shape", "out=256,128", "--grid", "2,1,1"],
    "samples-FFT-fft_kernel-n4096.f32":
        ["--shape", "x_packed_in=2,128,64", "--shape", "y_packed_out=2,128,64",
         "--grid", "1,1,1"],
}
for dtype in ("bf16", "f16"):
    REDUCED["samples-LayerNorm-layer_norm_fwd." + dtype] = [
        "--shape", "X=4,1040", "--shape", "W=1040", "--shape", "B=1040", "--shape", "Y=4,1040",
        "--shape", "Mean=4", "--shape", "Rstd=4", "--grid", "4,1,1"]
    REDUCED["samples-LayerNorm-layer_norm_bwd_dwdb." + dtype] = [
        "--shape", "DW=48,1040", "--shape", "DB=48,1040", "--shape", "FINAL_DW=1040",
        "--shape", "FINAL_DB=1040", "--grid", "2,1,1"]
    REDUCED["samples-LayerNorm-layer_norm_bwd_dx_partial_dwdb." + dtype] = [
        "--shape", "X=16,1040", "--shape", "DX=16,1040", "--shape", "DY=16,1040",
        "--shape", "W=1040", "--shape", "DW=4,1040", "--shape", "DB=4,1040",
        "--shape", "Mean=16", "--shape", "Rstd=16", "--shape", "Locks=4", "--grid", "16,1,1"]

PASS_OPTION = "--tilepipe-split-tile-blocks-across-cta-pair"


def tool(args, bindir, **kw):
    return subprocess.run([os.path.join(bindir, args[0])] + args[1:], capture_output=True,
                          text=True, **kw)


def pick_bytecode(bytecode_dir, case, sm):
    for version in ("13.4", "13.3", "13.2", "13.1"):
        path = os.path.join(bytecode_dir, "%s.%s.%s.tileirbc" % (case, sm, version))
        if os.path.exists(path):
            return path
    return None


def split_summary(remarks):
    """(split?, what the remark says): the rows/columns each CTA computes, or why not."""
    m = re.search(r"remark: force-ctas=2: each tile block runs on a CTA pair(.*)", remarks)
    if m:
        what = re.search(r"computes (.*)", m.group(1))
        return True, (what.group(1) if what else "split" + m.group(1)).strip()
    m = re.search(r"remark: force-ctas=2 not used: the kernel runs clusters of one CTA "
                  r"\(\.reqnctapercluster 1, 1, 1\): (.*)", remarks)
    if m:
        return False, "not split: " + m.group(1).strip()
    return None, "no remark: " + remarks.strip().replace("\n", " ")[:200]


def sweep_one(o, manifest, case, sm, work):
    """(summary, verdict, seconds) for one case on one target."""
    start = time.time()
    bytecode = pick_bytecode(o.bytecode, case, sm)
    lowered, forced, plain = (os.path.join(work, n) for n in ("l.mlir", "p.mlir", "u.mlir"))
    sched, kernel = os.path.join(work, "s.mlir"), os.path.join(work, "k.ll")
    r = tool(["tileiras", bytecode, "--gpu-name", sm, "--emit=lowered", "-o", lowered], o.bin)
    if r.returncode:
        return "tileiras --emit=lowered failed: " + r.stderr.strip()[:200], "FAIL", 0
    r = tool(["tile-opt", PASS_OPTION + "=force-ctas=2", lowered, "-o", forced], o.bin)
    if r.returncode:
        return "tile-opt failed (exit %d): %s" % (r.returncode, r.stderr.strip()[:200]), "FAIL", 0
    split, summary = split_summary(r.stderr)
    if split is None:
        return summary, "FAIL", 0
    r = tool(["tile-sched", forced, "-o", sched], o.bin)
    if r.returncode == 0:
        r = tool(["tile-llvm", sched, "-o", kernel], o.bin)
    if r.returncode:
        return summary + "; scheduling failed: " + r.stderr.strip()[:200], "FAIL", 0
    pair = '"nvvm.cluster_dim"="2,1,1"' in open(kernel).read()
    if pair != split:
        return summary + "; the LLVM IR %s a cluster of two" % ("lacks" if split else "has"), \
            "FAIL", 0
    if not split:
        # Unsplit under force-ctas=2: the same program as without it.
        r = tool(["tile-opt", PASS_OPTION, lowered, "-o", plain], o.bin)
        if r.returncode or open(plain).read() != open(forced).read():
            return summary + "; differs from the unforced kernel", "FAIL", 0
        if o.numerics != "all":
            return summary, "PASS (IR = unforced)", 0
    if o.numerics == "none":
        return summary, "PASS (compiled)", 0
    r = subprocess.run([os.path.join(HERE, "run-case.py"), "--manifest",
                        o.manifest, "--case", case, "--bytecode", bytecode, "--gpu-name", sm,
                        "--bin", o.bin, "--work", os.path.join(work, "run"), "--llvm", kernel]
                       + REDUCED.get(case, []), capture_output=True, text=True)
    seconds = time.time() - start
    if r.returncode:
        return summary + "; " + (r.stderr.strip().splitlines() or ["?"])[-1][:200], "FAIL", seconds
    return summary, "PASS", seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", required=True, help="the folder of tileiras, tile-opt, tile-emu...")
    p.add_argument("--shared", default=os.environ.get("TILEPIPE_SHARED_DIR",
                                                      os.path.join(HERE, "..", "..", "..", "shared")))
    p.add_argument("--targets", default="sm_100,sm_90")
    p.add_argument("--cases", default="", help="a regex the case names must match")
    p.add_argument("--numerics", choices=("split", "all", "none"), default="split")
    p.add_argument("--work", help="keep the intermediate files here")
    o = p.parse_args()
    o.manifest = os.path.join(o.shared, "corpus", "cutile", "manifest.json")
    o.bytecode = os.path.join(o.shared, "corpus", "cutile", "bytecode")
    manifest = json.load(open(o.manifest))
    work_root = o.work or tempfile.mkdtemp(prefix="pair-sweep.")
    failed = 0
    for case in sorted(manifest["cases"]):
        if not re.search(o.cases, case) or not manifest["cases"][case].get("numpy_ref"):
            continue
        for sm in o.targets.split(","):
            if not pick_bytecode(o.bytecode, case, sm):
                continue
            work = os.path.join(work_root, "%s.%s" % (case, sm))
            os.makedirs(work, exist_ok=True)
            summary, verdict, seconds = sweep_one(o, manifest, case, sm, work)
            failed += verdict == "FAIL"
            timing = " (%.0f s)" % seconds if seconds else ""
            print("%s\t%s\t%s\t%s%s" % (case, sm, summary, verdict, timing), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
