#!/usr/bin/env python3
"""Renames SSA values and block labels to %v0, %v1, ... so that two prints of
the same IR compare equal whatever names the printer chose. Every definition
(op results, block/region arguments, `for` induction variables, iter_values)
gets a fresh number in order of appearance; uses take the number of the latest
definition of that name. Reads stdin or the files given."""
import re
import sys

NAME = re.compile(r'%([A-Za-z0-9_$.\-]+)')
BLOCK = re.compile(r'\^([A-Za-z0-9_$.\-]+)')
RESULTS = re.compile(r'^\s*%[^=]*?(?= = )')


def normalize(text):
    names, blocks = {}, {}
    counter = [0]

    def define(name):
        names[name] = counter[0]
        counter[0] += 1
        return '%v' + str(names[name])

    def use(name):
        if name not in names:
            return define(name)
        return '%v' + str(names[name])

    def block(match):
        return '^b' + str(blocks.setdefault(match.group(1), len(blocks)))

    def rename(code, first):
        results = RESULTS.match(code) if first else None
        end_of_results = results.end() if results else 0
        out, last = [], 0
        for m in NAME.finditer(code):
            out.append(code[last:m.start()])
            after = code[m.end():]
            before = code[:m.start()]
            is_def = (m.start() < end_of_results or
                      re.match(r':\d*\s*=\s', after) is not None or
                      re.match(r'\s=\s', after) is not None or
                      (re.match(r':\s', after) is not None and
                       re.search(r'[(,]\s*$', before) is not None) or
                      re.search(r'\bfor (unsigned )?$', before) is not None)
            out.append(define(m.group(1)) if is_def else use(m.group(1)))
            last = m.end()
        out.append(code[last:])
        return BLOCK.sub(block, ''.join(out))

    lines = []
    for line in text.splitlines():
        # Leave string literals alone (print_tko formats contain '%').
        parts = re.split(r'("(?:[^"\\]|\\.)*")', line)
        for i in range(0, len(parts), 2):
            parts[i] = rename(parts[i], first=(i == 0))
        lines.append(''.join(parts).rstrip())
    return '\n'.join(lines).rstrip('\n') + '\n'


def main():
    if len(sys.argv) > 1:
        for path in sys.argv[1:]:
            with open(path) as f:
                sys.stdout.write(normalize(f.read()))
    else:
        sys.stdout.write(normalize(sys.stdin.read()))


if __name__ == '__main__':
    main()
