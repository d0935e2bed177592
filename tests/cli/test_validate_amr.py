"""``mrkit validate`` on PENMAN/AMR files: findings in the MRP validator's shape."""

from __future__ import annotations

import json

from conftest import run_mrkit, shared_path
from mrkit.cli import main
from mrkit.codecs.validate import validate_penman

BAD = """# ::id a
(a / x :ARG0 (b / y) :ARG1 b2 :ARG12 b)

# ::id b
(c / x :ARG0 (d / y)

# ::id c
(e / x :ARG0 (e / y))

# ::id a
(f / go-02 :mode imperative :polarity - :ARG0 (g / g2))
"""


def test_findings_by_rule(tmp_path):
    f = tmp_path / "bad.amr"
    f.write_text(BAD)
    got = [(x.line, x.graph, x.rule, x.severity) for x in validate_penman(f)]
    assert got == [
        (2, "a", "amr-dangling", "error"),          # b2: shaped like b, never defined
        (2, "a", "amr-role-inventory", "warning"),  # :ARG12
        (5, "b", "penman-syntax", "error"),         # unbalanced parentheses
        (8, "c", "duplicate-variable", "error"),    # e twice
        (10, "a", "id", "error"),                   # # ::id a again
    ]  # 'imperative' and '-' are constants, not dangling references


def test_cli_text_json_and_status(tmp_path, capsys):
    f = tmp_path / "bad.amr"
    f.write_text(BAD)
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr().out
    assert "[amr-dangling]" in out and out.strip().endswith(
        "4 errors, 1 warnings (amr-dangling 1, duplicate-variable 1, id 1, penman-syntax 1)")
    assert main(["validate", str(f), "--json", "--no-warnings"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["errors"] == 4 and d["warnings"] == 0
    assert set(d["findings"][0]) == {"file", "line", "graph", "item", "rule", "severity", "message"}


def test_clean_file_and_format_option(tmp_path, capsys):
    f = tmp_path / "ok.txt"
    f.write_text("(a / x :ARG0 (b / y) :ARG1 b)\n")
    assert main(["validate", "--format", "amr", str(f)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def test_unreadable_is_exit_2(tmp_path):
    f = tmp_path / "x.amr"
    f.write_bytes(b"(a / \xff)\n")
    proc = run_mrkit("validate", str(f))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = run_mrkit("validate", str(tmp_path / "missing.amr"))
    assert proc.returncode == 2


def test_bio_test_roles_like_penman_check():
    # penman --amr --check flags 58 roles in 56 graphs of the Bio test set
    # (../shared/data/amr/bio/README.txt); the same 58 are amr-role-inventory warnings here
    path = shared_path("amr", "bio", "amr-release-test-bio.txt")
    found = list(validate_penman(path))
    assert {x.rule for x in found} == {"amr-role-inventory"}
    assert len(found) == 58 and len({x.graph for x in found}) == 56
