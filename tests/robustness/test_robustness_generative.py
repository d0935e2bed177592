"""Issue 12 acceptance: a generative robustness suite.

Mutations of the shared files (truncation, byte edits, line edits, wrong JSON types, deep
nesting, other encodings), drawn by hypothesis, go through every reader and every command
(smatch, score -m each metric, mrp, validate, convert, coref, hierarchy, docsmatch, docamr
build, compare), mostly in-process through ``mrkit.cli.main`` (plus a few subprocess runs).
What must hold for every run:

- never a traceback and never an internal error;
- exit status 2 with exactly one stderr line ``mrkit: ...`` naming an input file, and nothing
  written; or the command's own success status (0; 0 or 1 for ``validate``), where
  ``mrkit: warning: ...`` lines may precede;
- with ``--json`` and exit 0, stdout is JSON and every precision, recall, F1 and score in it
  lies in [0, 1];
- a second run gives the same bytes;
- no run takes more than ``HANG`` seconds.

``MRKIT_ROBUSTNESS_EXAMPLES`` sets the examples per command (default 10: CI);
``MRKIT_ROBUSTNESS_REPORT=FILE`` collects every failure instead of stopping at the first one,
and writes the table of what was tried (the long local run).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from conftest import SHARED, run_mrkit

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from mrkit.cli import main  # noqa: E402

D = Path(os.environ.get("MRKIT_SHARED_DATA", str(SHARED)))
pytestmark = pytest.mark.skipif(not D.is_dir(), reason="shared data not available")
EXAMPLES = int(os.environ.get("MRKIT_ROBUSTNESS_EXAMPLES", "10"))
REPORT = os.environ.get("MRKIT_ROBUSTNESS_REPORT")
HANG = float(os.environ.get("MRKIT_ROBUSTNESS_HANG", "30"))


# ---------------------------------------------------------------- seeds (small pieces of shared files)

def _blocks(path: Path, n: int) -> str:
    text = path.read_text(encoding="utf-8")
    parts = [b for b in text.split("\n\n") if b.strip()]
    return "\n\n".join(parts[:n]) + "\n"


def _lines(path: Path, n: int, pred=lambda ln: True) -> str:
    out = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and pred(ln)]
    return "\n".join(out[:n]) + "\n"


def _mrp_seed(frameworks=("amr", "dm", "eds", "psd", "ucca")) -> str:
    seen, out = set(), []
    for ln in (D / "mrp/score-fixtures/lpps.mrp").read_text(encoding="utf-8").splitlines():
        fw = json.loads(ln).get("framework")
        if fw in frameworks and fw not in seen:
            seen.add(fw)
            out.append(ln)
    return "\n".join(out) + "\n"


def seeds() -> dict[str, str]:
    return {
        "amr": (D / "amr/alt-metrics-handmade/a.amr").read_text(encoding="utf-8"),
        "amr2": (D / "amr/alt-metrics-handmade/b.amr").read_text(encoding="utf-8"),
        "mrp": _mrp_seed(),
        "mrp-amr": _mrp_seed(("amr",)),
        "mrp-sdp": _mrp_seed(("dm", "psd")),
        "mrp-eds": _mrp_seed(("eds",)),
        "conll": (D / "coref/reference-scorer-tests/TC-A.key").read_text(encoding="utf-8"),
        "corefjsonl": '{"doc_key": "d1", "clusters": [[[0, 1], [4, 4]], [[2, 2], [6, 7]]]}\n'
                      '{"doc_key": "d2", "clusters": [[[0, 0], [3, 5], [8, 8]]]}\n',
        "scico": (D / "coref/scico-handmade/gold.jsonl").read_text(encoding="utf-8"),
        "eds": _blocks(D / "mrp/wsj-sample/eds/wsj.eds", 2),
        "sdp": _blocks(D / "mrp/wsj-sample/dm/wsj.sdp", 2),
        "ucca": (D / "mrp/wsj-sample/ucca/xml/wsj_0001.1.xml").read_text(encoding="utf-8"),
        "msamr": (D / "docamr/msamr-samples/pp_001.xml").read_text(encoding="utf-8"),
        "clusters": (D / "robustness/clusters-valid.jsonl").read_text(encoding="utf-8"),
        "docamr": (D / "docamr/ibm-docamr-example/docamr_docAMR.out").read_text(encoding="utf-8"),
    }


SEEDS: dict[str, str] = {}


def seed(kind: str) -> str:
    if not SEEDS:
        SEEDS.update(seeds())
    return SEEDS[kind]


# ---------------------------------------------------------------- mutations

WRONG_VALUES = [None, True, -1, 0, 1.5, 10**6, "", "x", [], {}, [[1]], {"a": 1}, [None], "9" * 30]
MUTATIONS = ["truncate", "bytes", "lines", "json-type", "deep", "encoding", "empty"]


def _json_paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _json_paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _json_paths(v, path + (i,))


def _replace(obj, path, value):
    if not path:
        return value
    obj[path[0]] = _replace(obj[path[0]], path[1:], value)
    return obj


def _json_mutation(text: str, rnd: random.Random, deep: bool) -> str | None:
    lines = text.splitlines()
    idx = [i for i, ln in enumerate(lines) if ln.strip().startswith(("{", "["))]
    if not idx:
        return None
    i = rnd.choice(idx)
    try:
        obj = json.loads(lines[i])
    except ValueError:
        return None
    path = rnd.choice(list(_json_paths(obj)))
    if deep:
        n = rnd.choice([600, 5_000, 100_000])
        lines[i] = json.dumps(_replace(obj, path, "\x00DEEP\x00")).replace(
            '"\\u0000DEEP\\u0000"', "[" * n + "]" * n)
    else:
        lines[i] = json.dumps(_replace(obj, path, rnd.choice(WRONG_VALUES)))
    return "\n".join(lines) + "\n"


def _deep_text(text: str, kind: str, rnd: random.Random) -> str:
    n = rnd.choice([300, 2_000, 20_000])
    if kind in ("amr", "amr2", "docamr"):
        graph = "".join(f"(n{k} / c{k % 7} :ARG{k % 3} " for k in range(n)) + "(z / z)" + ")" * n
        return text + "\n" + graph + "\n"
    if kind in ("ucca", "msamr"):
        pos = text.rfind("</")
        return text[:pos] + "<x>" * n + "</x>" * n + text[pos:]
    if kind == "conll":
        return text.replace("(0", "(" * n + "0", 1)
    return text


def mutate(kind: str, kind_seed: str, how: str, r: int) -> bytes:
    rnd = random.Random(r)
    data = kind_seed.encode("utf-8")
    if how == "truncate":
        return data[:rnd.randrange(len(data) + 1)]
    if how == "bytes":
        b = bytearray(data)
        for _ in range(rnd.choice([1, 1, 2, 5, 20])):
            op, p = rnd.randrange(3), rnd.randrange(len(b) + 1)
            if op == 0 and p < len(b):
                b[p] = rnd.randrange(256)
            elif op == 1:
                b[p:p] = bytes([rnd.choice([rnd.randrange(256), *b"{}[]()\":,/0129 \n\t-."])])
            elif p < len(b):
                del b[p]
        return bytes(b)
    if how == "lines":
        lines = kind_seed.splitlines(keepends=True)
        for _ in range(rnd.choice([1, 2, 4])):
            if not lines:
                break
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            op = rnd.randrange(3)
            if op == 0:
                lines.insert(j, lines[i])
            elif op == 1:
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines).encode("utf-8")
    if how in ("json-type", "deep"):
        out = _json_mutation(kind_seed, rnd, deep=(how == "deep"))
        if out is None:
            out = _deep_text(kind_seed, kind, rnd) if how == "deep" else kind_seed
        return out.encode("utf-8")
    if how == "encoding":
        enc = rnd.choice(["utf-16", "utf-8-sig", "latin-1", "cp1252", "invalid"])
        if enc == "invalid":
            p = rnd.randrange(len(data) + 1)
            return data[:p] + b"\xff\xfe\xc3" + data[p:]
        text = kind_seed.replace("\u2019", "'") + "caf\u00e9\n" if enc in ("latin-1", "cp1252") else kind_seed
        return text.encode(enc, errors="replace")
    if how == "empty":
        return rnd.choice([b"", b"\n", b"   \n\n", b"\x00"])
    raise ValueError(how)


# ---------------------------------------------------------------- commands

# name -> (input kind of the mutated file MUT, argv template); G is the unmutated seed of that kind,
# S:kind an unmutated seed of another kind, OUT an output file in the run's folder.
COMMANDS = {
    "smatch": ("amr", ["smatch", "G", "MUT", "--json"]),
    "smatch-gold": ("amr", ["smatch", "MUT", "G", "--json", "--no-ilp"]),
    **{f"score-{m}": ("amr", ["score", "-m", m, "G", "MUT", "--json", *extra])
       for m, extra in [("smatch", []), ("sema", []), ("sembleu", []), ("s2match", ["--vectors", "none"]),
                        ("wlk", []), ("wwlk", ["--vectors", "none"]),
                        ("wwlk-k3e2n", ["--vectors", "none"]), ("simple", [])]},
    "mrp": ("mrp", ["mrp", "G", "MUT", "--json", "--no-ilp"]),
    "validate": ("mrp", ["validate", "MUT", "--json"]),
    "convert-mrp-amr": ("mrp-amr", ["convert", "MUT", "-", "--from", "mrp", "--to", "amr"]),
    "convert-mrp-sdp": ("mrp-sdp", ["convert", "MUT", "-", "--from", "mrp", "--to", "sdp"]),
    "convert-mrp-eds": ("mrp-eds", ["convert", "MUT", "-", "--from", "mrp", "--to", "eds"]),
    "convert-amr": ("amr", ["convert", "MUT", "-", "--from", "amr", "--to", "mrp"]),
    "convert-eds": ("eds", ["convert", "MUT", "-", "--from", "eds", "--to", "mrp"]),
    "convert-sdp": ("sdp", ["convert", "MUT", "-", "--from", "sdp", "--to", "mrp"]),
    "convert-ucca": ("ucca", ["convert", "MUT", "-", "--from", "ucca", "--to", "mrp"]),
    "coref-conll": ("conll", ["coref", "G", "MUT", "--json"]),
    "coref-jsonl": ("corefjsonl", ["coref", "G", "MUT", "--json", "--format", "jsonl"]),
    "coref-amr": ("msamr", ["coref", "G", "MUT", "--amr", "S:pp.amr", "S:pp.amr", "--json"]),
    "hierarchy": ("scico", ["hierarchy", "G", "MUT", "--json"]),
    "docsmatch": ("docamr", ["docsmatch", "G", "MUT", "--json", "--no-ilp"]),
    "docamr-build-xml": ("msamr", ["docamr", "build", "S:pp.amr", "--xml", "MUT", "-o", "OUT"]),
    "docamr-build-amr": ("amr", ["docamr", "build", "MUT", "--no-coref", "-o", "OUT"]),
    "docamr-build-clusters": ("clusters", ["docamr", "build", "S:doc_sen.amr", "--clusters", "MUT", "-o", "OUT"]),
    "compare": ("amr", ["compare", "G", "MUT", "S:amr2", "--metrics", "smatch,sembleu", "--samples", "20",
                        "--json", "--no-ilp"]),
}
OTHER = {"pp.amr": "docamr/msamr-samples/pp.amr.txt", "doc_sen.amr": "docamr/ibm-docamr-example/doc_sen.amr"}
SUFFIX = {"mrp-amr": ".mrp", "mrp-sdp": ".mrp", "mrp-eds": ".mrp", "amr": ".amr", "amr2": ".amr", "docamr": ".amr", "mrp": ".mrp", "conll": ".conll", "corefjsonl": ".jsonl",
          "scico": ".jsonl", "eds": ".eds", "sdp": ".sdp", "ucca": ".xml", "msamr": ".xml", "clusters": ".jsonl"}


class Hang(BaseException):
    """Raised by the alarm in a run that takes too long (not an Exception: main does not catch it)."""


def run_inprocess(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise Hang()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # argparse
                rc = exc.code if isinstance(exc.code, int) else 2
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue()


SCORE_KEYS = ("precision", "recall", "f1", "f_score", "fscore", "score", "macro_f1")


def bad_scores(obj, path="") -> list[str]:
    bad = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            key = str(k).lower()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and (
                    key in SCORE_KEYS or key in ("p", "r", "f") or key.endswith(("_f1", "_precision", "_recall"))):
                if not 0.0 <= v <= 1.0 or v != v:
                    bad.append(f"{path}/{k}={v}")
            bad += bad_scores(v, f"{path}/{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            bad += bad_scores(v, f"{path}/{i}")
    return bad


STATS = {"inputs": 0, "runs": 0, "tracebacks": 0, "internal errors": 0, "out of memory": 0, "hangs": 0,
         "invalid JSON": 0,
         "scores out of [0,1]": 0, "bad error lines": 0, "non-deterministic": 0}
FAILURES: list[dict] = []


def check(name: str, how: str, r: int, tmp: Path) -> None:
    kind, template = COMMANDS[name]
    data = mutate(kind, seed(kind), how, r)
    mut = tmp / f"mut{SUFFIX[kind]}"
    gold = tmp / f"gold{SUFFIX[kind]}"
    mut.write_bytes(data)
    gold.write_text(seed(kind), encoding="utf-8")
    out = tmp / "out.amr"
    if out.exists():
        out.unlink()
    argv = []
    for a in template:
        if a == "MUT":
            a = str(mut)
        elif a == "G":
            a = str(gold)
        elif a == "OUT":
            a = str(out)
        elif a.startswith("S:"):
            key = a[2:]
            if key in OTHER:
                a = str(D / OTHER[key])
            else:
                p = tmp / f"seed-{key}{SUFFIX[key]}"
                p.write_text(seed(key), encoding="utf-8")
                a = str(p)
        argv.append(a)
    STATS["inputs"] += 1
    problems = []

    def one_run():
        STATS["runs"] += 1
        start = time.monotonic()
        try:
            rc, so, se = run_inprocess(argv)
        except Hang:
            STATS["hangs"] += 1
            problems.append(f"hang (> {HANG:g} s)")
            return None
        written = out.read_bytes() if out.exists() else None
        return rc, so, se, written, time.monotonic() - start

    first = one_run()
    if first is not None:
        rc, so, se, written, _ = first
        lines = se.splitlines()
        errors = [ln for ln in lines if not ln.startswith("mrkit: warning: ")]
        if "Traceback" in se:
            STATS["tracebacks"] += 1
            problems.append("traceback")
        if "internal error" in se:
            STATS["internal errors"] += 1
            problems.append("internal error: " + next(ln for ln in lines if "internal error" in ln))
        if "out of memory" in se:
            STATS["out of memory"] += 1
            problems.append("out of memory: " + next(ln for ln in lines if "out of memory" in ln))
        ok_codes = (0, 1) if name == "validate" else (0,)
        if rc == 2:
            if (len(lines) != 1 or not lines[0].startswith("mrkit: ")
                    or not any(os.path.basename(p) in lines[0] for p in (mut, gold, *argv[1:]) if p)
                    or so or written is not None):
                STATS["bad error lines"] += 1
                problems.append(f"exit 2 but stderr {se[-400:]!r}, stdout {len(so)} chars, written {written is not None}")
        elif rc in ok_codes:
            if errors:
                STATS["bad error lines"] += 1
                problems.append(f"exit {rc} with stderr {se[-400:]!r}")
            if "--json" in argv and rc in (0, 1):
                try:
                    bad = bad_scores(json.loads(so))
                except ValueError:
                    STATS["invalid JSON"] += 1
                    problems.append(f"invalid JSON on stdout: {so[:200]!r}")
                    bad = []
                if bad:
                    STATS["scores out of [0,1]"] += 1
                    problems.append(f"scores out of [0, 1]: {bad[:5]}")
            second = one_run()
            if second is not None and (second[0], second[1], second[3]) != (rc, so, written):
                STATS["non-deterministic"] += 1
                problems.append("a second run gave different output")
        else:
            STATS["bad error lines"] += 1
            problems.append(f"exit status {rc}: {se[-400:]!r}")
    if problems:
        FAILURES.append({"command": name, "mutation": how, "seed": r, "argv": " ".join(argv[:1] + [
            os.path.basename(a) if a.startswith(str(tmp)) else a for a in argv[1:]]),
            "input": data[:300], "problems": problems})
        if not REPORT:
            pytest.fail(f"mrkit {' '.join(argv)}\nmutation {how} seed {r} of {kind}\ninput {data[:500]!r}\n"
                        + "\n".join(problems))


@pytest.mark.parametrize("name", list(COMMANDS))
def test_mutated_inputs(name, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(name)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(how=st.sampled_from(MUTATIONS), r=st.integers(0, 2**32 - 1))
    def prop(how, r):
        check(name, how, r, tmp)

    prop()


def test_zz_write_report():
    """With MRKIT_ROBUSTNESS_REPORT: the table of what the suite tried, and every failure."""
    if not REPORT:
        pytest.skip("MRKIT_ROBUSTNESS_REPORT not set")
    with open(REPORT, "w", encoding="utf-8") as fh:
        fh.write("| what | count |\n|---|---|\n")
        for k, v in STATS.items():
            fh.write(f"| {k} | {v} |\n")
        fh.write(f"| failing inputs | {len(FAILURES)} |\n\n")
        for f in FAILURES:
            fh.write(f"- {f['command']} / {f['mutation']} / seed {f['seed']}: mrkit {f['argv']}\n"
                     f"  input: {f['input']!r}\n  " + "\n  ".join(f["problems"]) + "\n")


# ---------------------------------------------------------------- a few real subprocess runs

@pytest.mark.parametrize("name,how,r", [("smatch", "deep", 1), ("mrp", "deep", 3), ("coref-jsonl", "deep", 5),
                                        ("convert-eds", "encoding", 7), ("validate", "json-type", 11),
                                        ("hierarchy", "truncate", 13)])
def test_subprocess_runs(name, how, r, tmp_path):
    kind, template = COMMANDS[name]
    mut = tmp_path / f"mut{SUFFIX[kind]}"
    mut.write_bytes(mutate(kind, seed(kind), how, r))
    gold = tmp_path / f"gold{SUFFIX[kind]}"
    gold.write_text(seed(kind), encoding="utf-8")
    argv = [str(mut) if a == "MUT" else str(gold) if a == "G" else a for a in template]
    proc = run_mrkit(*argv, timeout=120)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr[-2000:]
    if proc.returncode == 2:
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("mrkit: ")
        assert proc.stdout == ""
    else:
        assert proc.returncode in ((0, 1) if name == "validate" else (0,)), proc.stderr
        if "--json" in argv:
            json.loads(proc.stdout)
