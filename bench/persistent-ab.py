#!/usr/bin/env python3
"""Why the persistent MatMul is slower than the plain one on sm_90a: an A/B of variants.

    bench/persistent-ab.py prepare DIR [--bin build/bin]     (here: no GPU needed)
    bench/persistent-ab.py run DIR [--launches N]            (on the GPU machine)

The corpus MatMul f16 and persistent MatMul f16 (512x768 @ 768x512, 128x256x64
tiles, grid 8: one tile per CTA in both) compile to nearly the same sm_90a
PTX; what differs is the persistent tile loop around the warp-specialized TMA
ring and the epilogue's TMA-store waits. Its first H200 run (docs/gpu-runs/
2026-11-26-h200-persistent-ab.txt) found the persistent one 1.9x faster
single-role, which tileiras now picks for rings in tile loops (docs/hopper-tma.md, "The persistent
MatMul on sm_90a"). `prepare` builds one cubin per variant, each changing one
of those things, so that one GPU run says which of them costs the time:

  plain, persistent                  tileiras as it is, but warp-specialized
                                     (specialize-tile-loops=1; the persistent
                                     kernel's ring carried across its tile loop)
  persistent-ring-per-tile           --tilepipe-pipeline-mma-loops=carry-rings=0
                                     (a ring set up and torn down per tile, as
                                     main had it at e59b73c)
  *-single-role                      --tilepipe-warp-specialize-rings=warp-specialize=0
                                     (no producer warpgroup, thread 0 issues the loads)
  *-st-global                        without tilepipe-store-tiles-by-tma (the
                                     epilogue stores its registers by st.global)
  persistent-write-wait-per-chunk    the TMA store waits for its global writes
                                     after each chunk (as before this branch)
  persistent-no-write-wait           waits for the reads of the scratch only
  *-no-suspend-hint                  mbarrier.try_wait.parity without the
                                     suspend-time hint

The variants are PTX edits or pass-option changes of tilepipe's own output,
assembled here by ptxas (sm_90a). `run` launches each the way cuTile does
(tests/corpus/run-case.py --cubin: checked against numpy, then N timed
launches) and prints milliseconds per launch.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("TILEPIPE_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
CASES = {"plain": "samples-MatMul-matmul_kernel.f16",
         "persistent": "samples-MatMul-persistent_matmul_kernel.f16"}
GPU = "sm_90a"
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def sched_pipeline(bin_dir, warp_specialize=True, tma_stores=True, carry_rings=True):
    passes = sh([os.path.join(bin_dir, "tile-sched"), "--gpu-name", GPU, "--print-pipeline"]).split()
    if not tma_stores:
        passes.remove("tilepipe-store-tiles-by-tma")
    # Warp-specialized unless asked not to, the persistent kernel too (by
    # default tileiras keeps a ring in a tile loop single-role, as this
    # experiment measured).
    options = {"tilepipe-warp-specialize-rings":
               "{specialize-tile-loops=1}" if warp_specialize else "{warp-specialize=0}",
               "tilepipe-pipeline-mma-loops": "" if carry_rings else "{carry-rings=0}"}
    return "builtin.module(%s)" % ",".join(p + options.get(p, "") for p in passes)


def compile_ptx(bin_dir, bytecode, work, **pipeline):
    lowered = os.path.join(work, "lowered.mlir")
    sh([os.path.join(bin_dir, "tileiras"), "--gpu-name", GPU, "--emit=lowered", bytecode,
        "-o", lowered])
    sched = os.path.join(work, "sched.mlir")
    sh([os.path.join(bin_dir, "tile-opt"), lowered,
        "--pass-pipeline=" + sched_pipeline(bin_dir, **pipeline), "-o", sched])
    ll = os.path.join(work, "k.ll")
    sh([os.path.join(bin_dir, "tile-llvm"), "--gpu-name", GPU, sched, "-o", ll])
    return sh([os.path.join(bin_dir, "tile-ptx"), "--gpu-name", GPU, ll])


def all_reads(ptx):
    return re.sub(r"cp\.async\.bulk\.wait_group\s+0;", "cp.async.bulk.wait_group.read 0;", ptx)


def writes_every_chunk(ptx):
    return re.sub(r"cp\.async\.bulk\.wait_group\.read\s+0;", "cp.async.bulk.wait_group 0;", ptx)


def no_suspend_hint(ptx):
    return re.sub(r"(mbarrier\.try_wait\.parity\.shared\.b64 P1, \[%r\d+\], %r\d+), \d+;",
                  r"\1;", ptx)


def prepare(o):
    os.makedirs(o.dir, exist_ok=True)
    bytecode = lambda case: os.path.join(SHARED, "corpus", "cutile", "bytecode",
                                         "%s.sm_90.13.4.tileirbc" % case)
    variants = {}
    for name, case in CASES.items():
        with tempfile.TemporaryDirectory() as work:
            base = compile_ptx(o.bin, bytecode(case), work)
            variants[name] = (case, base)
            variants[name + "-single-role"] = (case, compile_ptx(o.bin, bytecode(case), work,
                                                                 warp_specialize=False))
            variants[name + "-st-global"] = (case, compile_ptx(o.bin, bytecode(case), work,
                                                               tma_stores=False))
        variants[name + "-no-suspend-hint"] = (case, no_suspend_hint(base))
    with tempfile.TemporaryDirectory() as work:
        variants["persistent-ring-per-tile"] = (
            CASES["persistent"], compile_ptx(o.bin, bytecode(CASES["persistent"]), work,
                                             carry_rings=False))
    persistent = variants["persistent"][1]
    variants["persistent-no-write-wait"] = (CASES["persistent"], all_reads(persistent))
    variants["persistent-write-wait-per-chunk"] = (CASES["persistent"],
                                                   writes_every_chunk(persistent))
    plan = {}
    for name, (case, ptx) in variants.items():
        ptx_path = os.path.join(o.dir, name + ".ptx")
        with open(ptx_path, "w") as f:
            f.write(ptx)
        cubin = os.path.join(o.dir, name + ".cubin")
        sh([PTXAS, "-arch", GPU, "-o", cubin, ptx_path])
        plan[name] = {"case": case, "image": name + ".cubin"}
    with open(os.path.join(o.dir, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    with open(os.path.join(SHARED, "corpus", "cutile", "manifest.json")) as f:
        manifest = json.load(f)
    with open(os.path.join(o.dir, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    print("%d variants in %s: %s" % (len(plan), o.dir, " ".join(plan)))


def run(o):
    with open(os.path.join(o.dir, "plan.json")) as f:
        plan = json.load(f)
    for name, entry in plan.items():
        cmd = [sys.executable, os.path.join(ROOT, "tests", "corpus", "run-case.py"),
               "--manifest", os.path.join(o.dir, "manifest.json"), "--case", entry["case"],
               "--gpu-name", GPU, "--cubin", os.path.join(o.dir, entry["image"]),
               "--time", str(o.launches), "--work", tempfile.mkdtemp()]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        out = proc.stdout + proc.stderr
        match = re.search(r"([0-9.]+) ms per launch", out)
        if proc.returncode != 0 or not match:
            print("%-36s FAILED %s" % (name, out.strip().splitlines()[-1:]))
        else:
            print("%-36s %s ms" % (name, match.group(1)))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    pre = sub.add_parser("prepare")
    pre.add_argument("dir")
    pre.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--launches", type=int, default=30)
    o = p.parse_args()
    prepare(o) if o.command == "prepare" else run(o)


if __name__ == "__main__":
    main()
