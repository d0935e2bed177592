"""The HTML report: self-contained, deterministic, its data and footer right."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from conftest import run_mrkit

GOLD = """# ::id s1
# ::snt The boy wants to go .
(a / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))

# ::id s2
# ::snt A </script><script>alert(1)</script> test .
(t / test-01 :mod (x / small))
"""
SYS_A = """(w / want-01 :ARG0 (x / girl) :ARG1 (y / go-02 :ARG0-of w))

(t / test-01 :mod (x / small))
"""
SYS_B = """(w / want-01 :ARG0 (x / boy) :ARG1 (y / go-02 :ARG0 x :polarity -))

(t / test-02)
"""


@pytest.fixture
def files(tmp_path):
    for name, text in (("gold.amr", GOLD), ("a.amr", SYS_A), ("b.amr", SYS_B)):
        (tmp_path / name).write_text(text)
    return tmp_path


def _data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="mrkit-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_report_is_self_contained_and_deterministic(files):
    out1, out2 = files / "r1.html", files / "r2.html"
    for out in (out1, out2):
        proc = run_mrkit("report", str(files / "gold.amr"), str(files / "a.amr"), str(files / "b.amr"),
                         "-o", str(out), "--bootstrap", "200")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == "" and proc.stderr == ""
    html = out1.read_text()
    # same command, same bytes (but the -o path, written in the footer's command)
    assert html == out2.read_text().replace(str(out2), str(out1))
    # nothing to fetch: no external URL but the SVG namespace, no src/href to files
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r'\ssrc="(?!data:)', html)
    assert not re.search(r'<link[^>]*href="(?!data:)', html)
    # the sentence holding </script> cannot end the data element early
    assert "</script><script>alert" not in html
    d = _data(html)
    assert d["names"] == ["a", "b"]
    assert [p["id"] for p in d["pairs"]] == ["s1", "s2"]
    assert d["pairs"][1]["snt"] == "A </script><script>alert(1)</script> test ."
    # pair 1 against a (hand count, as tests/pipeline/test_inspect.py): 5 of 8 gold triples, 7 system
    assert d["pairs"][0]["sc"][0][:4] == [5, 8, 7, 1]
    # against b: a->w b->x g->y: everything matches (8 of 8 and 8)
    assert d["pairs"][0]["sc"][1][:4] == [8, 8, 8, 1]
    # the footer: command, version, input checksums
    from mrkit import __version__

    assert f"mrkit {__version__}" in html
    assert f"mrkit report {files / 'gold.amr'} {files / 'a.amr'} {files / 'b.amr'} --output {out1} --bootstrap 200" in html
    for name in ("gold.amr", "a.amr", "b.amr"):
        assert "sha256:" + hashlib.sha256((files / name).read_bytes()).hexdigest() in html


def test_headline_numbers(files):
    out = files / "r.html"
    assert run_mrkit("report", str(files / "gold.amr"), str(files / "a.amr"), str(files / "b.amr"),
                     "-o", str(out), "--names", "first,second").returncode == 0
    html = out.read_text()
    # a: matched 5 + 4 = 9 (pair 2: test-01, x/small, :mod, top all match: 4 of 4), gold 8 + 4 = 12,
    # system 7 + 4 = 11: P 9/11 = 0.8182, R 9/12 = 0.7500, F1 18/23 = 0.7826
    assert all(x in html for x in ("0.8182", "0.7500", "0.7826"))
    # b: pair 1 8/8/8; pair 2: test-02 vs test-01 and the top match (1 of 4 gold, 2 system):
    # matched 9, gold 12, system 10: F1 18/22 = 0.8182; macro (1 + 2/6) / 2 = 0.6667
    assert "0.6667" in html
    assert "&Delta;F1 vs first" in html and ">second<" in html


def test_report_of_one_system(files):
    out = files / "one.html"
    proc = run_mrkit("report", str(files / "gold.amr"), str(files / "a.amr"), "-o", str(out), "--bootstrap", "0")
    assert proc.returncode == 0, proc.stderr
    html = out.read_text()
    assert "Who wins where" not in html and "No bootstrap intervals" in html


@pytest.mark.parametrize("case", ["counts", "malformed", "stdin", "names", "missing"])
def test_bad_input_is_one_line_and_writes_nothing(files, case):
    out = files / "out.html"
    (files / "short.amr").write_text("(a / want-01)\n")
    (files / "bad.amr").write_text("(a / want-01 :ARG0 (b / boy)\n\n(t / test)\n")
    args = {"counts": [str(files / "gold.amr"), str(files / "short.amr")],
            "malformed": [str(files / "gold.amr"), str(files / "bad.amr")],
            "stdin": [str(files / "gold.amr"), "-"],
            "names": [str(files / "gold.amr"), str(files / "a.amr"), "--names", "x,y"],
            "missing": [str(files / "gold.amr"), str(files / "nope.amr")]}[case]
    proc = run_mrkit("report", *args, "-o", str(out), input="")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("mrkit: "), proc.stderr
    assert not out.exists()
    assert {p.name for p in files.iterdir()} == {"gold.amr", "a.amr", "b.amr", "short.amr", "bad.amr"}


def test_metric_follows_the_input(files, tmp_path):
    from mrkit.cli.report import metric_of

    (tmp_path / "g.mrp").write_text('{"id": "1", "framework": "eds", "nodes": [], "edges": []}\n')
    (tmp_path / "a.mrp").write_text('{"id": "1", "framework": "amr", "nodes": [], "edges": []}\n')
    assert metric_of(str(files / "gold.amr"), None) == "smatch"
    assert metric_of(str(tmp_path / "g.mrp"), None) == "mrp"
    assert metric_of(str(tmp_path / "a.mrp"), None) == "smatch"
    proc = run_mrkit("report", str(files / "gold.amr"), str(files / "a.amr"), "--framework", "eds",
                     "-o", str(tmp_path / "x.html"))
    assert proc.returncode == 2 and "--framework" in proc.stderr and not (tmp_path / "x.html").exists()


def test_document_report_equals_docsmatch(tmp_path):
    """--metric docsmatch: the page's pairs and subscores are those of `mrkit docsmatch`."""
    from conftest import shared_path

    d = shared_path("docamr", "ibm-docamr-outputs-lpp")
    gold, sys_a = d / "lpp_1-19.docAMR.amr", d / "lpp_1-19.merge-names.amr"
    out = tmp_path / "doc.html"
    proc = run_mrkit("report", str(gold), str(sys_a), "--metric", "docsmatch", "-o", str(out), "--bootstrap", "0",
                     timeout=300)
    assert proc.returncode == 0, proc.stderr
    ref = json.loads(run_mrkit("docsmatch", str(gold), str(sys_a), "--json", timeout=300).stdout)
    html = out.read_text()
    data = _data(html)
    assert data["family"] == "document" and len(data["pairs"]) == 1
    sc = data["pairs"][0]["sc"][0]
    assert sc[:3] == [ref["overall"]["matched"], ref["overall"]["gold"], ref["overall"]["system"]]
    gm, sm = data["pairs"][0]["k"][0]
    assert gm.count("1") >= sc[0] and sm.count("1") >= sc[0]
    assert f"{ref['coref']['f1']:.4f}" in html and f"{ref['reentrancy']['f1']:.4f}" in html
    assert "Document Smatch subscores" in html


def test_subscores_are_those_of_smatch_subscores(files):
    """The report's fine-grained subscores are the counts `mrkit smatch --subscores`
    reports for the same files (two code paths: the report's own pass and the smatch
    command's), in a table of the page."""
    import json

    from conftest import run_mrkit
    from mrkit.pipeline import inspect
    from mrkit.report.html.amr import headline_stats, render_amr

    study = inspect.amr_study(str(files / "gold.amr"), [str(files / "a.amr")], ["a"])
    proc = run_mrkit("smatch", str(files / "gold.amr"), str(files / "a.amr"), "--subscores", "--json")
    assert proc.returncode == 0, proc.stderr
    reported = json.loads(proc.stdout)["subscores"]
    (got,) = study.subscores
    assert set(got) == set(reported)
    for name, (m, g, s) in got.items():
        assert (m, g, s) == (reported[name]["matched"], reported[name]["gold"], reported[name]["system"]), name
    html = render_amr(study, headline_stats(study, 0, 0, 0.95), "mrkit report ...")
    assert "Fine-grained subscores" in html and "No WSD" in html
