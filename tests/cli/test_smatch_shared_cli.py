"""mrkit smatch -j 2 (this process and one forked worker): the same report as -j 1, and on
bad input the same one-line error, exit status 2, nothing written, no process left."""

from __future__ import annotations

import json

import pytest
from conftest import run_mrkit

pytestmark = pytest.mark.subprocess


def _corpus(path, n: int, shift: int, bad: int | None = None) -> str:
    concepts = ("want-01", "go-02", "boy", "girl", "dog", "see-01")
    out = []
    for k in range(n):
        a, b = concepts[(k + shift) % 6], concepts[(k * 5 + shift) % 6]
        g = f"# ::id s{k}\n(x / {a} :ARG0 (y / {b}) :ARG1 (z / {a} :mod y))"
        if k == bad:
            g = g.replace(":ARG0 (y", ":ARG0 ((y")
        out.append(g)
    path.write_text("\n\n".join(out) + "\n")
    return str(path)


def test_two_processes_report_what_one_does(tmp_path):
    gold, system = _corpus(tmp_path / "g.amr", 3000, 0), _corpus(tmp_path / "s.amr", 3000, 1)
    one = run_mrkit("smatch", gold, system, "-j", "1", "--json")
    two = run_mrkit("smatch", gold, system, "-j", "2", "--json")
    assert one.returncode == two.returncode == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


@pytest.mark.parametrize("bad", [3, 1500, 2999])
def test_bad_input_with_two_processes_is_the_one_process_error(tmp_path, bad):
    gold, system = _corpus(tmp_path / "g.amr", 3000, 0, bad=bad), _corpus(tmp_path / "s.amr", 3000, 1)
    out = tmp_path / "out.json"
    one = run_mrkit("smatch", gold, system, "-j", "1", "-o", str(out))
    two = run_mrkit("smatch", gold, system, "-j", "2", "-o", str(out))
    assert one.returncode == two.returncode == 2
    assert two.stdout == "" and len(two.stderr.splitlines()) == 1
    assert two.stderr == one.stderr and "g.amr" in two.stderr
    assert not out.exists()
