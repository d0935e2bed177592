"""Robustness of the PENMAN reader and writer and of `mrkit smatch` / `score` / `convert` on
PENMAN input (issue 12): every input gives a result or one clean line naming the file,
exit status 2, never a traceback; nesting depth is data, not a limit.

The robustness files are ../shared/data/robustness/ (README.md there lists the command
and the expected behaviour of each); the mutation suite edits copies of the handmade
AMR pairs and a few Little Prince graphs.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_mrkit, shared_path
from mrkit.features.triples import triples
from mrkit.cli import main
from mrkit.codecs.penman import dumps, loads, read_penman
from mrkit.errors import InputError


def robustness(name: str) -> str:
    return str(shared_path("robustness", name))


def one_clean_line(proc, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-500:])
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("mrkit: ")
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ the shared robustness files

@pytest.mark.parametrize("command", [["score", "-m", "s2match", "{X}", "{X}"], ["convert", "{X}", "-"],
                                     ["smatch", "{X}", "{X}"]])
def test_concept_less_node_is_a_clean_error(command):
    # `(a /)`: S2match used to score it 0.0 against itself, convert to write it back
    x = robustness("penman-concept-less-node.amr")
    proc = run_mrkit(*[a.replace("{X}", x) for a in command])
    one_clean_line(proc, f"{x}:1, graph 1:", "concept")
    assert proc.stdout == ""


def test_role_without_value_is_one_line_without_the_libraries_log_line():
    x = robustness("penman-role-without-value.amr")
    proc = run_mrkit("smatch", x, x)
    one_clean_line(proc, f"{x}:1, graph 1:", ":ARG0", "no value")
    assert "Missing target" not in proc.stderr


def test_nesting_depth_500_is_read_scored_and_converted(tmp_path):
    x = robustness("penman-nesting-depth-500.amr")
    proc = run_mrkit("smatch", x, x, "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["summary"]["f1"] == 1.0 and d["gold_triples"] == 500 + 499 + 1  # instances, relations, top
    out = tmp_path / "out.mrp"
    proc = run_mrkit("convert", x, str(out))
    assert proc.returncode == 0, proc.stderr
    mrp = json.loads(out.read_text())
    assert len(mrp["nodes"]) == 500 and len(mrp["edges"]) == 499


def test_mrp_chain_1000_is_written_as_penman(tmp_path):
    x = robustness("mrp-amr-chain-1000.mrp")
    out = tmp_path / "out.amr"
    proc = run_mrkit("convert", x, str(out), "--to", "amr")
    assert proc.returncode == 0, proc.stderr
    g, = read_penman(out)
    assert len(g.nodes) == 1000 and len(g.edges) == 999
    assert all(n.label == "x" for n in g.nodes.values())


def test_mrp_chain_3000_is_written_and_read_back(tmp_path):
    n = 3000
    src = tmp_path / "chain.mrp"
    src.write_text(json.dumps({
        "id": "chain", "flavor": 2, "framework": "amr", "version": 1.0, "tops": [0],
        "nodes": [{"id": k, "label": "x"} for k in range(n)],
        "edges": [{"source": k, "target": k + 1, "label": "ARG0"} for k in range(n - 1)]}) + "\n")
    out = tmp_path / "out.amr"
    assert main(["convert", str(src), str(out), "--to", "amr"]) == 0
    g, = read_penman(out)
    assert len(g.nodes) == n and len(g.edges) == n - 1


def test_small_amr_smatch():
    x = robustness("small.amr")
    proc = run_mrkit("smatch", x, x, "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    d = json.loads(proc.stdout)
    s = d["summary"]
    assert (s["precision"], s["recall"], s["f1"], d["gold_triples"]) == (1.0, 1.0, 1.0, 4)


# ------------------------------------------------------------------ mutation suite

def _seed_graphs() -> list[str]:
    """Graph texts to mutate: the handmade pairs and the first Little Prince graphs."""
    texts = [b.strip() for b in shared_path("amr", "alt-metrics-handmade", "a.amr").read_text().split("\n\n")]
    lpp = shared_path("amr", "little-prince", "amr-bank-struct-v3.0.txt").read_text(encoding="utf-8")
    texts += [b.strip() for b in lpp.split("\n\n")[1:9]]
    return [t for t in texts if "(" in t]


_PIECES = ["(", ")", "/", ":", ":ARG0", '"', "~e.", "~e.99999999999999", "\n", "\n\n", " ", "#",
           "# ::id x", "(a / b)", "\\", "\t", "\u00e9", "\ufeff", "()", "(a /)", "junk", "-of"]


def mutate(text: str, rng: random.Random) -> bytes:
    """One random edit of a PENMAN text: truncation, a byte edit, a piece inserted or
    deleted, a duplicated or dropped line, deep nesting, or bytes that are not UTF-8."""
    kind = rng.randrange(8)
    b = text.encode("utf-8")
    at = rng.randrange(len(b) + 1)
    if kind == 0:
        return b[:at]
    if kind == 1:
        return b[:at] + bytes([rng.randrange(256)]) + b[at + 1:]
    if kind == 2:
        return b[:at] + rng.choice(_PIECES).encode("utf-8") + b[at:]
    if kind == 3:
        return b[:at] + b[at + rng.randrange(1, 6):]
    if kind == 4:
        lines = text.splitlines()
        k = rng.randrange(len(lines))
        lines[k:k + 1] = [lines[k]] * rng.randrange(0, 3)
        return "\n".join(lines).encode("utf-8")
    if kind == 5:
        depth = rng.choice([10, 700, 3000])
        deep = "".join(f"(d{k} / x :ARG1 " for k in range(depth)) + "(z / end" + ")" * (depth + 1)
        return b[:at] + deep.encode() + b[at:]
    if kind == 6:
        return b[:at] + rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x00", b"\xed\xa0\x80"]) + b[at:]
    # swap two graphs' halves: unbalanced parentheses and stray text between graphs
    return b[at:] + b"\n" + b[:at]


def _check_read(data: bytes, tmp_path) -> list:
    f = tmp_path / "m.amr"
    f.write_bytes(data)
    try:
        gs = read_penman(f)
    except InputError as exc:
        msg = str(exc)
        assert "\n" not in msg and msg.startswith(str(f)), msg
        return []
    for g in gs:
        assert all(n.label for n in g.nodes.values())
        t = triples(g)  # every graph read has Smatch triples ...
        again, = loads(dumps([g]))  # ... and is written and read back unchanged
        assert sorted(triples(again).as_strings()) == sorted(t.as_strings())
    return gs


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_edits=st.integers(1, 3))
def test_mutated_penman_reads_or_fails_cleanly(tmp_path, seed, n_edits):
    rng = random.Random(seed)
    texts = _seed_graphs()
    text = "\n\n".join(rng.sample(texts, 3))
    data = text.encode("utf-8")
    for _ in range(n_edits):
        data = mutate(data.decode("utf-8", "replace"), rng) if rng.random() < 0.5 else \
            mutate(data.decode("latin-1"), rng)
    _check_read(data, tmp_path)


@pytest.mark.parametrize("seed", range(12))
def test_smatch_on_mutated_copies(tmp_path, capsys, seed):
    """`mrkit smatch` (in process, as the CLI runs it) on a mutated copy against the
    original: a score in [0, 1] or exit 2 with one line naming a file; never an exception."""
    rng = random.Random(seed)
    texts = _seed_graphs()
    chosen = rng.sample(texts, 4)
    gold = tmp_path / "gold.amr"
    gold.write_text("\n\n".join(chosen) + "\n", encoding="utf-8")
    sys_ = tmp_path / "sys.amr"
    sys_.write_bytes(mutate("\n\n".join(chosen) + "\n", rng))
    for files in ([str(gold), str(sys_)], [str(sys_), str(sys_)]):
        rc = main(["smatch", *files, "--json", "--no-ilp"])
        out, err = capsys.readouterr()
        if rc == 0:
            d = json.loads(out)
            assert all(0.0 <= d["summary"][k] <= 1.0 for k in ("precision", "recall", "f1"))
            if files[0] == files[1]:
                assert d["summary"]["f1"] == 1.0  # every valid graph scores 1.0 against itself
        else:
            assert rc == 2 and out == ""
            lines = err.splitlines()
            assert len(lines) == 1 and re.match(rf"mrkit: ({re.escape(str(gold))}|{re.escape(str(sys_))})", lines[0])


def test_smatch_subprocess_on_mutated_copies_never_tracebacks(tmp_path):
    """A few mutated files through the real command line (the user's view)."""
    texts = _seed_graphs()
    for seed in range(4):
        rng = random.Random(1000 + seed)
        f = tmp_path / f"m{seed}.amr"
        f.write_bytes(mutate("\n\n".join(rng.sample(texts, 2)), rng))
        proc = run_mrkit("smatch", str(f), str(f), "--no-ilp")
        assert "Traceback" not in proc.stderr
        if proc.returncode:
            one_clean_line(proc, str(f))
        else:
            assert "F-score: 1.0000" in proc.stdout


@pytest.mark.parametrize("data, words", [
    (b"(a / b~e.99999999999999)\n", "more than 9 digits"),
    (b"(a / b :ARG0 (c / d)\n", "not closed"),
    (b"(a / b)\n\xff\n", "not UTF-8"),
    (b"(a / b) (a / c)\nstray\n", "unexpected text"),
    (b"(a / b :ARG1 (a / c))\n", "defined twice"),
])
def test_each_kind_of_bad_input_through_the_commands(tmp_path, data, words):
    f = tmp_path / "bad.amr"
    f.write_bytes(data)
    for command in (["smatch", str(f), str(f)], ["score", "-m", "sema", str(f), str(f)],
                    ["convert", str(f), "-"]):
        proc = run_mrkit(*command)
        one_clean_line(proc, str(f), words)
        assert proc.stdout == ""
