#!/usr/bin/python3
"""Compile time of tileiras' two flows, and whether they give the same bytes.

    bench/compile-time.py [--cases REGEX] [--gpu-name sm_80,sm_90,sm_100] [--version 13.4]
                          [--emit cubin] [--lineinfo] [--repeat 1] [--bin build/bin]
                          [--shared ../shared] [--markdown]

For each corpus case (manifest.json) and target it compiles the case's bytecode
with `tileiras` in-process (the default flow), with `tileiras --staged` (the six
stage tools as processes) and, for --emit=cubin, times `ptxas` alone on the PTX
that the cubin came from. Times are wall clock, the best of --repeat runs. The
`same` column says whether both flows wrote identical bytes; the script exits 1
when any case differs or fails in one flow only. It is a benchmark, not a test:
the numbers depend on the machine (docs/compile-time.md says which produced
the published ones).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from corpus_cases import add_corpus_arguments, corpus_rows, corpus_target


def best_of(repeat, cmd):
    """(seconds, completed process) of the fastest of `repeat` runs."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True)
        seconds = time.perf_counter() - start
        if best is None or seconds < best[0]:
            best = (seconds, proc)
    return best


def first_line(proc):
    text = proc.stderr.decode(errors="replace").strip()
    return (text.splitlines() or ["(no diagnostic)"])[0]


def measure(o, case, sm, work):
    bytecode = os.path.join(o.shared, "corpus", "cutile", "bytecode",
                            f"{case}.{corpus_target(sm)}.{o.version}.tileirbc")
    if not os.path.exists(bytecode):
        return None
    tileiras = [os.path.join(o.bin, "tileiras"), bytecode, "--gpu-name", sm, "-O3",
                f"--emit={o.emit}"] + (["--lineinfo"] if o.lineinfo else [])
    here_out = os.path.join(work, "inprocess.out")
    staged_out = os.path.join(work, "staged.out")
    here_s, here = best_of(o.repeat, tileiras + ["-o", here_out])
    staged_s, staged = best_of(o.repeat, tileiras + ["--staged", "-o", staged_out])
    row = {"case": case, "sm": sm}
    if here.returncode != 0 or staged.returncode != 0:
        if here.returncode != staged.returncode:
            row["error"] = (f"exit {here.returncode} in-process, {staged.returncode} "
                            f"staged: {first_line(here if here.returncode else staged)}")
        else:
            row["failed"] = f"exit {here.returncode} both: {first_line(here)}"
        return row
    same = open(here_out, "rb").read() == open(staged_out, "rb").read()
    row.update({"inprocess_s": here_s, "staged_s": staged_s,
                "same": "yes" if same else "NO"})
    if o.emit == "cubin":
        ptx = os.path.join(work, "k.ptx")
        subprocess.run(tileiras[:-1] + ["--emit=ptx", "-o", ptx], check=True)
        target = re.search(rb"^\.target\s+(\w+)", open(ptx, "rb").read(), re.M)
        ptxas_s, proc = best_of(o.repeat, ["ptxas", "-O3", f"-arch={target.group(1).decode()}",
                                           ptx, "-o", os.path.join(work, "p.cubin")])
        row["ptxas_s"] = ptxas_s if proc.returncode == 0 else float("nan")
    return row


def print_rows(rows, o):
    columns = ["case", "sm", "inprocess_s", "staged_s", "speedup"]
    if o.emit == "cubin":
        columns += ["ptxas_s", "inprocess/ptxas", "staged/ptxas"]
    columns.append("same")
    good = [r for r in rows if "same" in r]
    for r in good:
        r["speedup"] = r["staged_s"] / r["inprocess_s"]
        if "ptxas_s" in r:
            r["inprocess/ptxas"] = r["inprocess_s"] / r["ptxas_s"]
            r["staged/ptxas"] = r["staged_s"] / r["ptxas_s"]

    def cell(r, c):
        v = r[c]
        return f"{v:.2f}" if isinstance(v, float) else str(v)
    sep, start, end = (" | ", "| ", " |") if o.markdown else ("\t", "", "")
    print(start + sep.join(columns) + end)
    if o.markdown:
        print("|" + "---|" * len(columns))
    for r in good:
        print(start + sep.join(cell(r, c) for c in columns) + end)
    if good:
        here = sum(r["inprocess_s"] for r in good)
        staged = sum(r["staged_s"] for r in good)
        line = (f"\nall {len(good)} compiles: in-process {here:.2f} s, staged {staged:.2f} s, "
                f"speedup {staged / here:.2f}")
        if o.emit == "cubin":
            ptxas = sum(r["ptxas_s"] for r in good)
            line += f", ptxas {ptxas:.2f} s (in-process/ptxas {here / ptxas:.2f}, " \
                    f"staged/ptxas {staged / ptxas:.2f})"
        print(line)
        print(f"identical output: {sum(r['same'] == 'yes' for r in good)} of {len(good)}")
    for r in rows:
        if "failed" in r:
            print(f"not compiled (same in both flows): {r['case']} {r['sm']}: {r['failed']}")
        if "error" in r:
            print(f"FLOWS DISAGREE: {r['case']} {r['sm']}: {r['error']}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_arguments(p, "sm_80,sm_90,sm_100")
    p.add_argument("--emit", default="cubin",
                   choices=["cuda_tile", "lowered", "scheduled", "llvm", "ptx", "cubin",
                            "fatbin", "obj"])
    p.add_argument("--lineinfo", action="store_true")
    p.add_argument("--repeat", type=int, default=1, help="runs per flow; the best counts")
    o = p.parse_args()
    os.environ["PATH"] = os.pathsep.join([o.bin, "/usr/local/cuda/bin", os.environ.get("PATH", "")])
    with tempfile.TemporaryDirectory() as work:
        rows = corpus_rows(o, lambda case, sm: measure(o, case, sm, work))
    if not rows:
        sys.exit("compile-time: no case matched")
    print_rows(rows, o)
    if any("error" in r or r.get("same") == "NO" for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
