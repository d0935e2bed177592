"""mrkit docsmatch vs IBM's doc-smatch vs plain Smatch on the same document graphs.

Documents: the Little Prince MS-AMR sample (sentences 1-19, its XML chains) and documents
of 50 and 100 consecutive sentences of the Little Prince bank with name-based chains
(named entities with the same name in several sentences; one mention per sentence).
For each document the gold graph is the docamr representation; the systems are the
no-coref, no-merge and merge-all graphs of the same document.

    python benchmarks/bench_docsmatch.py
    python benchmarks/bench_docsmatch.py --target [--repeat 7]   # issue 14: >= 10x doc-smatch

``--target``: the 19-sentence MS-AMR document only, mrkit and doc-smatch run one after
the other ``--repeat`` times (default 7) on each system graph, median wall time and median
CPU time (user + sys of the child, less sensitive to a busy machine) of each, and their
ratios.

Tools: ``mrkit`` from this checkout; ``doc-smatch`` and ``smatch.py`` from the
environment of BENCH_PYTHON (default: the ``python`` next to a ``doc-smatch`` on PATH).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness.py beside this file
import harness  # noqa: E402

DATA = harness.DATA
harness.use_checkout()

from mrkit.codecs.docgraphs import write_document_graphs  # noqa: E402
from mrkit.codecs.msamr import read_msamr  # noqa: E402
from mrkit.codecs.penman import read_penman  # noqa: E402
from mrkit.docamr.build import build, no_coref  # noqa: E402
from mrkit.model.document import Chain, Document, Mention  # noqa: E402


TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "600"))
"""Seconds per reference-tool run before it is reported as a time-out (nan)."""


SMATCH_MAX_NODES = int(os.environ.get("BENCH_SMATCH_MAX_NODES", "200"))

MEMORY_GB = float(os.environ.get("BENCH_MEMORY_GB", "16"))
"""Address-space cap of each reference-tool run (doc-smatch grows past 24 GB on an
835-node document); a run that hits it fails cleanly instead of starving the machine."""


def _cap_memory() -> None:
    import resource

    limit = int(MEMORY_GB * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
"""Plain smatch has no sentence constraint: it takes a minute at 160 nodes, so larger
documents are skipped unless this is raised."""


def tool(name: str) -> str | None:
    return harness.reference_tool(name)


CHARACTERS = ("i", "prince", "fox", "rose", "flower", "king", "sheep", "geographer", "businessman",
              "lamplighter", "snake", "planet", "you")


def name_chains(sentences) -> list[Chain]:
    """Chains by name: named entities by their name string, and the characters of the
    book by the noun that names them (the narrator by ``i``); one mention per sentence."""
    by_name: dict[str, list[Mention]] = {}

    def add(key: str, k: int, var: str) -> None:
        ms = by_name.setdefault(key, [])
        if all(m.sentence != k for m in ms):
            ms.append(Mention(k, var))

    for k, g in enumerate(sentences):
        for e in g.edges:
            if e.label == "name":
                add(" ".join(p.value for p in g.nodes[e.target].properties), k, e.source)
        for v, n in g.nodes.items():
            if n.label in CHARACTERS:
                add(n.label, k, v)
    return [Chain(f"rel-{i}", ms) for i, ms in enumerate(m for m in by_name.values() if len(m) >= 2)]


def documents() -> list[Document]:
    s = DATA / "docamr" / "msamr-samples"
    docs = read_msamr(s / "pp_001.xml", s / "pp.amr.txt")
    bank = read_penman(DATA / "amr" / "little-prince" / "amr-bank-struct-v3.0.txt")
    for start, size in ((19, 50), (69, 100), (169, 100)):
        sents = bank[start:start + size]
        docs.append(Document(f"lpp-{start + 1}-{start + size}", sents, name_chains(sents)))
    return docs


def run(cmd: list[str], repeat: int = 1) -> tuple[float, str]:
    r = harness.run(cmd, repeat, TIMEOUT, preexec_fn=_cap_memory, quiet=True)
    if r.timed_out:
        return float("nan"), f"timeout after {TIMEOUT} s"
    if "MemoryError" in r.stderr:
        return float("nan"), f"out of memory (over {MEMORY_GB:g} GB)"
    return r.wall, r.output


def f1_of(text: str, pattern: str) -> float | None:
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole command; CPU is the child's user + sys time."""
    import resource
    import subprocess
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def target(doc_smatch: str | None, py: str | None, repeat: int, tmp: Path, env: dict) -> None:
    """Issue 14's docsmatch target: the 19-sentence document, interleaved runs."""
    import statistics

    doc = documents()[0]
    gold = tmp / f"{doc.id}.gold.amr"
    write_document_graphs([build(doc, "docamr")], gold)
    print(f"{'system':<10} | {'mrkit wall':>10} {'CPU':>6} | {'doc-smatch wall':>15} {'CPU':>6} | "
          f"{'wall ratio':>10} {'CPU ratio':>9}")
    for name, sys_graph in (("no-coref", no_coref(doc)), ("no-merge", build(doc, "no-merge")),
                            ("merge-all", build(doc, "merge-all"))):
        path = tmp / f"{doc.id}.{name}.amr"
        write_document_graphs([sys_graph], path)
        mine, theirs = [], []
        for _ in range(max(1, repeat)):
            mine.append(timed(harness.mrkit("docsmatch", str(gold), str(path)), env))
            if doc_smatch:
                theirs.append(timed([py, doc_smatch, "-f", str(path), str(gold), "--pr", "--coref-subscore",
                                     "--significant", "4"]))
        mw, mc = (statistics.median(x[k] for x in mine) for k in (0, 1))
        if theirs:
            tw, tc = (statistics.median(x[k] for x in theirs) for k in (0, 1))
            print(f"{name:<10} | {mw:>10.3f} {mc:>6.3f} | {tw:>15.3f} {tc:>6.3f} | {tw / mw:>9.1f}x {tc / mc:>8.1f}x",
                  flush=True)
        else:
            print(f"{name:<10} | {mw:>10.3f} {mc:>6.3f} | {'n/a':>15} {'':>6} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=None, help="runs per tool; the median is shown (default 1; 7 with --target)")
    ap.add_argument("--documents", type=int, default=0,
                    help="only the first N documents (default: all; 1 = the MS-AMR sample)")
    ap.add_argument("--target", action="store_true",
                    help="issue 14's target: the 19-sentence document, mrkit vs doc-smatch, wall and CPU medians")
    args = ap.parse_args()
    doc_smatch, smatch = tool("doc-smatch"), tool("smatch.py")
    py = os.environ.get("BENCH_PYTHON") or (str(Path(doc_smatch).parent / "python") if doc_smatch else None)
    tmp = Path(tempfile.mkdtemp(prefix="bench-docsmatch-"))
    env = harness.mrkit_env()
    if args.target:
        return target(doc_smatch, py, args.repeat or 7, tmp, env)
    args.repeat = args.repeat or 1
    print(f"{'document':<16}{'system':<10}{'nodes':>6} | {'mrkit s':>8}{'F1':>8}{'coref':>7}{'CoNLL':>7}{'cert':>5} | "
          f"{'doc-smatch s':>12}{'F1':>8}{'coref':>7} | {'smatch s':>9}{'F1':>8} | {'speed-up':>8}")
    for doc in documents()[:args.documents or None]:
        gold = tmp / f"{doc.id}.gold.amr"
        g = build(doc, "docamr")
        write_document_graphs([g], gold)
        for name, sys_graph in (("no-coref", no_coref(doc)), ("no-merge", build(doc, "no-merge")),
                                ("merge-all", build(doc, "merge-all"))):
            path = tmp / f"{doc.id}.{name}.amr"
            write_document_graphs([sys_graph], path)
            out = harness.run(harness.mrkit("docsmatch", str(gold), str(path)), args.repeat, env=env)
            tm = out.wall
            f1 = f1_of(out.stdout, r"Smatch: .*F1 ([0-9.]+)")
            cf = f1_of(out.stdout, r"Coreference: .*F1 ([0-9.]+)")
            # CoNLL-F1 of the chains, mentions matched through the alignment (no reference tool has it)
            cn = f1_of(out.stdout, r"Coreference chains .*CoNLL-F1 ([0-9.]+)")
            cert = "yes" if "1/1 pairs" in out.stdout else "no"
            row = (f"{doc.id:<16}{name:<10}{len(g.nodes):>6} | {tm:>8.2f}{f1:>8.4f}{cf:>7.3f}"
                   f"{cn if cn is not None else float('nan'):>7.3f}{cert:>5} | ")
            if doc_smatch:
                td, o = run([py, doc_smatch, "-f", str(path), str(gold), "--pr", "--coref-subscore", "--significant", "4"],
                            args.repeat)
                df = f1_of(o, r"F-score: ([0-9.]+)")
                dc = f1_of(o, r"Coref Score\s*Precision: [0-9.]+\s*Recall: [0-9.]+\s*F-score: ([0-9.]+)")
                row += f"{td:>12.2f}{df if df is not None else float('nan'):>8.4f}{dc if dc is not None else float('nan'):>7.3f} | "
            else:
                td = float("nan")
                row += f"{'n/a':>27} | "
            if smatch and len(g.nodes) > SMATCH_MAX_NODES:
                row += f"{'skipped':>17} | "
            elif smatch:
                ts, o = run([py, smatch, "-f", str(path), str(gold), "--significant", "4"], args.repeat)
                sf = f1_of(o, r"F-score: ([0-9.]+)")
                row += f"{ts:>9.2f}{sf if sf is not None else float('nan'):>8.4f} | "
            else:
                row += f"{'n/a':>17} | "
            row += f"{td / tm:>7.1f}x"
            print(row, flush=True)


if __name__ == "__main__":
    main()
