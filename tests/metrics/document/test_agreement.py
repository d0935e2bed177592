"""MS-AMR agreement (O'Gorman et al. 2018, §3): Cohen's kappa for implicit roles and its
conditional form, checked against a hand computation."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit
from mrkit.codecs.msamr import read_msamr
from mrkit.metrics.document.agreement import agreement, cohen_kappa, slots

AMR = """# ::id t.1
(a / and :op1 (b / boy) :op2 (g / girl))

# ::id t.2
(l / leave-11)

# ::id t.3
(s / sing-01 :ARG0 (h / he))
"""


def xml(chains: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<document>\n<sentences docid="t">'
            '<amr id="t.1" order="1"/><amr id="t.2" order="2"/><amr id="t.3" order="3"/></sentences>\n'
            f'<relations><identity>\n{chains}</identity></relations>\n</document>\n')


# A: leave.ARG0 = the boy, leave.ARG1 = the girl, sing.ARG1 = the girl
A = xml('<identchain relationid="rel-0"><mention id="t.1" variable="b"/><mention id="t.3" variable="h"/>'
        '<implicitrole argument="ARG0" id="t.2" parentvariable="l"/></identchain>\n'
        '<identchain relationid="rel-1"><mention id="t.1" variable="g"/>'
        '<implicitrole argument="ARG1" id="t.2" parentvariable="l"/>'
        '<implicitrole argument="ARG1" id="t.3" parentvariable="s"/></identchain>\n')
# B: leave.ARG0 = the boy, leave.ARG1 = the boy, sing.ARG2 = the girl (own chain ids)
B = xml('<identchain relationid="x-1"><mention id="t.1" variable="b"/><mention id="t.3" variable="h"/>'
        '<implicitrole argument="ARG0" id="t.2" parentvariable="l"/>'
        '<implicitrole argument="ARG1" id="t.2" parentvariable="l"/></identchain>\n'
        '<identchain relationid="x-2"><mention id="t.1" variable="g"/>'
        '<implicitrole argument="ARG2" id="t.3" parentvariable="s"/></identchain>\n')


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "s.amr").write_text(AMR)
    (tmp_path / "a.xml").write_text(A)
    (tmp_path / "b.xml").write_text(B)
    return tmp_path


def test_kappa_by_hand(files):
    a = read_msamr(files / "a.xml", files / "s.amr")
    b = read_msamr(files / "b.xml", files / "s.amr")
    # items: leave-11 ARG0..ARG4 (5), sing-01 ARG1..ARG4 (4; ARG0 is explicit) = 9
    assert len(slots(a[0])) == 9
    r = agreement(a, b)
    # marked A {l0, l1, s1}, B {l0, l1, s2}: both 2, neither 5; p_o = 7/9,
    # p_e = (3/9)(3/9) + (6/9)(6/9) = 5/9; kappa = (7/9 - 5/9) / (4/9) = 0.5
    assert (r.items, r.marked_a, r.marked_b, r.marked_both) == (9, 3, 3, 2)
    assert r.kappa == pytest.approx(0.5)
    # both marked l0 (A boy, B boy) and l1 (A girl, B boy): p_o = 1/2;
    # A's labels {boy 1/2, girl 1/2}, B's {boy 1}: p_e = 1/2; kappa = 0
    assert r.same_entity == 1 and r.conditional_kappa == pytest.approx(0.0)
    assert r.coref["conll"]["f1"] == 1.0  # the identity chains are the same


def test_cohen_kappa_textbook():
    # 50 items: 20 yes/yes, 15 no/no, 5 yes/no, 10 no/yes -> p_o 0.7, p_e 0.5 -> 0.4
    a = ["y"] * 20 + ["n"] * 15 + ["y"] * 5 + ["n"] * 10
    b = ["y"] * 20 + ["n"] * 15 + ["n"] * 5 + ["y"] * 10
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(["x", "x"], ["x", "x"]) is None


def test_agreement_cli(files):
    r = run_mrkit("docamr", "agreement", str(files / "s.amr"), "--xml", str(files / "a.xml"),
                  str(files / "b.xml"), "--json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["implicit_roles"]["kappa"] == pytest.approx(0.5)
    t = run_mrkit("docamr", "agreement", str(files / "s.amr"), "--xml", str(files / "a.xml"), str(files / "b.xml"))
    assert "Cohen's kappa: 0.5000" in t.stdout and "conditional kappa" in t.stdout


def test_agreement_cli_bad_xml_exit_2(files):
    (files / "bad.xml").write_text("<document><sentences>\n</document>\n")
    r = run_mrkit("docamr", "agreement", str(files / "s.amr"), "--xml", str(files / "a.xml"), str(files / "bad.xml"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "bad.xml:2" in r.stderr
