"""Mutation test over the coreference readers (CoNLL columns, jsonlines clusters, SciCo
jsonl): truncation, byte edits (invalid UTF-8 included), duplicated and dropped lines,
wrong JSON types at every key, negative / huge / float numbers.  Each mutated file gives
a result or a clean InputError, never anything else, within a CPU-time bound (no
allocation or work proportional to a number in the file); every score is in [0, 1]; a
file against itself scores 1 on every part that is not reported undefined (0/0), and a
SciCo file whose relations all name clusters with mentions scores 1 on the hierarchy
scores and path ratio.  Deterministic (fixed seeds)."""

from __future__ import annotations

import json
import random
import time
import warnings

import pytest

from conftest import shared_path
from coref_mutations import byte_mutations, json_type_mutations
from mrkit.cli import main
from mrkit.metrics.coref import read_conll, read_jsonlines, score_documents
from mrkit.metrics.coref.hierarchy import score_topics
from mrkit.codecs.scico import read_scico
from mrkit.errors import InputError

RUNS = 60  # mutations per source and kind; `python -m pytest` stays in seconds


def _check_coref(docs):
    r = score_documents(docs, docs)
    for m in r.metrics:
        for value, part in zip(r.prf(m), ("recall", "precision", "f1")):
            assert 0 <= value <= 1, (m, part, value)
            if part not in r.undefined_parts(m):
                assert value == pytest.approx(1.0, abs=1e-12), (m, part, value)


def _check_scico(topics):
    r = score_topics(topics, topics)
    complete = all(a in t.clusters and b in t.clusters for t in topics for a, b in t.relations)
    for name in ("hierarchy", "hierarchy50"):
        assert all(0 <= v <= 1 for v in r.prf(name))
        c = r._sum(name)
        if complete:
            assert (c.r_num, c.p_num) == (c.r_den, c.p_den)
    for tn in (False, True):
        assert all(0 <= v <= 1 + 1e-12 for v in r.path_ratio(tn))
    for t in r.topics:
        assert t.path[0] == pytest.approx(t.path[1])
    for m in r.coref.metrics:
        assert all(0 <= v <= 1 for v in r.coref.prf(m))


def _run(tmp_path, data: bytes, reader, check, suffix: str, stats: dict):
    path = tmp_path / f"m{suffix}"
    path.write_bytes(data)
    start = time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            docs = reader(path)
        check(docs)
        stats["scored"] += 1
    except InputError as exc:
        assert "\n" not in str(exc)
        stats["errors"] += 1
    assert time.process_time() - start < 2, data[:200]


def _stats():
    return {"scored": 0, "errors": 0}


def test_conll_mutations(tmp_path):
    folder = shared_path("coref", "reference-scorer-tests")
    rng = random.Random(12)
    stats = _stats()
    for name in ("TC-A.key", "TC-C.key", "TC-M-3.response", "TC-N.key"):
        data = (folder / name).read_bytes()
        for m in byte_mutations(data, rng, RUNS):
            _run(tmp_path, m, read_conll, _check_coref, ".conll", stats)
    assert stats["scored"] and stats["errors"]


def _jsonlines_source() -> str:
    docs = read_conll(shared_path("coref", "reference-scorer-tests", "TC-A.key"))
    return "".join(json.dumps({"doc_key": d.id, "sentences": [["w"] * 40],
                               "clusters": [[list(m) for m in c] for c in d.clusters]}) + "\n" for d in docs)


def test_jsonlines_mutations(tmp_path):
    rng = random.Random(13)
    text = _jsonlines_source()
    stats = _stats()
    for line in text.splitlines():
        for m in json_type_mutations(line, rng, 2 * RUNS):
            _run(tmp_path, m.encode() + b"\n", read_jsonlines, _check_coref, ".jsonl", stats)
    for m in byte_mutations(text.encode(), rng, RUNS):
        _run(tmp_path, m, read_jsonlines, _check_coref, ".jsonl", stats)
    assert stats["scored"] and stats["errors"]


def test_scico_mutations(tmp_path):
    folder = shared_path("coref", "scico-handmade")
    rng = random.Random(14)
    stats = _stats()
    for name in ("gold.jsonl", "system.jsonl"):
        text = (folder / name).read_text()
        for line in text.splitlines():
            for m in json_type_mutations(line, rng, RUNS):
                _run(tmp_path, m.encode() + b"\n", read_scico, _check_scico, ".jsonl", stats)
        for m in byte_mutations(text.encode(), rng, RUNS):
            _run(tmp_path, m, read_scico, _check_scico, ".jsonl", stats)
    assert stats["scored"] and stats["errors"]


def test_huge_numbers_do_not_allocate(tmp_path):
    """A span end of 10^18 (jsonlines), a paragraph / offset of 10^18 (SciCo) and an
    entity id of 10^30 (CoNLL) are refused or read as labels, at once."""
    jl = tmp_path / "a.jsonl"
    jl.write_text(json.dumps({"doc_key": "d", "clusters": [[[0, 10 ** 18], [1, 1]]]}) + "\n")
    sc = tmp_path / "a.sc.jsonl"
    sc.write_text(json.dumps({"id": 1, "tokens": [["a"]], "mentions": [[10 ** 18, 0, 10 ** 18, 1]], "relations": []}) + "\n")
    conll = tmp_path / "a.conll"
    conll.write_text(f"#begin document d\nt ({10 ** 30})\nt ({10 ** 30})\n#end document\n")
    start = time.process_time()
    with pytest.raises(InputError):
        read_jsonlines(jl)
    with pytest.raises(InputError):
        read_scico(sc)
    (doc,) = read_conll(conll)
    assert [[tuple(m) for m in c] for c in doc.clusters] == [[(0, 0), (1, 1)]]
    assert time.process_time() - start < 1


@pytest.mark.parametrize("seed", range(20))
def test_cli_on_mutated_files_one_line_or_result(tmp_path, capsys, seed):
    """Through the command's entry point: exit 0 with a JSON report, or exit 2 with one
    line naming the file, nothing on stdout."""
    rng = random.Random(seed)
    key = shared_path("coref", "reference-scorer-tests", "TC-A.key").read_bytes()
    sc = shared_path("coref", "scico-handmade", "gold.jsonl").read_text().splitlines()[0]
    cases = [("coref", "x.conll", byte_mutations(key, rng, 1)[0]),
             ("coref", "x.jsonl", json_type_mutations(_jsonlines_source().splitlines()[0], rng, 1)[0].encode()),
             ("hierarchy", "x.jsonl", json_type_mutations(sc, rng, 1)[0].encode())]
    for command, name, data in cases:
        path = tmp_path / name
        path.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            status = main([command, str(path), str(path), "--json"])
        out, err = capsys.readouterr()
        if status == 0:
            json.loads(out)
        else:
            assert status == 2 and out == ""
            errors = [l for l in err.splitlines() if not l.startswith("mrkit: warning: ")]
            assert len(errors) == 1 and errors[0].startswith(f"mrkit: {path}"), err
