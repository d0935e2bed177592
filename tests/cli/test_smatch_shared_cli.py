"""mrkit smatch -j 2 (two threads of this process; with --executor processes, this process and
one forked worker): the same report as -j 1, and on bad input the same one-line error, exit
status 2, nothing written, no process left."""

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
    for way in (("-j", "2"), ("-j", "2", "--executor", "processes")):
        two = run_mrkit("smatch", gold, system, *way, "-o", str(out))
        assert one.returncode == two.returncode == 2
        assert two.stdout == "" and len(two.stderr.splitlines()) == 1
        assert two.stderr == one.stderr and "g.amr" in two.stderr
        assert not out.exists()


# ------------------------------------------------------------------ session 28: every shared corpus, byte for byte

SHARED_PAIRS = [
    ("amr/parseeval-little-prince/gold.amr", "amr/parseeval-little-prince/t5.amr"),
    ("amr/parseeval-little-prince/gold.amr", "amr/parseeval-little-prince/bart.amr"),
    ("amr/parseeval-little-prince/original/qualitylp_abparser_src.test.amr",
     "amr/parseeval-little-prince/original/qualitylp_abparser_tgt.test.amr"),
    ("amr/little-prince/amr-bank-struct-v3.0.txt", "amr/little-prince/amr-bank-struct-v3.0.txt"),
    ("amr/little-prince/amr-bank-struct-v1.6-test.txt", "amr/little-prince/amr-bank-struct-v1.6-test.txt"),
    ("amr/bio/amr-release-test-bio.txt", "amr/bio/amr-release-test-bio.txt"),
    ("amr/bio/amr-release-bio-v3.0.PARTIAL-first-graphs.txt", "amr/bio/amr-release-bio-v3.0.PARTIAL-first-graphs.txt"),
    ("amr/qald9/qald-9-amr-test.txt", "amr/qald9/qald-9-amr-test.txt"),
    ("amr/bamboo/sts/main_src.test.amr", "amr/bamboo/sts/main_tgt.test.amr"),
    ("amr/bamboo/sick/main_src.test.amr", "amr/bamboo/sick/main_tgt.test.amr"),
    ("amr/alt-metrics-handmade/a.amr", "amr/alt-metrics-handmade/b.amr"),
]


def _same_bytes(gold: str, system: str, *extra: str) -> None:
    """-j 2 and -j 3 print the bytes -j 1 prints (text and --json), with its exit status
    and stderr."""
    for fmt in ((), ("--json",)):
        one = run_mrkit("smatch", gold, system, "-j", "1", *fmt, *extra)
        for j in (("2",), ("3",), ("2", "--executor", "processes")):
            other = run_mrkit("smatch", gold, system, "-j", *j, *fmt, *extra)
            assert (other.returncode, other.stdout, other.stderr) == (one.returncode, one.stdout, one.stderr), j


@pytest.mark.parametrize("gold,system", SHARED_PAIRS, ids=lambda p: p.split("/")[-1])
def test_every_shared_corpus_gives_the_same_bytes(gold, system):
    from conftest import shared_path

    _same_bytes(str(shared_path(*gold.split("/"))), str(shared_path(*system.split("/"))))


ROBUSTNESS_AMR = ["penman-concept-less-node.amr", "penman-nesting-depth-500.amr",
                  "penman-one-node-20000-attributes.amr", "penman-role-without-value.amr", "small.amr",
                  "docsmatch-dup-snt.amr", "clusters-aligned-amr-huge-range.amr",
                  "clusters-aligned-amr-isi-nonnumeric.amr"]


@pytest.mark.parametrize("name", ROBUSTNESS_AMR)
def test_robustness_files_give_the_same_bytes(name, tmp_path):
    """Each PENMAN robustness file against itself, and against a large corpus it is put in
    the middle of (the error, if any, in a chunk of the worker or of this process)."""
    from conftest import shared_path

    path = shared_path("robustness", name)
    _same_bytes(str(path), str(path))
    good = _corpus(tmp_path / "g.amr", 1500, 0)
    mixed = tmp_path / "mixed.amr"
    body = open(good).read()
    half = body.index("# ::id s750")
    mixed.write_text(body[:half] + path.read_text(encoding="utf-8", errors="replace") + "\n\n" + body[half:])
    _same_bytes(str(mixed), str(mixed))
