#!/usr/bin/env python3
"""Renames SSA values (%x) and block labels (^bb) in order of first appearance,
so that two printings of the same module compare equal whatever names the
printer picked. With --loose, runs of blanks collapse to one and blanks
before commas and `cuda_tile.` prefixes go (the bytecode tests check content; exact spacing is the
dialect printer's concern, tested in tests/dialect).
Reads a file (or stdin) and writes the normalized text."""
import re
import sys

_NAME = re.compile(r'([%^])([A-Za-z0-9_$.\-]+)')


def normalize(text, loose=False):
    """Numbers every definition of a %value (results, block arguments,
    iter_values bindings) in order, and each use with the number of the
    latest definition of that name, so printers that reuse a name in sibling
    regions and printers that do not still compare equal."""
    current = {}
    counter = [0]

    def fresh(name):
        current[name] = '%%v%d' % counter[0]
        counter[0] += 1
        return current[name]

    def rename_line(line):
        stripped = line.lstrip()
        lhs_end = stripped.find(' = ') if stripped.startswith('%') else -1
        lhs_end = lhs_end + len(line) - len(stripped) if lhs_end >= 0 else -1
        out = []
        pos = 0
        for match in _NAME.finditer(line):
            out.append(line[pos:match.start()])
            pos = match.end()
            sigil, name = match.group(1), match.group(0)
            if sigil == '^':
                out.append(current.setdefault(name, '^bb%d' % len(current)))
                continue
            after = line[match.end():]
            is_def = (match.start() < lhs_end or after.startswith(': ') or
                      (after.startswith(' = ') and line[:match.start()].rstrip().endswith(('(', ','))
                       and match.start() > lhs_end))
            out.append(fresh(name) if is_def else current.get(name) or fresh(name))
        out.append(line[pos:])
        return ''.join(out)

    lines = [rename_line(line.rstrip()) for line in text.splitlines()]
    if loose:
        lines = [re.sub(r'\bcuda_tile\.(?=[a-z_0-9]+\b)', '', re.sub(
            r' ,', ',', re.sub(r'(?<=\S) +', ' ', line))) for line in lines]
    return '\n'.join(line for line in lines if line) + '\n'


if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if a != '--loose']
    source = open(args[0]) if args else sys.stdin
    sys.stdout.write(normalize(source.read(), loose='--loose' in sys.argv))
