#!/usr/bin/env python3
"""Reads every .tileirbc of the shared corpus with tile-read and compares the
printed module with NVIDIA's printing of the same file (mlir/<name>.mlir, or
mlir/<name>.<version>.mlir where the read-back differs by version), modulo SSA
names. Files without a printed counterpart (13.4) must still read cleanly.
Usage: check-corpus.py TILE_READ CORPUS_DIR [--stride N] [--list]
--stride N checks every N-th file of the sorted walk (the in-process
BytecodeReaderTest compares every file; this checks the tool end to end)."""
import concurrent.futures
import difflib
import fnmatch
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

normalize = import_module('normalize-ssa').normalize


def expected_text(folder, name):
    base = name[:-len('.tileirbc')]
    parts = base.split('.')
    version = '.'.join(parts[-2:])
    stem = '.'.join(parts[:-2])
    mlir_dir = os.path.join(os.path.dirname(folder), 'mlir')
    for candidate in (base + '.mlir', stem + '.' + version + '.mlir', stem + '.mlir'):
        path = os.path.join(mlir_dir, candidate)
        if os.path.exists(path):
            return path
    return None


def check(tile_read, folder, name):
    path = os.path.join(folder, name)
    proc = subprocess.run([tile_read, path], capture_output=True, text=True)
    if proc.returncode != 0:
        return 'read', (proc.stderr.strip().splitlines() or ['(no diagnostic)'])[0]
    expected = expected_text(folder, name)
    if expected is None:
        return 'ok-unchecked', None
    want = normalize(open(expected).read(), loose=True)
    got = normalize(proc.stdout, loose=True)
    if want == got:
        return 'ok', None
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                     'expected', 'tile-read', lineterm='', n=0))
    return 'text', '\n'.join(diff[2:8])


def known_gaps():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'known-dialect-gaps.txt')
    globs = []
    for line in open(path):
        glob = line.split('#')[0].strip()
        if glob:
            globs.append(glob)
    return globs


def main():
    tile_read, corpus = sys.argv[1], sys.argv[2]
    gaps = known_gaps()
    listing = '--list' in sys.argv
    stride = int(sys.argv[sys.argv.index('--stride') + 1]) if '--stride' in sys.argv else 1
    jobs = []
    for sub in ('cutile/bytecode', 'oracle/bytecode'):
        folder = os.path.join(corpus, sub)
        for name in sorted(os.listdir(folder)):
            if name.endswith('.tileirbc'):
                jobs.append((folder, name))
    jobs = jobs[::stride]
    counts = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda job: (job, check(tile_read, *job)), jobs)
        for (folder, name), (status, detail) in results:
            relative = os.path.relpath(os.path.join(folder, name), corpus)
            if status in ('text', 'read') and any(fnmatch.fnmatch(relative, g) for g in gaps):
                status = 'known-dialect-gap'
            counts[status] = counts.get(status, 0) + 1
            if not status.startswith('ok') and status != 'known-dialect-gap':
                failures.append((status, os.path.join(os.path.basename(os.path.dirname(folder)), name), detail))
    for status, name, detail in failures:
        print('FAIL[%s] %s\n  %s' % (status, name, (detail or '').replace('\n', '\n  ')))
        if not listing and len([f for f in failures]) > 40:
            break
    print('summary:', ', '.join('%s=%d' % kv for kv in sorted(counts.items())),
          'of', len(jobs))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
