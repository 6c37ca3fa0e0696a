#!/usr/bin/env python3
"""Feeds tile-read truncated and byte-flipped copies of a few corpus files
(seeded, bounded): every run must end with exit 3 or 5 and a diagnostic on
stderr (or exit 0 for a flip that happens to stay valid), never a signal,
never a hang.
Usage: check-hostile.py TILE_READ CORPUS_DIR"""
import os
import random
import subprocess
import sys
import tempfile


def run(tile_read, data, tmp):
    path = os.path.join(tmp, 'input.tileirbc')
    with open(path, 'wb') as f:
        f.write(data)
    try:
        proc = subprocess.run([tile_read, path], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return 'hang'
    if proc.returncode < 0 or proc.returncode >= 128:
        return 'signal %d' % proc.returncode
    if proc.returncode in (3, 5) and b'error' in proc.stderr:
        return None
    if proc.returncode == 0:
        return 'accepted'
    return 'exit %d without a diagnostic: %r' % (proc.returncode, proc.stderr[:200])


def main():
    tile_read, corpus = sys.argv[1], sys.argv[2]
    folder = os.path.join(corpus, 'cutile', 'bytecode')
    files = sorted(f for f in os.listdir(folder) if f.endswith('.tileirbc'))
    rng = random.Random(20261122)
    picked = [files[i] for i in (0, len(files) // 3, 2 * len(files) // 3)]
    failures = 0
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in picked:
            data = open(os.path.join(folder, name), 'rb').read()
            cuts = sorted(set(rng.randrange(len(data)) for _ in range(14)) | {0, 8, 11, 12})
            for cut in cuts:
                runs += 1
                problem = run(tile_read, data[:cut], tmp)
                if problem:  # a truncation can never be valid
                    print('FAIL %s truncated at %d: %s' % (name, cut, problem))
                    failures += 1
            for _ in range(14):
                mutated = bytearray(data)
                for _ in range(3):
                    mutated[rng.randrange(len(mutated))] = rng.randrange(256)
                runs += 1
                problem = run(tile_read, bytes(mutated), tmp)
                if problem and problem != 'accepted':
                    print('FAIL %s with flipped bytes: %s' % (name, problem))
                    failures += 1
    print('%d hostile inputs, %d failures' % (runs, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
