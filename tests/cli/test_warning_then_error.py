"""A file with a reader warning and then an error stops with one line: the error (the
warnings of a file that fails are held back, as ``mrp``/``analyze``/``convert`` do).  Before,
``smatch`` on MRP input and ``coref --format scico`` printed the warning line first."""

from __future__ import annotations

import json

from conftest import run_mrkit

# an AMR graph in MRP with node id 0 twice (a warning: kept as a new node), then a line that is not JSON
AMR_MRP = json.dumps({"id": "a1", "flavor": 2, "framework": "amr", "version": 1.0, "input": "dogs bark",
                      "tops": [0], "nodes": [{"id": 0, "label": "bark-01"}, {"id": 1, "label": "dog"},
                                             {"id": 0, "label": "loud"}],
                      "edges": [{"source": 0, "target": 1, "label": "ARG0"}]}) + "\n"
BROKEN = '{"id": "a2", "framework": "amr", "nodes": [\n'

# SciCo: a relation to a cluster without mentions (a warning), then a topic whose relations are not a list
TOPIC_1 = json.dumps({"id": 1, "tokens": [["a", "b", "c"]], "mentions": [[0, 0, 0, 1], [0, 2, 2, 2]],
                      "relations": [[1, 2], [2, 99]]}) + "\n"
TOPIC_2 = json.dumps({"id": 2, "tokens": [["a"]], "mentions": [[0, 0, 0, 1]], "relations": 5}) + "\n"


def _one_line(proc, needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [proc.stderr.strip()], proc.stderr
    assert "warning" not in proc.stderr and needle in proc.stderr, proc.stderr


def test_smatch_on_mrp(tmp_path):
    good, bad = tmp_path / "good.mrp", tmp_path / "bad.mrp"
    good.write_text(AMR_MRP)
    bad.write_text(AMR_MRP + BROKEN)
    _one_line(run_mrkit("smatch", str(bad), str(bad)), f"{bad}:2, graph a2: not a JSON line")
    ok = run_mrkit("smatch", str(good), str(good))  # the warning alone: shown once, the run goes on
    assert ok.returncode == 0
    assert [ln for ln in ok.stderr.splitlines()] == [
        f"mrkit: warning: {good}:1, graph a1: duplicate node id 0, kept as node 2; edges go to the first"]


def test_coref_scico(tmp_path):
    plain, warned, bad = tmp_path / "plain.jsonl", tmp_path / "warned.jsonl", tmp_path / "bad.jsonl"
    plain.write_text(TOPIC_1.replace(", [2, 99]", "") + TOPIC_2.replace('"relations": 5', '"relations": []'))
    warned.write_text(TOPIC_1)
    bad.write_text(TOPIC_1 + TOPIC_2)
    _one_line(run_mrkit("coref", str(plain), str(bad), "--format", "scico"), f"{bad}:2, topic 2: 'relations' must be a list")
    ok = run_mrkit("coref", str(warned), str(warned), "--format", "scico")
    assert ok.returncode == 0
    assert len(ok.stderr.splitlines()) == 1 and "cluster 99, which has no mentions" in ok.stderr
