#!/usr/bin/env python3
"""Round-trips every .mlir file of the given folders through tile-opt (custom
form, and generic form in both directions) and compares each print with the
file modulo SSA names. All files of a folder go through one tile-opt run
(--split-input-file) to keep the test fast. Prints pass/fail counts and the
failing files; exits 1 if any file fails.

usage: check-corpus.py TILE_OPT FOLDER..."""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

normalize = import_module('normalize-ssa').normalize
SEP = '// -----'


def run(tool, flags, text):
    args = [tool, '--no-implicit-module', '--split-input-file']
    args += ['--mlir-print-op-generic' if f == 'generic' else f for f in flags]
    proc = subprocess.run(args, input=text, capture_output=True, text=True)
    return proc.stdout, proc.stderr


def chunks(text):
    """Splits tile-opt's --split-input-file output at its `// -----` lines (a
    chunk that failed prints nothing but keeps its place)."""
    parts, current = [], []
    for line in text.split('\n'):
        if line == SEP:
            parts.append('\n'.join(current).strip('\n'))
            current = []
        else:
            current.append(line)
    parts.append('\n'.join(current).strip('\n'))
    return parts


def check(tool, files, flags):
    texts = [open(f).read().strip('\n') for f in files]
    joined = ('\n' + SEP + '\n').join(texts) + '\n'
    custom, err1 = run(tool, flags, joined)
    generic, err2 = run(tool, flags + ['generic'], joined)
    generic2, _ = run(tool, flags + ['generic'], generic)
    back, _ = run(tool, flags, generic)
    outs = [chunks(custom), chunks(generic), chunks(generic2), chunks(back)]
    failed = []
    for i, f in enumerate(files):
        got = [o[i] if i < len(o) else None for o in outs]
        if got[0] is None or normalize(got[0]) != normalize(texts[i]):
            failed.append((f, 'custom print differs'))
        elif got[1] != got[2]:
            failed.append((f, 'generic form does not round-trip'))
        elif got[3] != got[0]:
            failed.append((f, 'generic form reads back differently'))
    if len(outs[0]) != len(files):
        sys.stderr.write(err1[-4000:])
    return failed


def main():
    tool, folders = sys.argv[1], sys.argv[2:]
    total_failed = 0
    for folder in folders:
        files = sorted(glob.glob(os.path.join(folder, '*.mlir')))
        if not files:
            print(f'{folder}: no .mlir files')
            return 1
        plain = [f for f in files if not f.endswith('.dbg.mlir')]
        dbg = [f for f in files if f.endswith('.dbg.mlir')]
        failed = check(tool, plain, [])
        if dbg:
            failed += check(tool, dbg, ['--mlir-print-debuginfo'])
        print(f'{folder}: {len(files) - len(failed)} passed, {len(failed)} failed')
        for f, why in failed:
            print(f'  {os.path.basename(f)}: {why}')
        total_failed += len(failed)
    return 1 if total_failed else 0


if __name__ == '__main__':
    sys.exit(main())
