#!/usr/bin/env python3
"""GPU matmul benchmark: tilepipe's compiled corpus matmuls vs cuBLAS (torch).

    bench/gpu-matmul.py DIR [--cases REGEX] [--launches N]

DIR is what `scripts/gpu-check prepare DIR 'MatMul'` wrote (images, plan.txt,
manifest.json); run this on the GPU machine, which needs python3 with numpy,
cuda-python and, for the cuBLAS column, torch. Each image is launched the way
cuTile launches it (tests/corpus/run-case.py --cubin, checked against numpy
first), then timed over N launches; torch.matmul on the same shapes and dtype
gives the cuBLAS time. Prints one row per image: milliseconds and TFLOP/s for
both, ours as a fraction of cuBLAS, and, where the plan also holds the case's
image for BASELINE (default sm_80: mma.sync + ldmatrix + cp.async, JIT-compiled
PTX on newer GPUs), this image's speedup over that one (`scripts/gpu-check
prepare` with GPU_TARGETS="sm_90a sm_90 sm_80" gives all three).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

TORCH_DTYPES = {"float16": "float16", "bfloat16": "bfloat16", "float32": "float32",
                "float8_e4m3fn": "float16"}  # fp8 matmul has no plain torch.matmul


def matmul_shape(case):
    """(batch, M, N, K, dtype) of the multiply a case does, or None for a case
    that multiplies no matrices (MoE's silu_and_mul). Plain and batched: from the
    first two array arguments (A: ...xMxK, B: ...xKxN). Fused MoE (routed by
    sorted_token_ids): C's rows times one expert's B (E x N x K, transposed in
    the multiply), the useful work, so cuBLAS times a dense GEMM of the routed
    rows rather than the padded blocks the kernel walks."""
    arrays = {a["name"]: a for a in case["args"] if a.get("kind") == "array"}
    if "@" not in case["numpy_ref"] and "matmul" not in case["numpy_ref"]:
        return None
    if "sorted_token_ids" in arrays:
        _, n, k = arrays["B"]["shape"]
        return 1, arrays["C"]["shape"][0], n, k, arrays["A"]["dtype"]
    a, b = list(arrays.values())[:2]
    *batch, m, k = a["shape"]
    n = b["shape"][-1]
    return math.prod(batch) if batch else 1, m, n, k, a["dtype"]


def time_ours(root, o, case, sm, image, block):
    cmd = [sys.executable, os.path.join(root, "tests", "corpus", "run-case.py"),
           "--manifest", os.path.join(o.dir, "manifest.json"), "--case", case,
           "--gpu-name", sm, "--cubin", os.path.join(o.dir, image), "--block", block,
           "--time", str(o.launches), "--work", tempfile.mkdtemp()]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, (proc.stdout + proc.stderr).strip().splitlines()[-1:]
    match = re.search(r"([0-9.]+) ms per launch", proc.stdout + proc.stderr)
    return (float(match.group(1)) if match else None), []


def time_cublas(shape, launches):
    try:
        import torch
    except ImportError:
        return None
    batch, m, n, k, dtype = shape
    dt = getattr(torch, TORCH_DTYPES.get(dtype, "float32"))
    a = torch.randn(batch, m, k, device="cuda", dtype=dt)
    b = torch.randn(batch, k, n, device="cuda", dtype=dt)
    for _ in range(3):
        torch.matmul(a, b)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(launches):
        torch.matmul(a, b)
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / launches


def read_plan(path, cases):
    """Plan rows (case, sm, image, block) whose case matches the regex `cases`."""
    rows = [tuple(line.split()) for line in open(path) if line.strip()]
    return [r for r in rows if re.search(cases, r[0])]


def speedup_over_baseline(times, case, sm, baseline):
    """How many times faster `sm`'s image of `case` ran than the baseline target's,
    as text ("-" where either time is missing or this is the baseline itself)."""
    ours, base = times.get((case, sm)), times.get((case, baseline))
    if sm == baseline or not ours or not base:
        return "-"
    return f"{base / ours:.2f}"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir")
    p.add_argument("--cases", default="MatMul")
    p.add_argument("--launches", type=int, default=50)
    p.add_argument("--baseline", default="sm_80",
                   help="target whose image of the same case the speedup column compares with")
    o = p.parse_args()
    manifest = json.load(open(os.path.join(o.dir, "manifest.json")))
    print(f"case\tsm\tours_ms\tours_TFLOPs\tcublas_ms\tcublas_TFLOPs\tours/cublas\tx_{o.baseline}")
    rows = read_plan(os.path.join(o.dir, "plan.txt"), o.cases)
    # Time the baseline images first so every row can print its speedup.
    rows.sort(key=lambda r: r[1] != o.baseline)
    times = {}
    for case, sm, image, block in rows:
        shape = matmul_shape(manifest["cases"][case])
        ours, error = time_ours(root, o, case, sm, image, block)
        times[(case, sm)] = ours
        if ours is None:
            print(f"{case}\t{sm}\tFAILED {' '.join(error)}")
            continue
        row = [case, sm, f"{ours:.4f}"]
        if shape is None:
            row += ["-"] * 4
        else:
            flops = 2.0 * shape[0] * shape[1] * shape[2] * shape[3]
            tflops = lambda ms: flops / (ms * 1e-3) / 1e12
            theirs = time_cublas(shape, o.launches)
            row.append(f"{tflops(ours):.2f}")
            row += [f"{theirs:.4f}", f"{tflops(theirs):.2f}", f"{theirs / ours:.2f}"] if theirs else ["-"] * 3
        row.append(speedup_over_baseline(times, case, sm, o.baseline))
        print("\t".join(row))


if __name__ == "__main__":
    main()
