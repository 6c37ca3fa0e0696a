#!/usr/bin/python3
"""Hostile input for the MLIR and LLVM stages: mutated copies of real stage
inputs, fed to the stage that reads them.

  stage-mutate.py --bin DIR --bytecode FILE.tileirbc [--bytecode ...]
      [--seconds 120] [--seed N] [--gpu-name sm_90a] [--keep DIR]

For each corpus kernel, tileiras writes the input of every stage (cuda_tile
MLIR for tile-lower, the lowered form for tile-sched, the scheduled form
for tile-llvm, LLVM IR for tile-ptx). Each round takes one of them, changes
it a little (a line dropped, duplicated or swapped, an integer or a type
replaced) and runs its stage. Every run must end with exit 0 or with one of
the documented failure codes and an "error" line on stderr: a signal, a
hang (past 60 s), a crash message or an undocumented exit is a finding.
Findings are copied to --keep (with the command line) and listed; exit 1
when there is any.

Bytecode itself is fuzzed by fuzz/BytecodeReaderFuzzer.cpp
(scripts/fuzz-bytecode) and tests/bytecode/check-hostile.py.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

# (stage tool, the --emit that writes its input, input suffix)
STAGES = [("tile-lower", "cuda_tile", "mlir"), ("tile-sched", "lowered", "mlir"),
          ("tile-llvm", "scheduled", "mlir"), ("tile-ptx", "llvm", "ll")]
# docs/compile-time.md: usage 1, target 2, not Tile IR 3, I/O 4, failing compile 5.
DOCUMENTED = {1, 2, 3, 4, 5}
INTEGERS = ["0", "1", "-1", "2", "3", "7", "16", "17", "31", "64", "4096", "65536",
            "2147483647", "-2147483648", "4294967296", "9223372036854775807"]
TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "f8E4M3FN",
         "f8E5M2", "f4E2M1FN", "index"]
TYPE_RE = re.compile(r"\b(i1|i8|i16|i32|i64|f16|bf16|f32|f64|f8E4M3FN|f8E5M2|f4E2M1FN|index)\b")
INT_RE = re.compile(r"(?<![\w#%@.])-?\d+(?![\w.])")


def mutate(text, rng):
    """One small change, named."""
    lines = text.split("\n")
    # Leave the first and last lines (module headers and closers) more often
    # intact: most mutations should reach the passes, not the parser.
    body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#loc")]
    kind = rng.choice(["drop", "dup", "swap", "int", "int", "int", "type", "type", "dim"])
    i = rng.choice(body)
    line = lines[i]
    if kind == "drop":
        del lines[i]
    elif kind == "dup":
        lines.insert(i, line)
    elif kind == "swap":
        j = rng.choice(body)
        lines[i], lines[j] = lines[j], line
    elif kind == "int":
        spots = list(INT_RE.finditer(line))
        if not spots:
            return mutate(text, rng)
        m = rng.choice(spots)
        lines[i] = line[:m.start()] + rng.choice(INTEGERS) + line[m.end():]
    elif kind == "type":
        spots = list(TYPE_RE.finditer(line))
        if not spots:
            return mutate(text, rng)
        m = rng.choice(spots)
        lines[i] = line[:m.start()] + rng.choice(TYPES) + line[m.end():]
    else:  # a tensor dimension, everywhere it appears on the line
        dims = re.findall(r"(\d+)x", line)
        if not dims:
            return mutate(text, rng)
        old = rng.choice(dims)
        new = rng.choice(["1", "2", "3", "8", "48", "96", "256", "1024"])
        lines[i] = re.sub(r"\b%sx" % old, new + "x", line)
    return "\n".join(lines), "%s at line %d" % (kind, i + 1)


def verdict(proc, timed_out):
    if timed_out:
        return "hang"
    if proc.returncode < 0 or proc.returncode >= 128:
        return "signal %d" % (-proc.returncode if proc.returncode < 0 else proc.returncode - 128)
    err = proc.stderr.decode(errors="replace")
    if "crashed" in err or "Stack dump" in err or "PLEASE submit a bug report" in err:
        return "crash: " + err.strip().splitlines()[-1][:200]
    if proc.returncode == 0:
        return None
    if proc.returncode not in DOCUMENTED:
        return "undocumented exit %d" % proc.returncode
    if "error" not in err:
        return "exit %d without a diagnostic" % proc.returncode
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--bytecode", action="append", required=True)
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--seed", type=int, default=20261126)
    p.add_argument("--gpu-name", default="sm_90a")
    p.add_argument("--keep", default="stage-mutate-findings")
    o = p.parse_args()
    rng = random.Random(o.seed)
    work = tempfile.mkdtemp(prefix="stage-mutate-")
    inputs = []
    for bc in o.bytecode:
        for tool, emit, suffix in STAGES:
            path = os.path.join(work, "%s.%s.%s" % (os.path.basename(bc), emit, suffix))
            subprocess.run([os.path.join(o.bin, "tileiras"), bc, "--gpu-name", o.gpu_name,
                            "--emit=" + emit, "-o", path], check=True)
            inputs.append((tool, path, open(path).read()))
    findings, runs, deadline = 0, 0, time.time() + o.seconds
    exits = {}
    while time.time() < deadline:
        tool, path, text = rng.choice(inputs)
        mutated, what = mutate(text, rng)
        case = os.path.join(work, "case." + path.rsplit(".", 1)[1])
        with open(case, "w") as f:
            f.write(mutated)
        cmd = [os.path.join(o.bin, tool), case, "-o", os.path.join(work, "out")]
        if tool in ("tile-lower", "tile-ptx"):
            cmd += ["--gpu-name", o.gpu_name]
        runs += 1
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=60)
            bad = verdict(proc, False)
            exits[(tool, proc.returncode)] = exits.get((tool, proc.returncode), 0) + 1
        except subprocess.TimeoutExpired:
            proc, bad = None, "hang"
        if not bad:
            continue
        findings += 1
        os.makedirs(o.keep, exist_ok=True)
        name = os.path.join(o.keep, "%03d-%s.%s" % (findings, tool, case.rsplit(".", 1)[1]))
        shutil.copy(case, name)
        with open(name + ".txt", "w") as f:
            f.write("%s\n%s (%s of %s)\n" % (" ".join(cmd), bad, what, os.path.basename(path)))
            if proc:
                f.write(proc.stderr.decode(errors="replace")[-4000:])
        print("%s: %s (%s of %s) -> %s" % (tool, bad, what, os.path.basename(path), name))
    print("%d runs, %d findings; exits: %s" % (runs, findings, ", ".join(
        "%s %d: %d" % (tool, code, n) for (tool, code), n in sorted(exits.items()))))
    shutil.rmtree(work)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
