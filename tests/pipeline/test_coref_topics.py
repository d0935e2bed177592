"""The within-document / cross-document breakdown of documents grouped into topics, on
hand-made topics worked out by hand (README "Cross-document coreference")."""

from __future__ import annotations

import json

import pytest

from conftest import run_mrkit
from mrkit.cli import main
from mrkit.codecs.conll import read_conll
from mrkit.metrics.coref.topics import topic_pairs
from mrkit.model.clusters import pair_documents, span
from mrkit.pipeline.coref import score_topic_breakdown


def _doc(name, corefs, n):
    lines = [f"#begin document {name}"]
    lines += [f"{name} 0 {i} w{i} {corefs.get(i, '-')}" for i in range(n)]
    return "\n".join(lines + ["#end document"]) + "\n"


# topic 1: 1_1ecb (6 tokens) and 1_2ecb (4 tokens); topic 2: 2_1ecb (3 tokens).  Entity 1
# of topic 1 has mentions in both documents; "1" in topic 2 is another entity.
KEY = (_doc("1_1ecb", {0: "(1)", 3: "(1)", 5: "(2)"}, 6) + _doc("1_2ecb", {1: "(1)", 2: "(3)"}, 4)
       + _doc("2_1ecb", {0: "(1)", 2: "(1)"}, 3))
# the response gets every document right alone, but joins 1_2ecb's mention 1 to the
# entity of 1_1ecb's token 5
RESPONSE = (_doc("1_1ecb", {0: "(7)", 3: "(7)", 5: "(8)"}, 6) + _doc("1_2ecb", {1: "(8)", 2: "(9)"}, 4)
            + _doc("2_1ecb", {0: "(1)", 2: "(1)"}, 3))


@pytest.fixture
def files(tmp_path):
    key, resp = tmp_path / "key.conll", tmp_path / "resp.conll"
    key.write_text(KEY)
    resp.write_text(RESPONSE)
    return str(key), str(resp)


def test_topics_are_merged_with_offsets(files):
    key, resp = files
    pairs = pair_documents(read_conll(key, tokens=True), read_conll(resp, tokens=True))
    merged = topic_pairs(pairs, r"^(\d+)_")
    assert [k.id for k, _ in merged] == ["1", "2"]
    k1, r1 = merged[0]
    # 1_2ecb moves by 6 tokens; entity 1 joins its mentions of both documents
    assert k1.clusters == [[span(0, 0), span(3, 3), span(7, 7)], [span(5, 5)], [span(8, 8)]]
    assert r1.clusters == [[span(0, 0), span(3, 3)], [span(5, 5), span(7, 7)], [span(8, 8)]]


def test_breakdown_by_hand(files):
    key, resp = files
    keys, resps = read_conll(key, tokens=True), read_conll(resp, tokens=True)
    cross, result = score_topic_breakdown(keys, resps, r"^(\d+)_")
    # cross-document MUC: key links 2 (topic 1) + 1 (topic 2); {0,3,7} is split in two by
    # the response: recall (1 + 1) / 3; response links {0,3}: 1, {5,7}: 0, topic 2: 1 -> 2 / 3
    assert cross.prf("muc")[:2] == pytest.approx((2 / 3, 2 / 3))
    # B-cubed recall: 2/3 + 2/3 + 1/3 + 1 + 1 (topic 1) + 2 (topic 2) over 7 mentions
    # precision: 1 + 1 + 1/2 + 1/2 + 1 + 2 over 7
    assert cross.prf("bcub")[:2] == pytest.approx((17 / 21, 6 / 7))
    within = result.detail["within_document"]
    assert all(within[m]["f1"] == 1.0 for m in ("muc", "bcub", "ceafe", "ceafm", "lea", "conll"))
    assert result.detail["topics"] == {"pattern": r"^(\d+)_", "topics": 2, "documents": 3}


def test_one_topic_is_the_corpus_level_score(files):
    key, resp = files
    keys, resps = read_conll(key, tokens=True), read_conll(resp, tokens=True)
    cross, _ = score_topic_breakdown(keys, resps, "^")
    # every document in one topic: "1" of topic 2 now joins entity 1 of topic 1 in both
    # key and response; key {0,3,7,10,12}: the response splits it into {0,3}, {10,12}
    # (and 7 elsewhere): 5 - 3 = 2 of 4 links, plus nothing from singletons
    assert len(cross.documents) == 1
    assert cross.counts("muc").r_num == 2 and cross.counts("muc").r_den == 4


def test_cli_topics(files, capsys):
    key, resp = files
    assert main(["coref", key, resp, "--topics", r"^(\d+)_", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["muc"]["recall"] == pytest.approx(2 / 3)
    assert out["within_document"]["muc"]["f1"] == 1.0
    assert main(["coref", key, resp, "--topics", r"^(\d+)_"]) == 0
    table = capsys.readouterr().out
    assert "3 documents in 2 topics" in table and "within-document" in table


def test_cli_topic_errors(files, tmp_path):
    key, resp = files
    r = run_mrkit("coref", key, resp, "--topics", r"^(\d+)x")
    assert r.returncode == 2 and "matches no topic" in r.stderr and "Traceback" not in r.stderr
    r = run_mrkit("coref", key, resp, "--topics", "(")
    assert r.returncode == 2 and "not a regular expression" in r.stderr
    jl = tmp_path / "r.jsonl"
    jl.write_text(json.dumps({"doc_key": "1_1ecb", "clusters": []}) + "\n")
    r = run_mrkit("coref", str(jl), str(jl), "--topics", "^")
    assert r.returncode == 2 and "column file" in r.stderr
