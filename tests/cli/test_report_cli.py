"""``mrkit compare --html`` (the metric study as a page in the report's style) and the
canonical command line written in the footers."""

from __future__ import annotations

import json
import re

import pytest
from conftest import run_mrkit

GOLD = """# ::snt The boy wants to go .
(a / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))

# ::snt It is a small test .
(t / test-01 :mod (x / small))

# ::snt Go !
(g / go-02 :mode imperative)
"""
SYS_A = "(w / want-01 :ARG0 (x / girl))\n\n(t / test-01 :mod (x / small))\n\n(g / go-02)\n"
SYS_B = "(w / want-01 :ARG0 (x / boy) :ARG1 (y / go-02))\n\n(t / test-01)\n\n(g / go-02 :mode imperative)\n"


@pytest.fixture
def files(tmp_path):
    for name, text in (("gold.amr", GOLD), ("a.amr", SYS_A), ("b.amr", SYS_B)):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_compare_html_writes_the_study(files):
    out, page = files / "study.json", files / "study.html"
    args = [str(files / "gold.amr"), str(files / "a.amr"), str(files / "b.amr"), "--metrics", "smatch,sema",
            "--samples", "100"]
    proc = run_mrkit("compare", *args, "--json", "-o", str(out), "--html", str(page))
    assert proc.returncode == 0, proc.stderr
    html = page.read_text()
    study = json.loads(out.read_text())
    assert "<h2>System-level scores</h2>" in html and "Spearman correlation between metrics" in html
    # the page shows the numbers of the JSON report of the same run
    for m in ("smatch", "sema"):
        for s in ("a", "b"):
            assert f"{study['system_scores'][m][s]['micro']:.3f}" in html
    assert set(re.findall(r"https?://[^\s\"'<>)]+", html)) <= {"http://www.w3.org/2000/svg"}
    assert "<script" not in html  # a study page needs no script
    assert f"--html {page}" in html and "--metrics smatch,sema" in html
    # same command, same page
    proc = run_mrkit("compare", *args, "--html", str(files / "again.html"), "--json", "-o", str(out))
    assert (files / "again.html").read_text() == html.replace(str(page), str(files / "again.html"))


def test_compare_html_unwritable_fails_before_scoring(files):
    proc = run_mrkit("compare", str(files / "gold.amr"), str(files / "a.amr"), str(files / "b.amr"),
                     "--metrics", "smatch", "--html", str(files / "missing" / "x.html"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("mrkit: cannot write") and len(proc.stderr.splitlines()) == 1


def test_report_help_names_the_page():
    proc = run_mrkit("report", "--help")
    assert proc.returncode == 0 and "self-contained HTML" in proc.stdout
    assert "report" in run_mrkit("--help").stdout
