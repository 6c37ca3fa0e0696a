#!/usr/bin/python3
"""cuTile's FMHA kernel (corpus MLIR text) rewritten for TILE_M = 256.

  fmha-tile-m256.py IN.mlir > OUT.mlir

The corpus FMHA runs 128-row query tiles (TILE_M = 128, TILE_N = 128,
TILE_D = 64); cuTile compiles the same source with TILE_M = 256 when asked,
and then its multiplies are 256 rows high, which
tilepipe-split-tile-blocks-across-cta-pair splits by M across a CTA pair (a
row softmax between two multiplies, a causal mask built from row and column
iotas, running statistics carried by the K loops). This makes that kernel
from the corpus text, for tests/corpus/pair.bats, by data flow rather than
value names (the causal and non-causal texts name their values differently):

- the query tile (its partition view, load and reshape, the first multiply's
  A) and the output tile (the partition view stored to) grow to 256 rows;
- every tensor shaped by the rows (S and P 128x128, the accumulator 128x64
  f32, the row statistics 128x1 and 128) grows to 256 rows, except V's
  128x64 (TILE_N rows), which keeps its type;
- the row iota (the causal mask's; every 128-element i32 iota but the one
  reshaped into the 1x128 column iota) and the TILE_M constant (the one the
  tile block index is multiplied by) become 256.
"""
import re, sys


def rewrite(text):
    lines = text.splitlines()

    def defined_by(pattern):
        names = set()
        for line in lines:
            m = re.match(r"\s*(%[\w]+)(?:, %[\w]+)? = " + pattern, line)
            if m:
                names.add(m.group(1))
        return names

    q_view = defined_by(r"make_partition_view %tview :")
    out_view = {m.group(1) for line in lines
              for m in [re.search(r"store_view_tko weak \S+, (%[\w]+)\[", line)] if m}
    q_tile = {m.group(1) for line in lines for v in q_view
              for m in [re.match(r"\s*(%[\w]+), %[\w]+ = load_view_tko weak " + v + r"\[", line)] if m}
    q_rows = {m.group(1) for line in lines for t in q_tile
              for m in [re.match(r"\s*(%[\w]+) = reshape " + t + r" :", line)] if m}
    column_iotas = {m.group(1) for line in lines
                    for m in [re.search(r"reshape (%[\w]+) : tile<128xi32> -> tile<1x128xi32>", line)] if m}
    tile_m = {m.group(1) for line in lines
              for m in [re.search(r"muli %blockId_x, (%[\w]+) :", line)] if m}

    def uses(line, names):
        return any(re.search(re.escape(n) + r"\b", line) for n in names)

    out = []
    for line in lines:
        for a, b in (("128x128x", "256x128x"), ("128x1x", "256x1x"), ("128x64xf32", "256x64xf32"),
                     ("tile<128xf32>", "tile<256xf32>")):
            line = line.replace(a, b)
        if "1x1x256x64xf32" in line:  # the output's conversion to f16/bf16
            line = line.replace("1x1x128x64x", "1x1x256x64x")
        head = re.match(r"\s*(%[\w]+)", line)
        name = head.group(1) if head else ""
        if name in q_view | out_view or name in q_tile or uses(line, out_view) and "store_view" in line \
                or (uses(line, q_view) and "load_view" in line):
            line = line.replace("1x1x128x64", "1x1x256x64")
        if name in q_rows:
            line = line.replace("1x1x128x64", "1x1x256x64")
            line = re.sub(r"-> tile<128x64x(b?f16)>", r"-> tile<256x64x\1>", line)
        m = re.match(r"(\s*%[\w]+ = mmaf (%[\w]+), .*: )tile<128x64x(b?f16)>(.*)", line)
        if m and m.group(2) in q_rows:
            line = "%stile<256x64x%s>%s" % (m.group(1), m.group(3), m.group(4))
        if "tile<128xi32>" in line and not (name in column_iotas or uses(line, column_iotas)):
            line = line.replace("tile<128xi32>", "tile<256xi32>")
        if name in tile_m:
            line = line.replace("<i32: 128>", "<i32: 256>")
        out.append(line)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(rewrite(open(sys.argv[1]).read()))
