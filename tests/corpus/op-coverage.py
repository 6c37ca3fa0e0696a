#!/usr/bin/python3
"""Which cuda_tile ops are lowered, and which tests exercise each one.

  op-coverage.py --source DIR [--corpus DIR] [--check-tested] [--unlowered-within OPS]

The roster is every op the cuda_tile dialect defines (its ODS files). An op
is *lowered* when a cuda_tile -> tile_aa pattern names its class
(ct::XOp in libcommon/lib/Conversion/CudaTileToTileAA). An op is *tested*
when a lowering test uses it: a cuda_tile input or kernel generator of a
tests/lower-*, tests/lowering or tests/corpus suite, or the cuda_tile MLIR of
a corpus case a tests/corpus suite runs (found by its case name in the .bats
file). Dialect and bytecode round-trip tests do not count: they never lower.

Prints one line per op: name, lowered or not, the tests that use it. With
--check-tested, exits 1 when a lowered op has no test. With
--unlowered-within, exits 1 when an op outside that comma-separated list is
not lowered (so a lowering cannot disappear unnoticed).
"""
import argparse, glob, os, re, sys

DEF = re.compile(r'^def CudaTile_(\w+)Op\s*:\s*\w+<"([a-z_0-9]+)"', re.M)
# Op class names the lowering's patterns name directly (ct::FooOp) or
# through the arithmetic family's templates (ct::FooOp as a template argument).
CLASS_USE = re.compile(r"\bct::(\w+)Op\b")
# Where an op is used: as a statement (`%x = name`, `name %y` at the start
# of a line, `cuda_tile.name`); kernel generators (.py) and suites (.bats)
# hold statements in strings ("%d = mmaf ...", "    return"). Comments and
# the generators' own Python keywords (if, for) do not count.
USE = {
    ".mlir": r"(?:^[ \t]*|=[ \t]*|cuda_tile\.)%s(?=[\s(<{]|$)",
    ".py": r"(?:=[ \t]*|\"[ \t]*|cuda_tile\.)%s(?=[\s(<{\"]|$)",
    ".bats": r"(?:=[ \t]*|\"[ \t]*|cuda_tile\.)%s(?=[\s(<{\"]|$)",
}


def uses(path, text, name):
    pattern = re.compile(USE[os.path.splitext(path)[1]] % re.escape(name), re.M)
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith(("//", "#")))
    return pattern.search(code) is not None


def roster(source):
    """(class name, mnemonic) of every op, sorted by mnemonic."""
    text = ""
    for td in glob.glob(os.path.join(source, "libcommon/include/tilepipe/Dialect/CudaTile/IR/*.td")):
        # An op definition may break its line after the colon.
        text += re.sub(r"Op\n\s*:", "Op :", open(td).read())
    return sorted(set(DEF.findall(text)), key=lambda op: op[1])


def lowered_classes(source):
    classes = set()
    for cpp in glob.glob(os.path.join(source, "libcommon/lib/Conversion/CudaTileToTileAA/*.cpp")):
        classes.update(CLASS_USE.findall(open(cpp).read()))
    return classes


def lowering_test_texts(source, corpus):
    """{test file: text} for every lowering test input, with the corpus MLIR
    of each case a corpus suite names appended to that suite's text."""
    texts = {}
    tests = os.path.join(source, "tests")
    dirs = [d for d in glob.glob(os.path.join(tests, "*"))
            if os.path.basename(d).startswith(("lower-", "lowering", "corpus"))]
    for d in dirs:
        for path in glob.glob(os.path.join(d, "**", "*"), recursive=True):
            # run-case.py and op-coverage.* are tools, not kernels.
            if path.endswith((".mlir", ".py", ".bats")) and not path.endswith(
                    ("run-case.py", "op-coverage.py", "op-coverage.bats")):
                texts[os.path.relpath(path, source)] = open(path, errors="replace").read()
    if corpus:
        mlirs = glob.glob(os.path.join(corpus, "mlir", "*.mlir"))
        for name, text in list(texts.items()):
            if not name.endswith(".bats"):
                continue
            cases = set(re.findall(r"samples-[\w.-]+?\.(?:f16|bf16|f32|f64|fp8e4m3|fp8e5m2|i8|i32|\w+?)\b", text))
            for case in cases:
                matches = [m for m in mlirs if os.path.basename(m).startswith(case + ".")]
                if matches:
                    texts[name] += open(matches[0], errors="replace").read()
    return texts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--source", required=True)
    p.add_argument("--corpus")
    p.add_argument("--check-tested", action="store_true")
    p.add_argument("--unlowered-within", default=None)
    o = p.parse_args()

    ops = roster(o.source)
    lowered = lowered_classes(o.source)
    texts = lowering_test_texts(o.source, o.corpus)
    untested, unlowered = [], []
    for cls, name in ops:
        users = sorted(f for f, t in texts.items() if uses(f, t, name))
        is_lowered = cls in lowered
        if not is_lowered:
            unlowered.append(name)
        elif not users:
            untested.append(name)
        shown = ", ".join(users[:3]) + (" (+%d)" % (len(users) - 3) if len(users) > 3 else "")
        print("%-26s %-11s %s" % (name, "lowered" if is_lowered else "NOT-LOWERED",
                                  shown or "-"))
    print("\n%d ops; %d lowered, %d of them without a lowering test; %d not lowered:"
          % (len(ops), len(ops) - len(unlowered), len(untested), len(unlowered)))
    print("  not lowered: " + " ".join(unlowered))
    print("  lowered but untested: " + (" ".join(untested) or "none"))
    status = 0
    if o.check_tested and untested:
        status = 1
    if o.unlowered_within is not None:
        allowed = set(o.unlowered_within.split(","))
        lost = [n for n in unlowered if n not in allowed]
        if lost:
            print("  not lowered and not expected to be: " + " ".join(lost))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
