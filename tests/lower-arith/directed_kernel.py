#!/usr/bin/python3
"""Writes the directed-rounding test kernel for one float type, or the
emu-check.py arguments that run and check it.

  directed_kernel.py kernel FMT N        cuda_tile text on stdout
  directed_kernel.py args FMT N          emu-check.py arguments, one a line

The kernel `directed` takes a, b, c and s (N values each) and stores, for
every kind (add sub mul div fma sqrt) and rounding (zero negative_inf
positive_inf), `kind rounding` of them into its own output (in that order;
sqrt takes s, which is |a|). The arguments pass the operand bits from
directed_reference.operand_sets and expect every output bit for bit equal to
directed_reference.directed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from directed_reference import FORMATS, KINDS, MODES  # noqa: E402

OPS = {"add": "addf", "sub": "subf", "mul": "mulf", "div": "divf", "fma": "fma",
       "sqrt": "sqrt"}


def outputs():
    return [(kind, mode) for kind in KINDS for mode in MODES]


def kernel(fmt, n):
    t = fmt
    tile = f"tile<{n}x{t}>"
    ptrs = f"tile<{n}xptr<{t}>>"
    names = ["a", "b", "c", "s"] + [f"{k}_{m}" for k, m in outputs()]
    lines = ["cuda_tile.module @kernels {",
             "  entry @directed(" + ", ".join(f"%{x}: tile<ptr<{t}>>" for x in names) + ") {",
             f"    %i = iota : tile<{n}xi32>"]
    for x in names:
        lines += [f"    %{x}1 = reshape %{x} : tile<ptr<{t}>> -> tile<1xptr<{t}>>",
                  f"    %{x}n = broadcast %{x}1 : tile<1xptr<{t}>> -> {ptrs}",
                  f"    %{x}p = offset %{x}n, %i : {ptrs}, tile<{n}xi32> -> {ptrs}"]
    for x in "abcs":
        lines.append(f"    %{x}v, %{x}t = load_ptr_tko weak %{x}p : {ptrs} -> {tile}, token")
    for kind, mode in outputs():
        operands = {1: "%sv", 2: "%av, %bv", 3: "%av, %bv, %cv"}[KINDS[kind]]
        r = f"{kind}_{mode}"
        lines += [f"    %{r}v = {OPS[kind]} {operands} rounding<{mode}> : {tile}",
                  f"    %{r}t = store_ptr_tko weak %{r}p, %{r}v : {ptrs}, {tile} -> token"]
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def args(fmt, n):
    bits = FORMATS[fmt][3].__name__
    result = [f"--array=a=operand_sets('{fmt}', {n})[0]",
              f"--array=b=operand_sets('{fmt}', {n})[1]",
              f"--array=c=operand_sets('{fmt}', {n})[2]",
              "--array=s=magnitude(a)"]
    result += [f"--array={k}_{m}=np.zeros({n}, np.{bits})" for k, m in outputs()]
    for kind, mode in outputs():
        operands = {1: "s", 2: "a, b", 3: "a, b, c"}[KINDS[kind]]
        result.append(f"--expect={kind}_{mode} = directed('{kind}', '{mode}', '{fmt}', {operands})")
    return "\n".join(result) + "\n"


if __name__ == "__main__":
    what, fmt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sys.stdout.write(kernel(fmt, n) if what == "kernel" else args(fmt, n))
