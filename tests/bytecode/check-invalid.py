#!/usr/bin/env python3
"""Runs tile-read on every file of corpus/oracle/invalid-or-legacy and checks
it against the folder's README table: a valid legacy file must read and print
its .expected.mlir (modulo SSA names); a malformed one must fail with the
README's diagnostic and exit 3 (not TileIR / unsupported version) or 5.
A file the README does not describe fails the check.
Usage: check-invalid.py TILE_READ FOLDER"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

normalize = import_module('normalize-ssa').normalize

# Diagnostics of the header checks map to exit code 3; a bad magic number is
# reported by the tools as "not TileIR bytecode" before any parsing.
HEADER_DIAGNOSTICS = {
    'invalid magic number': 'input does not correspond to Tile IR bytecode',
    'unsupported Tile version': 'this reader supports versions [13.1 - 13.4]',
}


def readme_rows(folder):
    rows = {}
    for line in open(os.path.join(folder, 'README.md')):
        cells = [c.strip() for c in line.split('|')]
        if len(cells) < 7 or not cells[1].startswith('`'):
            continue
        name = cells[1].strip('`')
        says = cells[-2]
        quoted = re.findall(r'`([^`]*)`', says)
        rows[name] = quoted[0] if quoted else None
    return rows


def main():
    tile_read, folder = sys.argv[1], sys.argv[2]
    rows = readme_rows(folder)
    failures = 0
    checked = 0
    for name in sorted(os.listdir(folder)):
        if name == 'README.md' or name.endswith('.expected.mlir'):
            continue
        checked += 1
        if name not in rows:
            print('FAIL %s: not described by the README' % name)
            failures += 1
            continue
        proc = subprocess.run([tile_read, os.path.join(folder, name)],
                              capture_output=True, text=True)
        if proc.returncode >= 128 or proc.returncode < 0:
            print('FAIL %s: killed by a signal (%d)' % (name, proc.returncode))
            failures += 1
            continue
        expected = os.path.join(folder, name.rsplit('.', 1)[0] + '.expected.mlir')
        if os.path.exists(expected):
            ok = proc.returncode == 0 and normalize(proc.stdout, loose=True) == normalize(open(expected).read(), loose=True)
            if not ok:
                print('FAIL %s: expected a clean read of %s, got exit %d\n%s%s' %
                      (name, os.path.basename(expected), proc.returncode, proc.stderr, proc.stdout))
                failures += 1
            continue
        diagnostic = rows[name]
        code = 5
        for key, replacement in HEADER_DIAGNOSTICS.items():
            if diagnostic and diagnostic.startswith(key):
                code = 3
                diagnostic = replacement
        if proc.returncode != code or not diagnostic or diagnostic not in proc.stderr:
            print('FAIL %s: expected exit %d and "%s", got exit %d:\n%s' %
                  (name, code, diagnostic, proc.returncode, proc.stderr))
            failures += 1
    print('checked %d files, %d failures' % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
