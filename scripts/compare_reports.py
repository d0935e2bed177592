"""Compare the reports of two mrkit installations on every shared corpus.

    python scripts/compare_reports.py --before /path/to/old-venv/bin/python \\
        --after /path/to/venv/bin/python [--cache-before DIR] [--cases GLOB,...] [--json]

Every case of the table CASES below (each command of mrkit on the shared corpora in
../shared/data beside the project root, with its exact arguments) is run with both Python
executables as `PY -m mrkit ARGS` (in a fresh temporary folder, PYTHONHASHSEED=0).  JSON
reports are flattened to (path, number) leaves, e.g. `frameworks.eds.all.f` or
`per_pair[3].f1`, and matched leaf by leaf:

  equal     same path, same number
  renamed   the number moved to the key the renaming table RENAMES declares (e.g. `f1` ->
            `summary.f1`), same number
  moved     the number is found, unchanged, under another key that no rule declares
            (fallback: matched by identical value, the most similar path wins)
  changed   same (or declared) path, another number: both values are shown
  missing   in the before report only; extra: in the after report only

Outputs that are not JSON (convert, docamr build: the written file) are compared byte for
byte, and so are the exit status and stderr of every case; the bad-input cases (files of
robustness/) compare exit status, stdout and the one-line error.  Numbers in keys that hold
wall-clock time (IGNORE) are not compared.  The table lists the declared renames applied and
the undeclared moves as patterns (`graphs[i].all.f -> per_pair[i].all.f`), ready to become
rules.  When an option is renamed, give the after side its own arguments (4th item of a case).

Exit status: 0 when nothing changed except declared renames (extra leaves are allowed:
new keys such as `summary.macro_f1` add to the report; --strict forbids them too), 1 when
something changed, moved without a declared rule or went missing, 2 on bad usage.

--cache-before DIR keeps the before side's raw outputs (stdout, stderr, exit status,
written files) in DIR and reuses them on the next run, so the before installation is run
once (likewise --cache-after).  Without --after the script only fills the before cache.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"

# ---------------------------------------------------------------------------------------
# The cases.  {D} is the shared data folder, {out} a file in the case's own temporary
# folder.  kind: "json" (stdout is a JSON report), "file" (the file {out} is compared
# byte for byte) or "status" (bad input: stdout is compared as text).  An optional fourth item gives other arguments for the after side
# (when an option was renamed); None or absent: the same arguments.
# ---------------------------------------------------------------------------------------
LP = "{D}/amr/parseeval-little-prince"
ALT = "{D}/amr/alt-metrics-handmade"
ROB = "{D}/robustness"
MSAMR = "{D}/docamr/msamr-samples"
IBMLPP = "{D}/docamr/ibm-docamr-outputs-lpp/lpp_1-19.REP.amr"
SF = "{D}/mrp/score-fixtures"
WSJ = "{D}/mrp/wsj-sample"
SCORER = "{D}/coref/reference-scorer-tests"
COVAL = "{D}/coref/coval-tests"
SCICO = "{D}/coref/scico-handmade"
METRICS = ("smatch", "sema", "sembleu", "s2match", "wlk", "wwlk", "wwlk-k3e2n", "simple")
# metrics that need word vectors: score them without (the default vectors are an extra)
VECTORS = {"s2match": ["--vectors", "none"], "wwlk": ["--vectors", "none"],
           "wwlk-k3e2n": ["--vectors", "none"]}
# CoNLL-2012 reference scorer test cases: key TC-X.key against each TC-X-n.response
TC = ("A-1 A-2 A-3 A-4 A-5 A-6 A-7 A-8 A-9 A-10 A-11 A-12 A-13 B-1 C-1 D-1 E-1 F-1 G-1 H-1 "
      "I-1 J-1 K-1 L-1 M-1 M-2 M-3 M-4 M-5 M-6 N-1 N-2 N-3 N-4 N-5 N-6").split()
COVAL_SCENARIOS = ("boundary", "boundary_with_singletons", "correct_entities", "correct_links",
                   "extra_mention", "mention_identification", "merge", "split")

CASES: list[tuple] = [
    # --- smatch: every AMR corpus (gold vs parser, self-scores, pairs of different sentences)
    ("smatch/lp-t5", ["smatch", f"{LP}/gold.amr", f"{LP}/t5.amr", "--json", "--per-pair"], "json"),
    ("smatch/lp-bart", ["smatch", f"{LP}/gold.amr", f"{LP}/bart.amr", "--json", "--per-pair"], "json"),
    ("smatch/lp-t5-bootstrap", ["smatch", f"{LP}/gold.amr", f"{LP}/t5.amr", "--json",
                                "--bootstrap", "500"], "json"),
    ("smatch/lp-study-original", ["smatch", f"{LP}/original/qualitylp_abparser_src.test.amr",
                                  f"{LP}/original/qualitylp_abparser_tgt.test.amr", "--json"], "json"),
    ("smatch/lp-v3-self", ["smatch", "{D}/amr/little-prince/amr-bank-struct-v3.0.txt",
                           "{D}/amr/little-prince/amr-bank-struct-v3.0.txt", "--json"], "json"),
    ("smatch/lp-v16-test-self", ["smatch", "{D}/amr/little-prince/amr-bank-struct-v1.6-test.txt",
                                 "{D}/amr/little-prince/amr-bank-struct-v1.6-test.txt", "--json",
                                 "--per-pair"], "json"),
    ("smatch/bio-test-self", ["smatch", "{D}/amr/bio/amr-release-test-bio.txt",
                              "{D}/amr/bio/amr-release-test-bio.txt", "--json"], "json"),
    ("smatch/bio-v3-partial-self", ["smatch", "{D}/amr/bio/amr-release-bio-v3.0.PARTIAL-first-graphs.txt",
                                    "{D}/amr/bio/amr-release-bio-v3.0.PARTIAL-first-graphs.txt",
                                    "--json"], "json"),
    ("smatch/qald9-test-self", ["smatch", "{D}/amr/qald9/qald-9-amr-test.txt",
                                "{D}/amr/qald9/qald-9-amr-test.txt", "--json", "--per-pair"], "json"),
    ("smatch/bamboo-sts", ["smatch", "{D}/amr/bamboo/sts/main_src.test.amr",
                           "{D}/amr/bamboo/sts/main_tgt.test.amr", "--json"], "json"),
    ("smatch/bamboo-sick", ["smatch", "{D}/amr/bamboo/sick/main_src.test.amr",
                            "{D}/amr/bamboo/sick/main_tgt.test.amr", "--json"], "json"),
    ("smatch/alt-handmade", ["smatch", f"{ALT}/a.amr", f"{ALT}/b.amr", "--json", "--per-pair"], "json"),
    ("smatch/ilp-needed", ["smatch", f"{ROB}/ilp-needed.gold.amr", f"{ROB}/ilp-needed.sys.amr",
                           "--json", "--per-pair"], "json"),
    ("smatch/ilp", ["smatch", f"{ROB}/ilp_gold.amr", f"{ROB}/ilp_sys.amr", "--json", "--per-pair"], "json"),
    ("smatch/mrp-amr-fixture", ["smatch", f"{SF}/amr/233.gold.amr", f"{SF}/amr/233.system.amr",
                                "--json", "--per-pair"], "json"),
    # --- score: every metric on the parser study and the handmade oracle pairs
    *[(f"score/{m}/lp-t5", ["score", "-m", m, *VECTORS.get(m, []), f"{LP}/gold.amr", f"{LP}/t5.amr",
                            "--json", "--per-pair"], "json") for m in METRICS],
    *[(f"score/{m}/alt-handmade", ["score", "-m", m, *VECTORS.get(m, []), f"{ALT}/a.amr", f"{ALT}/b.amr",
                                   "--json", "--per-pair"], "json") for m in METRICS],
    ("score/sembleu-k2/lp-bart", ["score", "-m", "sembleu", "-k", "2", f"{LP}/gold.amr", f"{LP}/bart.amr",
                                  "--json"], "json"),
    ("score/wlk-e2n/lp-bart", ["score", "-m", "wlk", "--edge-to-node", f"{LP}/gold.amr", f"{LP}/bart.amr",
                               "--json"], "json"),
    ("score/s2match-cutoff/lp-bart", ["score", "-m", "s2match", "--vectors", "none", "--cutoff", "0.7",
                                      f"{LP}/gold.amr", f"{LP}/bart.amr", "--json"], "json"),
    ("score/sema/bamboo-sts", ["score", "-m", "sema", "{D}/amr/bamboo/sts/main_src.test.amr",
                               "{D}/amr/bamboo/sts/main_tgt.test.amr", "--json"], "json"),
    # --- compare: the Opitz & Frank 2022 study (BART vs T5 with human labels)
    ("compare/lp-study", ["compare", f"{LP}/gold.amr", f"{LP}/bart.amr", f"{LP}/t5.amr", "--human",
                          f"{LP}/original/qualitylp_LABEL.txt", "--metrics", "smatch,sema,sembleu,wlk,simple",
                          "--samples", "200", "--json", "--per-pair"], "json"),
    ("compare/lp-no-human", ["compare", f"{LP}/gold.amr", f"{LP}/bart.amr", f"{LP}/t5.amr",
                             "--metrics", "smatch,sembleu", "--samples", "200", "--json"], "json"),
    # --- mrp: real system outputs, the score fixtures, the WSJ sample against itself
    ("mrp/lpps-peking-eds", ["mrp", f"{SF}/lpps.mrp", f"{SF}/eds/lpps.peking.mrp", "--json",
                             "--per-graph"], "json"),
    ("mrp/wsj-pet-eds", ["mrp", f"{WSJ}/eds/wsj.mrp", f"{SF}/eds/wsj.pet.mrp", "--json", "--per-graph"], "json"),
    ("mrp/wsj-pet-eds-mrp-only", ["mrp", f"{WSJ}/eds/wsj.mrp", f"{SF}/eds/wsj.pet.mrp", "--json",
                                  "--mrp-only"], "json"),
    ("mrp/dm-empty", ["mrp", f"{SF}/dm/empty.gold.mrp", f"{SF}/dm/empty.peking.mrp", "--json",
                      "--per-graph"], "json"),
    ("mrp/psd-foxik", ["mrp", f"{SF}/psd/107480.gold.mrp", f"{SF}/psd/107480.foxik.mrp", "--json",
                       "--per-graph"], "json"),
    *[(f"mrp/ucca-{n}", ["mrp", f"{SF}/ucca/{n}.gold.mrp", f"{SF}/ucca/{n}.tupa.mrp", "--json",
                         "--per-graph"], "json") for n in ("anchors", "small", "test")],
    ("mrp/amr-partial", ["mrp", f"{SF}/amr/partial.gold.mrp", f"{SF}/amr/partial.system.mrp", "--json",
                         "--per-graph"], "json"),
    ("mrp/amr-test1-test2", ["mrp", f"{SF}/amr/test1.mrp", f"{SF}/amr/test2.mrp", "--json"], "json"),
    *[(f"mrp/wsj-{fw}-self", ["mrp", f"{WSJ}/{fw}/wsj.mrp", f"{WSJ}/{fw}/wsj.mrp", "--json"], "json")
      for fw in ("dm", "psd", "eds", "ucca", "amr")],
    ("mrp/lpps-self-eds", ["mrp", f"{SF}/lpps.mrp", f"{SF}/lpps.mrp", "--framework", "eds", "--json"], "json"),
    # --- validate
    ("validate/eds-invalid", ["validate", "{D}/mrp/validate/eds.wsj.invalid.mrp", "--json"], "json"),
    *[(f"validate/wsj-{fw}", ["validate", f"{WSJ}/{fw}/wsj.mrp", "--json"], "json")
      for fw in ("dm", "psd", "eds", "ucca", "amr")],
    ("validate/lpps", ["validate", f"{SF}/lpps.mrp", "--json"], "json"),
    *[(f"validate/tupa-{n}", ["validate", f"{{D}}/mrp/tupa-test-files/{n}.mrp", "--json"], "json")
      for n in ("input", "output", "isi", "jamr", "udpipe")],
    # --- convert (the written file, byte for byte)
    ("convert/wsj-dm-sdp", ["convert", f"{WSJ}/dm/wsj.sdp", "{out}", "--text", f"{WSJ}/wsj.txt"], "file"),
    ("convert/wsj-psd-sdp", ["convert", f"{WSJ}/psd/wsj.sdp", "{out}", "--text", f"{WSJ}/wsj.txt",
                             "--framework", "psd"], "file"),
    ("convert/wsj-eds", ["convert", f"{WSJ}/eds/wsj.eds", "{out}", "--text", f"{WSJ}/wsj.txt"], "file"),
    ("convert/wsj-ucca-xml", ["convert", f"{WSJ}/ucca/xml", "{out}", "--from", "ucca", "--text",
                              f"{WSJ}/wsj.txt"], "file"),
    ("convert/wsj-amr", ["convert", f"{WSJ}/amr/wsj.amr", "{out}", "--text", f"{WSJ}/wsj.txt"], "file"),
    ("convert/wsj-mrp-to-amr", ["convert", f"{WSJ}/amr/wsj.mrp", "{out}", "--to", "amr"], "file"),
    ("convert/wsj-mrp-to-sdp", ["convert", f"{WSJ}/dm/wsj.mrp", "{out}", "--to", "sdp"], "file"),
    ("convert/wsj-mrp-to-eds", ["convert", f"{WSJ}/eds/wsj.mrp", "{out}", "--to", "eds"], "file"),
    ("convert/lpp-ucca-xml", ["convert", "{D}/mrp/ucca-english-lpp/xml", "{out}", "--from", "ucca"], "file"),
    ("convert/peking-sdp", ["convert", f"{SF}/dm/peking.wsj.sdp", "{out}"], "file"),
    ("convert/pet-eds", ["convert", f"{SF}/eds/wsj.pet.eds", "{out}"], "file"),
    ("convert/lp-amr-to-mrp", ["convert", f"{LP}/gold.amr", "{out}"], "file"),
    # --- docamr build (the written file, byte for byte)
    *[(f"docamr-build/lpp-{rep}", ["docamr", "build", f"{MSAMR}/pp.amr.txt", "--xml", f"{MSAMR}/pp_001.xml",
                                   "-r", rep, "-o", "{out}"], "file")
      for rep in ("no-merge", "merge-ne", "docamr", "merge-all")],
    ("docamr-build/lpp-no-coref", ["docamr", "build", f"{MSAMR}/pp.amr.txt", "--no-coref", "-o", "{out}"], "file"),
    ("docamr-build/welsh", ["docamr", "build", f"{MSAMR}/welsh.amr.txt", "--xml", f"{MSAMR}/wikipedia.welsh.xml",
                            "-o", "{out}"], "file"),
    ("docamr-build/shakespeare", ["docamr", "build", f"{MSAMR}/shakespeare.amr.txt", "--xml",
                                  f"{MSAMR}/wikipedia.shakespeare.xml", "-o", "{out}"], "file"),
    ("docamr-build/ibm-example-clusters", ["docamr", "build", "{D}/docamr/ibm-docamr-example/doc_sen.amr",
                                           "--clusters", f"{ROB}/clusters-valid.jsonl", "-o", "{out}"], "file"),
    # --- docsmatch: IBM's document graphs of the Little Prince sample, the metamorphosed files
    *[(f"docsmatch/lpp-docAMR-vs-{rep}", ["docsmatch", IBMLPP.replace("REP", "docAMR"), IBMLPP.replace("REP", rep),
                                          "--json", "--per-pair"], "json")
      for rep in ("merge-names", "no-merge", "merge-all", "nocoref", "docAMR")],
    ("docsmatch/ibm-example", ["docsmatch", "{D}/docamr/ibm-docamr-example/docamr_docAMR.out",
                               "{D}/docamr/ibm-docamr-example/docamr_docAMR.out", "--json"], "json"),
    ("docsmatch/comptest", ["docsmatch", f"{MSAMR}/comptest_gold.txt", f"{MSAMR}/comptest_sys.txt",
                            "--json", "--per-pair"], "json"),
    # --- coref: the reference scorer's test cases, coval's scenarios, SciCo as CoNLL, over AMR
    *[(f"coref/scorer-TC-{tc}", ["coref", f"{SCORER}/TC-{tc.split('-')[0]}.key", f"{SCORER}/TC-{tc}.response",
                                 "--json"], "json") for tc in TC],
    ("coref/scorer-TC-A-1-no-singletons", ["coref", f"{SCORER}/TC-A.key", f"{SCORER}/TC-A-1.response",
                                           "--json", "--remove-singletons"], "json"),
    *[(f"coref/coval-{s}", ["coref", f"{COVAL}/{s}/key", f"{COVAL}/{s}/{{first}}", "--json"], "json")
      for s in COVAL_SCENARIOS],
    ("coref/scico-conll", ["coref", f"{SCICO}/gold_simple.conll", f"{SCICO}/system_simple.conll", "--json",
                           "--per-document"], "json"),
    ("coref/scico-conll-macro", ["coref", f"{SCICO}/gold_simple.conll", f"{SCICO}/system_simple.conll",
                                 "--json", "--macro", "--remove-singletons"], "json"),
    ("coref/amr-lpp-self", ["coref", f"{MSAMR}/pp_001.xml", f"{MSAMR}/pp_001.xml", "--amr",
                            f"{MSAMR}/pp.amr.txt", f"{MSAMR}/pp.amr.txt", "--json"], "json"),
    ("coref/amr-welsh-self", ["coref", f"{MSAMR}/wikipedia.welsh.xml", f"{MSAMR}/wikipedia.welsh.xml", "--amr",
                              f"{MSAMR}/welsh.amr.txt", f"{MSAMR}/welsh.amr.txt", "--json"], "json"),
    # --- hierarchy: SciCo handmade topics
    ("hierarchy/scico", ["hierarchy", f"{SCICO}/gold.jsonl", f"{SCICO}/system.jsonl", "--json",
                         "--per-topic"], "json"),
    ("hierarchy/scico-keep-singletons-tn", ["hierarchy", f"{SCICO}/gold.jsonl", f"{SCICO}/system.jsonl",
                                            "--json", "--keep-singletons", "--with-tn"], "json"),
    ("hierarchy/scico-self", ["hierarchy", f"{SCICO}/gold.jsonl", f"{SCICO}/gold.jsonl", "--json"], "json"),
    # --- bad input (robustness/): exit status, stdout and the one-line error on stderr
    *[(f"error/{cmd[0]}-{Path(f).stem}", [*cmd, *([f"{ROB}/{f}"] * n), *rest], "status") for cmd, f, n, rest in (
        (["smatch"], "penman-role-without-value.amr", 2, []),
        (["score", "-m", "s2match", "--vectors", "none"], "penman-concept-less-node.amr", 2, []),
        (["docsmatch"], "docsmatch-dup-snt.amr", 2, ["--json"]),
        (["mrp"], "mrp-deep-json.mrp", 2, []),
        (["mrp"], "mrp-framework-not-string.mrp", 2, []),
        (["validate"], "mrp-framework-list.mrp", 1, ["--json"]),
        (["coref"], "coref-redos-field.conll", 2, []),
        (["coref"], "coref-jsonl-float-span.jsonl", 2, []),
        (["hierarchy"], "sc-rel-cycle.jsonl", 2, []),
        (["hierarchy"], "scico-relation-to-missing-cluster.jsonl", 2, []),
        (["convert", "--from", "eds"], "eds-invalid-utf8.eds", 1, ["{out}"]),
        (["convert", "--from", "ucca"], "ucca-terminal-without-id.xml", 1, ["{out}"]),
        (["docamr", "build", f"{MSAMR}/pp.amr.txt", "--chains"], "chains-invalid-utf8.json", 1, ["-o", "{out}"]),
    )],
]

# ---------------------------------------------------------------------------------------
# Declared renamings: (case glob, before-path regex, after-path template).  The pipeline
# work moves every command's headline to `summary.*` (issue 13); a rule applies when the
# before report has the path, and is satisfied when the after report has the renamed path
# with the same number.  Extend this table at merge time with the moves the report lists.
# ---------------------------------------------------------------------------------------
RENAMES: list[tuple[str, str, str]] = [
    ("smatch/*", r"^(pairs|precision|recall|f1|macro_f1|certified|certified_share)$", r"summary.\1"),
    ("score/*", r"^(pairs|precision|recall|f1|macro_f1|certified|certified_share)$", r"summary.\1"),
    ("score/*", r"^corpus$", r"summary.f1"),
    ("score/*", r"^macro$", r"summary.macro_f1"),
    ("score/*", r"^details\.(precision|recall)$", r"summary.\1"),
    ("score/*", r"^per_pair\[(\d+)\]$", r"per_pair[\1].f1"),     # a list of scores became records
    ("docsmatch/*", r"^(pairs|certified|certified_share)$", r"summary.\1"),
    ("docsmatch/*", r"^overall\.(precision|recall|f1)$", r"summary.\1"),
    ("mrp/*", r"^overall\.n$", r"summary.pairs"),
    ("mrp/*", r"^overall\.all\.p$", r"summary.precision"),
    ("mrp/*", r"^overall\.all\.r$", r"summary.recall"),
    ("mrp/*", r"^overall\.all\.f$", r"summary.f1"),
    ("mrp/*", r"^overall\.certified$", r"summary.certified"),
    ("mrp/*", r"^graphs\[(\d+)\]\.(.*)$", r"per_pair[\1].\2"),  # per-graph records: per_pair
    ("coref/*", r"^documents$", r"summary.pairs"),
    ("coref/*", r"^scores\.conll\.(precision|recall|f1)$", r"summary.\1"),
    ("hierarchy/*", r"^topics$", r"summary.pairs"),
    ("hierarchy/*", r"^hierarchy\.(precision|recall|f1|macro_f1)$", r"summary.\1"),
]

# Leaves that hold wall-clock time or other run-dependent numbers: never compared.
IGNORE = [r"(^|\.)(seconds|elapsed|wall|time|runtime)(\[\d+\])?$", r"(^|\.)[a-z_]*_seconds$"]


# --------------------------------------------------------------------------- running
def expand(args: list[str], out: str) -> list[str]:
    res = []
    for a in args:
        a = a.replace("{D}", str(DATA)).replace("{out}", out)
        if "{first}" in a:  # the first response file of a coval scenario folder
            folder = Path(a).parent
            first = sorted(p.name for p in folder.iterdir() if p.name != "key")[0]
            a = str(folder / first)
        res.append(a)
    return res


def case_key(case: tuple, after: bool) -> str:
    args = case[3] if after and len(case) > 3 and case[3] is not None else case[1]
    return hashlib.sha256(json.dumps([args, case[2]]).encode()).hexdigest()[:16]


def run_case(py: str, case: tuple, after: bool, timeout: float) -> dict:
    name, args, kind = case[:3]
    if after and len(case) > 3 and case[3] is not None:
        args = case[3]
    with tempfile.TemporaryDirectory(prefix="mrkit-compare-") as tmp:
        out = str(Path(tmp) / ("out.amr" if args[0] == "docamr" else "out.mrp"))
        if args[0] == "convert" and "--to" in args:
            out = str(Path(tmp) / ("out." + args[args.index("--to") + 1]))
        argv = [py, "-m", "mrkit", *expand(args, out)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        env.pop("PYTHONPATH", None)
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(argv, capture_output=True, cwd=tmp, env=env, timeout=timeout)
            rc, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired:
            rc, stdout, stderr = "timeout", b"", b""
        wall = time.perf_counter() - t0
        written = Path(out).read_bytes() if kind == "file" and Path(out).exists() else None
    def text(b: bytes) -> str:  # the temporary folder differs from run to run
        return b.decode("utf-8", "replace").replace(tmp, "{tmp}")

    return {"name": name, "key": case_key(case, after), "argv": argv[1:], "rc": rc, "wall": round(wall, 2),
            "stdout": text(stdout), "stderr": text(stderr),
            "file": None if written is None else written.decode("utf-8", "surrogateescape"),
            "file_sha256": None if written is None else hashlib.sha256(written).hexdigest()}


def cache_path(folder: Path, name: str) -> Path:
    return folder / (name.replace("/", "__") + ".json")


def run_side(py: str | None, cases: list[tuple], after: bool, cache: Path | None, timeout: float,
             jobs: int, label: str) -> dict[str, dict]:
    results: dict[str, dict] = {}
    todo = []
    for case in cases:
        if cache is not None and cache_path(cache, case[0]).exists():
            got = json.loads(cache_path(cache, case[0]).read_text(encoding="utf-8"))
            if got.get("key") == case_key(case, after):
                results[case[0]] = got
                continue
        todo.append(case)
    if todo and py is None:
        raise SystemExit(f"compare_reports: no --{label} Python and {len(todo)} case(s) not in its cache, "
                         f"e.g. {todo[0][0]}")
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)

    def one(case):
        res = run_case(py, case, after, timeout)
        sys.stderr.write(f"[{label}] {case[0]}: exit {res['rc']}, {res['wall']:.1f} s\n")
        if cache is not None:
            cache_path(cache, case[0]).write_text(json.dumps(res, indent=1), encoding="utf-8")
        return res

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for res in pool.map(one, todo):
            results[res["name"]] = res
    return results


# --------------------------------------------------------------------------- comparing
def flatten(obj, prefix: str = "", strings: bool = False) -> dict[str, object]:
    """(path, leaf) pairs of a JSON value: numbers and booleans (and strings when asked)."""
    out: dict[str, object] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k), strings))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(flatten(v, f"{prefix}[{i}]", strings))
    elif isinstance(obj, bool) or isinstance(obj, (int, float)) or obj is None:
        out[prefix] = obj
    elif strings and isinstance(obj, str):
        out[prefix] = obj
    return out


def same(a, b, tol: float) -> bool:
    num_a = isinstance(a, (int, float)) and not isinstance(a, bool)
    num_b = isinstance(b, (int, float)) and not isinstance(b, bool)
    if not (num_a and num_b):
        return type(a) is type(b) and a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b if tol == 0 else abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def value_key(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return (type(v).__name__, v)
    return ("num", float(v))


def parts(path: str) -> list[str]:
    return re.findall(r"[^.\[\]]+|\[\d+\]", path)


def similarity(a: str, b: str) -> tuple[int, int]:
    """Shared trailing path components, then shared components anywhere: higher is closer."""
    pa, pb = parts(a), parts(b)
    n = 0
    while n < min(len(pa), len(pb)) and pa[-1 - n] == pb[-1 - n]:
        n += 1
    return n, len(set(pa) & set(pb))


def compare_leaves(name: str, before: dict, after: dict, tol: float) -> dict:
    ignored = [re.compile(p) for p in IGNORE]
    before = {p: v for p, v in before.items() if not any(r.search(p) for r in ignored)}
    after = {p: v for p, v in after.items() if not any(r.search(p) for r in ignored)}
    rules = [(re.compile(rx), tpl) for glob, rx, tpl in RENAMES if fnmatch.fnmatchcase(name, glob)]
    used: set[str] = set()
    res = {"equal": 0, "renamed": [], "moved": [], "changed": [], "missing": [], "extra": []}
    pending = []
    for path, v in before.items():
        if path in after and same(v, after[path], tol):
            used.add(path)
            res["equal"] += 1
            continue
        targets = [rx.sub(tpl, path) for rx, tpl in rules if rx.search(path)]
        targets = [t for t in targets if t in after and t not in used]
        hit = next((t for t in targets if same(v, after[t], tol)), None)
        if hit is not None:
            used.add(hit)
            res["renamed"].append((path, hit, v))
            continue
        other = path if path in after else (targets[0] if targets else None)
        if other is not None:
            used.add(other)
            res["changed"].append((path, other, v, after[other]))
            continue
        pending.append((path, v))
    # fallback: an unmatched before leaf found by its value under another key; candidates
    # sharing the longest path tail are tried first (per_graph[3].all.f -> per_pair[3].all.f)
    index: dict[tuple, list[str]] = {}
    for path, v in after.items():
        if path not in used:
            ps = parts(path)
            for k in range(min(4, len(ps)), -1, -1):
                index.setdefault((value_key(v), tuple(ps[len(ps) - k:]) if k else ()), []).append(path)
    for path, v in pending:
        ps = parts(path)
        best = None
        for k in range(min(4, len(ps)), -1, -1):
            cands = [c for c in index.get((value_key(v), tuple(ps[len(ps) - k:]) if k else ()), [])[:2000]
                     if c not in used]
            if cands:
                best = max(cands, key=lambda c: (similarity(path, c), -len(c)))
                break
        if best is None:
            res["missing"].append((path, v))
            continue
        used.add(best)
        res["moved"].append((path, best, v))
    res["extra"] = [(p, v) for p, v in after.items() if p not in used]
    return res


_SHARED = re.compile(r"[^\s'\"]*/shared/data")


def _unplaced(text: str) -> str:
    """Output with the shared data folder's location masked: the two sides may have been
    run from different checkouts (e.g. a worktree whose ../shared is a link)."""
    return _SHARED.sub("{D}", text)


def compare_case(name: str, kind: str, b: dict, a: dict, tol: float, strings: bool) -> dict:
    b = {**b, "stderr": _unplaced(b["stderr"]), "stdout": _unplaced(b["stdout"])}
    a = {**a, "stderr": _unplaced(a["stderr"]), "stdout": _unplaced(a["stdout"])}
    out: dict = {"case": name, "kind": kind, "before_exit": b["rc"], "after_exit": a["rc"],
                 "before_wall": b.get("wall"), "after_wall": a.get("wall"), "problems": []}
    if b["rc"] != a["rc"]:
        out["problems"].append(f"exit status {b['rc']} -> {a['rc']}")
    if b["stderr"] != a["stderr"]:
        out["problems"].append("stderr differs: " + repr(b["stderr"][-200:]) + " -> " + repr(a["stderr"][-200:]))
    if kind == "status":
        if b["stdout"] != a["stdout"]:
            out["problems"].append("stdout differs: " + repr(b["stdout"][-200:]) + " -> " + repr(a["stdout"][-200:]))
        out["leaves"] = None
        return out
    if kind == "file":
        if b["file_sha256"] != a["file_sha256"]:
            out["problems"].append(diff_summary(b["file"], a["file"]))
        out["leaves"] = None
        return out
    try:
        jb = json.loads(b["stdout"]) if b["stdout"].strip() else None
    except ValueError:
        jb = "invalid"
    try:
        ja = json.loads(a["stdout"]) if a["stdout"].strip() else None
    except ValueError:
        ja = "invalid"
    if jb == "invalid" or ja == "invalid":
        if b["stdout"] != a["stdout"]:
            out["problems"].append(f"stdout not JSON (before {'not ' if jb == 'invalid' else ''}JSON, "
                                   f"after {'not ' if ja == 'invalid' else ''}JSON) and differs")
        out["leaves"] = None
        return out
    out["leaves"] = compare_leaves(name, flatten(jb, strings=strings), flatten(ja, strings=strings), tol)
    return out


def diff_summary(x: str | None, y: str | None) -> str:
    if x is None or y is None:
        return f"written file: {'absent' if x is None else 'present'} -> {'absent' if y is None else 'present'}"
    lx, ly = x.splitlines(), y.splitlines()
    for i, (p, q) in enumerate(zip(lx, ly)):
        if p != q:
            return f"written file differs from line {i + 1}: {p[:80]!r} -> {q[:80]!r}"
    return f"written file differs: {len(lx)} -> {len(ly)} lines"


def verdict(c: dict, strict: bool) -> str:
    lv = c.get("leaves")
    if c["problems"] or (lv and (lv["changed"] or lv["missing"] or lv["moved"])) or (strict and lv and lv["extra"]):
        if lv and not c["problems"] and not lv["changed"] and not lv["missing"] and not (strict and lv["extra"]):
            return "MOVED"
        return "CHANGED"
    if lv and lv["renamed"]:
        return "renamed"
    return "same"


def fmt(v) -> str:
    return json.dumps(v) if not isinstance(v, float) else repr(v)


def print_report(results: list[dict], strict: bool, limit: int) -> None:
    head = ("case", "verdict", "equal", "renamed", "moved", "changed", "missing", "extra", "exit", "wall s")
    rows = []
    for c in results:
        lv = c.get("leaves")
        n = (lambda k: str(len(lv[k])) if lv else "-")
        rows.append((c["case"], c["verdict"], str(lv["equal"]) if lv else "-", n("renamed"), n("moved"),
                     n("changed"), n("missing"), n("extra"),
                     f"{c['before_exit']}" if c["before_exit"] == c["after_exit"]
                     else f"{c['before_exit']}->{c['after_exit']}",
                     f"{c['before_wall']}/{c['after_wall']}"))
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(len(head))]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(x.ljust(w) for x, w in zip(r, widths)))
    for kind, title in (("renamed", "declared renames applied"),
                        ("moved", "UNDECLARED moves (found by value; add a rule to RENAMES if intended)")):
        seen: dict[tuple[str, str], int] = {}
        for c in results:
            for p, t, _ in (c.get("leaves") or {}).get(kind, []):
                key = (re.sub(r"\[\d+\]", "[i]", p), re.sub(r"\[\d+\]", "[i]", t))
                seen[key] = seen.get(key, 0) + 1
        if seen:
            print(f"\n{title} (before -> after: leaves)")
            for (p, t), k in sorted(seen.items()):
                print(f"  {p} -> {t}: {k}")
    for c in results:
        lv = c.get("leaves") or {}
        lines = [f"  {p}" for p in c["problems"]]
        lines += [f"  changed {p}" + (f" (-> {t})" if t != p else "") + f": {fmt(x)} -> {fmt(y)}"
                  for p, t, x, y in lv.get("changed", [])]
        lines += [f"  moved   {p} -> {t} (= {fmt(v)}; undeclared)" for p, t, v in lv.get("moved", [])]
        lines += [f"  missing {p} (= {fmt(v)})" for p, v in lv.get("missing", [])]
        if strict:
            lines += [f"  extra   {p} (= {fmt(v)})" for p, v in lv.get("extra", [])]
        if lines:
            print(f"\n{c['case']}: {c['verdict']}")
            for ln in lines[:limit]:
                print(ln)
            if len(lines) > limit:
                print(f"  ... and {len(lines) - limit} more (--limit)")
    counts: dict[str, int] = {}
    for c in results:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    print("\n" + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + f" ({len(results)} cases)")


def select(patterns: str | None) -> list[tuple]:
    if not patterns:
        return list(CASES)
    pats = patterns.split(",")
    chosen = [c for c in CASES if any(fnmatch.fnmatchcase(c[0], p) or c[0].startswith(p + "/") for p in pats)]
    if not chosen:
        raise SystemExit(f"compare_reports: no case matches {patterns!r} (--list shows them)")
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", metavar="PY", help="Python executable of the before installation")
    ap.add_argument("--after", metavar="PY", help="Python executable of the after installation")
    ap.add_argument("--cache-before", metavar="DIR", type=Path, help="keep/reuse the before side's outputs here")
    ap.add_argument("--cache-after", metavar="DIR", type=Path, help="keep/reuse the after side's outputs here")
    ap.add_argument("--cases", metavar="GLOBS", help="comma-separated case names or globs (e.g. 'smatch/*,mrp')")
    ap.add_argument("--list", action="store_true", help="print the cases with their arguments and exit")
    ap.add_argument("--json", action="store_true", help="print the comparison as JSON")
    ap.add_argument("--strict", action="store_true", help="extra leaves in the after report count as changes")
    ap.add_argument("--strings", action="store_true", help="compare string leaves too")
    ap.add_argument("--tolerance", type=float, default=0.0,
                    help="relative tolerance for numbers (default 0: exactly equal)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per case (default 900)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run at once (default 1)")
    ap.add_argument("--limit", type=int, default=20, help="detail lines per case in the table (default 20)")
    args = ap.parse_args(argv)
    cases = select(args.cases)
    if args.list:
        for c in cases:
            extra = f"   (after: {' '.join(c[3])})" if len(c) > 3 and c[3] else ""
            print(f"{c[0]:40s} [{c[2]}] mrkit {' '.join(c[1])}{extra}")
        return 0
    if not DATA.exists():
        print(f"compare_reports: shared data not found at {DATA}", file=sys.stderr)
        return 2
    if args.before is None and args.cache_before is None:
        ap.error("give --before PY and/or --cache-before DIR")
    for py in (args.before, args.after):
        if py is not None and shutil.which(py) is None:
            ap.error(f"not an executable: {py}")
    before = run_side(args.before, cases, False, args.cache_before, args.timeout, args.jobs, "before")
    if args.after is None and args.cache_after is None:
        print(f"before side: {len(before)} cases" + (f" in {args.cache_before}" if args.cache_before else ""))
        return 0
    after = run_side(args.after, cases, True, args.cache_after, args.timeout, args.jobs, "after")
    results = []
    for case in cases:
        c = compare_case(case[0], case[2], before[case[0]], after[case[0]], args.tolerance, args.strings)
        c["verdict"] = verdict(c, args.strict)
        results.append(c)
    if args.json:
        json.dump({"before": args.before, "after": args.after, "cases": results}, sys.stdout, indent=1)
        print()
    else:
        print_report(results, args.strict, args.limit)
    return 0 if all(c["verdict"] in ("same", "renamed") for c in results) else 1


if __name__ == "__main__":
    sys.exit(main())
