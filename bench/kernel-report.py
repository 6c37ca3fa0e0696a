#!/usr/bin/python3
"""Compile-time and static-quality report for corpus kernels.

    bench/kernel-report.py [--cases REGEX] [--gpu-name sm_80,sm_90,sm_90a] [--version 13.4]
                           [--bin build/bin] [--shared ../shared] [--markdown]

For each corpus case (manifest.json) and target it
  - compiles the case's bytecode to PTX with our stages (`tileiras --emit=ptx`),
    timing it, then times `ptxas -v` on that PTX: the ratio ours/ptxas says how
    much of a full compile our part costs (one run each, wall clock);
  - reads from `ptxas -v` the registers, spill bytes and shared memory;
  - counts the PTX instruction mix that matters for speed: tensor-core MMAs,
    ldmatrix, async copies, global/shared loads and stores, barriers, shuffles.
Cases that do not compile are listed with the first line of their diagnostic.
It is a benchmark, not a test: numbers depend on the machine (the README's
performance section says which one produced them).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from corpus_cases import add_corpus_arguments, corpus_rows, corpus_target

# PTX opcode prefixes reported as columns, in order.
MIX = [
    ("mma", re.compile(r"^(mma\.sync|wgmma\.mma_async|tcgen05\.mma)")),
    ("ldmatrix", re.compile(r"^ldmatrix")),
    ("cp.async", re.compile(r"^cp\.async")),
    ("ld.global", re.compile(r"^ld\.global")),
    ("st.global", re.compile(r"^st\.global")),
    ("ld.shared", re.compile(r"^ld\.shared")),
    ("st.shared", re.compile(r"^st\.shared")),
    ("bar", re.compile(r"^(bar\.|barrier\.)")),
    ("shfl", re.compile(r"^shfl")),
    ("fma", re.compile(r"^fma\.")),
]
INSTRUCTION = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)")
NOT_INSTRUCTION = re.compile(r"^\.|^//|^\{|^\}|^\$|^[A-Za-z_$][\w$]*:")


def instruction_mix(ptx):
    counts = {name: 0 for name, _ in MIX}
    total = 0
    for line in ptx.splitlines():
        text = line.strip()
        if not text or NOT_INSTRUCTION.match(text):
            continue
        match = INSTRUCTION.match(text)
        if not match:
            continue
        opcode = match.group(1)
        total += 1
        for name, pattern in MIX:
            if pattern.match(opcode):
                counts[name] += 1
                break
    counts["total"] = total
    return counts


def ptxas_usage(verbose):
    """Registers, spill bytes and shared memory, summed over the module's kernels."""
    usage = {"regs": 0, "spill": 0, "smem": 0}
    for line in verbose.splitlines():
        if m := re.search(r"Used (\d+) registers", line):
            usage["regs"] = max(usage["regs"], int(m.group(1)))
        if m := re.search(r"(\d+) bytes smem", line):
            usage["smem"] = max(usage["smem"], int(m.group(1)))
        for m in re.finditer(r"(\d+) bytes spill (?:stores|loads)", line):
            usage["spill"] += int(m.group(1))
    return usage


def find_ptxas():
    for var in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    found = shutil.which("ptxas")
    if found:
        return found
    if os.access("/usr/local/cuda/bin/ptxas", os.X_OK):
        return "/usr/local/cuda/bin/ptxas"
    sys.exit("kernel-report: ptxas not found (set CUDA_HOME)")


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def report_case(o, ptxas, case, sm, work):
    family = corpus_target(sm)
    bytecode = os.path.join(o.shared, "corpus", "cutile", "bytecode",
                            f"{case}.{family}.{o.version}.tileirbc")
    if not os.path.exists(bytecode):
        return None
    ptx_path = os.path.join(work, f"{case}.{sm}.ptx")
    ours, proc = timed([os.path.join(o.bin, "tileiras"), bytecode, "--gpu-name", sm,
                        "-O3", "--emit=ptx", "-o", ptx_path])
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["(no diagnostic)"])[0]
        return {"case": case, "sm": sm, "error": first}
    ptx = open(ptx_path).read()
    target = re.search(r"^\.target\s+(\w+)", ptx, re.M).group(1)
    theirs, proc = timed([ptxas, "-O3", "-v", f"-arch={target}", ptx_path,
                          "-o", os.path.join(work, "out.cubin")])
    if proc.returncode != 0:
        return {"case": case, "sm": sm, "error": "ptxas: " + proc.stderr.strip()[:200]}
    row = {"case": case, "sm": target, "ours_s": ours, "ptxas_s": theirs}
    row.update(ptxas_usage(proc.stderr + proc.stdout))
    row.update(instruction_mix(ptx))
    return row


def print_rows(rows, markdown):
    columns = ["case", "sm", "ours_s", "ptxas_s", "ratio", "regs", "spill", "smem",
               "total"] + [name for name, _ in MIX]
    good = [r for r in rows if "error" not in r]
    for r in good:
        r["ratio"] = r["ours_s"] / r["ptxas_s"] if r["ptxas_s"] > 0 else float("inf")
    def cell(r, c):
        v = r[c]
        return f"{v:.2f}" if isinstance(v, float) else str(v)
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for r in good:
            print("| " + " | ".join(cell(r, c) for c in columns) + " |")
    else:
        print("\t".join(columns))
        for r in good:
            print("\t".join(cell(r, c) for c in columns))
    if good:
        ours = sum(r["ours_s"] for r in good)
        theirs = sum(r["ptxas_s"] for r in good)
        print(f"\nall {len(good)} compiles: ours {ours:.2f} s, ptxas {theirs:.2f} s, "
              f"ratio {ours / theirs:.2f}")
    for r in rows:
        if "error" in r:
            print(f"not compiled: {r['case']} {r['sm']}: {r['error']}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_arguments(p, "sm_80,sm_90")
    o = p.parse_args()
    ptxas = find_ptxas()
    with tempfile.TemporaryDirectory() as work:
        rows = corpus_rows(o, lambda case, sm: report_case(o, ptxas, case, sm, work))
    if not rows:
        sys.exit("kernel-report: no case matched")
    print_rows(rows, o.markdown)


if __name__ == "__main__":
    main()
