"""Issue 12 acceptance: every file of ../shared/data/robustness/ with the command(s) its
README.md gives, and what must happen: a correct result, or exactly one stderr line
``mrkit: ...`` naming the file, exit status 2, no traceback, nothing written, quickly.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SHARED

# MRKIT_SHARED_DATA: the shared data folder when this checkout is not beside it (a worktree)
D = Path(os.environ.get("MRKIT_SHARED_DATA", str(SHARED)))
R = D / "robustness"
pytestmark = pytest.mark.skipif(not R.is_dir(), reason="shared robustness data not available")

OK, ERROR, EITHER = "ok", "error", "either"



# (id, argv with R/.. paths, expectation, extra check or None, time limit in s, marks)
# argv: "R:name" is a robustness file, "D:path" a shared data file, "OUT.ext" the output.
CASES = [
    ("docsmatch-dup-snt", ["docsmatch", "R:docsmatch-dup-snt.amr", "R:docsmatch-dup-snt.amr", "--json"],
     EITHER, "f1==1", 30, []),
    ("ilp-needed-smatch", ["smatch", "R:ilp-needed.gold.amr", "R:ilp-needed.sys.amr", "--json"], OK, "json", 30, []),
    ("ilp-needed-docsmatch", ["docsmatch", "R:ilp-needed.gold.amr", "R:ilp-needed.sys.amr", "--json"],
     OK, "json", 30, []),
    ("ilp-needed-s2match", ["score", "-m", "s2match", "R:ilp-needed.gold.amr", "R:ilp-needed.sys.amr", "--json"],
     OK, "json", 30, []),
    ("ilp_gold-smatch", ["smatch", "R:ilp_gold.amr", "R:ilp_sys.amr", "--json"], OK, "json", 30, []),
    ("ilp_gold-docsmatch", ["docsmatch", "R:ilp_gold.amr", "R:ilp_sys.amr", "--json"], OK, "json", 30, []),
    ("ilp_gold-s2match", ["score", "-m", "s2match", "R:ilp_gold.amr", "R:ilp_sys.amr", "--json"], OK, "json", 30, []),
    ("anchor-huge-mrp", ["mrp", "R:mrp-anchor-huge-no-input.mrp", "R:mrp-anchor-huge-no-input.mrp", "--json"],
     EITHER, "json", 20, []),
    ("anchor-huge-validate", ["validate", "R:mrp-anchor-huge-no-input.mrp"], "findings", None, 30, []),
    ("clusters-huge-range", ["docamr", "build", "R:clusters-aligned-amr-huge-range.amr",
                             "--clusters", "R:clusters-valid.jsonl", "-o", "OUT.amr"], ERROR, "line",20,
     []),
    ("coref-redos", ["coref", "R:coref-redos-field.conll", "R:coref-redos-field.conll"], ERROR, None, 10,
     []),
    ("mrp-500-time-limit", ["mrp", "R:mrp-500-same-label.gold.mrp", "R:mrp-500-same-label.sys.mrp",
                            "--time-limit", "2", "--json"], OK, "json", 20, []),
    ("scico-3000-chain", ["hierarchy", "R:scico-3000-cluster-chain.jsonl", "R:scico-3000-cluster-chain.jsonl"],
     OK, None, 20, []),
    ("20000-attributes-wlk", ["score", "-m", "wlk", "R:penman-one-node-20000-attributes.amr",
                              "R:penman-one-node-20000-attributes.amr", "--json"], OK, "json", 20, []),
    ("20000-attributes-wwlk", ["score", "-m", "wwlk", "R:penman-one-node-20000-attributes.amr",
                               "R:penman-one-node-20000-attributes.amr", "--json"], OK, "json", 20, []),
    ("nesting-500-smatch", ["smatch", "R:penman-nesting-depth-500.amr", "R:penman-nesting-depth-500.amr", "--json"],
     EITHER, "json", 30, []),
    ("nesting-500-convert", ["convert", "R:penman-nesting-depth-500.amr", "OUT.mrp"], EITHER, None, 30, []),
    ("amr-chain-1000-convert", ["convert", "R:mrp-amr-chain-1000.mrp", "OUT.amr", "--to", "amr"], OK, None, 20,
     []),
    ("amr-chain-1000-mrp", ["mrp", "R:mrp-amr-chain-1000.mrp", "R:mrp-amr-chain-1000.mrp", "--json"], OK, "json",
     30, []),
    ("deep-json-mrp", ["mrp", "R:mrp-deep-json.mrp", "R:mrp-deep-json.mrp"], ERROR, "line", 20, []),
    ("deep-json-validate", ["validate", "R:mrp-deep-json.mrp"], ERROR, "line", 30, []),
    ("deep-jsonl-coref", ["coref", "R:coref-jsonl-deep-nesting.jsonl", "R:coref-jsonl-deep-nesting.jsonl"],
     ERROR, "line", 30, []),
]
for name in ("mrp-input-not-string", "mrp-framework-not-string", "mrp-framework-list",
             "mrp-ucca-edge-list-endpoint", "mrp-amr-edge-list-endpoint"):
    passes = name in ("mrp-ucca-edge-list-endpoint", "mrp-amr-edge-list-endpoint")
    CASES.append((f"{name}-mrp", ["mrp", f"R:{name}.mrp", f"R:{name}.mrp"], ERROR, None, 30,
                  [] if passes else []))
    passes = name in ("mrp-input-not-string", "mrp-framework-not-string")
    CASES.append((f"{name}-validate", ["validate", f"R:{name}.mrp"], "findings", None, 30,
                  [] if passes else []))
CASES += [
    ("no-anchors-to-sdp", ["convert", "R:mrp-no-anchors-to-sdp.mrp", "OUT.sdp", "--to", "sdp"], EITHER, None, 30,
     []),
    ("input-not-string-to-sdp", ["convert", "R:mrp-input-not-string-to-sdp.mrp", "OUT.sdp", "--to", "sdp"],
     EITHER, None, 30, []),
    ("amr-empty-graph-to-amr", ["convert", "R:mrp-amr-empty-graph.mrp", "OUT.amr", "--to", "amr"], EITHER, None, 30,
     []),
    ("eds-invalid-utf8", ["convert", "R:eds-invalid-utf8.eds", "OUT.mrp", "--from", "eds"], ERROR, "line", 30, []),
    ("sdp-invalid-utf8", ["convert", "R:sdp-invalid-utf8.sdp", "OUT.mrp", "--from", "sdp"], ERROR, "line", 30, []),
    ("chains-invalid-utf8", ["docamr", "build", "D:docamr/msamr-samples/pp.amr.txt", "--chains",
                             "R:chains-invalid-utf8.json", "-o", "OUT.amr"], ERROR, "line", 30, []),
    ("msamr-bogus-encoding-build", ["docamr", "build", "D:docamr/msamr-samples/welsh.amr.txt", "--xml",
                                    "R:msamr-bogus-encoding.xml", "-o", "OUT.amr"], ERROR, "line", 30,
     []),
    ("msamr-order-not-int-build", ["docamr", "build", "D:docamr/msamr-samples/welsh.amr.txt", "--xml",
                                   "R:msamr-order-not-int.xml", "-o", "OUT.amr"], ERROR, "line", 30,
     []),
    ("msamr-bogus-encoding-coref", ["coref", "R:msamr-bogus-encoding.xml", "R:msamr-bogus-encoding.xml", "--amr",
                                    "D:docamr/msamr-samples/welsh.amr.txt", "D:docamr/msamr-samples/welsh.amr.txt"],
     ERROR, "line", 30, []),
    ("msamr-order-not-int-coref", ["coref", "R:msamr-order-not-int.xml", "R:msamr-order-not-int.xml", "--amr",
                                   "D:docamr/msamr-samples/welsh.amr.txt", "D:docamr/msamr-samples/welsh.amr.txt"],
     ERROR, "line", 30, []),
]
for name in ("ucca-terminal-id-without-dot", "ucca-terminal-id-not-numeric", "ucca-terminal-without-id"):
    CASES.append((name, ["convert", f"R:{name}.xml", "OUT.mrp", "--from", "ucca"], ERROR, None, 30,
                  []))
for name in ("clusters-null.jsonl", "clusters-mention-dict.jsonl"):
    CASES.append((name, ["docamr", "build", "D:docamr/ibm-docamr-example/doc_sen.amr", "--clusters", f"R:{name}",
                         "-o", "OUT.amr"], ERROR, None, 30, []))
CASES += [
    ("clusters-isi-nonnumeric", ["docamr", "build", "R:clusters-aligned-amr-isi-nonnumeric.amr", "--clusters",
                                 "R:clusters-valid.jsonl", "-o", "OUT.amr"], ERROR, None, 30,
     []),
    ("small-missing-folder", ["smatch", "R:small.amr", "R:small.amr", "-o", "OUT-missing/x.json"], "output-error",
     None, 30, []),
    ("small-folder", ["smatch", "R:small.amr", "R:small.amr", "-o", "OUT-dir"], "output-error", None, 30, []),
    ("small-empty-path", ["smatch", "R:small.amr", "R:small.amr", "-o", ""], "output-error", None, 30, []),
    ("small-new-file", ["smatch", "R:small.amr", "R:small.amr", "--json", "-o", "OUT.json"], OK, "file", 30, []),
    ("concept-less-s2match", ["score", "-m", "s2match", "R:penman-concept-less-node.amr",
                              "R:penman-concept-less-node.amr"], ERROR, None, 30, []),
    ("concept-less-convert", ["convert", "R:penman-concept-less-node.amr", "-"], ERROR, None, 30, []),
    ("role-without-value", ["smatch", "R:penman-role-without-value.amr", "R:penman-role-without-value.amr"],
     EITHER, None, 30, []),
    ("relation-to-missing-cluster", ["hierarchy", "R:scico-relation-to-missing-cluster.jsonl",
                                     "R:scico-relation-to-missing-cluster.jsonl"], "warning", None, 30, []),
]
for name in ("sc-rel-cycle", "sc-float-offset", "sc-para-oob"):
    CASES.append((name, ["hierarchy", f"R:{name}.jsonl", f"R:{name}.jsonl"], ERROR, None, 30, []))
for name in ("coref-jsonl-float-span", "coref-jsonl-string-span", "coref-jsonl-no-doc-key"):
    CASES.append((name, ["coref", f"R:{name}.jsonl", f"R:{name}.jsonl"], ERROR, None, 30, []))


def _expand(argv, tmp_path):
    out, files, args = None, [], []
    for a in argv:
        if a.startswith("R:"):
            a = str(R / a[2:])
            files.append(Path(a).name)
        elif a.startswith("D:"):
            a = str(D / a[2:])
        elif a.startswith("OUT"):
            if a == "OUT-dir":
                a = str(tmp_path)
            else:
                a = str(tmp_path / a)
                out = Path(a)
        args.append(a)
    return args, files, out


def _limit_memory():  # a safety net: a run must not take more than a few hundred MB
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def run(args, timeout):
    import mrkit

    env = dict(os.environ, PYTHONPATH=str(Path(mrkit.__file__).resolve().parents[1]))
    env.pop("MRKIT_DEBUG", None)
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "mrkit", *args], capture_output=True, text=True, env=env,
                              timeout=timeout, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mrkit {' '.join(args)} ran past {timeout} s")
    return proc, time.monotonic() - start


def check_error(proc, files, out, need_line=False):
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mrkit: "), proc.stderr[-2000:]
    # the fallbacks of mrkit.cli.main are one line too, but not a handled input
    assert "internal error" not in lines[0] and "out of memory" not in lines[0], lines[0]
    assert any(f in lines[0] for f in files), f"the line names none of {files}: {lines[0]}"
    if need_line:
        assert any(f"{f}:" in lines[0] and lines[0].split(f"{f}:", 1)[1][:1].isdigit() for f in files), lines[0]
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert out is None or not out.exists()


def check_ok(proc, check, out):
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not [ln for ln in proc.stderr.splitlines() if not ln.startswith("mrkit: warning")], proc.stderr[-2000:]
    if check in ("json", "f1==1"):
        d = json.loads(proc.stdout)
        if check == "f1==1":
            assert d["summary"]["f1"] == 1.0
    if check == "file":
        d = json.loads(out.read_text())
        assert d["summary"]["f1"] == 1.0
    elif out is not None and not out.name.startswith("OUT-"):
        assert out.exists()


@pytest.mark.parametrize("case", [pytest.param(c, id=c[0], marks=c[5]) for c in CASES])
def test_robustness_file(case, tmp_path):
    _, argv, expect, check, limit, _ = case
    args, files, out = _expand(argv, tmp_path)
    proc, _seconds = run(args, limit)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    if expect == ERROR or (expect == EITHER and proc.returncode != 0):
        check_error(proc, files, out, need_line=(check == "line"))
    elif expect == OK or expect == EITHER:
        check_ok(proc, check, out)
    elif expect == "findings":  # validate reports the problem as a finding: exit 1, no crash
        assert proc.returncode == 1, proc.stderr[-2000:]
        assert proc.stderr == ""
    elif expect == "output-error":
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("mrkit: cannot write "), proc.stderr
        assert proc.returncode == 2 and proc.stdout == ""
    elif expect == "warning":
        assert proc.returncode == 0
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("mrkit: warning"), proc.stderr


def test_every_robustness_file_has_a_case():
    used = {a[2:] for c in CASES for a in c[1] if a.startswith("R:")}
    present = {p.name for p in R.iterdir() if p.name != "README.md"}
    assert present <= used, sorted(present - used)
