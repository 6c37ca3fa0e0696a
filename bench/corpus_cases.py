"""What bench/kernel-report.py and bench/compile-time.py share: the corpus
cases they run (manifest.json, filtered by --cases, per --gpu-name target) and
the bytecode a target compiles."""
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_target(sm):
    """The corpus bytecode a target compiles (as scripts/gpu-check picks it): the
    corpus has sm_80, sm_90, sm_100 and sm_120 bytecode; sm_86/89 take sm_80's,
    sm_103/110 sm_100's, a/f names their base's."""
    for prefix, target in (("sm_8", "sm_80"), ("sm_90", "sm_90"), ("sm_10", "sm_100"),
                           ("sm_11", "sm_100"), ("sm_12", "sm_120")):
        if sm.startswith(prefix):
            return target
    return sm


def add_corpus_arguments(parser, gpu_names):
    """--cases, --gpu-name (default `gpu_names`), --version, --bin, --shared,
    --markdown."""
    parser.add_argument("--cases", default=".", help="regular expression over case names")
    parser.add_argument("--gpu-name", default=gpu_names)
    parser.add_argument("--version", default="13.4", help="bytecode version to compile")
    parser.add_argument("--bin", default=os.environ.get("TILEPIPE_BIN",
                                                        os.path.join(ROOT, "build", "bin")))
    parser.add_argument("--shared", default=os.environ.get("TILEPIPE_SHARED_DIR",
                                                           os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--markdown", action="store_true")


def corpus_rows(o, measure):
    """measure(case, sm) for every manifest case matching o.cases and every
    target of o.gpu_name; the rows it returns (None: left out)."""
    manifest = json.load(open(os.path.join(o.shared, "corpus", "cutile", "manifest.json")))
    rows = []
    for case in manifest["cases"]:
        if not re.search(o.cases, case):
            continue
        for sm in o.gpu_name.split(","):
            row = measure(case, sm)
            if row:
                rows.append(row)
    return rows
